import type { Query, QueryClient, QueryFunctionContext, QueryKey } from '@tanstack/react-query'
import type { SwapClient } from '../core/client.js'
import { isObject } from '../core/utils/validate.js'
import { queryDefaults } from '../query/defaults.js'
import { deserializeBigInts, type SerializedBigInts, serializeBigInts } from '../query/utils.js'
import type { Bus } from './bus.js'
import { holdLock, namePrefix, type TabEnvironment } from './environment.js'

export type SharePollingParameters = {
  client: SwapClient
  queryClient: QueryClient
  bus: Bus
  environment: TabEnvironment
  /** Signals of the requests the client answered (validated by the endpoint's schema). */
  answered: WeakSet<AbortSignal>
}

export type SharedPolling = {
  /** Whether this tab leads the polling of the query: it fetches it for every tab. */
  isLeader(queryKey: QueryKey): boolean
  stop(): void
}

/** How long a tab that does not lead waits for the leader's answer beyond the polling interval. */
export const followerGraceMs = 5_000

/** A polled query of this tab: its lock request, and the fetches waiting for the leader's answer. */
type Poll = {
  controller: AbortController
  leading: boolean
  release?: (() => void) | undefined
  /** Fetches held until the leader's answer comes; each is told to go to the service instead. */
  held: Set<() => void>
}

type Shared = { value: SerializedBigInts; at: number }

const resources = Object.keys(queryDefaults)

type QueryFn = (context: QueryFunctionContext) => unknown
type Persister = (queryFn: QueryFn, context: QueryFunctionContext, query: Query) => unknown

/**
 * One tab fetches each polled swap query for every tab of the origin. For a
 * query this tab polls (an observer with a `refetchInterval`, the page
 * visible or `refetchIntervalInBackground` set), it requests the Web Lock
 * named after the query's hash; the holder fetches, and after each answer of
 * the client (validated by the endpoint's schema) broadcasts the data with its
 * `dataUpdatedAt` (bigints through `serializeBigInts`). The other tabs hold
 * their own fetches of it and put the leader's data in their QueryClient
 * (`setQueryData` with `updatedAt`), only ever newer data. A tab that closes
 * releases its locks: the next tab takes the lead and its held fetch goes to
 * the service. When the leader's fetch fails, or nothing comes within the
 * polling interval and `followerGraceMs`, a held fetch goes to the service.
 *
 * The hold is a TanStack `persister`, set as the query default of the
 * client's keys (`[resource, { baseUrl }]`); an app's own default persister
 * still runs, around the request.
 *
 * @example
 * const polling = sharePolling({ client, queryClient, bus, environment, answered })
 * polling.isLeader(getSwapRouteQueryKey({ baseUrl: client.baseUrl, token0, token1, amountIn }))
 */
