'use client'

import type { GetLegacyPairsErrorType } from '../../core/actions/getLegacyPairs.js'
import {
  type GetLegacyPairsData,
  type GetLegacyPairsOptions,
  type GetLegacyPairsQueryFnData,
  type GetLegacyPairsQueryKey,
  getLegacyPairsQueryOptions,
} from '../../query/getLegacyPairs.js'
import type { UseQueryParameters, UseQueryReturnType } from '../types.js'
import { useSwapQuery } from './useSwapQuery.js'

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
  return useSwapQuery(getLegacyPairsQueryOptions, parameters)
}
