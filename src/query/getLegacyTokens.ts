import {
  type GetLegacyTokensParameters,
  type GetLegacyTokensReturnType,
  getLegacyTokens,
} from '../core/actions/getLegacyTokens.js'
import { createQueryFactory, type ExactPartial } from './createQueryFactory.js'
import { listDefaults } from './defaults.js'

const factory = /* @__PURE__ */ createQueryFactory<
  'legacyTokens',
  GetLegacyTokensParameters,
  GetLegacyTokensReturnType
>('legacyTokens', getLegacyTokens, {}, listDefaults)

/** The parameters of `getLegacyTokensQueryOptions`: `getLegacyTokens`'s, each optional (the query waits while a required one is missing). */
export type GetLegacyTokensOptions = ExactPartial<GetLegacyTokensParameters>
export type GetLegacyTokensQueryFnData = GetLegacyTokensReturnType
/** What the `/get_tokens` query holds: `getLegacyTokens`'s answer (`select` may turn it into something else). */
export type GetLegacyTokensData = GetLegacyTokensQueryFnData

/**
 * Query options for `/get_tokens`: key, function, retry policy and cache times.
 *
 * @example
 * import { getLegacyTokensQueryOptions } from 'token-swap-hooks/query'
 *
 * await queryClient.prefetchQuery(getLegacyTokensQueryOptions(client))
 */
export const getLegacyTokensQueryOptions = factory.queryOptions

/**
 * The cache key: `['legacyTokens', { baseUrl }]`.
 *
 * @example
 * queryClient.invalidateQueries({ queryKey: getLegacyTokensQueryKey({ baseUrl: client.baseUrl }) })
 */
export const getLegacyTokensQueryKey = factory.queryKey

/** The key of a `/get_tokens` query, as `getLegacyTokensQueryKey` builds it. */
export type GetLegacyTokensQueryKey = ReturnType<typeof getLegacyTokensQueryKey>
