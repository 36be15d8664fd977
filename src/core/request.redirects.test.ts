import { HttpResponse, http, passthrough } from 'msw'
import { describe, expect, test } from 'vitest'
import { baseUrl, WETH } from '../../test/constants.js'
import { type LoopbackServer, setupLoopbackServers } from '../../test/loopback.js'
import { setupMswServer } from '../../test/msw.js'
import { getTokens } from './actions/getTokens.js'
import { createSwapClient, type SwapClientConfig } from './client.js'
import { BaseError } from './errors/base.js'
import { HttpError, RedirectError, TimeoutError } from './errors/request.js'
import { isRetryableError } from './utils/retry.js'

/**
 * `redirect: 'follow'` after the security review: the client follows redirects
 * itself, one hop at a time, and checks each hop before a request carrying the
 * client's secrets is sent to it.
 */

const { server, requests } = setupMswServer()
const startLoopbackServer = setupLoopbackServers()
const apiKey = 'sk_live_hop_0123456789'
const tokens = [{ address: WETH, symbol: 'WETH' }]
const tokensUrl = `${baseUrl}/overview/tokens`
const serveTokens = (_: unknown, response: import('node:http').ServerResponse) =>
  void response.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(tokens))

/**
 * The same loopback server under a name the client does not take for
 * loopback: `0.0.0.0` (Linux and macOS connect it to the local host), so a
 * plain-http hop there is "insecure" to the client while a request that
 * reaches it still lands in `server.requests`. MSW lets it through.
 */
function offLoopback(target: LoopbackServer): string {
  const url = target.url.replace('127.0.0.1', '0.0.0.0')
  server.use(http.all(`${url}/*`, () => passthrough()))
  return url
}

/** An https origin (MSW) that redirects the tokens request to `location`. */
function redirectFromHttps(location: string, status = 302) {
  server.use(http.get(tokensUrl, () => new HttpResponse(null, { status, headers: { location } })))
}

describe('an insecure hop is refused before anything is sent to it', () => {
  test.each([
    ['a headers object', { headers: { 'x-api-key': apiKey } }],
    ['a headers function', { headers: async () => ({ 'x-api-key': apiKey }) }],
  ] as [string, Partial<SwapClientConfig>][])(
    'https → plain http off loopback, the API key in %s: refused, the http server receives no request',
    async (_, secrets) => {
      const plain = await startLoopbackServer(serveTokens)
      const hop = `${offLoopback(plain)}/overview/tokens`
      redirectFromHttps(hop)
      const client = createSwapClient({ baseUrl, rateLimit: false, redirect: 'follow', ...secrets })
      const error = await getTokens(client).catch((e) => e)
      expect(plain.requests).toEqual([])
      expect(requests.map((request) => request.url)).toEqual([tokensUrl])
      expect(error).toBeInstanceOf(RedirectError)
      expect(error.reason).toBe('insecure')
      expect(error.url).toBe(tokensUrl)
      expect(error.location).toBe(hop)
      expect(isRetryableError(error)).toBe(false)
    },
  )

  test('a base-URL query key that the server copies into an http Location: refused before sending', async () => {
    const plain = await startLoopbackServer(serveTokens)
    const plainUrl = offLoopback(plain)
    redirectFromHttps(`${plainUrl}/overview/tokens?key=${apiKey}`, 301)
    const client = createSwapClient({
      baseUrl: `${baseUrl}?key=${apiKey}`,
      rateLimit: false,
      redirect: 'follow',
    })
    const error = await getTokens(client).catch((e) => e)
    expect(plain.requests).toEqual([])
    expect(error).toBeInstanceOf(RedirectError)
    expect(error.reason).toBe('insecure')
    // The key is a secret of the client: hidden in the error, the Location too.
    expect(error.location).toBe(`${plainUrl}/overview/tokens?key=***`)
    expect(error.message).not.toContain(apiKey)
  })

  test('an insecure hop later in the chain (https → https → http) is refused before it is sent', async () => {
    const plain = await startLoopbackServer(serveTokens)
    const hop = `${offLoopback(plain)}/t`
    redirectFromHttps(`${baseUrl}/moved`)
    server.use(
      http.get(`${baseUrl}/moved`, () => new HttpResponse(null, { status: 307, headers: { location: hop } })),
    )
    const client = createSwapClient({
      baseUrl,
      rateLimit: false,
      redirect: 'follow',
      headers: { 'x-api-key': apiKey },
    })
    const error = await getTokens(client).catch((e) => e)
    expect(plain.requests).toEqual([])
    expect(requests.map((request) => request.url)).toEqual([tokensUrl, `${baseUrl}/moved`])
    expect(error.reason).toBe('insecure')
  })
})

