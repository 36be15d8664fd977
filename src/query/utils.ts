import type { QueryKey } from '@tanstack/react-query'
import type { SwapClient } from '../core/client.js'
import { getRetryDelay, isRetryableError, maxAttempts } from '../core/utils/retry.js'
import { type QueryResource, queryDefaults } from './defaults.js'

/**
 * A query key hash that accepts bigints (as decimal strings) and ignores the
 * order of object keys. Set on every option object the factories return, so
 * `queryClient.fetchQuery(getXQueryOptions(...))` works outside React too.
 *
 * @example
 * hashFn(['swapRoute', { amountIn: 1n }]) // '["swapRoute",{"amountIn":"1"}]'
 */
export function hashFn(queryKey: QueryKey): string {
  return JSON.stringify(queryKey, (_, value: unknown) => {
    if (typeof value === 'bigint') return value.toString()
    if (isPlainObject(value))
      return Object.keys(value)
        .sort()
        .reduce<Record<string, unknown>>((result, key) => {
          result[key] = value[key]
          return result
        }, {})
    return value
  })
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  if (Object.prototype.toString.call(value) !== '[object Object]') return false
  const prototype = Object.getPrototypeOf(value)
  return prototype === null || prototype === Object.prototype
}

/** True when `assert` does not throw: used to disable a query whose input is incomplete or invalid. */
export function isValid(assert: () => void): boolean {
  try {
    assert()
    return true
  } catch {
    return false
  }
}

/**
 * What every factory sets besides its key and function: the bigint-safe hash,
 * the retry policy (429, 5xx, network and timeout errors; three tries at most;
 * after a 429 the retry waits for the client's pause) and the resource's
 * cache times.
 */
export function baseQueryOptions(client: SwapClient, resource: QueryResource) {
  return {
    ...queryDefaults[resource],
    queryKeyHashFn: hashFn,
    retry: (failureCount: number, error: unknown) =>
      failureCount < maxAttempts - 1 && isRetryableError(error),
    retryDelay: (failureCount: number, error: unknown) =>
      getRetryDelay(failureCount, error, client.rateLimiter.getState().rateLimitedUntil),
  } as const
}

type RefetchInterval<query> = number | false | undefined | ((query: query) => number | false | undefined)

/**
 * Wraps a polling interval so that polling waits while the client is paused
 * by a 429: the next poll comes at the end of the pause at the earliest.
 *
 * @example
 * useQuery({ ...options, refetchInterval: withRateLimitPause(client, 15_000) })
 */
export function withRateLimitPause<query>(
  client: SwapClient,
  refetchInterval: RefetchInterval<query>,
): RefetchInterval<query> {
  if (refetchInterval === undefined || refetchInterval === false) return refetchInterval
  return (query: query) => {
    const interval = typeof refetchInterval === 'function' ? refetchInterval(query) : refetchInterval
    if (interval === undefined || interval === false) return interval
    const until = client.rateLimiter.getState().rateLimitedUntil
    return until === undefined ? interval : Math.max(interval, until - Date.now())
  }
}

/**
 * Makes a value JSON-safe: bigints become `{ $bigint: "…" }`. Query keys and
 * quotes hold bigints, so pass a whole dehydrated state through it before it
 * crosses from server to browser.
 *
 * @example
 * // server
 * await queryClient.prefetchQuery(getSwapRouteQueryOptions(client, { token0, token1, amountIn }))
 * const state = serializeBigInts(dehydrate(queryClient))
 * // browser
 * <HydrationBoundary state={deserializeBigInts(state)}>…</HydrationBoundary>
 */
export function serializeBigInts<data>(data: data): unknown {
  return JSON.parse(
    JSON.stringify(data, (_, value: unknown) =>
      typeof value === 'bigint' ? { $bigint: value.toString() } : value,
    ),
  )
}

/**
 * Reverses `serializeBigInts`.
 *
 * @example
 * hydrate(queryClient, deserializeBigInts(JSON.parse(html)))
 */
export function deserializeBigInts<data = unknown>(data: unknown): data {
  return JSON.parse(JSON.stringify(data), (_, value: unknown) =>
    isPlainObject(value) && Object.keys(value).length === 1 && typeof value.$bigint === 'string'
      ? BigInt(value.$bigint)
      : value,
  ) as data
}
