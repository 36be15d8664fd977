import {
  type GetLegacyPathParameters,
  type GetLegacyPathReturnType,
  getLegacyPath,
} from '../core/actions/getLegacyPath.js'
import { createQueryFactory, type ExactPartial } from './createQueryFactory.js'
import { quoteDefaults } from './defaults.js'

const factory = /* @__PURE__ */ createQueryFactory(
  'legacyPath',
  getLegacyPath,
  {
    token0: true,
    token1: true,
    amountIn: true,
  },
  quoteDefaults,
)

/** The parameters of `getLegacyPathQueryOptions`: `getLegacyPath`'s, each optional (the query waits while a required one is missing). */
export type GetLegacyPathOptions = ExactPartial<GetLegacyPathParameters>
export type GetLegacyPathQueryFnData = GetLegacyPathReturnType
/** What the `/get_path` query holds: `getLegacyPath`'s answer (`select` may turn it into something else). */
export type GetLegacyPathData = GetLegacyPathQueryFnData

/**
 * Query options for `/get_path`: key, function, retry policy and cache times.
 * Disabled until every parameter is valid.
 *
 * @example
 * import { getLegacyPathQueryOptions } from 'token-swap-hooks/query'
 *
 * const path = await queryClient.fetchQuery(getLegacyPathQueryOptions(client, { token0, token1, amountIn }))
 */
export const getLegacyPathQueryOptions = factory.queryOptions

/**
 * The cache key: `['legacyPath', { baseUrl, token0, token1, amountIn }]`.
 *
 * @example
 * queryClient.invalidateQueries({ queryKey: getLegacyPathQueryKey({ baseUrl: client.baseUrl }) })
 */
export const getLegacyPathQueryKey = factory.queryKey

/** The key of a `/get_path` query, as `getLegacyPathQueryKey` builds it. */
export type GetLegacyPathQueryKey = ReturnType<typeof getLegacyPathQueryKey>
