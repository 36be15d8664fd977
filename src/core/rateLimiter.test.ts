import { afterEach, beforeEach, describe, expect, test, vi } from 'vitest'
import { createRateLimiter, defaultRateLimit, type RateLimiter } from './rateLimiter.js'

beforeEach(() => {
  vi.useFakeTimers({ now: 1_000_000 })
})
afterEach(() => {
  vi.useRealTimers()
})

/** Starts `count` acquires and records, on the fake clock, when each one is granted. */
function acquireMany(limiter: RateLimiter, count: number, signal?: AbortSignal) {
  const start = Date.now()
  const granted: number[] = []
  const settled = Array.from({ length: count }, () =>
    limiter.acquire(signal).then((release) => {
      granted.push(Date.now() - start)
      release()
    }),
  )
  return { granted, settled: Promise.allSettled(settled) }
}

describe('createRateLimiter', () => {
  test('lets a burst through at once, then paces at the configured rate', async () => {
    const { granted } = acquireMany(createRateLimiter({ requestsPerSecond: 50, burst: 3 }), 6)
    await vi.advanceTimersByTimeAsync(0)
    expect(granted).toEqual([0, 0, 0])
    await vi.advanceTimersByTimeAsync(100)
    expect(granted).toEqual([0, 0, 0, 20, 40, 60])
  })

  test('burst defaults to 1 when a rate is configured: evenly spaced requests', async () => {
    const { granted } = acquireMany(createRateLimiter({ requestsPerSecond: 10 }), 4)
    await vi.advanceTimersByTimeAsync(1000)
    expect(granted).toEqual([0, 100, 200, 300])
  })

  test('the default is five per second in bursts of five', async () => {
    expect(defaultRateLimit).toEqual({ requestsPerSecond: 5, burst: 5 })
    const { granted } = acquireMany(createRateLimiter(undefined), 7)
    await vi.advanceTimersByTimeAsync(1000)
    expect(granted).toEqual([0, 0, 0, 0, 0, 200, 400])
  })

  test('false does no pacing', async () => {
    const { granted } = acquireMany(createRateLimiter(false), 500)
    await vi.advanceTimersByTimeAsync(0)
    expect(granted).toHaveLength(500)
    expect(new Set(granted)).toEqual(new Set([0]))
  })

  test('a 429 pauses every caller until the reset, and the state says so', async () => {
    const limiter = createRateLimiter({ requestsPerSecond: 100, burst: 10 })
    const seen: (number | undefined)[] = []
    limiter.subscribe(() => seen.push(limiter.getState().rateLimitedUntil))
    const until = limiter.onRateLimited(800)
    expect(until).toBe(Date.now() + 800)
    expect(limiter.getState()).toEqual({ rateLimitedUntil: until, requestedUntil: until, capped: false })
    const { granted } = acquireMany(limiter, 3)
    await vi.advanceTimersByTimeAsync(799)
    expect(granted).toEqual([])
    await vi.advanceTimersByTimeAsync(1)
    // After a 429 the client is careful: one at a time, at half the rate (50/s).
    expect(granted).toEqual([800])
    await vi.advanceTimersByTimeAsync(40)
    expect(granted).toEqual([800, 820, 840])
    expect(limiter.getState()).toEqual({
      rateLimitedUntil: undefined,
      requestedUntil: undefined,
      capped: false,
    })
    expect(seen).toEqual([until, undefined])
  })

  test('the pause ends (and listeners hear it) even when nobody is waiting', async () => {
    const limiter = createRateLimiter(false)
    const listener = vi.fn()
    limiter.subscribe(listener)
    limiter.onRateLimited(500)
    await vi.advanceTimersByTimeAsync(500)
    expect(listener).toHaveBeenCalledTimes(2)
    expect(limiter.getState().rateLimitedUntil).toBeUndefined()
  })

  test('a shorter pause never shortens a longer one; without a reset header the pause doubles', () => {
    const limiter = createRateLimiter(false)
    const now = Date.now()
    expect(limiter.onRateLimited(undefined)).toBe(now + 1000)
    expect(limiter.onRateLimited(undefined)).toBe(now + 2000)
    expect(limiter.onRateLimited(10)).toBe(now + 2000)
    limiter.onSuccess()
    // After a success the fallback starts again from one second (still inside the longer pause).
    expect(limiter.onRateLimited(undefined)).toBe(now + 2000)
  })

  test('an abort removes the waiter from the queue and gives its turn away', async () => {
    const limiter = createRateLimiter({ requestsPerSecond: 10 })
    ;(await limiter.acquire())()
    const controller = new AbortController()
    const aborted = limiter.acquire(controller.signal).catch((e: unknown) => e)
    const { granted } = acquireMany(limiter, 1)
    controller.abort()
    expect(((await aborted) as Error).name).toBe('AbortError')
    await vi.advanceTimersByTimeAsync(100)
    expect(granted).toEqual([100])
  })

  test('after a 429, one request in flight at a time and half the rate, until the careful spell ends', async () => {
    const limiter = createRateLimiter({ requestsPerSecond: 100, burst: 10 })
    limiter.onRateLimited(1000)
    await vi.advanceTimersByTimeAsync(1000)
    const start = Date.now()
    const granted: number[] = []
    const releases: (() => void)[] = []
    for (let i = 0; i < 3; i++)
      void limiter.acquire().then((release) => {
        granted.push(Date.now() - start)
        releases.push(release)
      })
    await vi.advanceTimersByTimeAsync(100)
    // The first leaves; the second waits for it to be answered, however long that takes.
    expect(granted).toEqual([0])
    releases[0]?.()
    releases[0]?.() // releasing twice is harmless
    await vi.advanceTimersByTimeAsync(0)
    expect(granted).toEqual([0, 100])
    releases[1]?.()
    // Half of 100/s: the third waits for its token, 20 ms after the second.
    await vi.advanceTimersByTimeAsync(19)
    expect(granted).toHaveLength(2)
    await vi.advanceTimersByTimeAsync(1)
    expect(granted).toEqual([0, 100, 120])
    releases[2]?.()

    // Ten quiet seconds after the pause, the configured rate and bursts are back.
    await vi.advanceTimersByTimeAsync(10_000)
    const { granted: later } = acquireMany(limiter, 10)
    await vi.advanceTimersByTimeAsync(0)
    expect(later).toEqual(Array(10).fill(0))
  })
})

