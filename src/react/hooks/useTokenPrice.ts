'use client'

import type { GetTokenPriceErrorType } from '../../core/actions/getTokenPrice.js'
import {
  type GetTokenPriceData,
  type GetTokenPriceOptions,
  type GetTokenPriceQueryFnData,
  type GetTokenPriceQueryKey,
  getTokenPriceQueryOptions,
} from '../../query/getTokenPrice.js'
import type { UseQueryParameters, UseQueryReturnType } from '../types.js'
import { useSwapQuery } from './useSwapQuery.js'

/** The parameters of `useTokenPrice`: `getTokenPrice`'s, each optional (it waits quietly until the required ones are given), and TanStack Query options. */
export type UseTokenPriceParameters<selectData = GetTokenPriceData> = GetTokenPriceOptions & {
  /** TanStack Query options (`select`, `staleTime`, `enabled`…). */
  query?:
    | Partial<
        UseQueryParameters<
          GetTokenPriceQueryFnData,
          GetTokenPriceErrorType,
          selectData,
          GetTokenPriceQueryKey
        >
      >
    | undefined
}

/** What `useTokenPrice` returns: TanStack Query's result, `data` being `getTokenPrice`'s answer (or `select`'s). */
export type UseTokenPriceReturnType<selectData = GetTokenPriceData> = UseQueryReturnType<
  selectData,
  GetTokenPriceErrorType,
  GetTokenPriceQueryKey
>

/**
 * The USD price of a token from `/overview/token/price`. Waits quietly while
 * `address` is missing; a malformed one is an `InvalidParameterError` naming
 * `address`, and nothing is sent.
 *
 * @example
 * const { data: usd } = useTokenPrice({ address: token0 })
 * // usd is a number (USD), fresh for 30 s
 */
export function useTokenPrice<selectData = GetTokenPriceData>(
  parameters: UseTokenPriceParameters<selectData> = {},
): UseTokenPriceReturnType<selectData> {
  return useSwapQuery(getTokenPriceQueryOptions, parameters)
}
