'use client'

import { isCancelledError, type Query, type QueryClient } from '@tanstack/react-query'
import { type QuerySnapshot, type RequestEvent, requestEventKind } from './rows.js'

/** What the panel has seen of a QueryClient's fetches, kept between mounts of the panel. */
export type QueryClientWatch = {
  /** The last `maxEvents` fetch events, oldest first. */
  readonly events: readonly RequestEvent[]
  /** When each query being fetched started, as the panel saw it. */
  readonly startedAt: ReadonlyMap<string, number>
}

type Watch = QueryClientWatch & {
  events: RequestEvent[]
  startedAt: Map<string, number>
  fetchStatus: Map<string, QuerySnapshot['fetchStatus']>
  listeners: Set<() => void>
  unsubscribe: (() => void) | undefined
}

/** How many fetch events the panel keeps per QueryClient. */
export const maxEvents = 200

const watches = new WeakMap<QueryClient, Watch>()

/**
 * Records what the QueryClient's query cache says of each fetch (started,
 * retrying, succeeded, failed, aborted) while at least one listener is
 * subscribed; `onChange` runs after each recorded event. Reading only: the
 * cache is never written. Returns the unsubscribe.
 *
 * @example
 * useEffect(() => watchQueryClient(queryClient, rerender), [queryClient])
 */
export function watchQueryClient(queryClient: QueryClient, onChange: () => void): () => void {
  const watch = watchOf(queryClient)
  watch.listeners.add(onChange)
  if (!watch.unsubscribe) {
    const cache = queryClient.getQueryCache()
    for (const query of cache.getAll()) watch.fetchStatus.set(query.queryHash, query.state.fetchStatus)
    watch.unsubscribe = cache.subscribe((event) => {
      const query = event.query as Query
      const hash = query.queryHash
      const before = watch.fetchStatus.get(hash)
      const after = event.type === 'removed' ? undefined : query.state.fetchStatus
      const action = (event as { action?: { type?: string; manual?: boolean; error?: unknown } }).action
      const kind = requestEventKind({
        type: event.type,
        actionType: action?.type,
        manual: action?.manual,
        cancelled: action?.type === 'error' && isCancelledError(action.error),
        before,
        after,
      })
      if (after === undefined) watch.fetchStatus.delete(hash)
      else watch.fetchStatus.set(hash, after)
      const now = Date.now()
      if (kind === 'started') watch.startedAt.set(hash, now)
      else if (after === undefined || after === 'idle') watch.startedAt.delete(hash)
      if (!kind) return
      watch.events.push({ at: now, kind, queryHash: hash, queryKey: query.queryKey })
      if (watch.events.length > maxEvents) watch.events.splice(0, watch.events.length - maxEvents)
      for (const listener of watch.listeners) listener()
    })
  }
  return () => {
    watch.listeners.delete(onChange)
    if (watch.listeners.size === 0) {
      watch.unsubscribe?.()
      watch.unsubscribe = undefined
    }
  }
}

/** The record kept for `queryClient` (empty until the panel watches it). */
export function watchOf(queryClient: QueryClient): Watch {
  let watch = watches.get(queryClient)
  if (!watch) {
    watch = {
      events: [],
      startedAt: new Map(),
      fetchStatus: new Map(),
      listeners: new Set(),
      unsubscribe: undefined,
    }
    watches.set(queryClient, watch)
  }
  return watch
}

/** The staleTime a query's readers use: the shortest of its observers', else its own options'. */
function staleTimeOf(query: Query): number | undefined {
  const resolve = (option: unknown): number | undefined => {
    const value = typeof option === 'function' ? (option as (query: Query) => unknown)(query) : option
    if (value === 'static') return Number.POSITIVE_INFINITY
    return typeof value === 'number' ? value : undefined
  }
  let shortest: number | undefined
  for (const observer of query.observers) {
    const staleTime = resolve(observer.options.staleTime)
    if (staleTime !== undefined && (shortest === undefined || staleTime < shortest)) shortest = staleTime
  }
  // The options of its last fetch (TanStack keeps the observer's there, staleTime included).
  return shortest ?? resolve((query.options as { staleTime?: unknown }).staleTime)
}

/**
 * A plain snapshot of a query for the panel's rows. Its staleTime is the one
 * its readers use, else its options', else `fallbackStaleTime` (the
 * provider's default for its resource).
 */
export function snapshotQuery(query: Query, fallbackStaleTime?: number | undefined): QuerySnapshot {
  const { state } = query
  let staleTime: number | undefined
  try {
    staleTime = staleTimeOf(query) ?? fallbackStaleTime
  } catch {
    // A staleTime function that throws on this query: the panel shows the default instead.
    staleTime = fallbackStaleTime
  }
  return {
    queryKey: query.queryKey,
    queryHash: query.queryHash,
    status: state.status,
    fetchStatus: state.fetchStatus,
    data: state.data,
    dataUpdatedAt: state.dataUpdatedAt,
    error: state.error,
    isInvalidated: state.isInvalidated,
    fetchFailureCount: state.fetchFailureCount,
    staleTime,
    observers: query.observers.length,
  }
}
