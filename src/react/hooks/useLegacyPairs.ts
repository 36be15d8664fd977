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

/** The parameters of `useLegacyPairs`: `getLegacyPairs`'s, each optional (it waits quietly until the required ones are given), and TanStack Query options. */
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

/** What `useLegacyPairs` returns: TanStack Query's result, `data` being `getLegacyPairs`'s answer (or `select`'s). */
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