describe('allowed hops', () => {
  test('a same-origin hop is followed by the client itself (each hop a request of its fetch, redirect: manual), the headers kept', async () => {
    const origin = await startLoopbackServer((request, response) => {
      if (request.url === '/overview/tokens')
        response.writeHead(308, { location: '/v2/overview/tokens' }).end('moved')
      else serveTokens(request, response)
    })
    const calls: { url: string; redirect: RequestRedirect | undefined }[] = []
    const client = createSwapClient({
      baseUrl: origin.url,
      rateLimit: false,
      redirect: 'follow',
      headers: { 'x-api-key': apiKey },
      fetch: (input, init) => {
        calls.push({ url: String(input), redirect: init?.redirect })
        return globalThis.fetch(input, init)
      },
    })
    expect(await getTokens(client)).toEqual(tokens)
    expect(calls).toEqual([
      { url: `${origin.url}/overview/tokens`, redirect: 'manual' },
      { url: `${origin.url}/v2/overview/tokens`, redirect: 'manual' },
    ])
    expect(
      origin.requests.map((request) => [request.method, request.url, request.headers['x-api-key']]),
    ).toEqual([
      ['GET', '/overview/tokens', apiKey],
      ['GET', '/v2/overview/tokens', apiKey],
    ])
  })

  test('a 303 or a 307 hop is still a GET', async () => {
    const origin = await startLoopbackServer((request, response) => {
      if (request.url === '/overview/tokens') response.writeHead(303, { location: '/a' }).end()
      else if (request.url === '/a') response.writeHead(307, { location: '/b' }).end()
      else serveTokens(request, response)
    })
    const client = createSwapClient({ baseUrl: origin.url, rateLimit: false, redirect: 'follow' })
    expect(await getTokens(client)).toEqual(tokens)
    expect(origin.requests.map((request) => `${request.method} ${request.url}`)).toEqual([
      'GET /overview/tokens',
      'GET /a',
      'GET /b',
    ])
  })
})

describe('credentials stay on their origin', () => {
  test('a hop to another origin is refused when the request carries the client’s headers; that origin receives nothing', async () => {
    const other = await startLoopbackServer(serveTokens)
    const origin = await startLoopbackServer((_, response) => {
      response.writeHead(302, { location: `${other.url}/overview/tokens` }).end()
    })
    const client = createSwapClient({
      baseUrl: origin.url,
      rateLimit: false,
      redirect: 'follow',
      headers: { 'x-api-key': apiKey },
    })
    const error = await getTokens(client).catch((e) => e)
    expect(other.requests).toEqual([])
    expect(error).toBeInstanceOf(RedirectError)
    expect(error.reason).toBe('crossOrigin')
    expect(error.location).toBe(`${other.url}/overview/tokens`)
  })

  test('a hop to another origin is refused when its URL carries a base-URL query key', async () => {
    const other = await startLoopbackServer(serveTokens)
    const origin = await startLoopbackServer((request, response) => {
      response.writeHead(302, { location: `${other.url}${request.url}` }).end()
    })
    const client = createSwapClient({
      baseUrl: `${origin.url}?key=${apiKey}`,
      rateLimit: false,
      redirect: 'follow',
    })
    const error = await getTokens(client).catch((e) => e)
    expect(other.requests).toEqual([])
    expect(error.reason).toBe('crossOrigin')
    expect(error.message).not.toContain(apiKey)
  })

  test('a hop to another origin without any secret of the client is followed', async () => {
    const other = await startLoopbackServer(serveTokens)
    const origin = await startLoopbackServer((_, response) => {
      response.writeHead(302, { location: `${other.url}/overview/tokens` }).end()
    })
    const client = createSwapClient({ baseUrl: origin.url, rateLimit: false, redirect: 'follow' })
    expect(await getTokens(client)).toEqual(tokens)
    expect(other.requests).toHaveLength(1)
  })
})

describe('chains that do not end', () => {
  test('more than 5 hops is a typed RedirectError; the sixth redirect is not followed', async () => {
    const origin = await startLoopbackServer((request, response) => {
      const step = Number(/(\d+)$/.exec(request.url ?? '')?.[1] ?? 0)
      response.writeHead(302, { location: `/r/${step + 1}` }).end()
    })
    const client = createSwapClient({ baseUrl: origin.url, rateLimit: false, redirect: 'follow' })
    const error = await getTokens(client).catch((e) => e)
    expect(error).toBeInstanceOf(RedirectError)
    expect(error).toBeInstanceOf(BaseError)
    expect(error.reason).toBe('tooMany')
    expect(error.shortMessage).toBe(
      'The swap service redirected more than 5 times, which this client refuses.',
    )
    expect(error.location).toBe(`${origin.url}/r/6`)
    expect(origin.requests.map((request) => request.url)).toEqual([
      '/overview/tokens',
      '/r/1',
      '/r/2',
      '/r/3',
      '/r/4',
      '/r/5',
    ])
    expect(isRetryableError(error)).toBe(false)
  })

  test('a redirect loop is refused as soon as a URL comes back', async () => {
    const origin = await startLoopbackServer((request, response) => {
      response.writeHead(302, { location: request.url === '/a' ? '/overview/tokens' : '/a' }).end()
    })
    const client = createSwapClient({ baseUrl: origin.url, rateLimit: false, redirect: 'follow' })
    const error = await getTokens(client).catch((e) => e)
    expect(error).toBeInstanceOf(RedirectError)
    expect(error.reason).toBe('loop')
    expect(error.location).toBe(`${origin.url}/overview/tokens`)
    expect(origin.requests.map((request) => request.url)).toEqual(['/overview/tokens', '/a'])
  })

  test('the timeout covers the whole chain', async () => {
    const origin = await startLoopbackServer((request, response) => {
      if (request.url === '/overview/tokens') response.writeHead(302, { location: '/slow' }).end()
      // /slow never answers.
    })
    const client = createSwapClient({
      baseUrl: origin.url,
      rateLimit: false,
      redirect: 'follow',
      timeoutMs: 100,
    })
    const error = await getTokens(client).catch((e) => e)
    expect(error).toBeInstanceOf(TimeoutError)
    expect(origin.requests.map((request) => request.url)).toEqual(['/overview/tokens', '/slow'])
  })
})

