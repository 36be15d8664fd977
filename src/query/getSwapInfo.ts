import {
  type GetSwapInfoParameters,
  type GetSwapInfoReturnType,
  getSwapInfo,
} from '../core/actions/getSwapInfo.js'
import { createQueryFactory, type ExactPartial } from './createQueryFactory.js'
import { quoteDefaults } from './defaults.js'

const factory = /* @__PURE__ */ createQueryFactory(
  'swapInfo',
  getSwapInfo,
  {
    token0: true,
    token1: true,
    amountIn: true,
    to: true,
  },
  quoteDefaults,
)

/** The parameters of `getSwapInfoQueryOptions`: `getSwapInfo`'s, each optional (the query waits while a required one is missing). */
export type GetSwapInfoOptions = ExactPartial<GetSwapInfoParameters>
export type GetSwapInfoQueryFnData = GetSwapInfoReturnType
/** What the `/swap/info` query holds: `getSwapInfo`'s answer (`select` may turn it into something else). */
export type GetSwapInfoData = GetSwapInfoQueryFnData

/**
 * Query options for `/swap/info`: key, function, retry policy and cache times.
 * Waits while a required parameter is missing; a malformed one is an `InvalidParameterError`, before any request.
 *
 * @example
 * import { getSwapInfoQueryOptions } from 'token-swap-hooks/query'
 *
 * const info = await queryClient.fetchQuery(getSwapInfoQueryOptions(client, { token0, token1, amountIn, to }))
 */
export const getSwapInfoQueryOptions = factory.queryOptions

/**
 * The cache key: `['swapInfo', { baseUrl, token0, token1, amountIn, to, slippage, deadline }]`.
 *
 * @example
 * queryClient.invalidateQueries({ queryKey: getSwapInfoQueryKey({ baseUrl: client.baseUrl }) })
 */
export const getSwapInfoQueryKey = factory.queryKey

/** The key of a `/swap/info` query, as `getSwapInfoQueryKey` builds it. */
export type GetSwapInfoQueryKey = ReturnType<typeof getSwapInfoQueryKey>
