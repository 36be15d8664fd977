import { type GetTokensParameters, type GetTokensReturnType, getTokens } from '../core/actions/getTokens.js'
import { createQueryFactory, type ExactPartial } from './createQueryFactory.js'
import { listDefaults } from './defaults.js'

const factory = /* @__PURE__ */ createQueryFactory<'tokens', GetTokensParameters, GetTokensReturnType>(
  'tokens',
  getTokens,
  {},
  listDefaults,
)

/** The parameters of `getTokensQueryOptions`: `getTokens`'s, each optional (the query waits while a required one is missing). */
export type GetTokensOptions = ExactPartial<GetTokensParameters>
export type GetTokensQueryFnData = GetTokensReturnType
/** What the `/overview/tokens` query holds: `getTokens`'s answer (`select` may turn it into something else). */
export type GetTokensData = GetTokensQueryFnData

/**
 * Query options for `/overview/tokens`: key, function, retry policy and cache times.
 *
 * @example
 * import { getTokensQueryOptions } from 'token-swap-hooks/query'
 *
 * await queryClient.prefetchQuery(getTokensQueryOptions(client))
 */
export const getTokensQueryOptions = factory.queryOptions

/**
 * The cache key: `['tokens', { baseUrl, filterByToken, blacklist }]`.
 *
 * @example
 * queryClient.invalidateQueries({ queryKey: getTokensQueryKey({ baseUrl: client.baseUrl }) })
 */
export const getTokensQueryKey = factory.queryKey

/** The key of a `/overview/tokens` query, as `getTokensQueryKey` builds it. */
export type GetTokensQueryKey = ReturnType<typeof getTokensQueryKey>
