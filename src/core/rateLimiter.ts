import { durationRule, ensure } from './errors/parameter.js'
import { latestTime } from './utils/retryAfter.js'
import { abortError } from './utils/signal.js'

/** The client's pace: requests per second, the burst it allows, and how long a 429 may pause it. */
export type RateLimitConfig = {
  /** Sustained requests per second this client may send. */
  requestsPerSecond: number
  /**
   * How many requests may leave at once after a quiet spell (the bucket size).
   * Default 1: evenly spaced requests, which no server-side limiter (token
   * bucket, fixed or sliding window) counts as a burst.
   */
  burst?: number | undefined
}

/**
 * Whether the client is paused after a 429 (see `useRateLimitState`).
 *
 * @example
 * const { rateLimitedUntil, requestedUntil, capped } = client.rateLimiter.getState()
 * if (capped) console.warn(`the service asked to wait until ${new Date(requestedUntil!)}`)
 */
export type RateLimitState = {
  /**
   * Epoch milliseconds until which the client sends nothing, after a 429:
   * the pause it actually takes (at most `maxPauseMs`); `undefined` when not paused.
   */
  rateLimitedUntil: number | undefined
  /**
   * Epoch milliseconds until which the server asked the client to wait;
   * later than `rateLimitedUntil` when the pause was capped. `undefined` when not paused.
   */
  requestedUntil: number | undefined
  /**
   * True when the server asked for a longer pause than `maxPauseMs` and the
   * client cut it short: `requestedUntil > rateLimitedUntil`.
   */
  capped: boolean
}

/**
 * Options of `createRateLimiter` besides the pacing itself.
 *
 * @example
 * const limiter = createRateLimiter(defaultRateLimit, { maxPauseMs: 120_000 })
 */
export type RateLimiterOptions = {
  /**
   * The longest pause after a 429, whatever `Retry-After` or a reset header
   * says. Default 60 000 (one minute); `Infinity` to obey any pause. The
   * only cap: `parseRetryAfter` reports what the server asked.
   */
  maxPauseMs?: number | undefined
}

export type RateLimiter = {
  /**
   * Waits for a slot: for the end of a 429 pause, for a token of the bucket
   * and, in the careful spell after a 429, for the request in flight to end.
   * Resolves with `release`, to call once the answer is in.
   */
  acquire(signal?: AbortSignal): Promise<() => void>
  /**
   * Pauses every request of the client after a 429, for `retryAfterMs` (the
   * server's word; a doubling fallback when `undefined`) but at most
   * `maxPauseMs`; returns when the pause ends (the latest pause, when one
   * was already running).
   */
  onRateLimited(retryAfterMs: number | undefined): number
  /** Called after an answer that is not a 429. */
  onSuccess(): void
  getState(): RateLimitState
  /** The bucket as it stands now, read without taking anything (the devtools panel shows it). */
  getTokens(): RateLimiterTokens
  subscribe(listener: () => void): () => void
}

/**
 * The limiter's bucket at one moment (`rateLimiter.getTokens()`): reading it changes nothing.
 *
 * @example
 * const { tokens, capacity } = client.rateLimiter.getTokens() // 3.4 of 5: a burst of 3 may leave now
 */
export type RateLimiterTokens = {
  /** Tokens in the bucket now (a request takes one); `Infinity` without pacing (`rateLimit: false`). */
  tokens: number
  /** The bucket's size: the configured burst, 1 in the careful spell after a 429 (`getState` tells the pause). */
  capacity: number
}

/** What a client uses when `rateLimit` is not given: 5 requests per second, bursts of 5. */
export const defaultRateLimit = { requestsPerSecond: 5, burst: 5 } as const satisfies RateLimitConfig

/** Pause after a 429 without any reset header: 1 s, doubling per consecutive 429, at most 30 s. */
const fallbackPauseMs = (consecutive: number) => Math.min(1000 * 2 ** (consecutive - 1), 30_000)

/**
 * The longest pause after a 429, checked: a number of milliseconds above 0
 * (`Infinity` for no cap), one minute when `undefined`. `parameter` names it
 * in the error (`maxPauseMs` here, `maxRateLimitPauseMs` in a client).
 */
