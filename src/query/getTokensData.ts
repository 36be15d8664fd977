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

export type GetTokensDataOptions = ExactPartial<GetTokensDataParameters>
export type GetTokensDataQueryFnData = GetTokensDataReturnType
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

export type GetTokensDataQueryKey = ReturnType<typeof getTokensDataQueryKey>
