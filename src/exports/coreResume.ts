// token-swap-hooks/core/resume: the executions a reload interrupted, read from the chain and
// finished, without React. Kept out of token-swap-hooks/core/execute: a swap button that does not
// offer to resume does not ship it (executeSwap records its progress all the same).

export {
  SwapInProgressError,
  type SwapInProgressErrorType,
} from '../core/errors/execute.js'
export {
  type CheckPendingSwapReturnType,
  checkPendingSwap,
} from '../core/execute/checkPendingSwap.js'
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
  type ResumeSwapParameters,
  type ResumeSwapReturnType,
  resumeSwap,
} from '../core/execute/resumeSwap.js'
export type { PendingSwapStatus } from '../core/execute/rules/standing.js'
export {
  type SettlePendingSwapsParameters,
  type SettlePendingSwapsReturnType,
  settlePendingSwaps,
} from '../core/execute/settlePendingSwaps.js'