export function resolveMaxPauseMs(maxPauseMs: unknown, parameter: string): number {
  if (maxPauseMs === undefined) return 60_000
  ensure(typeof maxPauseMs === 'number' && maxPauseMs > 0, parameter, durationRule, maxPauseMs)
  return maxPauseMs
}

/** How long after a pause the client stays careful: one request in flight, half the rate. */
export const carefulSpellMs = 10_000

/**
 * A client-wide token bucket plus a shared pause after a 429. After a pause
 * the client stays careful for a while (10 s without another 429): one request
 * in flight at a time, so that a 429 is always seen before the next request
 * leaves (at most one 429 per cooldown), and half the rate for each 429 (back
 * to the configured rate when the spell ends). With `false`, no pacing is done
 * but 429 pauses and the careful spell still apply.
 *
 * A server may ask for a very long pause (`Retry-After: 1000000000000`, a
 * reset a day ahead): the pause is capped at `maxPauseMs` (default one
 * minute), and `getState()` tells what was asked and that it was cut.
 *
 * Its parts: the bucket and the careful spell (`createBucket`); here, the
 * queue of waiting requests (a Map from what grants a request its slot to
 * what forgets its signal then: first in, first out, and an abort takes its
 * request out in O(1)), the pause and the state.
 *
 * @example
 * const limiter = createRateLimiter({ requestsPerSecond: 10, burst: 10 }, { maxPauseMs: 120_000 })
 * const release = await limiter.acquire()
 * try { await fetch(url) } finally { release() }
 */
export function createRateLimiter(
  config: RateLimitConfig | false | undefined,
  options: RateLimiterOptions = {},
): RateLimiter {
  const maxPauseMs = resolveMaxPauseMs(options.maxPauseMs, 'maxPauseMs')
  const queue = new Map<(release: () => void) => void, () => void>()
  // A request's answer is in: the next may go.
  const [take, tokenWait, slowDown, read] = createBucket(
    resolveConfig(config),
    () => queue.size > 0 && drain(),
  )
  let pausedUntil = 0
  let consecutive429 = 0
  const notPaused: RateLimitState = { rateLimitedUntil: undefined, requestedUntil: undefined, capped: false }
  let state = notPaused
  let timer: ReturnType<typeof setTimeout> | undefined
  const listeners = new Set<() => void>()

  // Every call is a change: the end of a pause, or a pause ending later than the last one.
  const setState = (next: RateLimitState) => {
    state = next
    for (const listener of listeners) listener()
  }

  const schedule = (delay: number) => {
    if (timer !== undefined) clearTimeout(timer)
    // A timer fires after at most 2^31 - 1 ms (a longer delay would fire at once): a longer
    // pause wakes up on the way and schedules the rest.
    timer = setTimeout(
      () => {
        timer = undefined
        drain()
      },
      Math.min(Math.max(0, Math.ceil(delay)), 2 ** 31 - 1),
    )
  }

  const drain = () => {
    const now = Date.now()
    if (now < pausedUntil) return schedule(pausedUntil - now)
    if (state.rateLimitedUntil !== undefined) setState(notPaused)
    for (const [resolve, cleanup] of queue) {
      const release = take(now)
      if (!release) break
      queue.delete(resolve)
      cleanup()
      resolve(release)
    }
    // Waiting for a token: wake when it is there. Waiting for the request in flight: its release wakes us.
    const wait = tokenWait()
    if (queue.size > 0 && wait > 0) schedule(wait)
    else if (timer !== undefined && now >= pausedUntil) {
      clearTimeout(timer)
      timer = undefined
    }
  }

  return {
    acquire(signal) {
      if (signal?.aborted) return Promise.reject(abortError(signal))
      const now = Date.now()
      const release = queue.size === 0 && now >= pausedUntil && take(now)
      if (release) return Promise.resolve(release)
      return new Promise<() => void>((resolve, reject) => {
        const onAbort = () => queue.delete(resolve) && reject(abortError(signal))
        signal?.addEventListener('abort', onAbort, { once: true })
        queue.set(resolve, () => signal?.removeEventListener('abort', onAbort))
        if (timer === undefined) drain()
      })
    },
    onRateLimited(retryAfterMs) {
      consecutive429 += 1
      const now = Date.now()
      // What the server asked (never negative nor past the latest Date), then the cap.
      const requested = Math.min(
        Math.max(0, retryAfterMs ?? fallbackPauseMs(consecutive429)) || 0,
        latestTime - now,
      )
      const until = now + Math.min(requested, maxPauseMs)
      slowDown(Math.max(until, pausedUntil))
      if (until > pausedUntil) {
        pausedUntil = until
        setState({
          rateLimitedUntil: until,
          requestedUntil: now + requested,
          capped: now + requested > until,
        })
        schedule(until - Date.now())
      }
      return pausedUntil
    },
    onSuccess() {
      consecutive429 = 0
    },
    getState: () => state,
    getTokens: read,
    subscribe(listener) {
      listeners.add(listener)
      return () => listeners.delete(listener)
    },
  }
}

