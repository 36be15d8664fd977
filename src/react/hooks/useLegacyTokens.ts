import type { GetLegacyTokensErrorType } from '../../core/actions/getLegacyTokens.js'
import {
  type GetLegacyTokensData,
  type GetLegacyTokensOptions,
  type GetLegacyTokensQueryFnData,
  type GetLegacyTokensQueryKey,
  getLegacyTokensQueryOptions,
} from '../../query/getLegacyTokens.js'
import type { UseQueryParameters, UseQueryReturnType } from '../types.js'
import { useFactoryOptions } from '../utils/useFactoryOptions.js'
import { useSwapQuery } from '../utils/useSwapQuery.js'
import { useSwapContext } from './useSwapClient.js'

export type UseLegacyTokensParameters<selectData = GetLegacyTokensData> = GetLegacyTokensOptions & {
  /** TanStack Query options (`select`, `staleTime`, `enabled`…). */
  query?:
    | Partial<
        UseQueryParameters<
          GetLegacyTokensQueryFnData,
          GetLegacyTokensErrorType,
          selectData,
          GetLegacyTokensQueryKey
        >
      >
    | undefined
}

export type UseLegacyTokensReturnType<selectData = GetLegacyTokensData> = UseQueryReturnType<
  selectData,
  GetLegacyTokensErrorType,
  GetLegacyTokensQueryKey
>

/**
 * All tradable tokens from the legacy `/get_tokens` endpoint, cached for minutes.
 *
 * @example
 * const { data: tokens } = useLegacyTokens()
 */
export function useLegacyTokens<selectData = GetLegacyTokensData>(
  parameters: UseLegacyTokensParameters<selectData> = {},
): UseLegacyTokensReturnType<selectData> {
  const { query, ...rest } = parameters
  const { client } = useSwapContext('useLegacyTokens')
  return useSwapQuery(
    'useLegacyTokens',
    'legacyTokens',
    useFactoryOptions(client, rest, () => getLegacyTokensQueryOptions(client, rest)),
    query,
  )
}
