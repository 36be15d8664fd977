import type { Query, QueryClient, QueryFunctionContext, QueryKey } from '@tanstack/react-query'
import type { SwapClient } from '../core/client.js'
import { queryDefaults } from '../query/defaults.js'
import type { Bus, TabMessage } from './bus.js'
import {
  heldTogether,
  holdLock,
  type LockManagerLike,
  lifeLock,
  namePrefix,
  type TabEnvironment,
} from './environment.js'

export type SharePollingParameters = {
  /** The client: its `request` is wrapped until `stop()` (see `tapRequests`). */
  client: SwapClient
  queryClient: QueryClient
  bus: Bus
  environment: TabEnvironment
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
  /** Aborted when this tab stops polling the query: its lock request is withdrawn, or the lock released. */
  controller: AbortController
  leading: boolean
  /** Fetches held until the leader's answer comes; each is told to go to the service instead. */
  held: Set<() => void>
}

/** What a leading tab shares of a query: the service's body, as the query's schema was given it, and when. */
type Shared = { body: unknown; at: number }

const resources = Object.keys(queryDefaults)

type QueryFn = (context: QueryFunctionContext) => unknown
type Persister = (queryFn: QueryFn, context: QueryFunctionContext, query: Query) => unknown

/** The Web Lock whose holder fetches the query of this hash for every tab. */
const pollLock = (hash: string) => `${namePrefix}:poll:${hash}`

/**
 * One tab fetches each polled swap query for every tab of the origin. For a
 * query this tab polls (an observer with a `refetchInterval`, the page
 * visible or `refetchIntervalInBackground` set), it requests the Web Lock
 * named after the query's hash; the holder fetches, and after each answer of
 * the client broadcasts the service's body (what the endpoint's schema was
 * given) with its `dataUpdatedAt`. The other tabs hold their own fetches of it
 * and take the leader's answer only
 *
 * - for a query they poll and do not lead;
 * - from the tab that holds the query's lock: the lock manager must show the
 *   sender (named in the message) and the lock's holder to be one page;
 * - through their own query function, whose request parses the body with the
 *   endpoint's schema instead of fetching (`replay`): the same parameter
 *   checks, the same schema (a route must run from this query's token0 to its
 *   token1), the same `quotedFor` as a fetch of it;
 * - newer than what they have, dated no later than now.
 *
 * They put it in their QueryClient (`setQueryData` with `updatedAt`). A tab
 * that closes releases its locks: the next tab takes the lead and its held
 * fetch goes to the service. When the leader's fetch fails, or nothing comes
 * within the polling interval and `followerGraceMs`, a held fetch goes to the
 * service.
 *
 * The hold is a TanStack `persister`, set as the query default of the
 * client's keys (`[resource, { baseUrl }]`); an app's own default persister
 * still runs, around the request.
 *
 * @example
 * const polling = sharePolling({ client, queryClient, bus, environment })
 * polling.isLeader(getSwapRouteQueryKey({ baseUrl: client.baseUrl, token0, token1, amountIn }))
 */