/**
 * The token bucket of a limiter (`rate` tokens a second, at most `burst`
 * kept), and its careful spell after a 429: until it ends, one request in
 * flight at a time, half the rate for each 429 (a sixteenth of the
 * configured rate at least) and bursts of one; the configured pacing again
 * after it. Its functions come as a tuple (`[take, wait, slowDown, read]`): names
 * of an object's methods would stay in the minified bundle, a tuple's are the
 * caller's and minify away.
 */
function createBucket(configured: { rate: number; burst: number }, onRelease: () => void) {
  let { rate, burst } = configured
  let tokens = burst
  let refilledAt = Date.now()
  let carefulUntil = 0
  let inFlight = 0

  // The tokens at `now`, none taken: a full bucket at once at an infinite rate (no pacing).
  const level = (now: number) =>
    rate === Infinity ? burst : Math.min(burst, tokens + ((now - refilledAt) / 1000) * rate)
  const refill = (now: number) => {
    tokens = level(now)
    refilledAt = now
  }

  return [
    /**
     * `take(now)`: when a request may leave now (a token, and not careful with one in flight), takes
     * the token and returns the request's release (`onRelease` once its answer is in); else `undefined`.
     */
    (now: number) => {
      if (carefulUntil !== 0 && now >= carefulUntil) {
        carefulUntil = 0
        ;({ rate, burst } = configured)
      }
      refill(now)
      if ((carefulUntil !== 0 && inFlight > 0) || tokens < 1) return undefined
      tokens -= 1
      inFlight += 1
      let released = false
      return () => {
        if (released) return
        released = true
        inFlight -= 1
        onRelease()
      }
    },
    /** `wait()`: milliseconds until the next token, when there is none (0 when there is). */
    () => (tokens < 1 ? ((1 - tokens) / rate) * 1000 : 0),
    /** `slowDown(pausedUntil)`: a 429; careful for `carefulSpellMs` after the pause, at half the rate, bursts of one. */
    (pausedUntil: number) => {
      carefulUntil = pausedUntil + carefulSpellMs
      rate = Math.max(rate / 2, configured.rate / 16)
      burst = 1
      tokens = Math.min(tokens, 1)
    },
    /**
     * `read()`: the bucket now, read without changing anything: the tokens refilled since the last
     * request (at the careful spell's pace until a request sees the spell is over) and its size.
     */
    () => ({ tokens: level(Date.now()), capacity: burst }),
  ] as const
}

function resolveConfig(config: RateLimitConfig | false | undefined) {
  if (config === false) return { rate: Infinity, burst: Infinity }
  const { requestsPerSecond, burst = config ? 1 : defaultRateLimit.burst } = config ?? defaultRateLimit
  ensure(
    typeof requestsPerSecond === 'number' && Number.isFinite(requestsPerSecond) && requestsPerSecond > 0,
    'rateLimit.requestsPerSecond',
    'must be a finite number greater than 0',
    requestsPerSecond,
  )
  ensure(
    typeof burst === 'number' && Number.isInteger(burst) && burst >= 1,
    'rateLimit.burst',
    'must be an integer of at least 1',
    burst,
  )
  return { rate: requestsPerSecond, burst }
}
