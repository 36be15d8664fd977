// token-swap-hooks/resume: usePendingSwaps, the React side of resuming what a reload interrupted,
// and everything token-swap-hooks/core/resume has.

export {
  getPendingSwapsQueryKey,
  type PendingSwapsQueryKey,
  type PendingSwapsQueryParameters,
  pendingSwapsQueryName,
  pendingSwapsQueryOptions,
  type ResumeSwapVariables,
  resumeSwapMutationOptions,
} from '../query/pendingSwaps.js'
export {
  type ResumeConfirmation,
  type UsePendingSwapsParameters,
  type UsePendingSwapsReturnType,
  usePendingSwaps,
} from '../react/hooks/usePendingSwaps.js'
export * from './coreResume.js'
