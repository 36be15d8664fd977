import {
  type GetSwapRouteParameters,
  type GetSwapRouteReturnType,
  getSwapRoute,
} from '../core/actions/getSwapRoute.js'
import { createQueryFactory, type ExactPartial } from './createQueryFactory.js'
import { quoteDefaults } from './defaults.js'

const factory = /* @__PURE__ */ createQueryFactory(
  'swapRoute',
  getSwapRoute,
  {
    token0: true,
    token1: true,
    amountIn: true,
  },
  quoteDefaults,
)

/** The parameters of `getSwapRouteQueryOptions`: `getSwapRoute`'s, each optional (the query waits while a required one is missing). */
export type GetSwapRouteOptions = ExactPartial<GetSwapRouteParameters>
export type GetSwapRouteQueryFnData = GetSwapRouteReturnType
/** What the `/swap/route` query holds: `getSwapRoute`'s answer (`select` may turn it into something else). */
export type GetSwapRouteData = GetSwapRouteQueryFnData

/**
 * Query options for `/swap/route`: key, function, retry policy and cache times.
 * Waits (`enabled: false`) while a required parameter is missing; a malformed one is an `InvalidParameterError`, before any request.
 *
 * @example
 * import { getSwapRouteQueryOptions } from 'token-swap-hooks/query'
 *
 * const route = await queryClient.fetchQuery(
 *   getSwapRouteQueryOptions(client, { token0, token1, amountIn: 10n ** 18n }),
 * )
 */
export const getSwapRouteQueryOptions = factory.queryOptions

/**
 * The cache key of a route: `['swapRoute', { baseUrl, token0, token1, amountIn }]`.
 *
 * @example
 * queryClient.invalidateQueries({
 *   queryKey: getSwapRouteQueryKey({ baseUrl: client.baseUrl, token0, token1, amountIn }),
 * })
 */
export const getSwapRouteQueryKey = factory.queryKey

/** The key of a `/swap/route` query, as `getSwapRouteQueryKey` builds it. */
export type GetSwapRouteQueryKey = ReturnType<typeof getSwapRouteQueryKey>
