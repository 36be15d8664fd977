// token-swap-hooks/exact-output: "I want to receive X" on the service's exact-input routes.

export {
  defaultExactOutputTolerance,
  defaultMaxProbes,
  type GetSwapRouteForOutputErrorType,
  type GetSwapRouteForOutputParameters,
  type GetSwapRouteForOutputReturnType,
  getSwapRouteForOutput,
  type PerToken,
} from '../core/actions/getSwapRouteForOutput.js'
export {
  ExactOutputNotReachedError,
  type ExactOutputNotReachedErrorType,
} from '../core/errors/exactOutput.js'
export {
  type GetSwapRouteForOutputData,
  type GetSwapRouteForOutputOptions,
  type GetSwapRouteForOutputQueryFnData,
  type GetSwapRouteForOutputQueryKey,
  type GetSwapRouteForOutputQueryOptionsConfig,
  getSwapRouteForOutputQueryKey,
  getSwapRouteForOutputQueryOptions,
  swapRouteForOutputQueryName,
} from '../query/getSwapRouteForOutput.js'
export {
  type UseSwapRouteForOutputParameters,
  type UseSwapRouteForOutputReturnType,
  useSwapRouteForOutput,
} from '../react/hooks/useSwapRouteForOutput.js'
