import type { RateLimiter, RateLimitState } from '../core/rateLimiter.js'
import { abortError } from '../core/utils/signal.js'
import type { Bus } from './bus.js'
import { holdLock, namePrefix, type TabEnvironment } from './environment.js'

export type ShareRateLimiterParameters = {
  /** The client's limiter: its methods are replaced until `stop()`, and put back then. */
  limiter: RateLimiter
  bus: Bus
  environment: TabEnvironment
  /** The Web Lock whose holder runs the budget: one per service. */
  lockName: string
}

export type SharedRateLimiter = {
  /** Whether this tab runs the budget of every tab now. */
  isLeader(): boolean
  /** Back to this tab's own limiter. */
  stop(): void
}

/** A request of this tab waiting for a slot from the leading tab. */
type Waiter = {
  resolve: (release: () => void) => void
  reject: (error: unknown) => void
  signal: AbortSignal | undefined
  onAbort: () => void
}

/** A slot this (leading) tab's limiter handed to a request of another tab, or is about to. */
type Grant = { tab: string; controller: AbortController; release?: (() => void) | undefined }

/**
 * One budget for every tab of the origin: the tab holding the Web Lock
 * `lockName` runs the budget with its own limiter (the library's: token
 * bucket, FIFO queue, 429 pause, careful spell), and the others ask it for
 * each slot over the channel and tell it of every 429 and every success. Its
 * state (`rateLimitedUntil`, `requestedUntil`, `capped`) is every tab's state.
 *
 * - A tab that closes releases its locks: the next tab in the lock's queue
 *   takes the lead, with the pause the last leader announced; the other tabs
 *   send it the requests still waiting. Slots held by a tab that closed are
 *   given back (the leader waits on that tab's own lock).
 * - A leading tab that is hidden hands the lead on when another tab waits for
 *   it (a hidden page's timers are throttled), and when a tab is shown.
 *
 * @example
 * const shared = shareRateLimiter({ limiter: client.rateLimiter, bus, environment, lockName })
 * // client.rateLimiter.acquire() now waits for a slot of the origin's budget
 * shared.stop()
 */
