import type { SwapClient } from '../core/client.js'

function isPlainObject(value: unknown): value is Record<string, unknown> {
  if (Object.prototype.toString.call(value) !== '[object Object]') return false
  const prototype = Object.getPrototypeOf(value)
  return prototype === null || prototype === Object.prototype
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
 * The JSON-safe form of a value holding bigints: `json` is the value with
 * every bigint written as a decimal string, `bigints` the paths of those
 * strings (keys and array indexes). Only the listed paths become bigints
 * again, so data that merely looks like an encoding stays as it was sent.
 *
 * @example
 * serializeBigInts({ amountOut: 5n, note: { $bigint: '1' } })
 * // { json: { amountOut: '5', note: { $bigint: '1' } }, bigints: [['amountOut']] }
 */
export type SerializedBigInts = {
  json: unknown
  bigints: (string | number)[][]
}

/**
 * Makes a value JSON-safe: bigints become decimal strings, and their paths
 * are listed beside the value (a side table, as superjson does), so nothing a
 * service sends can pass for a bigint. Query keys and quotes hold bigints, so
 * pass a whole dehydrated state through it before it crosses from server to
 * browser. Otherwise as `JSON.stringify` (`toJSON` honoured, `undefined` left out).
 *
 * @example
 * // server
 * await queryClient.prefetchQuery(getSwapRouteQueryOptions(client, { token0, token1, amountIn }))
 * const state = serializeBigInts(dehydrate(queryClient)) // { json, bigints }, JSON-safe
 * // browser
 * const page = <HydrationBoundary state={deserializeBigInts(state)}>…</HydrationBoundary>
 */
export function serializeBigInts<data>(data: data): SerializedBigInts {
  const bigints: (string | number)[][] = []
  const paths = new WeakMap<object, (string | number)[]>()
  const text = JSON.stringify({ json: data }, function (this: unknown, key: string, value: unknown) {
    const holder = this as Record<string, unknown>
    const at = [
      ...(paths.get(holder) ?? []),
      ...(key === '' ? [] : [Array.isArray(holder) ? Number(key) : key]),
    ]
    // The holder's own value, before any toJSON (an app may have given bigints one).
    const original = key === '' ? value : holder[key]
    if (typeof original === 'bigint') {
      bigints.push(at.slice(1))
      return original.toString()
    }
    if (typeof value === 'object' && value !== null) paths.set(value, at)
    return value
  })
  return { json: (JSON.parse(text) as { json?: unknown }).json ?? null, bigints }
}

const integer = /^-?\d+$/

/**
 * Reverses `serializeBigInts`: turns the listed paths back into bigints, and
 * nothing else. A listed value that is not an integer string, a path that
 * leads nowhere (or through a prototype), or a value that is not a
 * `{ json, bigints }` pair is left as it is: it never throws on data it did
 * not write.
 *
 * The input is never changed, and not copied whole either: only the objects
 * and arrays on the way to a bigint are copied (each once); everything else
 * in the result is the input's own (the same objects).
 *
 * @example
 * hydrate(queryClient, deserializeBigInts(JSON.parse(html)))
 */
export function deserializeBigInts<data = unknown>(data: unknown): data {
  if (!isPlainObject(data) || !Array.isArray(data.bigints) || !('json' in data)) return data as data
  const root = { value: data.json ?? null }
  // The objects and arrays that are ours to change: the root, and the copies made on the way.
  const copies = new Set<unknown>([root])
  for (const path of data.bigints as unknown[]) {
    if (!Array.isArray(path)) continue
    const keys: unknown[] = ['value']
    let node: unknown = root
    for (const segment of path) {
      node = ownValue(node, keys[keys.length - 1])
      keys.push(segment)
    }
    const value = ownValue(node, keys[keys.length - 1])
    if (typeof value !== 'string' || !integer.test(value)) continue
    // The path is valid (every key an own one): copy what it goes through, then write.
    let parent = root as Record<string, unknown>
    for (const key of keys.slice(0, -1) as string[]) {
      let child = parent[key] as Record<string, unknown>
      if (!copies.has(child)) {
        child = Array.isArray(child) ? ([...child] as unknown as Record<string, unknown>) : { ...child }
        copies.add(child)
        parent[key] = child
      }
      parent = child
    }
    parent[keys[keys.length - 1] as string] = BigInt(value)
  }
  return root.value as data
}

/** `node[key]` when it is an own property of an object, else undefined. */
function ownValue(node: unknown, key: unknown): unknown {
  if (typeof node !== 'object' || node === null) return undefined
  if (typeof key !== 'string' && typeof key !== 'number') return undefined
  return Object.hasOwn(node, key) ? (node as Record<string, unknown>)[key] : undefined
}
