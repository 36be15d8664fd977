import { ensure } from '../core/errors/parameter.js'
import type { MockRateLimit } from './types.js'

export type ClientRateLimiter = {
  /**
   * Takes a token from the client's bucket at `now` (epoch ms). When the
   * bucket is empty, nothing is taken and `retryAfterSeconds` tells when the
   * next token is there (whole seconds, at least 1).
   */
  take(clientId: string, now: number): { ok: true } | { ok: false; retryAfterSeconds: number }
  /** How many buckets are kept (clients whose bucket is not known to be full again). */
  readonly size: number
}

/** What `maxClients` is when not given. */
const defaultMaxClients = 10_000

/**
 * A token bucket per client: `burst ?? requestsPerSecond` tokens (at least 1), starting
 * full and refilling continuously at `requestsPerSecond`.
 *
 * Memory stays bounded whatever the number of client ids: a bucket that has
 * refilled is the same as no bucket, so such buckets are swept away (every
 * 1024 takes, or every `size` takes when more are kept: amortized O(1)), and at
 * most `maxClients` buckets (default 10 000) are kept, the least recently used
 * dropped first (that client then starts again with a full bucket).
 *
 * @example
 * const limiter = createClientRateLimiter({ requestsPerSecond: 2 })
 * limiter.take('alice', Date.now()) // { ok: true }
 */
export function createClientRateLimiter(rateLimit: MockRateLimit): ClientRateLimiter {
  assertRateLimit(rateLimit)
  const rate = rateLimit.requestsPerSecond
  const capacity = Math.max(1, rateLimit.burst ?? rate)
  const maxClients = rateLimit.maxClients ?? defaultMaxClients
  // In least recently used order: a bucket is moved to the end each time it is used.
  const buckets = new Map<string, { tokens: number; at: number }>()
  const tokensAt = (bucket: { tokens: number; at: number }, now: number) =>
    Math.min(capacity, bucket.tokens + (Math.max(0, now - bucket.at) / 1000) * rate)
  let untilSweep = 1024

  const sweep = (now: number) => {
    for (const [id, bucket] of buckets) if (tokensAt(bucket, now) >= capacity) buckets.delete(id)
    untilSweep = Math.max(1024, buckets.size)
  }

  return {
    take(clientId, now) {
      const bucket = buckets.get(clientId) ?? { tokens: capacity, at: now }
      buckets.delete(clientId)
      bucket.tokens = tokensAt(bucket, now)
      bucket.at = now
      buckets.set(clientId, bucket)
      const taken = bucket.tokens >= 1
      if (taken) bucket.tokens -= 1
      if (buckets.size > maxClients) buckets.delete(buckets.keys().next().value as string)
      if (--untilSweep <= 0) sweep(now)
      return taken
        ? { ok: true }
        : { ok: false, retryAfterSeconds: Math.max(1, Math.ceil((1 - bucket.tokens) / rate)) }
    },
    get size() {
      return buckets.size
    },
  }
}

/**
 * Throws `InvalidParameterError` unless `rateLimit` is a valid `MockRateLimit`.
 *
 * @example
 * assertRateLimit({ requestsPerSecond: 0 }) // throws: rateLimit.requestsPerSecond
 */
export function assertRateLimit(rateLimit: unknown): asserts rateLimit is MockRateLimit {
  const { requestsPerSecond, burst, maxClients } = (rateLimit ?? {}) as Partial<MockRateLimit>
  ensure(
    typeof requestsPerSecond === 'number' && Number.isFinite(requestsPerSecond) && requestsPerSecond > 0,
    'rateLimit.requestsPerSecond',
    'must be a finite number greater than 0',
    requestsPerSecond,
  )
  ensure(
    burst === undefined || (typeof burst === 'number' && Number.isFinite(burst) && burst >= 1),
    'rateLimit.burst',
    'must be a number of at least 1',
    burst,
  )
  ensure(
    maxClients === undefined ||
      (typeof maxClients === 'number' &&
        maxClients >= 1 &&
        (Number.isInteger(maxClients) || maxClients === Infinity)),
    'rateLimit.maxClients',
    'must be a whole number of at least 1 (or Infinity)',
    maxClients,
  )
}
