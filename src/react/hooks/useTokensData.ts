'use client'

import type { GetTokensDataErrorType } from '../../core/actions/getTokensData.js'
import {
  type GetTokensDataData,
  type GetTokensDataOptions,
  type GetTokensDataQueryFnData,
  type GetTokensDataQueryKey,
  getTokensDataQueryOptions,
} from '../../query/getTokensData.js'
import type { UseQueryParameters, UseQueryReturnType } from '../types.js'
import { useSwapQuery } from './useSwapQuery.js'

/** The parameters of `useTokensData`: `getTokensData`'s, each optional (it waits quietly until the required ones are given), and TanStack Query options. */
export type UseTokensDataParameters<selectData = GetTokensDataData> = GetTokensDataOptions & {
  /** TanStack Query options (`select`, `staleTime`, `enabled`…). */
  query?:
    | Partial<
        UseQueryParameters<
          GetTokensDataQueryFnData,
          GetTokensDataErrorType,
          selectData,
          GetTokensDataQueryKey
        >
      >
    | undefined
}

/** What `useTokensData` returns: TanStack Query's result, `data` being `getTokensData`'s answer (or `select`'s). */
export type UseTokensDataReturnType<selectData = GetTokensDataData> = UseQueryReturnType<
  selectData,
  GetTokensDataErrorType,
  GetTokensDataQueryKey
>

/**
 * Detailed data per token from the legacy `/get_tokens_data` endpoint, cached for minutes.
 *
 * @example
 * const { data } = useTokensData()
 * // one record per token: liquidity, volume and token economics, as the service names them
 */
export function useTokensData<selectData = GetTokensDataData>(
  parameters: UseTokensDataParameters<selectData> = {},
): UseTokensDataReturnType<selectData> {
  return useSwapQuery(getTokensDataQueryOptions, parameters)
}
