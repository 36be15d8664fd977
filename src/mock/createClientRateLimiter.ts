import { InvalidParameterError } from '../core/errors/parameter.js'
import type { MockRateLimit } from './types.js'

export type ClientRateLimiter = {
  /**
   * Takes a token from the client's bucket at `now` (epoch ms). When the
   * bucket is empty, nothing is taken and `retryAfterSeconds` tells when the
   * next token is there (whole seconds, at least 1).
   */
  take(clientId: string, now: number): { ok: true } | { ok: false; retryAfterSeconds: number }
}

/**
 * A token bucket per client: `burst ?? requestsPerSecond` tokens (at least 1), starting
 * full and refilling continuously at `requestsPerSecond`.
 *
 * @example
 * const limiter = createClientRateLimiter({ requestsPerSecond: 2 })
 * limiter.take('alice', Date.now()) // { ok: true }
 */
export function createClientRateLimiter(rateLimit: MockRateLimit): ClientRateLimiter {
  assertRateLimit(rateLimit)
  const rate = rateLimit.requestsPerSecond
  const capacity = Math.max(1, rateLimit.burst ?? rate)
  const buckets = new Map<string, { tokens: number; at: number }>()
  return {
    take(clientId, now) {
      const bucket = buckets.get(clientId) ?? { tokens: capacity, at: now }
      bucket.tokens = Math.min(capacity, bucket.tokens + (Math.max(0, now - bucket.at) / 1000) * rate)
      bucket.at = now
      buckets.set(clientId, bucket)
      if (bucket.tokens >= 1) {
        bucket.tokens -= 1
        return { ok: true }
      }
      return { ok: false, retryAfterSeconds: Math.max(1, Math.ceil((1 - bucket.tokens) / rate)) }
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
  const { requestsPerSecond, burst } = (rateLimit ?? {}) as Partial<MockRateLimit>
  if (typeof requestsPerSecond !== 'number' || !Number.isFinite(requestsPerSecond) || requestsPerSecond <= 0)
    throw new InvalidParameterError({
      parameter: 'rateLimit.requestsPerSecond',
      rule: 'must be a finite number greater than 0',
      value: requestsPerSecond,
    })
  if (burst !== undefined && (typeof burst !== 'number' || !Number.isFinite(burst) || burst < 1))
    throw new InvalidParameterError({
      parameter: 'rateLimit.burst',
      rule: 'must be a number of at least 1',
      value: burst,
    })
}