describe('the 429 pause is capped (issue 10, item 6)', () => {
  const hour = 3_600_000

  test('by default at one minute; the state tells what the server asked and that the pause was cut', async () => {
    const limiter = createRateLimiter(false)
    const now = Date.now()
    expect(limiter.onRateLimited(hour)).toBe(now + 60_000)
    expect(limiter.getState()).toEqual({
      rateLimitedUntil: now + 60_000,
      requestedUntil: now + hour,
      capped: true,
    })
    const { granted } = acquireMany(limiter, 1)
    await vi.advanceTimersByTimeAsync(59_999)
    expect(granted).toEqual([])
    await vi.advanceTimersByTimeAsync(1)
    expect(granted).toEqual([60_000])
    expect(limiter.getState()).toEqual({
      rateLimitedUntil: undefined,
      requestedUntil: undefined,
      capped: false,
    })
  })

  test('a pause within the cap is taken whole and not marked as capped', () => {
    const limiter = createRateLimiter(false)
    const now = Date.now()
    limiter.onRateLimited(5_000)
    expect(limiter.getState()).toEqual({
      rateLimitedUntil: now + 5_000,
      requestedUntil: now + 5_000,
      capped: false,
    })
  })

  test('Infinity obeys any pause: two hours asked, two hours taken, not capped', () => {
    const limiter = createRateLimiter(false, { maxPauseMs: Number.POSITIVE_INFINITY })
    const now = Date.now()
    expect(limiter.onRateLimited(2 * hour)).toBe(now + 2 * hour)
    expect(limiter.getState()).toEqual({
      rateLimitedUntil: now + 2 * hour,
      requestedUntil: now + 2 * hour,
      capped: false,
    })
  })

  test('capped is exactly requestedUntil > rateLimitedUntil; absurd requests stay valid times', () => {
    const limiter = createRateLimiter(false, { maxPauseMs: 60_000 })
    const now = Date.now()
    limiter.onRateLimited(60_000)
    expect(limiter.getState()).toEqual({
      rateLimitedUntil: now + 60_000,
      requestedUntil: now + 60_000,
      capped: false,
    })
    limiter.onRateLimited(Number.POSITIVE_INFINITY)
    // Already paused until then: the state of the first pause stays.
    expect(limiter.getState().capped).toBe(false)
    vi.advanceTimersByTime(1)
    limiter.onRateLimited(Number.POSITIVE_INFINITY)
    expect(limiter.getState()).toEqual({
      rateLimitedUntil: now + 60_001,
      requestedUntil: 8.64e15,
      capped: true,
    })
    const negative = createRateLimiter(false)
    expect(negative.onRateLimited(-5_000)).toBe(Date.now())
    expect(negative.getState().capped).toBe(false)
  })

  test('a pause longer than a timer can wait (about 24.8 days) does not wake the limiter every millisecond', async () => {
    const limiter = createRateLimiter(false, { maxPauseMs: Number.POSITIVE_INFINITY })
    const days30 = 30 * 86_400_000
    const setTimeoutSpy = vi.spyOn(globalThis, 'setTimeout')
    try {
      limiter.onRateLimited(days30)
      const { granted } = acquireMany(limiter, 1)
      await vi.advanceTimersByTimeAsync(1_000)
      // Node fires a timer of more than 2^31 - 1 ms after 1 ms: each firing would schedule another.
      expect(setTimeoutSpy.mock.calls.length).toBeLessThanOrEqual(2)
      await vi.advanceTimersByTimeAsync(days30 - 1_001)
      expect(granted).toEqual([])
      await vi.advanceTimersByTimeAsync(1)
      expect(granted).toEqual([days30])
    } finally {
      setTimeoutSpy.mockRestore()
    }
  })

  test('the cap is configurable', () => {
    const limiter = createRateLimiter(false, { maxPauseMs: 10_000 })
    const now = Date.now()
    expect(limiter.onRateLimited(hour)).toBe(now + 10_000)
    expect(limiter.getState().capped).toBe(true)
  })

  test.each([0, -1, Number.NaN, '1000'])('maxPauseMs %s is refused', (maxPauseMs) => {
    expect(() => createRateLimiter(false, { maxPauseMs } as never)).toThrow(
      expect.objectContaining({ name: 'InvalidParameterError', parameter: 'maxPauseMs' }),
    )
  })
})

