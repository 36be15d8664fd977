'use client'

import type { GetSwapInfoErrorType } from '../../core/actions/getSwapInfo.js'
import {
  type GetSwapInfoData,
  type GetSwapInfoOptions,
  type GetSwapInfoQueryFnData,
  type GetSwapInfoQueryKey,
  getSwapInfoQueryOptions,
} from '../../query/getSwapInfo.js'
import type { UseQueryParameters } from '../types.js'
import { type UseQuoteReturnType, useSwapQuery } from './useSwapQuery.js'

/** The parameters of `useSwapInfo`: `getSwapInfo`'s, each optional (it waits quietly until the required ones are given), the amount's debounce and TanStack Query options. */
export type UseSwapInfoParameters<selectData = GetSwapInfoData> = GetSwapInfoOptions & {
  /** Milliseconds the amount must stay unchanged before a request; default 300, 0 turns it off. */
  debounceMs?: number | undefined
  /** TanStack Query options (`select`, `staleTime`, `refetchInterval`, `enabled`…). */
  query?:
    | Partial<
        UseQueryParameters<GetSwapInfoQueryFnData, GetSwapInfoErrorType, selectData, GetSwapInfoQueryKey>
      >
    | undefined
}

/** What `useSwapInfo` returns: TanStack Query's result (`data` is `getSwapInfo`'s answer, or `select`'s) and the quote's state (`quotedAt`, `isFresh`, `isDebouncing`). */
export type UseSwapInfoReturnType<selectData = GetSwapInfoData> = UseQuoteReturnType<
  selectData,
  GetSwapInfoErrorType,
  GetSwapInfoQueryKey
>

/**
 * Swap execution info from `/swap/info` (calldata, transfer and approval addresses,
 * estimates). Waits until token0, token1, amountIn and to are given (a malformed one is an
 * `InvalidParameterError`); debounced
 * and polled like `useSwapRoute`. `useExecuteSwap` fetches its own fresh copy
 * before signing: this hook is for display.
 *
 * @example
 * const { data: info } = useSwapInfo({ token0, token1, amountIn, to: address, slippage: 0.01 })
 * // info?.approvalAddress, info?.estimateAmount (bigint)
 */
export function useSwapInfo<selectData = GetSwapInfoData>(
  parameters: UseSwapInfoParameters<selectData> = {},
): UseSwapInfoReturnType<selectData> {
  return useSwapQuery(getSwapInfoQueryOptions, parameters, 'quote')
}