describe('a Location the client cannot use', () => {
  test.each([
    ['not a URL', 'http://[oops/t', 'http://[oops/t'],
    ['with credentials (not shown)', 'https://user:pa55word@mirror.test/t', 'https://***@mirror.test/t'],
  ])('%s: refused, nothing sent', async (_, location, shown) => {
    redirectFromHttps(location)
    const client = createSwapClient({ baseUrl, rateLimit: false, redirect: 'follow' })
    const error = await getTokens(client).catch((e) => e)
    expect(requests.map((request) => request.url)).toEqual([tokensUrl])
    expect(error).toBeInstanceOf(RedirectError)
    expect(error.reason).toBe('invalid')
    expect(error.location).toBe(shown)
    expect(error.message).not.toContain('pa55word')
  })

  test('a 3xx without a Location is the answer, as with fetch: an HttpError', async () => {
    server.use(http.get(tokensUrl, () => new HttpResponse('gone elsewhere', { status: 302 })))
    const client = createSwapClient({ baseUrl, rateLimit: false, redirect: 'follow' })
    const error = await getTokens(client).catch((e) => e)
    expect(error).toBeInstanceOf(HttpError)
    expect(error.status).toBe(302)
  })
})

describe('redirects the client cannot check', () => {
  /** A browser's fetch: `manual` gives an opaque redirect (no status, no Location); `follow` follows. */
  function browserFetch(calls: (RequestRedirect | undefined)[]): typeof fetch {
    return async (_input, init) => {
      calls.push(init?.redirect)
      if (init?.redirect === 'manual') {
        const opaque = new Response(null, { status: 200 })
        Object.defineProperties(opaque, {
          type: { value: 'opaqueredirect' },
          status: { value: 0 },
          ok: { value: false },
        })
        return opaque
      }
      const followed = Response.json(tokens)
      Object.defineProperties(followed, {
        redirected: { value: true },
        url: { value: 'https://mirror.test/overview/tokens' },
      })
      return followed
    }
  }

  test('a browser’s opaque redirect is refused with a RedirectError saying the browser hides the target, never re-sent with following on', async () => {
    const calls: (RequestRedirect | undefined)[] = []
    const client = createSwapClient({
      baseUrl,
      rateLimit: false,
      redirect: 'follow',
      headers: { 'x-api-key': apiKey },
      fetch: browserFetch(calls),
    })
    const error = await getTokens(client).catch((e) => e)
    expect(calls).toEqual(['manual'])
    expect(error).toBeInstanceOf(RedirectError)
    expect(error.reason).toBe('opaque')
    expect(error.location).toBeUndefined()
    expect(error.details).toMatch(/browser hides/)
    expect(isRetryableError(error)).toBe(false)
  })

  test('by default an opaque redirect is refused as before', async () => {
    const calls: (RequestRedirect | undefined)[] = []
    const client = createSwapClient({ baseUrl, rateLimit: false, fetch: browserFetch(calls) })
    const error = await getTokens(client).catch((e) => e)
    expect(calls).toEqual(['manual'])
    expect(error.reason).toBe('refused')
  })

  test('a custom fetch that follows on its own although told not to: the hops went unchecked, the answer is refused', async () => {
    const following: typeof fetch = async () => {
      const response = Response.json(tokens)
      Object.defineProperties(response, {
        redirected: { value: true },
        url: { value: 'https://mirror.test/overview/tokens' },
      })
      return response
    }
    const client = createSwapClient({ baseUrl, rateLimit: false, redirect: 'follow', fetch: following })
    const error = await getTokens(client).catch((e) => e)
    expect(error).toBeInstanceOf(RedirectError)
    expect(error.reason).toBe('unchecked')
    expect(error.location).toBe('https://mirror.test/overview/tokens')
  })
})
