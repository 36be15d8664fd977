export type { ExactPartial, KeyValue, QueryKeyOf, SwapQueryOptions } from '../query/createQueryFactory.js'
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
  type GetLegacyPairsQueryFnData,
  type GetLegacyPairsQueryKey,
  getLegacyPairsQueryKey,
  getLegacyPairsQueryOptions,
} from '../query/getLegacyPairs.js'
export {
  type GetLegacyPathData,
  type GetLegacyPathOptions,
  type GetLegacyPathQueryFnData,
  type GetLegacyPathQueryKey,
  getLegacyPathQueryKey,
  getLegacyPathQueryOptions,
} from '../query/getLegacyPath.js'
export {
  type GetLegacyTokensData,
  type GetLegacyTokensOptions,
  type GetLegacyTokensQueryFnData,
  type GetLegacyTokensQueryKey,
  getLegacyTokensQueryKey,
  getLegacyTokensQueryOptions,
} from '../query/getLegacyTokens.js'
export {
  type GetPairsData,
  type GetPairsOptions,
  type GetPairsQueryFnData,
  type GetPairsQueryKey,
  getPairsQueryKey,
  getPairsQueryOptions,
} from '../query/getPairs.js'
export {
  type GetSwapInfoData,
  type GetSwapInfoOptions,
  type GetSwapInfoQueryFnData,
  type GetSwapInfoQueryKey,
  getSwapInfoQueryKey,
  getSwapInfoQueryOptions,
} from '../query/getSwapInfo.js'
export {
  type GetSwapRouteData,
  type GetSwapRouteOptions,
  type GetSwapRouteQueryFnData,
  type GetSwapRouteQueryKey,
  getSwapRouteQueryKey,
  getSwapRouteQueryOptions,
} from '../query/getSwapRoute.js'
export {
  type GetTokenPriceData,
  type GetTokenPriceOptions,
  type GetTokenPriceQueryFnData,
  type GetTokenPriceQueryKey,
  getTokenPriceQueryKey,
  getTokenPriceQueryOptions,
} from '../query/getTokenPrice.js'
export {
  type GetTokensData,
  type GetTokensOptions,
  type GetTokensQueryFnData,
  type GetTokensQueryKey,
  getTokensQueryKey,
  getTokensQueryOptions,
} from '../query/getTokens.js'
export {
  type GetTokensDataData,
  type GetTokensDataOptions,
  type GetTokensDataQueryFnData,
  type GetTokensDataQueryKey,
  getTokensDataQueryKey,
  getTokensDataQueryOptions,
} from '../query/getTokensData.js'
export {
  type RefreshAfterSwapParameters,
  type RefreshableQueryClient,
  refreshAfterSwap,
} from '../query/refreshAfterSwap.js'
export {
  deserializeBigInts,
  type SerializedBigInts,
  serializeBigInts,
  withRateLimitPause,
} from '../query/utils.js'
