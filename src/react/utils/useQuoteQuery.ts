import type { Query, QueryKey } from '@tanstack/react-query'
import { useMemo } from 'react'
import type { QueryResource } from '../../query/defaults.js'
import type { UseQueryParameters, UseQueryReturnType } from '../types.js'
import { useDebouncedValue } from './useDebouncedValue.js'
import { useSwapQuery } from './useSwapQuery.js'

const noOptions = {}

/** The default wait after the amount stops changing before a quote is requested. */
export const defaultDebounceMs = 300

export type QuoteState = {
  /** When the shown quote was fetched (epoch ms); `undefined` for no data or placeholder data. */
  quotedAt: number | undefined
  /**
   * True only for a quote of the current input, fetched within its staleTime,
   * whose last refresh did not fail. An old quote kept after a failed refetch,
   * a placeholder or a quote while the amount is still changing is never fresh.
   */
  isFresh: boolean
  /** The amount changed and the hook is waiting for it to settle before requesting. */
  isDebouncing: boolean
}

export type UseQuoteReturnType<data, error, queryKey extends QueryKey> = UseQueryReturnType<
  data,
  error,
  queryKey
> &
  QuoteState

type QuoteKey = readonly [string, { amountIn?: bigint | undefined; [field: string]: unknown }]

// Fields a previous quote may differ in and still stand in while the next loads.
const amountFields = new Set(['amountIn', 'slippage', 'deadline'])

/**
 * A quote query (route, info, legacy path): the amount is debounced, the
 * previous quote for the same tokens stays visible as placeholder data while
 * the next loads, and the result says how fresh the quote is.
 */
export function useQuoteQuery<queryFnData, data, error, queryKey extends QuoteKey>(
  hook: string,
  resource: QueryResource,
  factory: {
    queryKey: queryKey
    queryFn: (...args: never[]) => unknown
    enabled: boolean
    [option: string]: unknown
  },
  debounceMs: number = defaultDebounceMs,
  query: Partial<UseQueryParameters<queryFnData, error, data, queryKey>> = noOptions,
): UseQuoteReturnType<data, error, queryKey> {
  const amountIn = factory.queryKey[1].amountIn
  const settledAmount = useDebouncedValue(amountIn, debounceMs)
  const isDebouncing = factory.enabled && settledAmount !== amountIn

  const placeholderData = useMemo(
    () => (factory.enabled ? keepPreviousQuote(factory.queryKey) : undefined),
    [factory.enabled, factory.queryKey],
  )
  const gated = useMemo(
    () => ({ ...factory, enabled: factory.enabled && !isDebouncing }),
    [factory, isDebouncing],
  )
  const withPlaceholder = useMemo(
    () => ({ placeholderData, ...query }) as typeof query,
    [placeholderData, query],
  )
  const result = useSwapQuery(hook, resource, gated, withPlaceholder) as UseQuoteReturnType<
    data,
    error,
    queryKey
  >

  const quotedAt = result.data !== undefined && !result.isPlaceholderData ? result.dataUpdatedAt : undefined
  result.quotedAt = quotedAt
  result.isDebouncing = isDebouncing
  result.isFresh = quotedAt !== undefined && !result.isError && !result.isStale && !isDebouncing
  return result
}

/** Placeholder data: the last quote, when it was for the same tokens (and recipient) on the same service. */
function keepPreviousQuote(queryKey: QuoteKey) {
  return (previousData: unknown, previousQuery: Query | undefined) => {
    if (previousData === undefined || !previousQuery) return undefined
    const [name, previous] = previousQuery.queryKey as unknown as QuoteKey
    if (name !== queryKey[0]) return undefined
    const current = queryKey[1]
    const keys = new Set([...Object.keys(previous), ...Object.keys(current)])
    for (const key of keys) if (!amountFields.has(key) && previous[key] !== current[key]) return undefined
    return previousData
  }
}
