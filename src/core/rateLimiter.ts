import { InvalidParameterError } from './errors/parameter.js'
import { abortError } from './utils/signal.js'

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

export type RateLimitState = {
  /** Epoch milliseconds until which the client sends nothing, after a 429; `undefined` when not paused. */
  rateLimitedUntil: number | undefined
}

export type RateLimiter = {
  /** Waits for a slot: for the end of a 429 pause and for a token of the bucket. */
  acquire(signal?: AbortSignal): Promise<void>
  /** Pauses every request of the client after a 429; returns when the pause ends. */
  onRateLimited(retryAfterMs: number | undefined): number
  /** Called after an answer that is not a 429. */
  onSuccess(): void
  getState(): RateLimitState
  subscribe(listener: () => void): () => void
}

/** What a client uses when `rateLimit` is not given: 5 requests per second, bursts of 5. */
export const defaultRateLimit = { requestsPerSecond: 5, burst: 5 } as const satisfies RateLimitConfig

/** Pause after a 429 without any reset header: 1 s, doubling per consecutive 429, at most 30 s. */
const fallbackPauseMs = (consecutive: number) => Math.min(1000 * 2 ** (consecutive - 1), 30_000)

type Waiter = { resolve: () => void; reject: (error: unknown) => void; cleanup: () => void }

/**
 * A client-wide token bucket plus a shared pause after a 429. With `false`, no
 * pacing is done but 429 pauses still apply.
 *
 * @example
 * const limiter = createRateLimiter({ requestsPerSecond: 10, burst: 10 })
 * await limiter.acquire()
 */
export function createRateLimiter(config: RateLimitConfig | false | undefined): RateLimiter {
  const { rate, burst } = resolveConfig(config)
  let tokens = burst
  let refilledAt = Date.now()
  let pausedUntil = 0
  let consecutive429 = 0
  let state: RateLimitState = { rateLimitedUntil: undefined }
  let timer: ReturnType<typeof setTimeout> | undefined
  const queue: Waiter[] = []
  const listeners = new Set<() => void>()

  const setState = (next: RateLimitState) => {
    if (next.rateLimitedUntil === state.rateLimitedUntil) return
    state = next
    for (const listener of listeners) listener()
  }

  const refill = (now: number) => {
    if (rate === Number.POSITIVE_INFINITY) tokens = burst
    else tokens = Math.min(burst, tokens + ((now - refilledAt) / 1000) * rate)
    refilledAt = now
  }

  const schedule = (delay: number) => {
    if (timer !== undefined) clearTimeout(timer)
    timer = setTimeout(
      () => {
        timer = undefined
        drain()
      },
      Math.max(0, Math.ceil(delay)),
    )
  }

  const drain = () => {
    const now = Date.now()
    if (now < pausedUntil) return schedule(pausedUntil - now)
    if (state.rateLimitedUntil !== undefined) setState({ rateLimitedUntil: undefined })
    refill(now)
    while (queue.length > 0 && tokens >= 1) {
      tokens -= 1
      const waiter = queue.shift() as Waiter
      waiter.cleanup()
      waiter.resolve()
    }
    if (queue.length > 0) schedule(((1 - tokens) / rate) * 1000)
  }

  return {
    acquire(signal) {
      if (signal?.aborted) return Promise.reject(abortError(signal))
      const now = Date.now()
      if (queue.length === 0 && now >= pausedUntil) {
        refill(now)
        if (tokens >= 1) {
          tokens -= 1
          return Promise.resolve()
        }
      }
      return new Promise<void>((resolve, reject) => {
        const onAbort = () => {
          const index = queue.indexOf(waiter)
          if (index >= 0) queue.splice(index, 1)
          reject(abortError(signal))
        }
        const waiter: Waiter = {
          resolve,
          reject,
          cleanup: () => signal?.removeEventListener('abort', onAbort),
        }
        signal?.addEventListener('abort', onAbort, { once: true })
        queue.push(waiter)
        if (timer === undefined) drain()
      })
    },
    onRateLimited(retryAfterMs) {
      consecutive429 += 1
      const until = Date.now() + (retryAfterMs ?? fallbackPauseMs(consecutive429))
      if (until > pausedUntil) {
        pausedUntil = until
        setState({ rateLimitedUntil: until })
        schedule(until - Date.now())
      }
      return pausedUntil
    },
    onSuccess() {
      consecutive429 = 0
    },
    getState: () => state,
    subscribe(listener) {
      listeners.add(listener)
      return () => listeners.delete(listener)
    },
  }
}

function resolveConfig(config: RateLimitConfig | false | undefined) {
  if (config === false) return { rate: Number.POSITIVE_INFINITY, burst: Number.POSITIVE_INFINITY }
  const { requestsPerSecond, burst = config ? 1 : defaultRateLimit.burst } = config ?? defaultRateLimit
  if (typeof requestsPerSecond !== 'number' || !Number.isFinite(requestsPerSecond) || requestsPerSecond <= 0)
    throw new InvalidParameterError({
      parameter: 'rateLimit.requestsPerSecond',
      rule: 'must be a finite number greater than 0',
      value: requestsPerSecond,
    })
  if (typeof burst !== 'number' || !Number.isInteger(burst) || burst < 1)
    throw new InvalidParameterError({
      parameter: 'rateLimit.burst',
      rule: 'must be an integer of at least 1',
      value: burst,
    })
  return { rate: requestsPerSecond, burst }
}
