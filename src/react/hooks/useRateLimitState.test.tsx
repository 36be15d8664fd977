import { waitFor } from '@testing-library/react'
import { parseUnits } from 'viem'
import { describe, expect, test } from 'vitest'
import { setupMockService } from '../../../test/mockService.js'
import { renderSwapHook } from '../../../test/react.js'
import type { RateLimitConfig } from '../../core/rateLimiter.js'
import { mockTokenAddresses as T } from '../../mock/fixtures.js'
import type { MockService } from '../../mock/types.js'
import { useRateLimitState } from './useRateLimitState.js'
import { useSwapRoute } from './useSwapRoute.js'
import { useTokens } from './useTokens.js'

// The service allows 10 requests per second per client (a bucket of 10).
const mock = setupMockService({ rateLimit: { requestsPerSecond: 10 } })
const burst = 50

/**
 * Mounts `burst` route hooks for distinct amounts at once and waits until every one has data.
 * The client's fetch records, on the client's clock, when each request left (`sent`) and when
 * each 429 came back (`rejectedAt`): what the client did, whatever the load delays on the server.
 */
async function runBurst(rateLimit: RateLimitConfig | undefined) {
  const { baseUrl, service } = mock.use('loopback')
  const pauses: number[] = []
  const sent: number[] = []
  const rejectedAt: number[] = []
  const recordingFetch: typeof fetch = async (input, init) => {
    sent.push(Date.now())
    const response = await fetch(input, init)
    if (response.status === 429) rejectedAt.push(Date.now())
    return response
  }
  const { result } = renderSwapHook(
    () => {
      const state = useRateLimitState()
      if (state.rateLimitedUntil && !pauses.includes(state.rateLimitedUntil))
        pauses.push(state.rateLimitedUntil)
      const routes = Array.from({ length: burst }, (_, i) =>
        useSwapRoute({
          token0: T.USDC,
          token1: T.WETH,
          amountIn: parseUnits(String(100 + i), 6),
          debounceMs: 0,
        }),
      )
      return { state, routes }
    },
    { provider: { baseUrl, fetch: recordingFetch, ...(rateLimit ? { rateLimit } : {}) } },
  )
  await waitFor(() => expect(result.current.routes.every((route) => route.isSuccess)).toBe(true), {
    timeout: 20_000,
  })
  return { service, result, pauses, sent, rejectedAt }
}

function tooMany(service: MockService) {
  return service.log.filter((entry) => entry.status === 429)
}

describe('a burst of 50 distinct route queries against a service limited to 10 requests/s', () => {
  test('with the client configured with that limit: every query answered, zero 429s', async () => {
    const { service, result, pauses } = await runBurst({ requestsPerSecond: 10 })
    expect(tooMany(service)).toHaveLength(0)
    expect(service.count('/swap/route')).toBe(burst)
    expect(pauses).toEqual([])
    expect(result.current.state.rateLimitedUntil).toBeUndefined()
  }, 30_000)

  test('with the client not configured (the default 5/s, bursts of 5): zero 429s, so never more than one per cooldown', async () => {
    const { service } = await runBurst(undefined)
    expect(tooMany(service)).toHaveLength(0)
    expect(service.count('/swap/route')).toBe(burst)
  }, 30_000)

  test('with a client that assumes a higher limit: the whole client pauses, nothing is sent during a pause, at most one 429 per later cooldown, all recover', async () => {
    const { service, result, pauses, sent, rejectedAt } = await runBurst({ requestsPerSecond: 50, burst: 10 })
    expect(tooMany(service).length).toBeGreaterThan(0)
    expect(rejectedAt).toHaveLength(tooMany(service).length)
    // Nothing is sent during a pause: no request leaves within a second ("Retry-After: 1") of any
    // 429 the client received. Requests already in flight when a 429 comes back may meet one too.
    for (const at of rejectedAt) expect(sent.filter((time) => time > at && time < at + 990)).toEqual([])
    // After the first pause the client is careful for 10 s (one request in flight): while it is,
    // at most one 429 per pause.
    const firstPauseEnds = (rejectedAt[0] ?? 0) + 1000
    const later = rejectedAt.filter((time) => time >= firstPauseEnds - 10)
    for (let i = 1; i < later.length; i++) {
      const gap = (later[i] ?? 0) - (later[i - 1] ?? 0)
      if (gap < 10_000) expect(gap).toBeGreaterThanOrEqual(990)
    }
    // Every query that met a 429 retried after the pause and got its quote.
    expect(result.current.routes.every((route) => route.data !== undefined)).toBe(true)
    expect(pauses.length).toBeGreaterThanOrEqual(later.length)
    expect(result.current.state.rateLimitedUntil).toBeUndefined()
  }, 30_000)
})

describe('a server asking for a very long pause (issue 10, item 6)', () => {
  test.each([
    ['the default cap of one minute', undefined, 60_000],
    ['the provider’s maxRateLimitPauseMs', 5_000, 5_000],
  ])(
    'the client pauses for %s, and the state says the pause was cut short',
    async (_, maxRateLimitPauseMs, cap) => {
      const { baseUrl, service } = mock.use('msw')
      service.fail({ status: 429, headers: { 'retry-after': '1000000000000' }, endpoint: '/overview/tokens' })
      const { result } = renderSwapHook(() => ({ state: useRateLimitState(), tokens: useTokens() }), {
        provider: { baseUrl, maxRateLimitPauseMs },
      })
      await waitFor(() => expect(result.current.state.capped).toBe(true))
      const { rateLimitedUntil, requestedUntil } = result.current.state
      expect((rateLimitedUntil as number) - Date.now()).toBeLessThanOrEqual(cap)
      expect((rateLimitedUntil as number) - Date.now()).toBeGreaterThan(cap - 2_000)
      // What the server asked for (Retry-After is honoured up to an hour at most).
      expect((requestedUntil as number) - Date.now()).toBeGreaterThan(3_500_000)
    },
  )
})
