import {
  assertTokenPriceParameters,
  type GetTokenPriceParameters,
  type GetTokenPriceReturnType,
  getTokenPrice,
} from '../core/actions/getTokenPrice.js'
import { createQueryFactory, type ExactPartial } from './createQueryFactory.js'

const factory = /* @__PURE__ */ createQueryFactory({
  name: 'tokenPrice',
  fields: ['address'],
  action: getTokenPrice,
  assert: assertTokenPriceParameters,
})

export type GetTokenPriceOptions = ExactPartial<GetTokenPriceParameters>
export type GetTokenPriceQueryFnData = GetTokenPriceReturnType
export type GetTokenPriceData = GetTokenPriceQueryFnData

/**
 * Query options for `/overview/token/price`: key, function, retry policy and cache times.
 * Disabled until `address` is valid.
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

export type GetTokenPriceQueryKey = ReturnType<typeof getTokenPriceQueryKey>
