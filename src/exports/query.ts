// token-swap-hooks/query: every TanStack Query factory the hooks use (queryOptions,
// mutationOptions) and every key, for queryClient.fetchQuery, prefetching, server rendering and
// your own useQuery; refreshAfterSwap; the bigint-safe (de)serialization for dehydrated state.
// Framework-free: @tanstack/query-core types only, never React.

export { type QueryResource, queryDefaults } from '../query/defaults.js'
export {
  type ExecuteSwapDefaults,
  type ExecuteSwapMutationOptions,
  type ExecuteSwapVariables,
  executeSwapMutationOptions,
} from '../query/executeSwap.js'
export {
  type GetLegacyPairsData,
  type GetLegacyPairsOptions,
  type GetLegacyPairsQueryKey,
  getLegacyPairsQueryKey,
  getLegacyPairsQueryOptions,
} from '../query/getLegacyPairs.js'
export {
  type GetLegacyPathData,
  type GetLegacyPathOptions,
  type GetLegacyPathQueryKey,
  getLegacyPathQueryKey,
  getLegacyPathQueryOptions,
} from '../query/getLegacyPath.js'
export {
  type GetLegacyTokensData,
  type GetLegacyTokensOptions,
  type GetLegacyTokensQueryKey,
  getLegacyTokensQueryKey,
  getLegacyTokensQueryOptions,
} from '../query/getLegacyTokens.js'
export {
  defaultBlockTimeMs,
  type GetMaxAmountOptions,
  type GetMaxAmountQueryKey,
  getMaxAmountQueryKey,
  getMaxAmountQueryOptions,
  maxAmountQueryName,
} from '../query/getMaxAmount.js'
export {
  type GetPairsData,
  type GetPairsOptions,
  type GetPairsQueryKey,
  getPairsQueryKey,
  getPairsQueryOptions,
} from '../query/getPairs.js'
export {
  type GetSwapInfoData,
  type GetSwapInfoOptions,
  type GetSwapInfoQueryKey,
  getSwapInfoQueryKey,
  getSwapInfoQueryOptions,
} from '../query/getSwapInfo.js'
export {
  type GetSwapRouteData,
  type GetSwapRouteOptions,
  type GetSwapRouteQueryKey,
  getSwapRouteQueryKey,
  getSwapRouteQueryOptions,
} from '../query/getSwapRoute.js'
export {
  type GetSwapRouteForOutputData,
  type GetSwapRouteForOutputOptions,
  type GetSwapRouteForOutputQueryKey,
  getSwapRouteForOutputQueryKey,
  getSwapRouteForOutputQueryOptions,
  swapRouteForOutputQueryName,
} from '../query/getSwapRouteForOutput.js'
export {
  type GetTokenOptions,
  type GetTokenQueryKey,
  getTokenQueryKey,
  getTokenQueryOptions,
  tokenQueryName,
} from '../query/getToken.js'
export {
  type GetTokenBalancesData,
  type GetTokenBalancesOptions,
  type GetTokenBalancesQueryKey,
  getTokenBalancesQueryKey,
  getTokenBalancesQueryOptions,
  tokenBalancesQueryName,
} from '../query/getTokenBalances.js'
export {
  type GetTokenPriceData,
  type GetTokenPriceOptions,
  type GetTokenPriceQueryKey,
  getTokenPriceQueryKey,
  getTokenPriceQueryOptions,
} from '../query/getTokenPrice.js'
export {
  type GetTokensData,
  type GetTokensOptions,
  type GetTokensQueryKey,
  getTokensQueryKey,
  getTokensQueryOptions,
} from '../query/getTokens.js'
export {
  type GetTokensDataData,
  type GetTokensDataOptions,
  type GetTokensDataQueryKey,
  getTokensDataQueryKey,
  getTokensDataQueryOptions,
} from '../query/getTokensData.js'
export {
  getPendingSwapsQueryKey,
  type PendingSwapsQueryKey,
  type PendingSwapsQueryParameters,
  type PendingSwapsRecheck,
  pendingSwapsQueryName,
  pendingSwapsQueryOptions,
  pendingSwapsRecheckDelay,
  type ResumeSwapVariables,
  resumeSwapMutationOptions,
} from '../query/pendingSwaps.js'
export { type RefreshAfterSwapParameters, refreshAfterSwap } from '../query/refreshAfterSwap.js'
export {
  deserializeBigInts,
  type SerializedBigInts,
  serializeBigInts,
  withRateLimitPause,
} from '../query/utils.js'
