'use client'

import { hashKey, type QueryClient } from '@tanstack/react-query'
import { useMemo } from 'react'
import type { GetSwapRouteForOutputErrorType } from '../../core/actions/getSwapRouteForOutput.js'
import type { SwapClient } from '../../core/client.js'
import { isMissing } from '../../core/utils/validate.js'
import {
  type GetSwapRouteForOutputData,
  type GetSwapRouteForOutputOptions,
  type GetSwapRouteForOutputQueryFnData,
  type GetSwapRouteForOutputQueryKey,
  getSwapRouteForOutputQueryKey,
  getSwapRouteForOutputQueryOptions,
} from '../../query/getSwapRouteForOutput.js'
import type { UseQueryParameters } from '../types.js'
import { useSwapContext } from './useSwapClient.js'
import {
  keepPreviousQuote,
  type UseQuoteReturnType,
  useDebouncedValue,
  useSwapQuery,
} from './useSwapQuery.js'

/** The parameters of `useSwapRouteForOutput`: `getSwapRouteForOutput`'s, each optional (it waits quietly until the required ones are given), the amount's debounce and TanStack Query options. */
export type UseSwapRouteForOutputParameters<selectData = GetSwapRouteForOutputData> =
  GetSwapRouteForOutputOptions & {
    /** Milliseconds `amountOut` must stay unchanged before the search starts; default 300, 0 turns it off. */
    debounceMs?: number | undefined
    /** TanStack Query options (`select`, `staleTime`, `refetchInterval`, `enabled`…). */
    query?:
      | Partial<
          UseQueryParameters<
            GetSwapRouteForOutputQueryFnData,
            GetSwapRouteForOutputErrorType,
            selectData,
            GetSwapRouteForOutputQueryKey
          >
        >
      | undefined
  }

/** What `useSwapRouteForOutput` returns: TanStack Query's result (`data` is `getSwapRouteForOutput`'s answer, or `select`'s) and the quote's state (`quotedAt`, `isFresh`, `isDebouncing`). */
export type UseSwapRouteForOutputReturnType<selectData = GetSwapRouteForOutputData> = UseQuoteReturnType<
  selectData,
  GetSwapRouteForOutputErrorType,
  GetSwapRouteForOutputQueryKey
>

// What a previous answer may differ in and still stand in while the next loads.
const outputFields = new Set(['amountOut', 'maxProbes', 'tolerance', 'initialAmountIn'])

type Factory = (
  client: SwapClient,
  parameters: GetSwapRouteForOutputOptions,
) => ReturnType<typeof getSwapRouteForOutputQueryOptions>

/** One factory per QueryClient, so that the options built for an input are shared by every reader. */
const factories = new WeakMap<QueryClient, Factory>()

function factoryFor(queryClient: QueryClient): Factory {
  let factory = factories.get(queryClient)
  if (!factory) {
    factory = (client, parameters) => getSwapRouteForOutputQueryOptions(client, parameters, { queryClient })
    factories.set(queryClient, factory)
  }
  return factory
}

/**
 * "I want to receive `amountOut`": the input amount, and its route, that buys
 * it on the service's exact-input `/swap/route` (`getSwapRouteForOutput`).
 * The search is seeded from USD prices (or from the last answer for the same
 * tokens) and refined with at most `maxProbes` route requests (default 4)
 * until a route delivers from `amountOut` to `amountOut × (1 + tolerance)`
 * (default 0.5%). As `useSwapRoute`: waits quietly until token0, token1 and
 * `amountOut` are given, debounces `amountOut` (300 ms), aborts a search
 * whose amount changed (every probe gets the query's signal), keeps the
 * previous answer for the same tokens visible while the next loads, polls
 * every 15 s, and says how fresh the answer is. When no input within the
 * probes reaches `amountOut`, `error` is an `ExactOutputNotReachedError`.
 *
 * @example
 * import { useSwapRouteForOutput } from 'token-swap-hooks'
 *
 * const { data, error } = useSwapRouteForOutput({ token0: WETH, token1: USDC, amountOut: parseAmount(typed, 6) })
 * // data?.amountIn: the WETH to send (bigint); data?.route: its route; data?.amountOutReached ≥ amountOut
 */
export function useSwapRouteForOutput<selectData = GetSwapRouteForOutputData>(
  parameters: UseSwapRouteForOutputParameters<selectData> = {},
): UseSwapRouteForOutputReturnType<selectData> {
  const { client, queryClient } = useSwapContext()
  const { query, debounceMs, ...input } = parameters
  const settled = useDebouncedValue(input.amountOut, debounceMs)
  const waiting = settled !== input.amountOut
  // The key is the current amount's at once; the search only starts once the amount has settled.
  const keyHash = hashKey(getSwapRouteForOutputQueryKey({ ...input, baseUrl: client.baseUrl }))
  // biome-ignore lint/correctness/useExhaustiveDependencies: keyHash stands for the input.
  const held = useMemo(
    () => ({
      placeholderData: keepPreviousQuote(
        getSwapRouteForOutputQueryKey({ ...input, baseUrl: client.baseUrl }) as never,
        outputFields,
      ) as never,
      ...query,
      enabled: waiting ? false : query?.enabled,
    }),
    [keyHash, query, waiting],
  )
  const result = useSwapQuery(
    factoryFor(queryClient) as never,
    { ...input, query: held } as never,
    'quote',
  ) as unknown as UseSwapRouteForOutputReturnType<selectData>
  const isDebouncing =
    waiting && !isMissing(input.token0) && !isMissing(input.token1) && !isMissing(input.amountOut)
  result.isDebouncing = isDebouncing
  if (isDebouncing) result.isFresh = false
  return result
}
