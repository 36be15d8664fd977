import { describe, expect, test } from 'vitest'
import { createClientRateLimiter } from './createClientRateLimiter.js'

describe('createClientRateLimiter (issue 10, item 10: bounded buckets)', () => {
  test('buckets that have refilled are dropped, so idle clients cost nothing', () => {
    const limiter = createClientRateLimiter({ requestsPerSecond: 10, burst: 2 })
    const start = 1_000_000
    for (let i = 0; i < 5_000; i++) expect(limiter.take(`client-${i}`, start)).toEqual({ ok: true })
    // Under the cap (10 000), every bucket not yet full again is kept.
    expect(limiter.size).toBe(5_000)
    // A second later every one of those buckets is full again: a sweep (at the latest after
    // as many takes as there are buckets) drops them.
    for (let i = 0; i < 5_000; i++) limiter.take('busy', start + 1_000 + i)
    expect(limiter.size).toBe(1) // 'busy' itself, whose bucket is empty
  })

  test('more clients than maxClients at once: the cap holds at every step', () => {
    const limiter = createClientRateLimiter({ requestsPerSecond: 10, burst: 2, maxClients: 1_000 })
    for (let i = 0; i < 5_000; i++) {
      expect(limiter.take(`client-${i}`, 1_000_000)).toEqual({ ok: true })
      expect(limiter.size).toBe(Math.min(i + 1, 1_000))
    }
  })

  test('a hard cap on buckets (maxClients, default 10 000), least recently used dropped first', () => {
    const limiter = createClientRateLimiter({ requestsPerSecond: 1, burst: 1 })
    for (let i = 0; i < 50_000; i++) limiter.take(`client-${i}`, 1_000_000)
    expect(limiter.size).toBe(10_000)

    const small = createClientRateLimiter({ requestsPerSecond: 1, burst: 1, maxClients: 2 })
    small.take('a', 0)
    small.take('b', 0)
    small.take('a', 0) // 'a' is now the most recently used
    small.take('c', 0) // over the cap: 'b' goes
    expect(small.size).toBe(2)
    expect(small.take('a', 0)).toEqual({ ok: false, retryAfterSeconds: 1 })
    expect(small.take('c', 0)).toEqual({ ok: false, retryAfterSeconds: 1 })
  })

  test('pruning never lets a limited client through early', () => {
    const limiter = createClientRateLimiter({ requestsPerSecond: 1, burst: 1 })
    expect(limiter.take('alice', 0)).toEqual({ ok: true })
    // Thousands of other clients come and go meanwhile, triggering sweeps.
    for (let i = 0; i < 5_000; i++) limiter.take(`other-${i}`, 100 + i / 10)
    expect(limiter.take('alice', 700)).toEqual({ ok: false, retryAfterSeconds: 1 })
    expect(limiter.take('alice', 1_000)).toEqual({ ok: true })
  })

  test.each([0, 1.5, -3, Number.NaN])('maxClients %s is refused', (maxClients) => {
    expect(() => createClientRateLimiter({ requestsPerSecond: 1, maxClients })).toThrow(
      expect.objectContaining({ name: 'InvalidParameterError', parameter: 'rateLimit.maxClients' }),
    )
  })
})