export function sharePolling({
  client,
  queryClient,
  bus,
  environment,
  answered,
}: SharePollingParameters): SharedPolling {
  const cache = queryClient.getQueryCache()
  const polls = new Map<string, Poll>()
  /** Queries whose fetch in flight here got the client's validated answer: their data may be shared. */
  const shareable = new Set<string>()
  const lastShared = new Map<string, Shared>()
  let stopped = false

  const ours = (key: QueryKey) =>
    key.length === 2 &&
    resources.includes(key[0] as string) &&
    isObject(key[1]) &&
    key[1].baseUrl === client.baseUrl

  /** Whether this tab polls the query now, as TanStack's observers would. */
  function polled(query: Query): boolean {
    const visible = environment.isVisible()
    return query.observers.some(({ options }) => {
      const { enabled, refetchInterval } = options as {
        enabled?: boolean | ((query: Query) => boolean)
        refetchInterval?: number | false | ((query: Query) => number | false | undefined)
      }
      const interval = typeof refetchInterval === 'function' ? refetchInterval(query) : refetchInterval
      return (
        (typeof enabled === 'function' ? enabled(query) : enabled !== false) &&
        typeof interval === 'number' &&
        interval > 0 &&
        interval < Number.POSITIVE_INFINITY &&
        (visible || options.refetchIntervalInBackground === true)
      )
    })
  }

  /** The longest interval this tab polls the query at (15 s when it cannot tell). */
  function intervalOf(query: Query): number {
    let longest = 0
    for (const { options } of query.observers) {
      const { refetchInterval } = options as { refetchInterval?: unknown }
      const interval = typeof refetchInterval === 'function' ? refetchInterval(query) : refetchInterval
      if (typeof interval === 'number' && interval < Number.POSITIVE_INFINITY)
        longest = Math.max(longest, interval)
    }
    return longest || queryDefaults.swapRoute.refetchInterval
  }

  function update(query: Query) {
    const hash = query.queryHash
    const poll = polls.get(hash)
    const wanted = !stopped && cache.get(hash) === query && polled(query)
    if (wanted && !poll) start(hash)
    else if (!wanted && poll) end(hash, poll)
  }

  function start(hash: string) {
    const poll: Poll = { controller: new AbortController(), leading: false, held: new Set() }
    polls.set(hash, poll)
    void holdLock(environment.locks, `${namePrefix}:poll:${hash}`, { signal: poll.controller.signal }).then(
      (release) => {
        if (!release) return
        if (polls.get(hash) !== poll) return release()
        poll.leading = true
        poll.release = release
        // This tab leads now: a fetch it held goes to the service.
        wake(poll)
      },
    )
  }

  function end(hash: string, poll: Poll) {
    polls.delete(hash)
    lastShared.delete(hash)
    poll.controller.abort()
    poll.release?.()
    wake(poll)
  }

  function wake(poll: Poll) {
    for (const resume of [...poll.held]) resume()
  }

  /** Waits for the leader's answer (then TanStack cancels this fetch), or until this tab must fetch itself. */
  function follow(poll: Poll, signal: AbortSignal, query: Query) {
    return new Promise<void>((resolve, reject) => {
      if (signal.aborted) return reject(signal.reason)
      const paused = (client.rateLimiter.getState().rateLimitedUntil ?? 0) - Date.now()
      const resume = () => {
        clearTimeout(timer)
        signal.removeEventListener('abort', onAbort)
        poll.held.delete(resume)
        resolve()
      }
      const onAbort = () => {
        clearTimeout(timer)
        poll.held.delete(resume)
        reject(signal.reason)
      }
      const timer = setTimeout(resume, intervalOf(query) + followerGraceMs + Math.max(0, paused))
      signal.addEventListener('abort', onAbort, { once: true })
      poll.held.add(resume)
      // The leader answers with what it last fetched, when that is newer than what this tab has.
      bus.post('want', { hash: query.queryHash })
    })
  }

  const persister: Persister = (queryFn, context, query) => {
    const poll = polls.get(query.queryHash)
    if (stopped || !poll || poll.leading) return fetchHere(queryFn, context, query)
    return follow(poll, context.signal, query).then(() => fetchHere(queryFn, context, query))
  }

  /** The fetch itself, through the app's own default persister if it has one; marks validated answers. */
  async function fetchHere(queryFn: QueryFn, context: QueryFunctionContext, query: Query) {
    const appPersister = queryClient.getDefaultOptions().queries?.persister as Persister | undefined
    const data = await (appPersister ? appPersister(queryFn, context, query) : queryFn(context))
    if (answered.has(context.signal)) shareable.add(query.queryHash)
    return data
  }

  const defaultsKeys = resources.map((resource) => [resource, { baseUrl: client.baseUrl }] as const)
  for (const key of defaultsKeys) queryClient.setQueryDefaults(key, { persister: persister as never })

  bus.on('data', ({ hash, value, at }) => {
    if (stopped || typeof hash !== 'string' || typeof at !== 'number' || !isSerialized(value)) return
    const query = cache.get(hash)
    const poll = polls.get(hash)
    if (!query || !ours(query.queryKey) || poll?.leading || at <= query.state.dataUpdatedAt) return
    const data = deserializeBigInts(value)
    if (data === undefined) return
    // A fetch held for this answer ends with it: cancelled back to where it was, then the data set.
    if (poll?.held.size) void queryClient.cancelQueries({ queryKey: query.queryKey, exact: true })
    queryClient.setQueryData(query.queryKey, data, { updatedAt: at })
  })
  bus.on('want', ({ hash }) => {
    const last = typeof hash === 'string' ? lastShared.get(hash) : undefined
    if (last && polls.get(hash as string)?.leading) bus.post('data', { hash, ...last })
  })
  bus.on('failed', ({ hash }) => {
    const poll = typeof hash === 'string' ? polls.get(hash) : undefined
    if (poll && !poll.leading) wake(poll)
  })

  const unsubscribe = cache.subscribe((event) => {
    const { query } = event
    if (!ours(query.queryKey)) return
    const hash = query.queryHash
    if (event.type === 'updated') {
      const { action } = event
      if (action.type === 'success' && !action.manual) {
        if (!shareable.delete(hash) || !polls.get(hash)?.leading) return
        const shared = { value: serializeBigInts(query.state.data), at: query.state.dataUpdatedAt }
        lastShared.set(hash, shared)
        bus.post('data', { hash, ...shared })
      } else if (action.type === 'error') {
        shareable.delete(hash)
        if (polls.get(hash)?.leading) bus.post('failed', { hash })
      }
    } else if (event.type !== 'observerResultsUpdated') update(query)
  })
  const updateAll = () => {
    for (const query of cache.getAll()) if (ours(query.queryKey)) update(query)
  }
  const unsubscribeVisibility = environment.onVisibilityChange(updateAll)
  updateAll()

  return {
    isLeader(queryKey) {
      const query = cache.find({ queryKey, exact: true })
      return !!query && !!polls.get(query.queryHash)?.leading
    },
    stop() {
      if (stopped) return
      stopped = true
      unsubscribe()
      unsubscribeVisibility()
      for (const key of defaultsKeys) queryClient.setQueryDefaults(key, {})
      for (const [hash, poll] of polls) end(hash, poll)
    },
  }
}

function isSerialized(value: unknown): value is SerializedBigInts {
  return isObject(value) && 'json' in value && Array.isArray(value.bigints)
}
