// token-swap-hooks/guard: the swap guard's deployment and verification (its creation bytecode
// lives here only), and what a Permit2-signed guarded swap needs.

export {
  DeterministicDeployerMismatchError,
  type DeterministicDeployerMismatchErrorType,
  SwapGuardCodeMismatchError,
  type SwapGuardCodeMismatchErrorType,
  SwapGuardNotDeployedError,
  type SwapGuardNotDeployedErrorType,
} from '../core/errors/guard.js'
export {
  type DeploySwapGuardParameters,
  type DeploySwapGuardReturnType,
  deploySwapGuard,
  type IsSwapGuardDeployedParameters,
  isSwapGuardDeployed,
} from '../core/execute/guard/deploySwapGuard.js'
export {
  type EncodeSwapWithPermit2Parameters,
  type EncodeSwapWithPermit2ReturnType,
  encodeSwapWithPermit2,
} from '../core/execute/guard/encodeSwapWithPermit2.js'
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
export { swapGuardInitCode, swapGuardSalt } from '../core/execute/guard/swapGuardInitCode.js'
export {
  type SwapPermitTypedDataParameters,
  type SwapPermitTypedDataReturnType,
  type SwapPermitWitness,
  swapPermitTypedData,
  swapPermitTypes,
  swapPermitWitnessTypeString,
} from '../core/execute/guard/swapPermitTypedData.js'
export {
  type SwapGuardStatus,
  swapGuardMissingCacheMs,
  type VerifySwapGuardErrorType,
  type VerifySwapGuardParameters,
  type VerifySwapGuardReturnType,
  verifySwapGuard,
} from '../core/execute/guard/verifySwapGuard.js'
