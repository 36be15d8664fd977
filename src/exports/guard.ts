// token-swap-hooks/guard: the swap guard's deployment (its creation bytecode lives here only).
// Verifying it and signing a Permit2 swap through it are the executor's: token-swap-hooks/core/execute.

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
  permit2Address,
  swapGuardAbi,
  swapGuardAddress,
  swapGuardCodeHash,
  swapGuardExecutorAddress,
  swapGuardExecutorCodeHash,
} from '../core/execute/guard/swapGuard.js'
export {
  type DeploySwapGuardParameters,
  type DeploySwapGuardReturnType,
  deploySwapGuard,
  type IsSwapGuardDeployedParameters,
  isSwapGuardDeployed,
} from '../guard/deploySwapGuard.js'
export { swapGuardInitCode, swapGuardSalt } from '../guard/swapGuardInitCode.js'
