// token-swap-hooks/core/execute: executing a swap without React (viem only).

export {
  BatchFailedError,
  type BatchFailedErrorType,
  BatchUnsupportedError,
  type BatchUnsupportedErrorType,
  ChainMismatchError,
  type ChainMismatchErrorType,
  ExecuteSwapError,
  type ExecuteSwapStage,
  InsufficientAllowanceError,
  type InsufficientAllowanceErrorType,
  type LeftoverAllowance,
  OutcomeUnknownError,
  type OutcomeUnknownErrorType,
  QuoteBelowMinimumError,
  type QuoteBelowMinimumErrorType,
  QuoteChangedError,
  type QuoteChangedErrorType,
  SimulationUnavailableError,
  type SimulationUnavailableErrorType,
  SwapInProgressError,
  type SwapInProgressErrorType,
  type SwapOutcome,
  type SwapOutcomeViolation,
  SwapSimulationError,
  type SwapSimulationErrorType,
  TransactionNotSeenError,
  type TransactionNotSeenErrorType,
  TransactionReplacedError,
  type TransactionReplacedErrorType,
  TransactionRevertedError,
  type TransactionRevertedErrorType,
  UnsafeSwapDataError,
  type UnsafeSwapDataErrorType,
  UnsafeSwapOutcomeError,
  type UnsafeSwapOutcomeErrorType,
  UntrustedAddressError,
  type UntrustedAddressErrorType,
  UserRejectedError,
  type UserRejectedErrorType,
  WalletError,
  type WalletErrorType,
} from '../core/errors/execute.js'
export {
  PermitRefusedError,
  type PermitRefusedErrorType,
  SwapGuardCodeMismatchError,
  type SwapGuardCodeMismatchErrorType,
  SwapGuardIncompatibleError,
  type SwapGuardIncompatibleErrorType,
  SwapGuardNotDeployedError,
  type SwapGuardNotDeployedErrorType,
} from '../core/errors/guard.js'
export {
  type ExecuteSwapAction,
  type ExecuteSwapErrorType,
  type ExecuteSwapParameters,
  type ExecuteSwapReturnType,
  type ExecuteSwapStatus,
  type ExecuteSwapStep,
  executeSwap,
  type SwapEvent,
  type TrustedAddresses,
} from '../core/execute/executeSwap.js'
export {
  defaultPriceImpactThresholds,
  type GetSwapPreviewParameters,
  getSwapPreview,
  type PriceImpactThresholds,
  type SwapPreview,
  type SwapPreviewStep,
} from '../core/execute/getSwapPreview.js'
export {
  type EncodeSwapWithPermit2Parameters,
  type EncodeSwapWithPermit2ReturnType,
  encodeSwapWithPermit2,
} from '../core/execute/guard/encodeSwapWithPermit2.js'
export {
  deterministicDeployerAddress,
  permit2Address,
  swapGuardAbi,
  swapGuardAddress,
  swapGuardCodeHash,
  swapGuardExecutorAddress,
  swapGuardExecutorCodeHash,
} from '../core/execute/guard/swapGuard.js'
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
export type { JournalEntry, JournalEvent } from '../core/execute/records/journal.js'
export {
  createMemoryStorage,
  type GetPendingSwapsParameters,
  getDefaultStorage,
  getPendingSwaps,
  type PendingSwap,
  removePendingSwap,
  type SwapStorage,
} from '../core/execute/records/pendingSwaps.js'
export {
  type RevokeAllowanceParameters,
  type RevokeAllowanceReturnType,
  revokeAllowance,
} from '../core/execute/revokeAllowance.js'
export type { FloorEnforcement } from '../core/execute/rules/planSwap.js'
export { supportsAtomicBatch } from '../core/execute/run/batch.js'
export type { ExecutionClients } from '../core/execute/run/chain.js'
export {
  type CheckSwapOutcomeParameters,
  type CheckSwapOutcomeReturnType,
  checkSwapOutcome,
  type SwapCall,
} from '../core/execute/run/checkSwapOutcome.js'
