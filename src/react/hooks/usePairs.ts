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

/** The parameters of `usePairs`: `getPairs`'s, each optional (it waits quietly until the required ones are given), and TanStack Query options. */
export type UsePairsParameters<selectData = GetPairsData> = GetPairsOptions & {
  /** TanStack Query options (`select`, `staleTime`, `enabled`…). */
  query?:
    | Partial<UseQueryParameters<GetPairsQueryFnData, GetPairsErrorType, selectData, GetPairsQueryKey>>
    | undefined
}

/** What `usePairs` returns: TanStack Query's result, `data` being `getPairs`'s answer (or `select`'s). */
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
