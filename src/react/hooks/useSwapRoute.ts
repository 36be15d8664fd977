'use client'

import type { GetSwapRouteErrorType } from '../../core/actions/getSwapRoute.js'
import {
  type GetSwapRouteData,
  type GetSwapRouteOptions,
  type GetSwapRouteQueryFnData,
  type GetSwapRouteQueryKey,
  getSwapRouteQueryOptions,
} from '../../query/getSwapRoute.js'
import type { UseQueryParameters } from '../types.js'
import { type UseQuoteReturnType, useSwapQuery } from './useSwapQuery.js'

/** The parameters of `useSwapRoute`: `getSwapRoute`'s, each optional (it waits quietly until the required ones are given), the amount's debounce and TanStack Query options. */
export type UseSwapRouteParameters<selectData = GetSwapRouteData> = GetSwapRouteOptions & {
  /** Milliseconds the amount must stay unchanged before a request; default 300, 0 turns it off. */
  debounceMs?: number | undefined
  /** TanStack Query options (`select`, `staleTime`, `refetchInterval`, `enabled`…). */
  query?:
    | Partial<
        UseQueryParameters<GetSwapRouteQueryFnData, GetSwapRouteErrorType, selectData, GetSwapRouteQueryKey>
      >
    | undefined
}

/** What `useSwapRoute` returns: TanStack Query's result (`data` is `getSwapRoute`'s answer, or `select`'s) and the quote's state (`quotedAt`, `isFresh`, `isDebouncing`). */
export type UseSwapRouteReturnType<selectData = GetSwapRouteData> = UseQuoteReturnType<
  selectData,
  GetSwapRouteErrorType,
  GetSwapRouteQueryKey
>

/**
 * The best route and output for a swap, from `/swap/route`. Waits quietly (no request,
 * `fetchStatus: 'idle'`) until token0, token1 and amountIn are given; a malformed one is an
 * `InvalidParameterError` naming it, with no request. The
 * amount is debounced, the previous quote stays visible while the next loads
 * (`isPlaceholderData`), and the quote is polled every 15 s while visible.
 *
 * @example
 * const { data, error, isFresh, isPlaceholderData } = useSwapRoute({ token0, token1, amountIn })
 * // data?.amountOut is a bigint; error is NoRouteError when there is no path
 */
export function useSwapRoute<selectData = GetSwapRouteData>(
  parameters: UseSwapRouteParameters<selectData> = {},
): UseSwapRouteReturnType<selectData> {
  return useSwapQuery(getSwapRouteQueryOptions, parameters, 'quote')
}
