import { HttpResponse, http } from 'msw'
import { describe, expect, test } from 'vitest'
import { USDC, WETH } from '../../test/constants.js'
import { setupMswServer } from '../../test/msw.js'
import { getSwapRoute } from './actions/getSwapRoute.js'
import { createSwapClient } from './client.js'
import { InvalidParameterError } from './errors/parameter.js'

const { server, requests } = setupMswServer()
const route = { token0: WETH, token1: USDC, amountIn: 1n }
const answer = () => HttpResponse.json({ path: [WETH, USDC], amount_out: '1' })

describe('createSwapClient', () => {
  test.each([
    ['https://swap.test/api/v2', 'https://swap.test/api/v2/swap/route'],
    ['https://swap.test/api/v2/', 'https://swap.test/api/v2/swap/route'],
    ['https://swap.test//', 'https://swap.test/swap/route'],
    ['https://swap.test', 'https://swap.test/swap/route'],
  ])('base URL %s sends to %s', async (baseUrl, expected) => {
    server.use(http.get('https://swap.test/*', answer))
    await getSwapRoute(createSwapClient({ baseUrl, rateLimit: false }), route)
    expect(requests[0]?.url.split('?')[0]).toBe(expected)
  })

  test('the base URL’s own query parameters travel with every request', async () => {
    server.use(http.get('https://swap.test/*', answer))
    await getSwapRoute(
      createSwapClient({ baseUrl: 'https://swap.test/api?chain=1', rateLimit: false }),
      route,
    )
    const url = new URL(requests[0]?.url as string)
    expect(url.pathname).toBe('/api/swap/route')
    expect(url.searchParams.get('chain')).toBe('1')
    expect(url.searchParams.get('amount_in')).toBe('1')
  })

  test('refuses plain http on a public host, with a message that says what to do', () => {
    const error = (() => {
      try {
        createSwapClient({ baseUrl: 'http://swap.example.com' })
      } catch (e) {
        return e as InvalidParameterError
      }
    })()
    expect(error).toBeInstanceOf(InvalidParameterError)
    expect(error?.parameter).toBe('baseUrl')
    expect(error?.shortMessage).toMatchInlineSnapshot(
      `"Invalid parameter "baseUrl": must use https:// (http:// only on a loopback host, or with allowInsecureHttp: true)."`,
    )
  })

  test.each([
    'http://localhost:8080',
    'http://127.0.0.1:3000/api',
    'http://127.1.2.3',
    'http://[::1]:4000',
    'http://app.localhost',
  ])('accepts loopback http: %s', (baseUrl) => {
    expect(createSwapClient({ baseUrl }).baseUrl).toBe(baseUrl.replace(/\/$/, ''))
  })

  test('accepts plain http anywhere with allowInsecureHttp', () => {
    expect(createSwapClient({ baseUrl: 'http://10.0.0.5/', allowInsecureHttp: true }).baseUrl).toBe(
      'http://10.0.0.5',
    )
  })

  test('accepts a same-origin path', () => {
    expect(createSwapClient({ baseUrl: '/api/swap/' }).baseUrl).toBe('/api/swap')
  })

  test.each([
    [{ baseUrl: '' }, 'baseUrl'],
    [{ baseUrl: 'swap.example.com' }, 'baseUrl'],
    [{ baseUrl: 'ftp://swap.example.com' }, 'baseUrl'],
    [{ baseUrl: 'https://user:pass@swap.example.com' }, 'baseUrl'],
    [{ baseUrl: 'https://swap.example.com/#x' }, 'baseUrl'],
    [{ baseUrl: 'https://swap.example.com', arrayFormat: 'json' }, 'arrayFormat'],
    [{ baseUrl: 'https://swap.example.com', timeoutMs: 0 }, 'timeoutMs'],
    [{ baseUrl: 'https://swap.example.com', fetch: 'fetch' }, 'fetch'],
    [
      { baseUrl: 'https://swap.example.com', rateLimit: { requestsPerSecond: 0 } },
      'rateLimit.requestsPerSecond',
    ],
    [
      { baseUrl: 'https://swap.example.com', rateLimit: { requestsPerSecond: 1, burst: 0.5 } },
      'rateLimit.burst',
    ],
  ])('rejects %o naming %s', (config, parameter) => {
    expect(() => createSwapClient(config as never)).toThrow(
      expect.objectContaining({ name: 'InvalidParameterError', parameter }),
    )
  })

  test('credentials in the base URL are refused without being echoed', () => {
    try {
      createSwapClient({ baseUrl: 'https://admin:hunter2@swap.example.com' })
      expect.unreachable()
    } catch (error) {
      expect((error as Error).message).not.toContain('hunter2')
    }
  })

  test('uses the fetch it is given', async () => {
    const seen: string[] = []
    const client = createSwapClient({
      baseUrl: 'https://swap.test',
      rateLimit: false,
      fetch: async (input) => {
        seen.push(String(input))
        return Response.json({ path: [WETH, USDC], amount_out: '5' })
      },
    })
    expect((await getSwapRoute(client, route)).amountOut).toBe(5n)
    expect(seen).toHaveLength(1)
    expect(requests).toHaveLength(0)
  })
})

describe('same-origin base URLs (issue 10, item 5)', () => {
  // Each of these is a path to a browser's eye at first sight, but the URL parser
  // (WHATWG, as in Chromium and Node) resolves it against another host, or it carries
  // characters a clean path never has.
  test.each([
    ['/\\evil.example', true],
    ['/\\\\evil.example', true],
    ['/\t/evil.example', true],
    ['/\n/evil.example', true],
    ['/\r/evil.example', true],
    ['/\t\\evil.example', true],
    ['//evil.example', true],
    ['///evil.example', true],
    ['/\\/evil.example/api', true],
    ['/ /evil.example', false],
    ['/\u0000/evil.example', false],
    ['/api\u001f', false],
    ['/\u3000/evil.example', false],
    ['/api\\..\\..\\evil', false],
    ['/api?x=\\', false],
    ['/api#fragment', false],
    ['/api/\u00e9', false],
  ])('refuses %j', (baseUrl, otherHost) => {
    if (otherHost) expect(new URL(`${baseUrl}/swap/route`, 'https://app.test').host).not.toBe('app.test')
    expect(() => createSwapClient({ baseUrl })).toThrow(
      expect.objectContaining({ name: 'InvalidParameterError', parameter: 'baseUrl' }),
    )
  })

  test.each([
    ['/api', '/api'],
    ['/api/v2/', '/api/v2'],
    ['/', ''],
    ['/api/~team/x-y_z.1;v=2', '/api/~team/x-y_z.1;v=2'],
    ['/api%20v2', '/api%20v2'],
    ['/api?chain=1&tag=a%2Fb', '/api'],
  ])('accepts the clean path %j', (baseUrl, base) => {
    const client = createSwapClient({ baseUrl })
    expect(client.baseUrl).toBe(base)
    expect(new URL(`${client.baseUrl}/swap/route`, 'https://app.test').host).toBe('app.test')
  })
})
