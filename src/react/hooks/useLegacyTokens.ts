'use client'

import type { GetLegacyTokensErrorType } from '../../core/actions/getLegacyTokens.js'
import {
  type GetLegacyTokensData,
  type GetLegacyTokensOptions,
  type GetLegacyTokensQueryFnData,
  type GetLegacyTokensQueryKey,
  getLegacyTokensQueryOptions,
} from '../../query/getLegacyTokens.js'
import type { UseQueryParameters, UseQueryReturnType } from '../types.js'
import { useSwapQuery } from './useSwapQuery.js'

/** The parameters of `useLegacyTokens`: `getLegacyTokens`'s, each optional (it waits quietly until the required ones are given), and TanStack Query options. */
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

/** What `useLegacyTokens` returns: TanStack Query's result, `data` being `getLegacyTokens`'s answer (or `select`'s). */
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
  return useSwapQuery(getLegacyTokensQueryOptions, parameters)
}
