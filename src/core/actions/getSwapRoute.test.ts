import { HttpResponse, http } from 'msw'
import { describe, expect, test } from 'vitest'
import { baseUrl, DAI, USDC, WETH } from '../../../test/constants.js'
import { queryOf, setupMswServer } from '../../../test/msw.js'
import { createSwapClient } from '../client.js'
import { InvalidParameterError } from '../errors/parameter.js'
import { HttpError, NoRouteError } from '../errors/request.js'
import { ResponseValidationError } from '../errors/response.js'
import { getSwapRoute } from './getSwapRoute.js'

const { server, requests } = setupMswServer()
const client = createSwapClient({ baseUrl, rateLimit: false })

describe('getSwapRoute', () => {
  test('sends the spec’s wire names and returns a typed route with a bigint amount', async () => {
    server.use(
      http.get(`${baseUrl}/swap/route`, () =>
        HttpResponse.json({ path: [WETH, DAI, USDC], amount_out: '3000123456' }),
      ),
    )
    const route = await getSwapRoute(client, { token0: WETH, token1: USDC, amountIn: 10n ** 18n })
    expect(route).toEqual({
      path: [WETH, DAI, USDC],
      amountOut: 3_000_123_456n,
      // Not sent by the service: the swap this route was fetched for.
      quotedFor: { token0: WETH, token1: USDC, amountIn: 10n ** 18n },
    })
    expect(requests).toHaveLength(1)
    expect(requests[0]?.method).toBe('GET')
    expect(queryOf(requests[0] as Request)).toEqual([
      ['token0', WETH],
      ['token1', USDC],
      ['amount_in', '1000000000000000000'],
    ])
  })

  test('keeps every digit of amounts beyond 2^53', async () => {
    const huge = 2n ** 200n + 12345n
    server.use(
      http.get(`${baseUrl}/swap/route`, ({ request }) => {
        const amountIn = new URL(request.url).searchParams.get('amount_in')
        return HttpResponse.json({ path: [WETH, USDC], amount_out: amountIn })
      }),
    )
    const route = await getSwapRoute(client, { token0: WETH, token1: USDC, amountIn: huge })
    expect(route.amountOut).toBe(huge)
  })

  test('accepts amount_out as a safe integer number, refuses an unsafe one', async () => {
    server.use(
      http.get(`${baseUrl}/swap/route`, () => HttpResponse.json({ path: [WETH, USDC], amount_out: 42 })),
    )
    expect((await getSwapRoute(client, { token0: WETH, token1: USDC, amountIn: 1n })).amountOut).toBe(42n)

    server.use(
      http.get(`${baseUrl}/swap/route`, () => HttpResponse.json({ path: [WETH, USDC], amount_out: 2 ** 60 })),
    )
    const error = await getSwapRoute(client, { token0: WETH, token1: USDC, amountIn: 1n }).catch((e) => e)
    expect(error).toBeInstanceOf(ResponseValidationError)
    expect(error.path).toBe('$.amount_out')
    expect(error.shortMessage).toContain('within 2^53')
  })

  test('404 is a NoRouteError naming both tokens (still an HttpError)', async () => {
    server.use(
      http.get(`${baseUrl}/swap/route`, () =>
        HttpResponse.json({ detail: 'No path found' }, { status: 404 }),
      ),
    )
    const error = await getSwapRoute(client, { token0: WETH, token1: USDC, amountIn: 1n }).catch((e) => e)
    expect(error).toBeInstanceOf(NoRouteError)
    expect(error).toBeInstanceOf(HttpError)
    expect(error.name).toBe('NoRouteError')
    expect(error.status).toBe(404)
    expect(error.shortMessage).toBe(`No route from ${WETH} to ${USDC}.`)
  })

  test('a 404 HTML page (a proxy, a wrong base URL) is an HttpError saying so, not a NoRouteError', async () => {
    server.use(
      http.get(`${baseUrl}/swap/route`, () =>
        HttpResponse.html('<html><body><h1>404 Not Found</h1></body></html>', { status: 404 }),
      ),
    )
    const error = await getSwapRoute(client, { token0: WETH, token1: USDC, amountIn: 1n }).catch((e) => e)
    expect(error).toBeInstanceOf(HttpError)
    expect(error).not.toBeInstanceOf(NoRouteError)
    expect(error.status).toBe(404)
    expect(error.shortMessage).toMatch(/404 with an HTML page: check the base URL/)
    expect(error.body).toBe('404 Not Found')
    // Any other 404 body is the spec's "no path found".
    server.use(http.get(`${baseUrl}/swap/route`, () => HttpResponse.text('No path found', { status: 404 })))
    expect(
      await getSwapRoute(client, { token0: WETH, token1: USDC, amountIn: 1n }).catch((e) => e),
    ).toBeInstanceOf(NoRouteError)
  })

  test('a path that is not a list of addresses is a ResponseValidationError at its index', async () => {
    server.use(
      http.get(`${baseUrl}/swap/route`, () =>
        HttpResponse.json({ path: [WETH, 'not-an-address'], amount_out: '1' }),
      ),
    )
    const error = await getSwapRoute(client, { token0: WETH, token1: USDC, amountIn: 1n }).catch((e) => e)
    expect(error).toBeInstanceOf(ResponseValidationError)
    expect(error.endpoint).toBe('/swap/route')
    expect(error.path).toBe('$.path[1]')
  })

  test.each([
    ['token0', { token0: 'WETH', token1: USDC, amountIn: 1n }],
    ['token0', { token0: undefined, token1: USDC, amountIn: 1n }],
    ['token1', { token0: WETH, token1: '0x123', amountIn: 1n }],
    ['amountIn', { token0: WETH, token1: USDC, amountIn: 0n }],
    ['amountIn', { token0: WETH, token1: USDC, amountIn: -5n }],
    ['amountIn', { token0: WETH, token1: USDC, amountIn: 1 }],
    ['amountIn', { token0: WETH, token1: USDC, amountIn: '100' }],
    ['amountIn', { token0: WETH, token1: USDC, amountIn: 2n ** 256n }],
    ['parameters', null],
  ])('invalid %s throws InvalidParameterError and sends nothing', async (parameter, parameters) => {
    const error = await getSwapRoute(client, parameters as never).catch((e) => e)
    expect(error).toBeInstanceOf(InvalidParameterError)
    expect(error.parameter).toBe(parameter)
    expect(requests).toHaveLength(0)
  })

  test('accepts addresses in any letter case and sends them as given', async () => {
    server.use(
      http.get(`${baseUrl}/swap/route`, () =>
        HttpResponse.json({ path: [WETH.toLowerCase(), USDC], amount_out: '1' }),
      ),
    )
    const route = await getSwapRoute(client, {
      token0: WETH.toLowerCase() as never,
      token1: USDC,
      amountIn: 5n,
    })
    expect(new URL(requests[0]?.url as string).searchParams.get('token0')).toBe(WETH.toLowerCase())
    // What the library returns is checksummed, so it is always accepted back as a parameter.
    expect(route.path).toEqual([WETH, USDC])
  })

  test.each([
    ['another swap', [DAI, WETH], '$.path[0]', /expected token0 first \(0xC02a.*\)/],
    ['the reverse', [USDC, WETH], '$.path[0]', /token0/],
    ['a path ending elsewhere', [WETH, USDC, DAI], '$.path[2]', /expected token1 last \(0xA0b8.*\)/],
  ])(
    'a path that does not run from token0 to token1 (%s) is a ResponseValidationError',
    async (_, path, at, message) => {
      server.use(http.get(`${baseUrl}/swap/route`, () => HttpResponse.json({ path, amount_out: '5' })))
      const error = await getSwapRoute(client, { token0: WETH, token1: USDC, amountIn: 10n ** 18n }).catch(
        (e) => e,
      )
      expect(error).toBeInstanceOf(ResponseValidationError)
      expect(error.path).toBe(at)
      expect(error.shortMessage).toMatch(message)
    },
  )

  test('a native-coin side may be routed through its wrapped token', async () => {
    server.use(
      http.get(`${baseUrl}/swap/route`, () => HttpResponse.json({ path: [WETH, USDC], amount_out: '5' })),
    )
    const ETH = '0xEeeeeEeeeEeEeeEeEeEeeEEEeeeeEeeeeeeeEEeE'
    expect((await getSwapRoute(client, { token0: ETH, token1: USDC, amountIn: 1n })).path).toEqual([
      WETH,
      USDC,
    ])
  })
})
