'use client'

import { hashKey, type Query, useQuery } from '@tanstack/react-query'
import { useEffect, useMemo, useState } from 'react'
import type { SwapClient } from '../../core/client.js'
import type { SwapQueryOptions } from '../../query/createQueryFactory.js'
import type { QueryResource } from '../../query/defaults.js'
import { withRateLimitPause } from '../../query/utils.js'
import type { UseQueryParameters, UseQueryReturnType } from '../types.js'
import { useSwapContext } from './useSwapClient.js'

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

export type UseQuoteReturnType<data, error, queryKey extends readonly unknown[]> = UseQueryReturnType<
  data,
  error,
  queryKey
> &
  QuoteState

type Key = readonly [QueryResource, Record<string, unknown>]
// biome-ignore lint/suspicious/noExplicitAny: factories take their own parameters; each hook passes the matching ones.
type Factory = (client: SwapClient, parameters: any) => SwapQueryOptions<unknown, Key>
type Entry = {
  options: SwapQueryOptions<unknown, Key>
  queryHash: string
  merged: WeakMap<object, Map<string, object>>
}

/**
 * Options built once per client, factory and input, and shared by every reader
 * of that input: a thousand components showing one quote build them once.
 */
const built = new WeakMap<SwapClient, Map<Factory, Map<string, Entry>>>()
const noDefaults = {}
const maxEntries = 256

function entryFor(client: SwapClient, factory: Factory, parameters: Record<string, unknown>): Entry {
  const entries = upsert(
    upsert(built, client, () => new Map()),
    factory,
    () => new Map<string, Entry>(),
  )
  let signature = ''
  for (const name in parameters) {
    const value = parameters[name]
    if (value !== undefined)
      signature += `${name}=${typeof value === 'bigint' ? `${value}n` : typeof value === 'number' || typeof value === 'boolean' ? value : JSON.stringify(value)};`
  }
  return upsert(entries, signature, () => {
    if (entries.size >= maxEntries) entries.clear()
    const options = factory(client, parameters)
    return { options, queryHash: hashKey(options.queryKey), merged: new WeakMap() }
  })
}

/** The value under `key`, made and stored on first use. */
function upsert<key, value>(
  map: { get(key: key): value | undefined; set(key: key, value: value): unknown },
  key: key,
  make: () => value,
): value {
  let value = map.get(key)
  if (value === undefined) {
    value = make()
    map.set(key, value)
  }
  return value
}

/**
 * Runs a factory's query with the provider's client and QueryClient, building
 * its options once per input. Precedence: the factory's defaults, then the
 * provider's `queryDefaults` for the resource, then the hook's `query`; the
 * factory keeps its key and function, and the query runs only when both the
 * factory (every required input given) and the caller allow it. Polling waits
 * while the client is paused by a 429. A `'quote'` also waits while its amount
 * is still changing (`debounceMs`), keeps the previous quote for the same
 * tokens visible while the next loads, and says how fresh the quote is.
 */
export function useSwapQuery<data, error, selectData, queryKey extends Key, parameters extends object>(
  factory: (client: SwapClient, parameters: parameters) => SwapQueryOptions<data, queryKey>,
  {
    query,
    debounceMs,
    ...input
  }: parameters & {
    query?: Partial<UseQueryParameters<data, error, selectData, queryKey>> | undefined
    debounceMs?: number | undefined
  },
  kind: 'list' | 'quote' = 'list',
): UseQuoteReturnType<selectData, error, queryKey> {
  const amountIn = (input as { amountIn?: unknown }).amountIn
  const settled = useDebouncedValue(amountIn, debounceMs)
  const { client, queryClient, queryDefaults } = useSwapContext()
  const entry = entryFor(client, factory as Factory, input)
  const { options } = entry
  const isQuote = kind === 'quote'
  // Only a query that will run can be waiting for its amount: a cleared field is not debouncing.
  const isDebouncing = isQuote && options.enabled && settled !== amountIn
  const defaults = queryDefaults[options.queryKey[0]]
  // A quote waits while its amount is still changing; the previous one for the same tokens stands in.
  const allowed = options.enabled && !isDebouncing
  const placeholder = isQuote && options.enabled
  const merge = () => {
    const { enabled, ...rest } = query ?? {}
    const result: Record<string, unknown> = {
      ...options,
      ...(placeholder && { placeholderData: keepPreviousQuote(options.queryKey) }),
      ...defaults,
      ...rest,
      queryKey: options.queryKey,
      queryFn: options.queryFn,
      queryHash: entry.queryHash,
      enabled: bothEnabled(allowed, enabled),
    }
    result.refetchInterval = withRateLimitPause(client, result.refetchInterval as number | undefined)
    return result
  }
  // Without per-hook options, the merged options are shared too; with them, memoized per hook.
  // biome-ignore lint/correctness/useExhaustiveDependencies: the entry stands for the factory's options.
  const own = useMemo(() => (query ? merge() : undefined), [entry, defaults, query, allowed, placeholder])
  const merged =
    own ??
    upsert(
      upsert(entry.merged, defaults ?? noDefaults, () => new Map()),
      `${allowed}${placeholder}`,
      merge,
    )

  const result = useQuery(merged as never, queryClient) as UseQuoteReturnType<selectData, error, queryKey>
  result.queryKey = options.queryKey as queryKey
  if (isQuote) {
    const quotedAt = result.data !== undefined && !result.isPlaceholderData ? result.dataUpdatedAt : undefined
    result.quotedAt = quotedAt
    result.isDebouncing = isDebouncing
    result.isFresh = quotedAt !== undefined && !result.isError && !result.isStale && !isDebouncing
  }
  return result
}

/**
 * A query runs only when the library allows it (every required input given,
 * the amount settled) and the caller's `enabled` (a boolean or a function of
 * the query) does too: a caller can hold a query back, never force one.
 */
export function bothEnabled<query>(
  allowed: boolean,
  enabled: boolean | ((query: query) => boolean) | undefined,
): boolean | ((query: query) => boolean) {
  if (typeof enabled === 'function') return (query: query) => allowed && enabled(query)
  return allowed && enabled !== false
}

// Fields a previous quote may differ in and still stand in while the next loads.
const amountFields = new Set(['amountIn', 'slippage', 'deadline'])

/**
 * Placeholder data: the last data, when its key differs from this one only in
 * `fields` (by default a quote's amount and settings: the same tokens, recipient and service).
 */
export function keepPreviousQuote(queryKey: Key, fields: ReadonlySet<string> = amountFields) {
  return (previousData: unknown, previousQuery: Query | undefined) => {
    if (previousData === undefined || !previousQuery) return undefined
    const [name, previous] = previousQuery.queryKey as unknown as Key
    if (name !== queryKey[0]) return undefined
    const current = queryKey[1]
    for (const key of [...Object.keys(previous), ...Object.keys(current)])
      if (!fields.has(key) && previous[key] !== current[key]) return undefined
    return previousData
  }
}

/**
 * `value`, once it has stopped changing for `delayMs`. The first value is
 * taken at once; `delayMs` of 0 turns debouncing off.
 */
export function useDebouncedValue<value>(value: value, delayMs: number = defaultDebounceMs): value {
  const [debounced, setDebounced] = useState(value)
  useEffect(() => {
    if (delayMs <= 0 || Object.is(value, debounced)) return
    const timer = setTimeout(() => setDebounced(() => value), delayMs)
    return () => clearTimeout(timer)
  }, [value, delayMs, debounced])
  return delayMs <= 0 ? value : debounced
}
