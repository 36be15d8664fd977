// token-swap-hooks/execute: the React hooks that execute a swap, and everything they throw or return.

export {
  type ExecuteSwapDefaults,
  type ExecuteSwapMutationOptions,
  type ExecuteSwapVariables,
  executeSwapMutationOptions,
} from '../query/executeSwap.js'
export {
  type RefreshAfterSwapParameters,
  type RefreshableQueryClient,
  refreshAfterSwap,
} from '../query/refreshAfterSwap.js'
export {
  type UseExecuteSwapParameters,
  type UseExecuteSwapReturnType,
  useExecuteSwap,
} from '../react/hooks/useExecuteSwap.js'
export {
  type UseSwapPreviewErrorType,
  type UseSwapPreviewParameters,
  type UseSwapPreviewReturnType,
  useSwapPreview,
} from '../react/hooks/useSwapPreview.js'
export * from './coreExecute.js'
