import {
  type GetTokenPriceParameters,
  type GetTokenPriceReturnType,
  getTokenPrice,
} from '../core/actions/getTokenPrice.js'
import { createQueryFactory, type ExactPartial } from './createQueryFactory.js'
import { priceDefaults } from './defaults.js'

const factory = /* @__PURE__ */ createQueryFactory(
  'tokenPrice',
  getTokenPrice,
  { address: true },
  priceDefaults,
)

/** The parameters of `getTokenPriceQueryOptions`: `getTokenPrice`'s, each optional (the query waits while a required one is missing). */
export type GetTokenPriceOptions = ExactPartial<GetTokenPriceParameters>
export type GetTokenPriceQueryFnData = GetTokenPriceReturnType
/** What the `/overview/token/price` query holds: `getTokenPrice`'s answer (`select` may turn it into something else). */
export type GetTokenPriceData = GetTokenPriceQueryFnData

/**
 * Query options for `/overview/token/price`: key, function, retry policy and cache times.
 * Waits while `address` is missing; a malformed one is an `InvalidParameterError`, before any request.
 *
 * @example
 * import { getTokenPriceQueryOptions } from 'token-swap-hooks/query'
 *
 * const usd = await queryClient.fetchQuery(getTokenPriceQueryOptions(client, { address }))
 */
export const getTokenPriceQueryOptions = factory.queryOptions

/**
 * The cache key: `['tokenPrice', { baseUrl, address }]`.
 *
 * @example
 * queryClient.invalidateQueries({ queryKey: getTokenPriceQueryKey({ baseUrl: client.baseUrl }) })
 */
export const getTokenPriceQueryKey = factory.queryKey

/** The key of a `/overview/token/price` query, as `getTokenPriceQueryKey` builds it. */
export type GetTokenPriceQueryKey = ReturnType<typeof getTokenPriceQueryKey>
