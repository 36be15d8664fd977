import type { RateLimiter, RateLimitState } from '../core/rateLimiter.js'
import { abortError } from '../core/utils/signal.js'
import type { Bus } from './bus.js'
import { heldTogether, holdLock, type LockManagerLike, lifeLock, type TabEnvironment } from './environment.js'

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

/**
 * One budget for every tab of the origin: the tab holding the Web Lock
 * `lockName` runs the budget with its own limiter (the library's: token
 * bucket, FIFO queue, 429 pause, careful spell), and the others ask it for
 * each slot over the channel (`askLeader`, `grantSlots`) and tell it of every
 * 429 met on a slot it granted and of every success. Its state
 * (`rateLimitedUntil`, `requestedUntil`, `capped`) is every tab's state
 * (`shareState`).
 *
 * What the channel says cannot pause the origin for longer than the service
 * asked: the leader takes a 429 report only for a slot it granted and that is
 * still in use, once; a tab believes a pause only while the leader holds a
 * lock named after its end, and its own limiter caps it.
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
  const { locks } = environment
  const stopper = new AbortController()
  const stopped = stopper.signal
  let leading = false
  let stepDown: (() => void) | undefined
  const listeners = new Set<() => void>()
  const notify = () => {
    for (const listener of [...listeners]) listener()
  }
  // This tab's own lock, held for its life: the leader waits on it to learn that the tab is gone, and
  // the other tabs check by it that a message comes from the tab it names.
  const ready = holdLock(locks, lifeLock(bus.tabId), stopped)
  const isLeading = () => leading
  const remote = askLeader(own, bus, isLeading, ready)
  const slots = grantSlots(own, bus, locks, stopped, isLeading)
  const state = shareState(own, bus, locks, lockName, stopped, isLeading, notify)

  // The tab's own bucket stays what getTokens reads (the limiter's own method, kept by the assign).
  const shared: Omit<RateLimiter, 'getTokens'> = {
    acquire: (signal) => (leading || stopped.aborted ? own.acquire(signal) : remote.acquire(signal)),
    onRateLimited(retryAfterMs) {
      const until = own.onRateLimited(retryAfterMs)
      if (!leading && !stopped.aborted) {
        // The leader takes it against a slot it granted this tab that is still in use (this request's).
        bus.post('rateLimited', { retryAfterMs, at: Date.now() })
        if (until > (state.get().rateLimitedUntil ?? 0)) state.mirror(own.getState())
      }
      return until
    },
    onSuccess() {
      own.onSuccess()
      if (!leading && !stopped.aborted) bus.post('succeeded')
    },
    getState: () => (leading ? own.getState() : state.get()),
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
    state.publish()
    notify()
  })
  const announce = () => {
    bus.post('leader')
    state.publish()
  }
  bus.on('hello', () => {
    if (leading) announce()
  })

  async function lead() {
    while (!stopped.aborted) {
      const release = await holdLock(locks, lockName, stopped)
      if (!release || stopped.aborted) return
      leading = true
      remote.serveHere()
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
      slots.end(true)
      state.reset()
    }
  }
  void ready.then(() => {
    if (stopped.aborted) return
    bus.post('hello')
    void lead()
  })

  // A hidden page's timers are throttled: a hidden leader hands the lead on to a tab that waits for it.
  async function handOff() {
    const locked = await locks.query?.().catch(() => undefined)
    if (leading && !environment.isVisible() && locked?.pending?.some((lock) => lock.name === lockName))
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
      remote.serveHere()
      slots.end(false)
      state.reset()
      leading = false
    },
  }
}

/** A request of this tab waiting for a slot from the leading tab. */
type Waiter = {
  resolve: (release: () => void) => void
  reject: (error: unknown) => void
  signal: AbortSignal | undefined
  onAbort: () => void
}

/**
 * A follower's side of the budget: each request of this tab asks the leading
 * tab for a slot (`acquire`, sent again to a new leader) and gives it back
 * when its answer is in.
 */
function askLeader(own: RateLimiter, bus: Bus, leading: () => boolean, ready: Promise<unknown>) {
  const { tabId } = bus
  const waiting = new Map<string, Waiter>()
  let sequence = 0

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
    if (leading()) return
    // A new leader: it has not heard of the requests still waiting here.
    void ready.then(() => {
      for (const id of waiting.keys()) bus.post('acquire', { id })
    })
  })

  return {
    acquire(signal?: AbortSignal): Promise<() => void> {
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
          if (waiting.has(id) && !leading()) bus.post('acquire', { id })
        })
      })
    },
    /** This tab's requests waiting for a remote slot go through its own limiter (it leads, or stopped). */
    serveHere() {
      for (const [id, waiter] of waiting) {
        waiting.delete(id)
        waiter.signal?.removeEventListener('abort', waiter.onAbort)
        own.acquire(waiter.signal).then(waiter.resolve, waiter.reject)
      }
    },
  }
}

/** A slot this (leading) tab's limiter handed to a request of another tab, or is about to. */
type Grant = {
  tab: string
  controller: AbortController
  release?: (() => void) | undefined
  /** A 429 was reported on it: a second report is not taken. */
  reported?: true
}

/**
 * The leader's side of the budget: a slot of this tab's own limiter for each
 * request of another tab, given back when that tab says so, aborts or is gone
 * (its life lock is released). A tab's 429 report pauses the budget only
 * against a slot granted here to that tab and still in use, once each (the
 * request that met the 429 holds one): a pause lasts what the service asked
 * (capped by this tab's limiter), and no slot is granted while it runs, so
 * no flood of reports can stretch it.
 */
