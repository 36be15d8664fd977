'use client'

import type { GetTokensErrorType } from '../../core/actions/getTokens.js'
import {
  type GetTokensData,
  type GetTokensOptions,
  type GetTokensQueryFnData,
  type GetTokensQueryKey,
  getTokensQueryOptions,
} from '../../query/getTokens.js'
import type { UseQueryParameters, UseQueryReturnType } from '../types.js'
import { useSwapQuery } from './useSwapQuery.js'

/** The parameters of `useTokens`: `getTokens`'s, each optional (it waits quietly until the required ones are given), and TanStack Query options. */
export type UseTokensParameters<selectData = GetTokensData> = GetTokensOptions & {
  /** TanStack Query options (`select`, `staleTime`, `enabled`…). */
  query?:
    | Partial<UseQueryParameters<GetTokensQueryFnData, GetTokensErrorType, selectData, GetTokensQueryKey>>
    | undefined
}

/** What `useTokens` returns: TanStack Query's result, `data` being `getTokens`'s answer (or `select`'s). */
export type UseTokensReturnType<selectData = GetTokensData> = UseQueryReturnType<
  selectData,
  GetTokensErrorType,
  GetTokensQueryKey
>

/**
 * The available tokens, from `/overview/tokens`, cached for minutes. `filterByToken`
 * and `blacklist` are sent as the spec names them.
 *
 * @example
 * const { data: tokens } = useTokens({ query: { select: (tokens) => tokens.filter((t) => t.symbol.startsWith('U')) } })
 */
export function useTokens<selectData = GetTokensData>(
  parameters: UseTokensParameters<selectData> = {},
): UseTokensReturnType<selectData> {
  return useSwapQuery(getTokensQueryOptions, parameters)
}
