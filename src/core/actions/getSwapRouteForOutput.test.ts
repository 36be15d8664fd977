import { QueryClient } from '@tanstack/react-query'
import { type Address, parseEther, parseUnits } from 'viem'
import { afterAll, afterEach, describe, expect, test, vi } from 'vitest'
import { baseUrl } from '../../../test/constants.js'
import { setupMswServer } from '../../../test/msw.js'
import { createMockMarket } from '../../mock/createMockMarket.js'
import { createMockService } from '../../mock/createMockService.js'
import { createSwapHandlers } from '../../mock/createSwapHandlers.js'
import { mockTokenAddresses } from '../../mock/fixtures.js'
import { type MockServer, startMockServer } from '../../mock/startMockServer.js'
import type { MockMarket } from '../../mock/types.js'
import { getSwapRouteForOutputQueryOptions } from '../../query/getSwapRouteForOutput.js'
import { createSwapClient } from '../client.js'
import { ExactOutputNotReachedError } from '../errors/exactOutput.js'
import { InvalidParameterError } from '../errors/parameter.js'
import { NoRouteError } from '../errors/request.js'
import { getSwapRouteForOutput } from './getSwapRouteForOutput.js'

const servers: MockServer[] = []
afterEach(() => {
  for (const server of servers) server.service.reset()
})
afterAll(async () => {
  await Promise.all(servers.map((server) => server.stop()))
})

/** A loopback mock service for `market`, and an unpaced client of it. */
async function serve(market: MockMarket, options: { latency?: number } = {}) {
  const server = await startMockServer({ market, ...options })
  servers.push(server)
  return { server, client: createSwapClient({ baseUrl: server.url, rateLimit: false }) }
}

// One constant-product pool: 1 000 000 AAA (18 decimals, $2) against 2 000 000 BBB (6 decimals, $1), 0.3%.
const AAA: Address = '0xAaAAAaaAaAAAAaAAaaAaaaaaaaaaaaaaAAAaAaAa'.toLowerCase() as Address
const BBB: Address = '0xBbbbbBBbBBbBBBbbBbBbbBbbbbBBbBbBbBbBBBbB'.toLowerCase() as Address
const reserveIn = parseEther('1000000')
const reserveOut = parseUnits('2000000', 6)
const feeBps = 30n
const onePool = () =>
  createMockMarket({
    tokens: [
      { address: AAA, symbol: 'AAA', decimals: 18, priceUsd: 2 },
      { address: BBB, symbol: 'BBB', decimals: 6, priceUsd: 1 },
    ],
    pairs: [
      {
        address: '0x00000000000000000000000000000000000a0b0b',
        token0: AAA,
        token1: BBB,
        reserve0: reserveIn,
        reserve1: reserveOut,
        feeBps: Number(feeBps),
      },
    ],
  })

/**
 * The least input the mock's AMM (amm.ts: `out = ⌊in·(10000 − fee)·R_out / (R_in·10000 + in·(10000 − fee))⌋`)
 * turns into at least `out`: `⌈R_in·out·10000 / ((R_out − out)·(10000 − fee))⌉`.
 */
const closedForm = (out: bigint) => {
  const numerator = reserveIn * out * 10_000n
  const denominator = (reserveOut - out) * (10_000n - feeBps)
  return (numerator + denominator - 1n) / denominator
}

