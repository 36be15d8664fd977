import { type GetPairsParameters, type GetPairsReturnType, getPairs } from '../core/actions/getPairs.js'
import { createQueryFactory, type ExactPartial } from './createQueryFactory.js'
import { listDefaults } from './defaults.js'

const factory = /* @__PURE__ */ createQueryFactory<'pairs', GetPairsParameters, GetPairsReturnType>(
  'pairs',
  getPairs,
  {},
  listDefaults,
)

/** The parameters of `getPairsQueryOptions`: `getPairs`'s, each optional (the query waits while a required one is missing). */
export type GetPairsOptions = ExactPartial<GetPairsParameters>
export type GetPairsQueryFnData = GetPairsReturnType
/** What the `/overview/pairs` query holds: `getPairs`'s answer (`select` may turn it into something else). */
export type GetPairsData = GetPairsQueryFnData

/**
 * Query options for `/overview/pairs`: key, function, retry policy and cache times.
 *
 * @example
 * import { getPairsQueryOptions } from 'token-swap-hooks/query'
 *
 * await queryClient.prefetchQuery(getPairsQueryOptions(client, { filterByToken: ['USDC'] }))
 */
export const getPairsQueryOptions = factory.queryOptions

/**
 * The cache key: `['pairs', { baseUrl, filterByToken, filterByPair, blacklist }]`.
 *
 * @example
 * queryClient.invalidateQueries({ queryKey: getPairsQueryKey({ baseUrl: client.baseUrl }) })
 */
export const getPairsQueryKey = factory.queryKey

/** The key of a `/overview/pairs` query, as `getPairsQueryKey` builds it. */
export type GetPairsQueryKey = ReturnType<typeof getPairsQueryKey>
