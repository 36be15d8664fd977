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

export type GetLegacyPairsOptions = ExactPartial<GetLegacyPairsParameters>
export type GetLegacyPairsQueryFnData = GetLegacyPairsReturnType
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

export type GetLegacyPairsQueryKey = ReturnType<typeof getLegacyPairsQueryKey>