describe('getSwapRouteForOutput against the mock market', () => {
  test.each([
    ['1 BBB', parseUnits('1', 6), 2, 5],
    ['1 000 BBB', parseUnits('1000', 6), 2, 5],
    ['100 000 BBB (5% of the pool)', parseUnits('100000', 6), 3, 6],
    ['1 000 000 BBB (half the pool)', parseUnits('1000000', 6), 3, 6],
  ])(
    'one pool, %s: within 0.5% of the closed form, in at most 4 route requests',
    async (_, amountOut, probes, requests) => {
      const { server, client } = await serve(onePool())
      const result = await getSwapRouteForOutput(client, { token0: AAA, token1: BBB, amountOut })
      const least = closedForm(amountOut)
      // What the route delivers: at least what was asked, at most 0.5% more.
      expect(result.amountOutReached).toBeGreaterThanOrEqual(amountOut)
      expect(result.amountOutReached * 1000n).toBeLessThanOrEqual(amountOut * 1005n)
      expect(result.withinTolerance).toBe(true)
      // The input, against the closed form: at least the least input that delivers amountOut, and less
      // than the least input that delivers more than amountOut × 1.005.
      expect(result.amountIn).toBeGreaterThanOrEqual(least)
      expect(result.amountIn).toBeLessThan(closedForm((amountOut * 1005n) / 1000n + 1n))
      expect(result.route.amountOut).toBe(result.amountOutReached)
      expect(result.route.quotedFor).toEqual({ token0: AAA, token1: BBB, amountIn: result.amountIn })
      // Route requests, and every request (the two prices and the token list of the seed).
      expect([result.probes, result.requests]).toEqual([probes, requests])
      expect(server.service.count('/swap/route')).toBe(probes)
      expect(server.service.count()).toBe(requests)
    },
  )

  test('multi-hop: USDT → TAIL through three pools', async () => {
    const market = createMockMarket()
    const { server, client } = await serve(market)
    const amountOut = parseEther('1000')
    const result = await getSwapRouteForOutput(client, {
      token0: mockTokenAddresses.USDT,
      token1: mockTokenAddresses.TAIL,
      amountOut,
    })
    expect(result.route.path).toHaveLength(4)
    expect(result.withinTolerance).toBe(true)
    // The market's own quote for the input agrees.
    const quote = market.quote({
      token0: mockTokenAddresses.USDT,
      token1: mockTokenAddresses.TAIL,
      amountIn: result.amountIn,
    })
    expect(quote?.amountOut).toBe(result.amountOutReached)
    expect(result.amountOutReached).toBeGreaterThanOrEqual(amountOut)
    expect(result.amountOutReached * 1000n).toBeLessThanOrEqual(amountOut * 1005n)
    // One input less delivers less than asked, or the answer is within tolerance of the least one.
    expect(result.probes).toBeLessThanOrEqual(4)
    expect(server.service.count('/swap/route')).toBe(result.probes)
    expect([result.probes, result.requests]).toEqual([2, 5])
  })

  test('more than the pool holds: ExactOutputNotReachedError with the best amount found and its cost', async () => {
    const { server, client } = await serve(onePool())
    const error = await getSwapRouteForOutput(client, {
      token0: AAA,
      token1: BBB,
      amountOut: reserveOut + 1n,
    }).catch((caught: unknown) => caught)
    expect(error).toBeInstanceOf(ExactOutputNotReachedError)
    const { bestAmountIn, bestAmountOut, probes, requests } = error as ExactOutputNotReachedError
    expect(probes).toBe(4)
    expect(requests).toBe(7)
    expect(bestAmountOut).toBeLessThan(reserveOut)
    expect(bestAmountOut).toBeGreaterThan(reserveOut / 2n)
    expect(bestAmountIn).toBeGreaterThan(0n)
    expect(server.service.count('/swap/route')).toBe(4)
    expect((error as ExactOutputNotReachedError).shortMessage).toBe(
      `No input found that delivers ${reserveOut + 1n}: at most ${bestAmountOut} was reached.`,
    )
  })

  test('no route (404): NoRouteError at once, after one route request', async () => {
    const { server, client } = await serve(createMockMarket())
    await expect(
      getSwapRouteForOutput(client, {
        token0: mockTokenAddresses.USDC,
        token1: mockTokenAddresses.LONE,
        amountOut: parseEther('10'),
      }),
    ).rejects.toBeInstanceOf(NoRouteError)
    expect(server.service.count('/swap/route')).toBe(1)
  })

  test('prices and decimals given, or a first input: no price or list request', async () => {
    const { server, client } = await serve(onePool())
    const amountOut = parseUnits('5000', 6)
    const given = await getSwapRouteForOutput(client, {
      token0: AAA,
      token1: BBB,
      amountOut,
      prices: { token0: 2, token1: 1 },
      decimals: { token0: 18, token1: 6 },
    })
    expect(given.requests).toBe(given.probes)
    expect(server.service.count()).toBe(given.probes)

    server.service.clearLog()
    const seeded = await getSwapRouteForOutput(client, {
      token0: AAA,
      token1: BBB,
      amountOut,
      initialAmountIn: given.amountIn,
    })
    // The last answer as the seed: one probe.
    expect([seeded.probes, seeded.requests]).toEqual([1, 1])
    expect(seeded.amountIn).toBe(given.amountIn)
    expect(server.service.log.map((entry) => entry.path)).toEqual(['/swap/route'])
  })

  test('no prices (the service fails them): a 1:1 guess in whole tokens, then the same search', async () => {
    const { server, client } = await serve(onePool())
    server.service.fail({ status: 500, endpoint: '/overview/token/price' })
    const amountOut = parseUnits('1000', 6)
    const result = await getSwapRouteForOutput(client, { token0: AAA, token1: BBB, amountOut, maxProbes: 6 })
    expect(result.withinTolerance).toBe(true)
    expect(result.amountIn).toBeGreaterThanOrEqual(closedForm(amountOut))
    expect([result.probes, result.requests]).toEqual([2, 5])
  })

  test('maxProbes caps the search; an answer past the tolerance is the least input that reached amountOut', async () => {
    const { client } = await serve(onePool())
    const amountOut = parseUnits('1000', 6)
    // A first input far too large: one probe overshoots, and there is no second.
    const result = await getSwapRouteForOutput(client, {
      token0: AAA,
      token1: BBB,
      amountOut,
      maxProbes: 1,
      initialAmountIn: parseEther('10000'),
    })
    expect(result).toMatchObject({
      withinTolerance: false,
      probes: 1,
      requests: 1,
      amountIn: parseEther('10000'),
    })
    expect(result.amountOutReached).toBeGreaterThan(amountOut)
  })

  test('tolerance 0: exactly amountOut; an input from the least that delivers it to below the least that delivers one unit more', async () => {
    const { client } = await serve(onePool())
    const amountOut = parseUnits('1234.5678', 6)
    const result = await getSwapRouteForOutput(client, {
      token0: AAA,
      token1: BBB,
      amountOut,
      tolerance: 0,
      maxProbes: 8,
    })
    expect(result.amountOutReached).toBe(amountOut)
    expect(result.withinTolerance).toBe(true)
    expect(result.amountIn).toBeGreaterThanOrEqual(closedForm(amountOut))
    expect(result.amountIn).toBeLessThan(closedForm(amountOut + 1n))
  })

  test('every request goes through the client’s rate limiter', async () => {
    const { server } = await serve(onePool())
    const client = createSwapClient({ baseUrl: server.url, rateLimit: { requestsPerSecond: 50, burst: 2 } })
    const acquire = vi.spyOn(client.rateLimiter, 'acquire')
    const result = await getSwapRouteForOutput(client, {
      token0: AAA,
      token1: BBB,
      amountOut: parseUnits('10', 6),
    })
    expect(acquire).toHaveBeenCalledTimes(result.requests)
  })

  test('an abort during a probe aborts its request and ends the search: AbortError, no further probe', async () => {
    const { server } = await serve(onePool(), { latency: 200 })
    const sent: { url: string; signal: AbortSignal | null | undefined }[] = []
    const client = createSwapClient({
      baseUrl: server.url,
      rateLimit: false,
      fetch: (input, init) => {
        sent.push({ url: String(input), signal: init?.signal })
        return fetch(input, init)
      },
    })
    const controller = new AbortController()
    const pending = getSwapRouteForOutput(
      client,
      {
        token0: AAA,
        token1: BBB,
        amountOut: parseUnits('1000', 6),
        prices: { token0: 2, token1: 1 },
        decimals: { token0: 18, token1: 6 },
      },
      { signal: controller.signal },
    )
    await vi.waitFor(() => expect(sent).toHaveLength(1))
    controller.abort()
    await expect(pending).rejects.toMatchObject({ name: 'AbortError' })
    await new Promise((resolve) => setTimeout(resolve, 400))
    expect(sent).toHaveLength(1)
    expect(sent[0]?.url).toContain('/swap/route?')
    expect(sent[0]?.signal?.aborted).toBe(true)
  })

  test('malformed input is an InvalidParameterError naming it; nothing reaches the service', async () => {
    const { server, client } = await serve(onePool())
    const valid = { token0: AAA, token1: BBB, amountOut: 1000n }
    const cases: [Record<string, unknown>, string][] = [
      [{ ...valid, token0: '0x12' }, 'token0'],
      [{ ...valid, token1: 'USDC' }, 'token1'],
      [{ ...valid, amountOut: 0n }, 'amountOut'],
      [{ ...valid, amountOut: -5n }, 'amountOut'],
      [{ ...valid, amountOut: 1000 }, 'amountOut'],
      [{ ...valid, maxProbes: 0 }, 'maxProbes'],
      [{ ...valid, maxProbes: 2.5 }, 'maxProbes'],
      [{ ...valid, tolerance: -0.1 }, 'tolerance'],
      [{ ...valid, tolerance: Number.NaN }, 'tolerance'],
      [{ ...valid, prices: { token0: -1 } }, 'prices.token0'],
      [{ ...valid, prices: 5 }, 'prices'],
      [{ ...valid, decimals: { token1: 300 } }, 'decimals.token1'],
      [{ ...valid, initialAmountIn: 0n }, 'initialAmountIn'],
    ]
    for (const [parameters, parameter] of cases) {
      const error = await getSwapRouteForOutput(client, parameters as never).catch(
        (caught: unknown) => caught,
      )
      expect(error, parameter).toBeInstanceOf(InvalidParameterError)
      expect((error as InvalidParameterError).parameter).toBe(parameter)
    }
    expect(server.service.count()).toBe(0)
  })
})

