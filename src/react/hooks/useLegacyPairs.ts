import type { GetLegacyPairsErrorType } from '../../core/actions/getLegacyPairs.js'
import {
  type GetLegacyPairsData,
  type GetLegacyPairsOptions,
  type GetLegacyPairsQueryFnData,
  type GetLegacyPairsQueryKey,
  getLegacyPairsQueryOptions,
} from '../../query/getLegacyPairs.js'
import type { UseQueryParameters, UseQueryReturnType } from '../types.js'
import { useFactoryOptions } from '../utils/useFactoryOptions.js'
import { useSwapQuery } from '../utils/useSwapQuery.js'
import { useSwapContext } from './useSwapClient.js'

export type UseLegacyPairsParameters<selectData = GetLegacyPairsData> = GetLegacyPairsOptions & {
  /** TanStack Query options (`select`, `staleTime`, `enabled`…). */
  query?:
    | Partial<
        UseQueryParameters<
          GetLegacyPairsQueryFnData,
          GetLegacyPairsErrorType,
          selectData,
          GetLegacyPairsQueryKey
        >
      >
    | undefined
}

export type UseLegacyPairsReturnType<selectData = GetLegacyPairsData> = UseQueryReturnType<
  selectData,
  GetLegacyPairsErrorType,
  GetLegacyPairsQueryKey
>

/**
 * All supported pairs from the legacy `/get_pairs` endpoint, cached for minutes.
 *
 * @example
 * const { data: pairs } = useLegacyPairs()
 */
export function useLegacyPairs<selectData = GetLegacyPairsData>(
  parameters: UseLegacyPairsParameters<selectData> = {},
): UseLegacyPairsReturnType<selectData> {
  const { query, ...rest } = parameters
  const { client } = useSwapContext('useLegacyPairs')
  return useSwapQuery(
    'useLegacyPairs',
    'legacyPairs',
    useFactoryOptions(client, rest, () => getLegacyPairsQueryOptions(client, rest)),
    query,
  )
}