describe('aborting queued requests (issue 10, item 9)', () => {
  /** The part of an AbortSignal the limiter uses, without Node's event dispatch (whose cost is not the limiter's). */
  class BareSignal {
    aborted = false
    reason: unknown
    private listener: (() => void) | undefined
    addEventListener(_: 'abort', listener: () => void) {
      this.listener = listener
    }
    removeEventListener() {
      this.listener = undefined
    }
    abort(reason: unknown) {
      this.aborted = true
      this.reason = reason
      const listener = this.listener
      this.listener = undefined
      listener?.()
    }
  }

  /**
   * Queues `count` requests behind a pause, aborts all but one in 10 000 from the middle
   * outwards (the worst order for a search from the front followed by a splice), then lets the
   * pause end. Returns the real time the aborts took and the order the rest were granted in.
   */
  async function abortQueued(count: number, makeSignal: () => BareSignal | AbortController) {
    const limiter = createRateLimiter({ requestsPerSecond: 1000, burst: 1000 })
    limiter.onRateLimited(1000)
    const signals = Array.from({ length: count }, makeSignal)
    const granted: number[] = []
    const settled = signals.map((signal, index) =>
      limiter.acquire((signal instanceof AbortController ? signal.signal : signal) as AbortSignal).then(
        (release) => {
          granted.push(index)
          release()
        },
        () => undefined,
      ),
    )
    const reason = new DOMException('The operation was aborted.', 'AbortError')
    const started = performance.now()
    for (let step = 0; step < count / 2; step++)
      for (const index of [count / 2 + step, count / 2 - 1 - step])
        if (index % 10_000 !== 0) signals[index]?.abort(reason)
    const elapsed = performance.now() - started
    await vi.advanceTimersByTimeAsync(2_000)
    await Promise.all(settled)
    return { elapsed, granted }
  }

  beforeEach(() => {
    // Only the limiter's clock is fake here, so performance.now() measures real time.
    vi.useRealTimers()
    vi.useFakeTimers({ now: 1_000_000, toFake: ['setTimeout', 'clearTimeout', 'Date'] })
  })

  test('the requests left keep their FIFO order', async () => {
    const { granted } = await abortQueued(40_000, () => new AbortController())
    expect(granted).toEqual([0, 10_000, 20_000, 30_000])
  })

  // Scaling, not speed. Before the fix each abort searched the queue (indexOf) and spliced it:
  // quadratic, about 8 s for 160 000 aborts on a 2-core machine (20 s in the issue). Now the
  // limiter's part is O(1) per abort (amortized): sixteen times the aborts must take about
  // sixteen times as long, far from the 256 times of quadratic work. The bound is 64 (four times
  // the linear figure, a quarter of the quadratic one), on the fastest of three runs and no less
  // than 64 × 10 ms, so that a shared machine's noise (GC of 320 000 promises, other jobs) cannot
  // fail it while a quadratic queue still does, by far. Bare signals keep Node's abort-event
  // dispatch (most of the time with real ones, and not the limiter's) out of the measure.
  test('sixteen times the aborts of queued requests take about sixteen times as long, not 256', async () => {
    const fastest = async (count: number) => {
      let best = Number.POSITIVE_INFINITY
      for (let run = 0; run < 3; run++) {
        const { elapsed, granted } = await abortQueued(count, () => new BareSignal())
        expect(granted).toEqual(Array.from({ length: count / 10_000 }, (_, i) => i * 10_000))
        best = Math.min(best, elapsed)
      }
      return best
    }
    await fastest(20_000) // warm-up
    const short = await fastest(20_000)
    const long = await fastest(320_000)
    expect(long).toBeLessThan(64 * Math.max(short, 10))
  }, 120_000)
})

