import { setupServer } from 'msw/node'
import { afterAll, afterEach, beforeAll, describe, expect, test } from 'vitest'
import { InvalidParameterError } from '../core/errors/parameter.js'
import { createMockMarket } from './createMockMarket.js'
import { createMockService } from './createMockService.js'
import { createSwapHandlers } from './createSwapHandlers.js'
import { mockTokenAddresses } from './fixtures.js'

const { WETH, USDC } = mockTokenAddresses
const routeQuery = `token0=${WETH}&token1=${USDC}&amount_in=1000000000000000000`

const unhandled: string[] = []
const server = setupServer()
beforeAll(() =>
  server.listen({
    onUnhandledRequest(request) {
      unhandled.push(`${request.method} ${request.url}`)
      throw new Error('unhandled request')
    },
  }),
)
afterEach(() => {
  server.resetHandlers()
  unhandled.length = 0
})
afterAll(() => server.close())

describe('createSwapHandlers', () => {
  test('by default answers the nine endpoints on any origin and under any prefix, and nothing else', async () => {
    const handlers = createSwapHandlers()
    expect(handlers).toHaveLength(9)
    server.use(...handlers)
    const market = handlers.service.market
    const route = await fetch(`https://swap.test/swap/route?${routeQuery}`)
    expect(route.status).toBe(200)
    expect(await route.json()).toEqual({
      path: [WETH, USDC],
      amount_out: market.quote({ token0: WETH, token1: USDC, amountIn: 10n ** 18n })!.amountOut.toString(),
    })
    const prefixed = await fetch('http://localhost:6006/api/v1/get_tokens')
    expect(prefixed.status).toBe(200)
    expect(((await prefixed.json()) as unknown[]).length).toBe(10)
    const other = await fetch('https://swap.test/swap/quote')
    expect(other.status).toBe(500) // not ours: the test's onUnhandledRequest threw
    expect(unhandled).toEqual(['GET https://swap.test/swap/quote'])
    expect(handlers.service.log.map((entry) => entry.path)).toEqual(['/swap/route', '/get_tokens'])
  })

  test('with a baseUrl: everything under it, unknown paths as 404 JSON; nothing outside it', async () => {
    const handlers = createSwapHandlers(createMockMarket(), { baseUrl: 'https://swap.test/api/' })
    expect(handlers).toHaveLength(1)
    server.use(...handlers)
    expect((await fetch(`https://swap.test/api/swap/route?${routeQuery}`)).status).toBe(200)
    const unknown = await fetch('https://swap.test/api/nope')
    expect(unknown.status).toBe(404)
    expect(await unknown.json()).toEqual({ detail: 'Not Found' })
    const post = await fetch('https://swap.test/api/get_pairs', { method: 'POST', body: 'x' })
    expect(post.status).toBe(405)
    const preflight = await fetch('https://swap.test/api/get_pairs', { method: 'OPTIONS' })
    expect(preflight.status).toBe(204)
    expect(preflight.headers.get('access-control-allow-methods')).toBe('GET, OPTIONS')
    await fetch('https://swap.test/swap/route')
    await fetch('https://elsewhere.test/api/get_pairs')
    expect(unhandled).toEqual([
      'GET https://swap.test/swap/route',
      'GET https://elsewhere.test/api/get_pairs',
    ])
    expect(handlers.service.log.map((entry) => [entry.method, entry.path, entry.status])).toEqual([
      ['GET', '/swap/route', 200],
      ['GET', '/nope', 404],
      ['POST', '/get_pairs', 405],
      ['OPTIONS', '/get_pairs', 204],
    ])
  })

  test('a service keeps its own options and base path; the handlers map the URL onto it', async () => {
    const service = createMockService(createMockMarket(), {
      basePath: '/v2',
      rateLimit: { requestsPerSecond: 1 },
    })
    const handlers = createSwapHandlers(service, { baseUrl: 'https://swap.test/api', latency: 10_000 })
    expect(handlers.service).toBe(service)
    server.use(...handlers)
    const started = performance.now()
    expect((await fetch('https://swap.test/api/get_pairs')).status).toBe(200)
    expect(performance.now() - started).toBeLessThan(2_000)
    const limited = await fetch('https://swap.test/api/get_pairs')
    expect(limited.status).toBe(429)
    expect(limited.headers.get('retry-after')).toBe('1')
    expect(service.log.map((entry) => [entry.path, entry.status])).toEqual([
      ['/get_pairs', 200],
      ['/get_pairs', 429],
    ])
  })

  test('from a market, the service gets the same options', async () => {
    const handlers = createSwapHandlers(createMockMarket(), {
      rateLimit: { requestsPerSecond: 5, burst: 1 },
      latency: 30,
    })
    server.use(...handlers)
    const started = performance.now()
    expect((await fetch('https://swap.test/get_tokens')).status).toBe(200)
    expect(performance.now() - started).toBeGreaterThanOrEqual(25)
    expect((await fetch('https://swap.test/get_tokens')).status).toBe(429)
  })

  test('an injected network failure rejects fetch; an HTML error page arrives as such', async () => {
    const handlers = createSwapHandlers(undefined, { baseUrl: 'https://swap.test' })
    server.use(...handlers)
    handlers.service.fail({ network: true })
    const error = await fetch('https://swap.test/get_tokens').catch((error: unknown) => error)
    expect(error).toBeInstanceOf(TypeError)
    handlers.service.fail({ status: 503, body: '<html><body>Service Unavailable</body></html>' })
    const page = await fetch('https://swap.test/get_tokens')
    expect(page.status).toBe(503)
    expect(page.headers.get('content-type')).toBe('text/html; charset=utf-8')
    expect(await page.text()).toBe('<html><body>Service Unavailable</body></html>')
    expect((await fetch('https://swap.test/get_tokens')).status).toBe(200)
    expect(handlers.service.log.map((entry) => entry.status)).toEqual([0, 503, 200])
  })

  test('rejects a baseUrl that is not a URL or a path', () => {
    expect(() => createSwapHandlers(undefined, { baseUrl: 'swap.test' })).toThrow(InvalidParameterError)
    expect(() => createSwapHandlers(undefined, { baseUrl: 'ftp://swap.test' })).toThrow(InvalidParameterError)
  })
})
