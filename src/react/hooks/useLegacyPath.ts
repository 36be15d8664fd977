'use client'

import type { GetLegacyPathErrorType } from '../../core/actions/getLegacyPath.js'
import {
  type GetLegacyPathData,
  type GetLegacyPathOptions,
  type GetLegacyPathQueryFnData,
  type GetLegacyPathQueryKey,
  getLegacyPathQueryOptions,
} from '../../query/getLegacyPath.js'
import type { UseQueryParameters } from '../types.js'
import { type UseQuoteReturnType, useSwapQuery } from './useSwapQuery.js'

/** The parameters of `useLegacyPath`: `getLegacyPath`'s, each optional (it waits quietly until the required ones are given), the amount's debounce and TanStack Query options. */
export type UseLegacyPathParameters<selectData = GetLegacyPathData> = GetLegacyPathOptions & {
  /** Milliseconds the amount must stay unchanged before a request; default 300, 0 turns it off. */
  debounceMs?: number | undefined
  /** TanStack Query options (`select`, `staleTime`, `refetchInterval`, `enabled`…). */
  query?:
    | Partial<
        UseQueryParameters<
          GetLegacyPathQueryFnData,
          GetLegacyPathErrorType,
          selectData,
          GetLegacyPathQueryKey
        >
      >
    | undefined
}

/** What `useLegacyPath` returns: TanStack Query's result (`data` is `getLegacyPath`'s answer, or `select`'s) and the quote's state (`quotedAt`, `isFresh`, `isDebouncing`). */
export type UseLegacyPathReturnType<selectData = GetLegacyPathData> = UseQuoteReturnType<
  selectData,
  GetLegacyPathErrorType,
  GetLegacyPathQueryKey
>

/**
 * The optimal path from the legacy `/get_path` endpoint. Behaves like `useSwapRoute`.
 *
 * @example
 * const { data } = useLegacyPath({ token0, token1, amountIn })
 * // data?.path, data?.amountOut (undefined when the service sends only the path)
 */
export function useLegacyPath<selectData = GetLegacyPathData>(
  parameters: UseLegacyPathParameters<selectData> = {},
): UseLegacyPathReturnType<selectData> {
  return useSwapQuery(getLegacyPathQueryOptions, parameters, 'quote')
}