describe('getTokens reads the bucket without changing it (issue 27, item 4)', () => {
  test('the tokens left after a burst, refilled at the rate; reading them grants nothing', async () => {
    const limiter = createRateLimiter({ requestsPerSecond: 10, burst: 4 })
    expect(limiter.getTokens()).toEqual({ tokens: 4, capacity: 4 })
    const { granted } = acquireMany(limiter, 3)
    await vi.advanceTimersByTimeAsync(0)
    expect(granted).toEqual([0, 0, 0])
    expect(limiter.getTokens().tokens).toBe(1)
    await vi.advanceTimersByTimeAsync(50)
    // Half a token more, read as often as one likes: the reads take none and move no clock.
    for (let i = 0; i < 5; i++) expect(limiter.getTokens().tokens).toBeCloseTo(1.5)
    const next = acquireMany(limiter, 2)
    await vi.advanceTimersByTimeAsync(0)
    expect(next.granted).toEqual([0])
    await vi.advanceTimersByTimeAsync(50)
    expect(next.granted).toEqual([0, 50])
  })

  test('no pacing, in the careful spell after a 429: the next request leaves once the last is in, in the same millisecond', async () => {
    const limiter = createRateLimiter(false)
    limiter.onRateLimited(0)
    const release = await limiter.acquire()
    const next = acquireMany(limiter, 1)
    await vi.advanceTimersByTimeAsync(0)
    expect(next.granted).toEqual([])
    release()
    await vi.advanceTimersByTimeAsync(0)
    expect(next.granted).toEqual([0])
    expect(limiter.getTokens()).toEqual({ tokens: 1, capacity: 1 })
  })

  test('a 429: a bucket of one for the careful spell; no pacing: Infinity', () => {
    const limiter = createRateLimiter({ requestsPerSecond: 10, burst: 4 })
    limiter.onRateLimited(2000)
    expect(limiter.getTokens()).toEqual({ tokens: 1, capacity: 1 })
    expect(createRateLimiter(false).getTokens()).toEqual({ tokens: Infinity, capacity: Infinity })
  })
})