describe('tolerance 0 through MSW and the query options', () => {
  const msw = setupMswServer()

  test("tolerance 0: exactly amountOut, in the README's 3 route requests; the input is within the range that delivers it, not necessarily its least", async () => {
    const market = onePool()
    const service = createMockService(market)
    msw.server.use(...createSwapHandlers(service, { baseUrl }))
    const client = createSwapClient({ baseUrl, rateLimit: false })
    const amountOut = parseUnits('1234.5678', 6)
    const queryClient = new QueryClient()
    const result = await queryClient.fetchQuery(
      getSwapRouteForOutputQueryOptions(client, { token0: AAA, token1: BBB, amountOut, tolerance: 0 }),
    )
    expect(result.amountOutReached).toBe(amountOut)
    expect(result.withinTolerance).toBe(true)
    expect(result.route.quotedFor).toEqual({ token0: AAA, token1: BBB, amountIn: result.amountIn })
    // Through the same market's AMM: the input delivers exactly amountOut...
    expect(market.quote({ token0: AAA, token1: BBB, amountIn: result.amountIn })?.amountOut).toBe(amountOut)
    // ...and lies in the range of inputs that do, as the closed form draws it (the README's figures).
    const least = closedForm(amountOut)
    const next = closedForm(amountOut + 1n)
    expect(market.quote({ token0: AAA, token1: BBB, amountIn: least })?.amountOut).toBe(amountOut)
    expect(market.quote({ token0: AAA, token1: BBB, amountIn: least - 1n })?.amountOut).toBe(amountOut - 1n)
    expect(market.quote({ token0: AAA, token1: BBB, amountIn: next })?.amountOut).toBe(amountOut + 1n)
    // The README's figures: the range's width, and where in it the search lands.
    expect(next - least).toBe(502_124_228_616n)
    expect(result.amountIn - least).toBe(379_985_263_744n)
    expect([result.probes, result.requests]).toEqual([3, 6])
    expect(service.count('/swap/route')).toBe(3)
  })
})