function grantSlots(
  own: RateLimiter,
  bus: Bus,
  locks: LockManagerLike,
  stopped: AbortSignal,
  leading: () => boolean,
) {
  const grants = new Map<string, Grant>()
  const watched = new Set<string>()

  /** Ends the slot `id` (only when `tab` holds it, when given): given back, or no longer asked for. */
  const end = (id: unknown, tab?: string) => {
    const grant = grants.get(id as string)
    if (!grant || (tab && grant.tab !== tab)) return
    grants.delete(id as string)
    if (grant.release) grant.release()
    else grant.controller.abort()
  }
  function watch(tab: string) {
    if (watched.has(tab)) return
    watched.add(tab)
    void holdLock(locks, lifeLock(tab), stopped).then((release) => {
      release?.()
      watched.delete(tab)
      // Granted: the tab is gone. Its slots come back; its queued requests are dropped.
      if (release) for (const [id, grant] of grants) if (grant.tab === tab) end(id)
    })
  }

  bus.on('acquire', ({ id, from }) => {
    if (!leading() || typeof id !== 'string' || !id.startsWith(`${from}:`) || grants.has(id)) return
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
  bus.on('release', ({ id, to, from }) => {
    if (to === bus.tabId) end(id, from)
  })
  bus.on('abort', ({ id, from }) => end(id, from))
  bus.on('rateLimited', ({ retryAfterMs, at, from }) => {
    const slot = [...grants.values()].find((grant) => grant.tab === from && grant.release && !grant.reported)
    if (!leading() || !slot) return
    slot.reported = true
    // The server's word from when the other tab heard it: the same end, whenever it arrives here.
    const late = typeof at === 'number' ? Math.max(0, Date.now() - at) : 0
    own.onRateLimited(typeof retryAfterMs === 'number' ? Math.max(0, retryAfterMs - late) : undefined)
  })
  bus.on('succeeded', () => {
    if (leading()) own.onSuccess()
  })

  return {
    /** Ends the slots of other tabs: only those still queued here (`queued`), or all. */
    end(queued: boolean) {
      for (const [id, grant] of grants) if (!queued || !grant.release) end(id)
    },
  }
}

/**
 * The budget's state as every tab shows it: the leader's. The leader
 * publishes each change of its own state (`publish`), a pause only once it
 * holds a lock named after the pause's end, and until the state changes. A
 * follower believes a pause only while the holder of the budget's lock also
 * holds that one, and any other state only from the holder of the budget's
 * lock (the lock manager says who holds what): a message alone, repeated or
 * sent in the leader's name, pauses nothing. A follower's own limiter takes
 * the pause too, capped by its own `maxRateLimitPauseMs`, and never shows a
 * pause longer than that.
 */
function shareState(
  own: RateLimiter,
  bus: Bus,
  locks: LockManagerLike,
  lockName: string,
  stopped: AbortSignal,
  leading: () => boolean,
  notify: () => void,
) {
  let mirrored = own.getState()
  // The lock the leader holds while its limiter is paused until `proven`: the proof of that pause.
  let proven: number | undefined
  let proof = new AbortController()
  let held: Promise<unknown> = Promise.resolve()

  function mirror(state: RateLimitState) {
    const until = state.rateLimitedUntil
    // Own pause follows the leader's (the server's word, capped here too), so that it holds here should
    // this tab lead next, and so that whoever listened to the limiter before the coordinator hears it;
    // shown no longer than this tab's own limiter takes it.
    if (until !== undefined && until > (own.getState().rateLimitedUntil ?? 0)) {
      const ownUntil = own.onRateLimited(Math.max(0, (state.requestedUntil ?? until) - Date.now()))
      if (until > ownUntil) state = { ...state, rateLimitedUntil: ownUntil }
    }
    mirrored = state
    // A leader sends its state when it changes (and to a tab that says hello): each one is news.
    notify()
  }

  bus.on('state', ({ state, from }) => {
    if (leading() || !isRateLimitState(state)) return
    const until = state.rateLimitedUntil
    void heldTogether(locks, lockName, until === undefined ? lifeLock(from) : `${lockName}:${until}`).then(
      (proven) => {
        if (proven && !leading() && !stopped.aborted) mirror(state)
      },
    )
  })

  return {
    get: () => mirrored,
    mirror,
    /** Sends this (leading) tab's state to the others, once its pause, if any, is proven. */
    publish() {
      const state = own.getState()
      const until = state.rateLimitedUntil
      if (until !== proven) {
        proof.abort()
        proof = new AbortController()
        proven = until
        held = until === undefined ? Promise.resolve() : holdLock(locks, `${lockName}:${until}`, proof.signal)
      }
      const current = held
      void current.then(() => {
        if (leading() && held === current) bus.post('state', { state })
      })
    },
    /** This tab stopped leading: its own state until the next leader speaks; its pause is no longer proven. */
    reset() {
      proof.abort()
      proven = undefined
      held = Promise.resolve()
      mirrored = own.getState()
    },
  }
}

function isRateLimitState(value: unknown): value is RateLimitState {
  const { rateLimitedUntil, requestedUntil, capped } = (value ?? {}) as Record<string, unknown>
  const times = [rateLimitedUntil, requestedUntil]
  return typeof capped === 'boolean' && times.every((time) => time === undefined || typeof time === 'number')
}