export function sharePolling({
  client,
  queryClient,
  bus,
  environment,
}: SharePollingParameters): SharedPolling {
  const cache = queryClient.getQueryCache()
  const polls = new Map<string, Poll>()
  /** The body of the answer each query's fetch in flight here got from the client: it may be shared. */
  const shareable = new Map<string, unknown>()
  const lastShared = new Map<string, Shared>()
  const requests = tapRequests(client)
  let stopped = false

  const ours = (key: QueryKey) =>
    key.length === 2 &&
    resources.includes(key[0] as string) &&
    (key[1] as { baseUrl?: unknown } | null | undefined)?.baseUrl === client.baseUrl

  function update(query: Query) {
    const hash = query.queryHash
    const poll = polls.get(hash)
    const wanted = !stopped && cache.get(hash) === query && isPolled(query, environment.isVisible())
    if (wanted && !poll) start(hash)
    else if (!wanted && poll) end(hash, poll)
  }

  function start(hash: string) {
    const poll: Poll = { controller: new AbortController(), leading: false, held: new Set() }
    polls.set(hash, poll)
    void holdLock(environment.locks, pollLock(hash), poll.controller.signal).then((release) => {
      if (!release || polls.get(hash) !== poll) return
      poll.leading = true
      // This tab leads now: a fetch it held goes to the service.
      wake(poll)
    })
  }

  function end(hash: string, poll: Poll) {
    polls.delete(hash)
    lastShared.delete(hash)
    poll.controller.abort()
    wake(poll)
  }

  const persister: Persister = (queryFn, context, query) => {
    const poll = polls.get(query.queryHash)
    if (stopped || !poll || poll.leading) return fetchHere(queryFn, context, query)
    return awaitLeader(poll, context.signal, query, client, bus).then(() =>
      fetchHere(queryFn, context, query),
    )
  }

  /** The fetch itself, through the app's own default persister if it has one; keeps what the client answered. */
  async function fetchHere(queryFn: QueryFn, context: QueryFunctionContext, query: Query) {
    const appPersister = queryClient.getDefaultOptions().queries?.persister as Persister | undefined
    const data = await (appPersister ? appPersister(queryFn, context, query) : queryFn(context))
    const answer = requests.bodies.get(context.signal)
    if (answer) shareable.set(query.queryHash, answer.body)
    return data
  }

  const defaultsKeys = resources.map((resource) => [resource, { baseUrl: client.baseUrl }] as const)
  for (const key of defaultsKeys) queryClient.setQueryDefaults(key, { persister: persister as never })

  bus.on('data', (message) => takeAnswer(message, polls, queryClient, environment.locks, requests.replays))
  bus.on('want', ({ hash }) => {
    // Only a leading tab has shared anything (`end` forgets it).
    const last = lastShared.get(hash as string)
    if (last) bus.post('data', { hash, ...last })
  })
  bus.on('failed', ({ hash }) => {
    const poll = polls.get(hash as string)
    if (poll && !poll.leading) wake(poll)
  })

  const unsubscribe = cache.subscribe((event) => {
    const { query } = event
    if (!ours(query.queryKey)) return
    const hash = query.queryHash
    if (event.type === 'updated') {
      const { action } = event
      if (action.type === 'success' && !action.manual) {
        const fetched = shareable.has(hash)
        const shared = { body: shareable.get(hash), at: query.state.dataUpdatedAt }
        shareable.delete(hash)
        if (!fetched || !polls.get(hash)?.leading) return
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
      requests.restore()
      for (const key of defaultsKeys) queryClient.setQueryDefaults(key, {})
      for (const [hash, poll] of polls) end(hash, poll)
    },
  }
}

/**
 * Holds a fetch of a query this tab follows: resolves (the fetch goes to the
 * service) when this tab must fetch itself (it leads now, the leader's fetch
 * failed, or nothing came within the polling interval, `followerGraceMs` and
 * a running 429 pause); rejects when TanStack cancels the fetch, as it does
 * when the leader's answer is set. Asks the leader for what it last fetched.
 */
function awaitLeader(poll: Poll, signal: AbortSignal, query: Query, client: SwapClient, bus: Bus) {
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

/**
 * Takes a leading tab's answer (a 'data' message) into this tab's cache, when
 * this tab follows the query, the sender holds the query's lock (the lock
 * manager's word), the query's own function accepts the body (`replay`), and
 * it is newer than what this tab has, dated no later than now.
 */
function takeAnswer(
  { hash, body, at, from }: TabMessage,
  polls: Map<string, Poll>,
  queryClient: QueryClient,
  locks: LockManagerLike,
  replays: WeakMap<AbortSignal, Replay>,
) {
  // Map and cache lookups take any key: a hash that is no string finds nothing.
  const poll = polls.get(hash as string)
  const query = poll && queryClient.getQueryCache().get(hash as string)
  if (!query || poll.leading) return
  void heldTogether(locks, pollLock(query.queryHash), lifeLock(from))
    .then((holder) => (holder ? replay(replays, query, body) : undefined))
    .then((data) => {
      // Never dated later than now: a timestamp from the future would keep it fresh for ever.
      const updatedAt = Math.min(at as number, Date.now())
      // The poll (and so the query: a query removed ends its poll) still followed here, and the answer newer
      // than what this tab has (false for a time that is no number).
      if (data === undefined || polls.get(query.queryHash) !== poll || poll.leading) return
      if (!(updatedAt > query.state.dataUpdatedAt)) return
      // A fetch held for this answer ends with it: cancelled back to where it was, then the data set.
      if (poll.held.size) void queryClient.cancelQueries({ queryKey: query.queryKey, exact: true })
      queryClient.setQueryData(query.queryKey, data, { updatedAt })
    })
}

/** Tells every fetch held for the leader's answer to go to the service. */
function wake(poll: Poll) {
  for (const resume of [...poll.held]) resume()
}

type ObserverOptions = {
  enabled?: boolean | ((query: Query) => boolean)
  refetchInterval?: number | false | ((query: Query) => number | false | undefined)
  refetchIntervalInBackground?: boolean
}

/** The interval an observer polls the query at: a finite number of milliseconds, or `undefined`. */
function pollingInterval(query: Query, { refetchInterval }: ObserverOptions): number | undefined {
  const interval = typeof refetchInterval === 'function' ? refetchInterval(query) : refetchInterval
  return typeof interval === 'number' && interval < Number.POSITIVE_INFINITY ? interval : undefined
}

/** Whether this tab polls the query now, as TanStack's observers would. */
function isPolled(query: Query, visible: boolean): boolean {
  return query.observers.some(({ options }) => {
    const { enabled, refetchIntervalInBackground } = options as ObserverOptions
    return (
      (typeof enabled === 'function' ? enabled(query) : enabled !== false) &&
      (pollingInterval(query, options as ObserverOptions) ?? 0) > 0 &&
      (visible || refetchIntervalInBackground === true)
    )
  })
}

/** The longest interval this tab polls the query at (15 s when it cannot tell). */
function intervalOf(query: Query): number {
  let longest = 0
  for (const { options } of query.observers)
    longest = Math.max(longest, pollingInterval(query, options as ObserverOptions) ?? 0)
  return longest || queryDefaults.swapRoute.refetchInterval
}

/** A request's answer seen on its way: the body the endpoint's schema was given. */
type Answer = { body: unknown }
/** A body from another tab, for the one request made with its signal; `parsed` once its schema took it. */
type Replay = { body: unknown; parsed: boolean }

/**
 * Wraps `client.request` (until `restore()`) so that
 *
 * - each request the client answers leaves, under its signal in `bodies`, the
 *   body it parsed: the value its schema's `safeParse` was given (the JSON,
 *   after `transformResponse`), which is what a leading tab shares;
 * - a request made with a signal of `replays` sends nothing: its schema parses
 *   that body instead (a follower takes the leader's answer this way, see
 *   `replay`).
 */
function tapRequests(client: SwapClient) {
  const request = client.request
  const writable = client as { request: SwapClient['request'] }
  const bodies = new WeakMap<AbortSignal, Answer>()
  const replays = new WeakMap<AbortSignal, Replay>()
  writable.request = (async (parameters) => {
    const { signal, schema } = parameters
    const replaying = signal && replays.get(signal)
    if (replaying) {
      replays.delete(signal)
      const result = schema.safeParse(replaying.body)
      if (!result.success) throw result.error
      replaying.parsed = true
      return result.data
    }
    let answer: Answer | undefined
    // The schema as it is, but for a look at what it is given (the request's parse is its safeParse).
    const watched = Object.create(schema) as typeof schema
    watched.safeParse = (body, options) => {
      answer = { body }
      return schema.safeParse(body, options)
    }
    const output = await request({ ...parameters, schema: watched })
    if (signal && answer) bodies.set(signal, answer)
    return output
  }) as SwapClient['request']
  return {
    bodies,
    replays,
    restore() {
      writable.request = request
    },
  }
}

/**
 * Runs the query's own function on `body`, as if the service had answered it:
 * its request parses the body with the endpoint's schema and sends nothing.
 * Resolves with the query's data, or `undefined` when the body was refused,
 * the function failed, or it made no request of the client (a query function
 * of the app's own: nothing of it is taken). The signal it gets is already
 * aborted: a function that sends its request through another client sends
 * nothing either.
 */
async function replay(replays: WeakMap<AbortSignal, Replay>, query: Query, body: unknown): Promise<unknown> {
  const controller = new AbortController()
  controller.abort()
  const { signal } = controller
  const replaying: Replay = { body, parsed: false }
  replays.set(signal, replaying)
  try {
    // The library's query functions read the signal (and a function of the app's own, the key).
    const queryFn = query.options.queryFn as QueryFn
    const data = await queryFn({ signal, queryKey: query.queryKey } as QueryFunctionContext)
    return replaying.parsed ? data : undefined
  } catch {
    return undefined
  } finally {
    replays.delete(signal)
  }
}
