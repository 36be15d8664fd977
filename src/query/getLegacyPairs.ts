import {
  type GetLegacyPairsParameters,
  type GetLegacyPairsReturnType,
  getLegacyPairs,
} from '../core/actions/getLegacyPairs.js'
import { createQueryFactory, type ExactPartial } from './createQueryFactory.js'
import { listDefaults } from './defaults.js'

const factory = /* @__PURE__ */ createQueryFactory<
  'legacyPairs',
  GetLegacyPairsParameters,
  GetLegacyPairsReturnType
>('legacyPairs', getLegacyPairs, {}, listDefaults)

/** The parameters of `getLegacyPairsQueryOptions`: `getLegacyPairs`'s, each optional (the query waits while a required one is missing). */
export type GetLegacyPairsOptions = ExactPartial<GetLegacyPairsParameters>
export type GetLegacyPairsQueryFnData = GetLegacyPairsReturnType
/** What the `/get_pairs` query holds: `getLegacyPairs`'s answer (`select` may turn it into something else). */
export type GetLegacyPairsData = GetLegacyPairsQueryFnData

/**
 * Query options for `/get_pairs`: key, function, retry policy and cache times.
 *
 * @example
 * import { getLegacyPairsQueryOptions } from 'token-swap-hooks/query'
 *
 * await queryClient.prefetchQuery(getLegacyPairsQueryOptions(client))
 */
export const getLegacyPairsQueryOptions = factory.queryOptions

/**
 * The cache key: `['legacyPairs', { baseUrl }]`.
 *
 * @example
 * queryClient.invalidateQueries({ queryKey: getLegacyPairsQueryKey({ baseUrl: client.baseUrl }) })
 */
export const getLegacyPairsQueryKey = factory.queryKey

/** The key of a `/get_pairs` query, as `getLegacyPairsQueryKey` builds it. */
export type GetLegacyPairsQueryKey = ReturnType<typeof getLegacyPairsQueryKey>