export function shareRateLimiter({
  limiter,
  bus,
  environment,
  lockName,
}: ShareRateLimiterParameters): SharedRateLimiter {
  const own: RateLimiter = { ...limiter }
  const { tabId } = bus
  const { locks } = environment
  const stopper = new AbortController()
  const stopped = stopper.signal
  let leading = false
  let stepDown: (() => void) | undefined
  let mirrored = own.getState()
  const listeners = new Set<() => void>()
  const waiting = new Map<string, Waiter>()
  const grants = new Map<string, Grant>()
  const watched = new Set<string>()
  let sequence = 0

  const notify = () => {
    for (const listener of [...listeners]) listener()
  }
  const lifeLock = (tab: string) => `${namePrefix}:tab:${tab}`

  // This tab's own lock, held for its life: the leader waits on it to learn that the tab is gone.
  // Nothing is asked of a leader before it is held.
  const ready = holdLock(locks, lifeLock(tabId), { signal: stopped }).then((release) => {
    if (release) stopped.aborted ? release() : stopped.addEventListener('abort', release, { once: true })
  })

  function acquire(signal?: AbortSignal): Promise<() => void> {
    if (leading || stopped.aborted) return own.acquire(signal)
    if (signal?.aborted) return Promise.reject(abortError(signal))
    return new Promise((resolve, reject) => {
      const id = `${tabId}:${++sequence}`
      const onAbort = () => {
        if (!waiting.delete(id)) return
        bus.post('abort', { id })
        reject(abortError(signal))
      }
      waiting.set(id, { resolve, reject, signal, onAbort })
      signal?.addEventListener('abort', onAbort, { once: true })
      void ready.then(() => {
        if (waiting.has(id) && !leading) bus.post('acquire', { id })
      })
    })
  }

  /** This tab's requests waiting for a remote slot go through its own limiter (it leads, or stopped). */
  function serveHere() {
    for (const [id, waiter] of waiting) {
      waiting.delete(id)
      waiter.signal?.removeEventListener('abort', waiter.onAbort)
      own.acquire(waiter.signal).then(waiter.resolve, waiter.reject)
    }
  }

  /** The state every tab shows: the leader's; this tab's own limiter takes the pause too. */
  function mirror(state: RateLimitState) {
    const previous = mirrored
    mirrored = state
    const until = state.rateLimitedUntil
    // Own pause follows the leader's (the server's word, the same cap), so that it holds here should
    // this tab lead next, and so that whoever listened to the limiter before the coordinator hears it.
    if (until !== undefined && until > (own.getState().rateLimitedUntil ?? 0))
      own.onRateLimited(Math.max(0, (state.requestedUntil ?? until) - Date.now()))
    if (
      previous.rateLimitedUntil !== state.rateLimitedUntil ||
      previous.requestedUntil !== state.requestedUntil ||
      previous.capped !== state.capped
    )
      notify()
  }

  const shared: RateLimiter = {
    acquire,
    onRateLimited(retryAfterMs) {
      const until = own.onRateLimited(retryAfterMs)
      if (!leading && !stopped.aborted) {
        bus.post('rateLimited', { retryAfterMs, at: Date.now() })
        if (until > (mirrored.rateLimitedUntil ?? 0)) mirror(own.getState())
      }
      return until
    },
    onSuccess() {
      own.onSuccess()
      if (!leading && !stopped.aborted) bus.post('succeeded')
    },
    getState: () => (leading ? own.getState() : mirrored),
    subscribe(listener) {
      listeners.add(listener)
      return () => {
        listeners.delete(listener)
      }
    },
  }
  Object.assign(limiter, shared)

  const unsubscribeOwn = own.subscribe(() => {
    if (!leading) return
    bus.post('state', { state: own.getState() })
    notify()
  })

  // The leader's side: a slot per request of another tab, from this tab's own limiter.
  const end = (id: string) => {
    const grant = grants.get(id)
    if (!grant) return
    grants.delete(id)
    if (grant.release) grant.release()
    else grant.controller.abort()
  }
  function watch(tab: string) {
    if (watched.has(tab)) return
    watched.add(tab)
    void holdLock(locks, lifeLock(tab), { signal: stopped }).then((release) => {
      release?.()
      watched.delete(tab)
      // Granted: the tab is gone. Its slots come back; its queued requests are dropped.
      if (release) for (const [id, grant] of grants) if (grant.tab === tab) end(id)
    })
  }
  bus.on('acquire', ({ id, from }) => {
    if (!leading || typeof id !== 'string' || !id.startsWith(`${from}:`) || grants.has(id)) return
    watch(from)
    const grant: Grant = { tab: from, controller: new AbortController() }
    grants.set(id, grant)
    own.acquire(grant.controller.signal).then(
      (release) => {
        if (grants.get(id) !== grant) return release()
        grant.release = release
        bus.post('granted', { id })
      },
      () => {
        if (grants.get(id) === grant) grants.delete(id)
      },
    )
  })
  bus.on('release', ({ id, to }) => {
    if (to === tabId && typeof id === 'string') end(id)
  })
  bus.on('abort', ({ id }) => {
    if (typeof id === 'string') end(id)
  })
  bus.on('rateLimited', ({ retryAfterMs, at }) => {
    if (!leading) return
    // The server's word from when the other tab heard it: the same end, whenever it arrives here.
    const late = typeof at === 'number' ? Math.max(0, Date.now() - at) : 0
    own.onRateLimited(typeof retryAfterMs === 'number' ? Math.max(0, retryAfterMs - late) : undefined)
  })
  bus.on('succeeded', () => {
    if (leading) own.onSuccess()
  })
  bus.on('hello', () => {
    if (leading) announce()
  })

  // The follower's side.
  bus.on('granted', ({ id, from }) => {
    if (typeof id !== 'string' || !id.startsWith(`${tabId}:`)) return
    const waiter = waiting.get(id)
    // Granted twice (the lead changed on the way) or given up already: the slot goes back.
    if (!waiter) return bus.post('release', { id, to: from })
    waiting.delete(id)
    waiter.signal?.removeEventListener('abort', waiter.onAbort)
    let released = false
    waiter.resolve(() => {
      if (released) return
      released = true
      bus.post('release', { id, to: from })
    })
  })
  bus.on('leader', () => {
    if (leading) return
    // A new leader: it has not heard of the requests still waiting here.
    void ready.then(() => {
      for (const id of waiting.keys()) bus.post('acquire', { id })
    })
  })
  bus.on('state', ({ state }) => {
    if (!leading && isRateLimitState(state)) mirror(state)
  })

  function announce() {
    bus.post('leader')
    bus.post('state', { state: own.getState() })
  }

  async function lead() {
    while (!stopped.aborted) {
      const release = await holdLock(locks, lockName, { signal: stopped })
      if (!release) return
      if (stopped.aborted) return release()
      leading = true
      serveHere()
      announce()
      notify()
      await new Promise<void>((resolve) => {
        stepDown = resolve
        stopped.addEventListener('abort', () => resolve(), { once: true })
      })
      stepDown = undefined
      leading = false
      release()
      // Requests of other tabs still queued here go to the next leader: their tabs send them again.
      for (const [id, grant] of grants) if (!grant.release) end(id)
      mirrored = own.getState()
    }
  }
  void ready.then(() => {
    if (stopped.aborted) return
    bus.post('hello')
    void lead()
  })

  // A hidden page's timers are throttled: a hidden leader hands the lead on to a tab that waits for it.
  async function handOff() {
    const state = await locks.query?.().catch(() => undefined)
    if (leading && !environment.isVisible() && state?.pending?.some((lock) => lock.name === lockName))
      stepDown?.()
  }
  const unsubscribeVisibility = environment.onVisibilityChange(() => {
    if (environment.isVisible()) bus.post('visible')
    else if (leading) void handOff()
  })
  bus.on('visible', () => {
    if (leading && !environment.isVisible()) void handOff()
  })

  return {
    isLeader: () => leading,
    stop() {
      if (stopped.aborted) return
      stopper.abort()
      unsubscribeVisibility()
      unsubscribeOwn()
      Object.assign(limiter, own)
      serveHere()
      for (const id of [...grants.keys()]) end(id)
      leading = false
    },
  }
}

function isRateLimitState(value: unknown): value is RateLimitState {
  if (typeof value !== 'object' || value === null) return false
  const { rateLimitedUntil, requestedUntil, capped } = value as Record<string, unknown>
  const time = (field: unknown) => field === undefined || typeof field === 'number'
  return time(rateLimitedUntil) && time(requestedUntil) && typeof capped === 'boolean'
}
