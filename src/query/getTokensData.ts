import {
  type GetTokensDataParameters,
  type GetTokensDataReturnType,
  getTokensData,
} from '../core/actions/getTokensData.js'
import { createQueryFactory, type ExactPartial } from './createQueryFactory.js'
import { listDefaults } from './defaults.js'

const factory = /* @__PURE__ */ createQueryFactory<
  'tokensData',
  GetTokensDataParameters,
  GetTokensDataReturnType
>('tokensData', getTokensData, {}, listDefaults)

/** The parameters of `getTokensDataQueryOptions`: `getTokensData`'s, each optional (the query waits while a required one is missing). */
export type GetTokensDataOptions = ExactPartial<GetTokensDataParameters>
export type GetTokensDataQueryFnData = GetTokensDataReturnType
/** What the `/get_tokens_data` query holds: `getTokensData`'s answer (`select` may turn it into something else). */
export type GetTokensDataData = GetTokensDataQueryFnData

/**
 * Query options for `/get_tokens_data`: key, function, retry policy and cache times.
 *
 * @example
 * import { getTokensDataQueryOptions } from 'token-swap-hooks/query'
 *
 * await queryClient.prefetchQuery(getTokensDataQueryOptions(client))
 */
export const getTokensDataQueryOptions = factory.queryOptions

/**
 * The cache key: `['tokensData', { baseUrl }]`.
 *
 * @example
 * queryClient.invalidateQueries({ queryKey: getTokensDataQueryKey({ baseUrl: client.baseUrl }) })
 */
export const getTokensDataQueryKey = factory.queryKey

/** The key of a `/get_tokens_data` query, as `getTokensDataQueryKey` builds it. */
export type GetTokensDataQueryKey = ReturnType<typeof getTokensDataQueryKey>
