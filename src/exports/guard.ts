// token-swap-hooks/guard: the swap guard's deployment (its creation bytecode lives here only).

export {
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
  deterministicDeployerAddress,
  swapGuardAbi,
  swapGuardAddress,
  swapGuardExecutorAddress,
} from '../core/execute/guard/swapGuard.js'
export { swapGuardInitCode, swapGuardSalt } from '../core/execute/guard/swapGuardInitCode.js'
