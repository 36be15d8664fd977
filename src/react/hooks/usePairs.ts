'use client'

import type { GetPairsErrorType } from '../../core/actions/getPairs.js'
import {
  type GetPairsData,
  type GetPairsOptions,
  type GetPairsQueryFnData,
  type GetPairsQueryKey,
  getPairsQueryOptions,
} from '../../query/getPairs.js'
import type { UseQueryParameters, UseQueryReturnType } from '../types.js'
import { useSwapQuery } from './useSwapQuery.js'

export type UsePairsParameters<selectData = GetPairsData> = GetPairsOptions & {
  /** TanStack Query options (`select`, `staleTime`, `enabled`…). */
  query?:
    | Partial<UseQueryParameters<GetPairsQueryFnData, GetPairsErrorType, selectData, GetPairsQueryKey>>
    | undefined
}

export type UsePairsReturnType<selectData = GetPairsData> = UseQueryReturnType<
  selectData,
  GetPairsErrorType,
  GetPairsQueryKey
>

/**
 * Liquidity pairs from `/overview/pairs`, narrowed by `filterByToken` (address or
 * symbol), `filterByPair` and `blacklist`; cached for minutes.
 *
 * @example
 * const { data: pairs } = usePairs({ filterByToken: ['USDC'] })
 */
export function usePairs<selectData = GetPairsData>(
  parameters: UsePairsParameters<selectData> = {},
): UsePairsReturnType<selectData> {
  return useSwapQuery(getPairsQueryOptions, parameters)
}
