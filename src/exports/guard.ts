// token-swap-hooks/guard: deploying the swap guard where nobody has yet (its creation bytecode
// lives here only). What the executor checks and signs of it (its address, ABI, code hashes,
// verifySwapGuard, the Permit2 typed data) is in token-swap-hooks/core.

export {
  DeterministicDeployerMismatchError,
  type DeterministicDeployerMismatchErrorType,
  SwapGuardCodeMismatchError,
  type SwapGuardCodeMismatchErrorType,
  SwapGuardNotDeployedError,
  type SwapGuardNotDeployedErrorType,
} from '../core/errors/guard.js'
export {
  deterministicDeployerAddress,
  deterministicDeployerCodeHash,
} from '../core/execute/guard/swapGuard.js'
export {
  type DeploySwapGuardParameters,
  type DeploySwapGuardReturnType,
  deploySwapGuard,
  type IsSwapGuardDeployedParameters,
  isSwapGuardDeployed,
} from '../guard/deploySwapGuard.js'
export { swapGuardInitCode, swapGuardSalt } from '../guard/swapGuardInitCode.js'
