import { delay, HttpResponse, http } from 'msw'
import { describe, expect, test, vi } from 'vitest'
import { baseUrl, USDC, WETH } from '../../test/constants.js'
import { setupLoopbackServers } from '../../test/loopback.js'
import { setupMswServer } from '../../test/msw.js'
import { getSwapRoute } from './actions/getSwapRoute.js'
import { getTokens } from './actions/getTokens.js'
import { createSwapClient } from './client.js'
import { BaseError } from './errors/base.js'
import {
  HttpError,
  NetworkError,
  RateLimitError,
  RedirectError,
  ResponseTooLargeError,
  TimeoutError,
} from './errors/request.js'
import { ResponseValidationError } from './errors/response.js'
import { getRetryDelay, isRetryableError } from './utils/retry.js'

// Node's own fetch, before MSW wraps it (MSW keeps reading a passed-through body that the client cancels).
const nodeFetch = globalThis.fetch
const { server, requests } = setupMswServer()
const startLoopbackServer = setupLoopbackServers()
const route = { token0: WETH, token1: USDC, amountIn: 10n }
const tokensUrl = `${baseUrl}/overview/tokens`

describe('status and body handling', () => {
  const client = createSwapClient({ baseUrl, rateLimit: false })

  test('an HTML error page becomes an HttpError with a readable excerpt, never a SyntaxError', async () => {
    server.use(
      http.get(
        tokensUrl,
        () =>
          new HttpResponse(
            '<html><head><style>h1{}</style></head><body><h1>502 Bad Gateway</h1><hr>nginx</body></html>',
            { status: 502, headers: { 'content-type': 'text/html' } },
          ),
      ),
    )
    const error = await getTokens(client).catch((e) => e)
    expect(error).toBeInstanceOf(HttpError)
    expect(error.name).toBe('HttpError')
    expect(error.status).toBe(502)
    expect(error.body).toBe('502 Bad Gateway nginx')
    expect(error.url).toBe(tokensUrl)
    expect(error.message).toMatchInlineSnapshot(`
      "The swap service answered 502.

      URL: https://swap.test/overview/tokens
      Body: 502 Bad Gateway nginx"
    `)
  })

  test('an HTML page with status 200 is a ResponseValidationError at $', async () => {
    server.use(
      http.get(tokensUrl, () =>
        HttpResponse.html('<!doctype html><title>Login</title><p>Please sign in</p>'),
      ),
    )
    const error = await getTokens(client).catch((e) => e)
    expect(error).toBeInstanceOf(ResponseValidationError)
    expect(error.path).toBe('$')
    expect(error.shortMessage).toMatch(/expected JSON, got text\/html/)
  })

  test('an empty 200 body is a ResponseValidationError', async () => {
    server.use(http.get(tokensUrl, () => new HttpResponse(null, { status: 200 })))
    const error = await getTokens(client).catch((e) => e)
    expect(error).toBeInstanceOf(ResponseValidationError)
    expect(error.shortMessage).toBe(
      'Unexpected response from /overview/tokens at $: expected a JSON body, got an empty body (status 200).',
    )
  })

  test('a 422 with a FastAPI body is an HttpError whose details name the parameter', async () => {
    server.use(
      http.get(tokensUrl, () =>
        HttpResponse.json(
          { detail: [{ loc: ['query', 'blacklist'], msg: 'value could not be parsed to a boolean' }] },
          { status: 422 },
        ),
      ),
    )
    const error = await getTokens(client).catch((e) => e)
    expect(error).toBeInstanceOf(HttpError)
    expect(error.status).toBe(422)
    expect(error.details).toBe('blacklist: value could not be parsed to a boolean')
  })

  test('a connection failure is a NetworkError with the cause kept', async () => {
    server.use(http.get(tokensUrl, () => HttpResponse.error()))
    const error = await getTokens(client).catch((e) => e)
    expect(error).toBeInstanceOf(NetworkError)
    expect(error).toBeInstanceOf(BaseError)
    expect(error.cause).toBeInstanceOf(TypeError)
    expect(error.shortMessage).toBe('The swap service could not be reached.')
  })

  test('a library error thrown inside the fetch (a custom fetch that asks another swap client) is not wrapped as a NetworkError', async () => {
    const inner = new HttpError({ status: 503, url: 'https://other.test/x', body: 'down' })
    const wrapping = createSwapClient({
      baseUrl,
      rateLimit: false,
      fetch: async () => {
        throw inner
      },
    })
    expect(await getTokens(wrapping).catch((e) => e)).toBe(inner)
  })
})

describe('429', () => {
  test.each([
    ['Retry-After in seconds', () => ({ 'retry-after': '3' }), 3000],
    [
      'Retry-After as an HTTP date',
      () => ({ 'retry-after': new Date(Date.now() + 5000).toUTCString() }),
      5000,
    ],
    ['RateLimit-Reset in seconds', () => ({ 'ratelimit-reset': '7' }), 7000],
    [
      'X-RateLimit-Reset as a Unix time',
      () => ({ 'x-ratelimit-reset': String(Math.floor(Date.now() / 1000) + 9) }),
      9000,
    ],
  ])('%s gives retryAfterMs and pauses the whole client', async (_, headers, expected) => {
    const client = createSwapClient({ baseUrl, rateLimit: false })
    server.use(
      http.get(tokensUrl, () =>
        HttpResponse.json({ detail: 'slow down' }, { status: 429, headers: headers() }),
      ),
    )
    const error = await getTokens(client).catch((e) => e)
    expect(error).toBeInstanceOf(RateLimitError)
    expect(error).toBeInstanceOf(HttpError)
    expect(error.status).toBe(429)
    expect(Math.abs(error.retryAfterMs - expected)).toBeLessThanOrEqual(1000)
    const { rateLimitedUntil } = client.rateLimiter.getState()
    expect(rateLimitedUntil).toBeGreaterThan(Date.now() + expected - 1100)

    // Every other request of this client now waits for the pause instead of being sent.
    const controller = new AbortController()
    const pending = getSwapRoute(client, route, { signal: controller.signal }).catch((e) => e)
    await new Promise((resolve) => setTimeout(resolve, 50))
    expect(requests).toHaveLength(1)
    controller.abort()
    expect((await pending).name).toBe('AbortError')
    expect(requests).toHaveLength(1)
  })

  test('the client pauses as soon as the 429 status arrives, before its body is read', async () => {
    // A 429 whose body takes 300 ms to arrive: the pause must not wait for it.
    let finishBody: (() => void) | undefined
    const fetch429: typeof fetch = async () =>
      new Response(
        new ReadableStream({
          start(controller) {
            finishBody = () => {
              controller.enqueue(new TextEncoder().encode('{"detail":"slow down"}'))
              controller.close()
            }
          },
        }),
        { status: 429, headers: { 'retry-after': '2', 'content-type': 'application/json' } },
      )
    const client = createSwapClient({ baseUrl, rateLimit: false, fetch: fetch429 })
    const pending = getTokens(client).catch((e) => e)
    await vi.waitFor(() => expect(finishBody).toBeDefined())
    await new Promise((resolve) => setTimeout(resolve, 20))
    expect(client.rateLimiter.getState().rateLimitedUntil).toBeGreaterThan(Date.now() + 1500)
    finishBody?.()
    expect(await pending).toBeInstanceOf(RateLimitError)
    // One 429, one pause: not counted twice (the next fallback would double).
    expect(client.rateLimiter.getState().rateLimitedUntil).toBeLessThanOrEqual(Date.now() + 2000)
  })

  test('without any reset header, retryAfterMs is undefined and the client pauses for a fallback second', async () => {
    const client = createSwapClient({ baseUrl, rateLimit: false })
    server.use(http.get(tokensUrl, () => new HttpResponse('Too Many Requests', { status: 429 })))
    const error = await getTokens(client).catch((e) => e)
    expect(error.retryAfterMs).toBeUndefined()
    // The message says what the client does: its fallback pause.
    expect(error.shortMessage).toBe(
      'The swap service is rate limiting this client: it pauses its requests for 1 s.',
    )
    const until = client.rateLimiter.getState().rateLimitedUntil as number
    expect(until - Date.now()).toBeGreaterThan(800)
    expect(until - Date.now()).toBeLessThanOrEqual(1000)
  })
})

describe('abort and timeout', () => {
  test('a caller’s abort surfaces as the standard AbortError', async () => {
    const client = createSwapClient({ baseUrl, rateLimit: false })
    server.use(
      http.get(tokensUrl, async () => {
        await delay(2000)
        return HttpResponse.json([])
      }),
    )
    const controller = new AbortController()
    const pending = getTokens(client, {}, { signal: controller.signal }).catch((e) => e)
    setTimeout(() => controller.abort(), 20)
    const error = await pending
    expect(error).toBeInstanceOf(DOMException)
    expect(error.name).toBe('AbortError')
  })

  test('an already aborted signal sends nothing', async () => {
    const client = createSwapClient({ baseUrl })
    const error = await getTokens(client, {}, { signal: AbortSignal.abort() }).catch((e) => e)
    expect(error.name).toBe('AbortError')
    expect(requests).toHaveLength(0)
  })

  test('a slow answer becomes a TimeoutError after timeoutMs', async () => {
    const client = createSwapClient({ baseUrl, rateLimit: false, timeoutMs: 50 })
    server.use(
      http.get(tokensUrl, async () => {
        await delay(2000)
        return HttpResponse.json([])
      }),
    )
    const started = Date.now()
    const error = await getTokens(client).catch((e) => e)
    expect(error).toBeInstanceOf(TimeoutError)
    expect(error.timeoutMs).toBe(50)
    expect(Date.now() - started).toBeLessThan(1500)
  })

  test('the timeout also holds when a custom fetch ignores the signal', async () => {
    const client = createSwapClient({
      baseUrl,
      timeoutMs: 30,
      rateLimit: false,
      fetch: () => new Promise<Response>(() => {}),
    })
    expect(await getTokens(client).catch((e) => e)).toBeInstanceOf(TimeoutError)
  })
})

describe('secrets', () => {
  test('headers are sent but never appear in URLs or error messages, even when the server echoes them', async () => {
    const apiKey = 'sk_live_0123456789abcdef'
    const client = createSwapClient({
      baseUrl: `${baseUrl}?tenant=acme-secret-tenant`,
      rateLimit: false,
      headers: async () => ({ 'x-api-key': apiKey }),
    })
    server.use(
      http.get(tokensUrl, ({ request }) =>
        HttpResponse.json({ detail: `invalid key ${request.headers.get('x-api-key')}` }, { status: 401 }),
      ),
    )
    const error = await getTokens(client).catch((e) => e)
    expect(requests[0]?.headers.get('x-api-key')).toBe(apiKey)
    expect(requests[0]?.url).not.toContain(apiKey)
    expect(new URL(requests[0]?.url as string).searchParams.get('tenant')).toBe('acme-secret-tenant')
    expect(error).toBeInstanceOf(HttpError)
    expect(error.status).toBe(401)
    const everything = `${error.message} ${error.body} ${error.details} ${error.url}`
    expect(everything).not.toContain(apiKey)
    expect(everything).not.toContain('acme-secret-tenant')
    expect(error.details).toBe('invalid key ***')
  })

  test('a headers function that throws gives a BaseError with the cause', async () => {
    const client = createSwapClient({
      baseUrl,
      headers: () => {
        throw new Error('no session')
      },
    })
    const error = await getTokens(client).catch((e) => e)
    expect(error).toBeInstanceOf(BaseError)
    expect(error.details).toBe('no session')
    expect(requests).toHaveLength(0)
  })
})

describe('hostile bodies (issue 10, item 1)', () => {
  const client = createSwapClient({ baseUrl, rateLimit: false })

  // Scaling, not speed. Before the fix the excerpt regexes were quadratic: 6 s ('<script'
  // repeated) and 30 s ('<' repeated) for 280 kB on a 2-core machine, blocking the event loop
  // where timeoutMs cannot reach. An error body four times longer must take about four times as
  // long (linear work), far from the sixteen times of quadratic work: the bound is eight, on the
  // fastest of three runs, and no less than 8 × 10 ms, so that a busy machine's noise on a few
  // milliseconds cannot fail it.
  test.each([
    ['<script repeated', '<script'],
    ['< repeated', '<'],
    ['<a repeated', '<a'],
    ['<script>x</script> repeated', '<script>x</script>'],
    ['<a> repeated', '<a>'],
  ])(
    'an error body of %s: four times longer takes about four times as long, not sixteen',
    async (_, unit) => {
      const repeats = Math.ceil(70_000 / unit.length)
      const fastest = async (body: string) => {
        const client = createSwapClient({
          baseUrl,
          rateLimit: false,
          fetch: async () => new Response(body, { status: 502, headers: { 'content-type': 'text/html' } }),
        })
        let best = Number.POSITIVE_INFINITY
        for (let run = 0; run < 3; run++) {
          const started = performance.now()
          const error = await getTokens(client).catch((e) => e)
          best = Math.min(best, performance.now() - started)
          expect(error).toBeInstanceOf(HttpError)
          expect(error.body.length).toBeLessThanOrEqual(200)
        }
        return best
      }
      await fastest(unit.repeat(100)) // warm-up
      const short = await fastest(unit.repeat(repeats))
      const long = await fastest(unit.repeat(4 * repeats))
      expect(long).toBeLessThan(8 * Math.max(short, 10))
    },
  )

  test('the excerpt still strips scripts, styles and tags, and an unclosed script hides the rest', async () => {
    server.use(
      http.get(
        tokensUrl,
        () =>
          new HttpResponse(
            '<html><SCRIPT type="x">var a = "<b>"</Script><p>Bad   gateway</p><style>p{}</style>tail<script>leak',
            { status: 502 },
          ),
      ),
    )
    const error = await getTokens(client).catch((e) => e)
    expect(error.body).toBe('Bad gateway tail')
  })

  test('a "<" that no ">" follows is text, as the rest of the body', async () => {
    server.use(
      http.get(tokensUrl, () => new HttpResponse('<p>Bad</p> gateway: load < 1 <script', { status: 502 })),
    )
    const error = await getTokens(client).catch((e) => e)
    expect(error.body).toBe('Bad gateway: load < 1 <script')
  })

  test('the FastAPI detail of a 10 kB body is cut to 500 characters', async () => {
    const detail = 'abcdefghij'.repeat(1_000)
    server.use(http.get(tokensUrl, () => HttpResponse.json({ detail }, { status: 400 })))
    const error = await getTokens(client).catch((e) => e)
    expect(error).toBeInstanceOf(HttpError)
    expect(error.details).toBe(`${detail.slice(0, 497)}...`)
    expect(error.details).toHaveLength(500)
  })

  test('a body over 64 KiB is not parsed for a FastAPI detail at all', async () => {
    server.use(
      http.get(tokensUrl, () => HttpResponse.json({ detail: 'x'.repeat(64 * 1024) }, { status: 400 })),
    )
    const error = await getTokens(client).catch((e) => e)
    expect(error).toBeInstanceOf(HttpError)
    expect(error.details).toBe('')
    expect(error.message.length).toBeLessThan(2_000)
  })
})

describe('redirects (issue 10, item 2)', () => {
  const apiKey = 'sk_live_redirect_0123456789'
  const tokens = [{ address: WETH, symbol: 'WETH' }]

  test('by default a redirect is refused before the target gets the request, with a typed error that says how to allow it', async () => {
    const target = await startLoopbackServer((_, response) => response.end(JSON.stringify(tokens)))
    const origin = await startLoopbackServer((_, response) => {
      response.writeHead(302, { location: `${target.url}/overview/tokens` }).end()
    })
    const client = createSwapClient({
      baseUrl: origin.url,
      rateLimit: false,
      headers: { 'x-api-key': apiKey },
    })
    const error = await getTokens(client).catch((e) => e)
    expect(origin.requests).toHaveLength(1)
    expect(target.requests).toEqual([])
    expect(error).toBeInstanceOf(RedirectError)
    expect(error).toBeInstanceOf(BaseError)
    expect(error.name).toBe('RedirectError')
    expect(error.reason).toBe('refused')
    expect(error.url).toBe(`${origin.url}/overview/tokens`)
    expect(error.shortMessage).toBe('The swap service answered with a redirect, which this client refuses.')
    expect(error.details).toContain("redirect: 'follow'")
    expect(isRetryableError(error)).toBe(false)
  })

  test('by default a redirect to plain http off loopback never carries the API key', async () => {
    server.use(
      http.get(
        tokensUrl,
        () => new HttpResponse(null, { status: 301, headers: { location: 'http://evil.test/t' } }),
      ),
      http.get('http://evil.test/t', () => HttpResponse.json(tokens)),
    )
    const client = createSwapClient({ baseUrl, rateLimit: false, headers: { 'x-api-key': apiKey } })
    const error = await getTokens(client).catch((e) => e)
    expect(requests.map((request) => request.url)).toEqual([tokensUrl])
    expect(error).toBeInstanceOf(RedirectError)
    expect(error.reason).toBe('refused')
  })

  test("with redirect: 'follow', an https target is followed", async () => {
    server.use(
      http.get(
        tokensUrl,
        () => new HttpResponse(null, { status: 307, headers: { location: 'https://mirror.test/t' } }),
      ),
      http.get('https://mirror.test/t', () => HttpResponse.json(tokens)),
    )
    const client = createSwapClient({ baseUrl, rateLimit: false, redirect: 'follow' })
    expect(await getTokens(client)).toEqual(tokens)
    expect(requests.map((request) => request.url)).toEqual([tokensUrl, 'https://mirror.test/t'])
  })

  test("with redirect: 'follow', a loopback http target is followed", async () => {
    const target = await startLoopbackServer((_, response) => response.end(JSON.stringify(tokens)))
    const origin = await startLoopbackServer((_, response) => {
      response.writeHead(302, { location: `${target.url}/t` }).end()
    })
    const client = createSwapClient({ baseUrl: origin.url, rateLimit: false, redirect: 'follow' })
    expect(await getTokens(client)).toEqual(tokens)
  })

  test("with redirect: 'follow', a final plain-http URL off loopback is refused with a typed error", async () => {
    server.use(
      http.get(
        tokensUrl,
        () => new HttpResponse(null, { status: 302, headers: { location: 'http://evil.test/t?k=1' } }),
      ),
      http.get('http://evil.test/t', () => HttpResponse.json(tokens)),
    )
    const client = createSwapClient({ baseUrl, rateLimit: false, redirect: 'follow' })
    const error = await getTokens(client).catch((e) => e)
    expect(error).toBeInstanceOf(RedirectError)
    expect(error.reason).toBe('insecure')
    expect(error.location).toBe('http://evil.test/t?k=1')
    expect(error.shortMessage).toBe(
      'The swap service redirected to an insecure URL, which this client refuses.',
    )
  })

  test("with redirect: 'follow' and allowInsecureHttp, a plain-http target is accepted", async () => {
    server.use(
      http.get(
        tokensUrl,
        () => new HttpResponse(null, { status: 302, headers: { location: 'http://plain.test/t' } }),
      ),
      http.get('http://plain.test/t', () => HttpResponse.json(tokens)),
    )
    const client = createSwapClient({
      baseUrl,
      rateLimit: false,
      redirect: 'follow',
      allowInsecureHttp: true,
    })
    expect(await getTokens(client)).toEqual(tokens)
  })

  test('by default a custom fetch that follows a redirect anyway (redirected: true) is refused, its body left unread', async () => {
    let cancelled = false
    const following: typeof fetch = async () => {
      const response = new Response(
        new ReadableStream({
          start(controller) {
            controller.enqueue(new TextEncoder().encode(JSON.stringify(tokens)))
          },
          cancel() {
            cancelled = true
          },
        }),
        { status: 200, headers: { 'content-type': 'application/json' } },
      )
      Object.defineProperties(response, {
        redirected: { value: true },
        url: { value: 'https://elsewhere.test/overview/tokens' },
      })
      return response
    }
    const client = createSwapClient({ baseUrl, rateLimit: false, fetch: following })
    const error = await getTokens(client).catch((e) => e)
    expect(error).toBeInstanceOf(RedirectError)
    expect(error.reason).toBe('refused')
    expect(error.url).toBe(tokensUrl)
    expect(error.location).toBe('https://elsewhere.test/overview/tokens')
    await vi.waitFor(() => expect(cancelled).toBe(true))
  })

  test('an unknown redirect setting is refused', () => {
    expect(() => createSwapClient({ baseUrl, redirect: 'manual' } as never)).toThrow(
      expect.objectContaining({ name: 'InvalidParameterError', parameter: 'redirect' }),
    )
  })
})

/** Every string an error carries, down its cause chain: messages, stacks, fields, zod issues. */
function allText(error: unknown): string {
  const out: string[] = []
  const seen = new Set<unknown>()
  let current = error
  while (current !== undefined && current !== null && !seen.has(current)) {
    seen.add(current)
    if (typeof current === 'string') out.push(current)
    if (current instanceof Error) {
      out.push(current.message, current.stack ?? '')
      for (const value of Object.values(current)) out.push(JSON.stringify(value) ?? '')
      const issues = (current as { issues?: unknown }).issues
      if (issues) out.push(JSON.stringify(issues))
    }
    current = (current as { cause?: unknown }).cause
  }
  return out.join('\n')
}

/** True when any 10 consecutive characters of the secret appear in the text. */
function leaks(text: string, secret: string): boolean {
  for (let i = 0; i + 10 <= secret.length; i++) if (text.includes(secret.slice(i, i + 10))) return true
  return false
}

describe('secrets never reach errors (issue 10, item 3)', () => {
  const routeUrl = `${baseUrl}/swap/route`

  test('a bearer token echoed alone in a 401 body', async () => {
    const token = 'abc123def456ghi789jkl'
    server.use(
      http.get(tokensUrl, ({ request }) => {
        const echoed = request.headers.get('authorization')?.split(' ')[1] ?? ''
        return new HttpResponse(echoed, { status: 401 })
      }),
    )
    const client = createSwapClient({
      baseUrl,
      rateLimit: false,
      headers: { authorization: `Bearer ${token}` },
    })
    const error = await getTokens(client).catch((e) => e)
    expect(error).toBeInstanceOf(HttpError)
    expect(error.body).toBe('***')
    expect(leaks(allText(error), token)).toBe(false)
  })

  test('the password of a Basic authorization, echoed decoded', async () => {
    const password = 'hunter2-correct-horse'
    server.use(
      http.get(tokensUrl, () => HttpResponse.json({ detail: `wrong password ${password}` }, { status: 401 })),
    )
    const client = createSwapClient({
      baseUrl,
      rateLimit: false,
      headers: { authorization: `Basic ${btoa(`alice:${password}`)}` },
    })
    const error = await getTokens(client).catch((e) => e)
    expect(error.details).toBe('wrong password ***')
    expect(leaks(allText(error), password)).toBe(false)
  })

  test('base-URL query values echoed in a body, raw, percent-encoded and form-encoded', async () => {
    const value = 'qk live/7 secret=value'
    server.use(
      http.get(
        tokensUrl,
        () =>
          new HttpResponse(
            `raw ${value} | percent ${encodeURIComponent(value)} | form ${new URLSearchParams({ v: value }).toString().slice(2)} | lower ${encodeURIComponent(value).toLowerCase()}`,
            { status: 403 },
          ),
      ),
    )
    const client = createSwapClient({
      baseUrl: `${baseUrl}?apikey=${encodeURIComponent(value)}`,
      rateLimit: false,
    })
    const error = await getTokens(client).catch((e) => e)
    expect(error.body).toBe('raw *** | percent *** | form *** | lower ***')
    expect(error.url).toBe(`${tokensUrl}?apikey=***`)
    expect(leaks(allText(error), value)).toBe(false)
    expect(leaks(allText(error), encodeURIComponent(value))).toBe(false)
  })

  test('a query key with spaces in the base URL: its value is hidden in the URL too', async () => {
    server.use(http.get(tokensUrl, () => HttpResponse.error()))
    const client = createSwapClient({
      baseUrl: `${baseUrl}?api%20key=secretvalue1&chain=1`,
      rateLimit: false,
    })
    const error = await getTokens(client).catch((e) => e)
    expect(error).toBeInstanceOf(NetworkError)
    expect(error.url).toBe(`${tokensUrl}?api+key=***&chain=***`)
    expect(allText(error)).not.toContain('secretvalue1')
  })

  test('a long key echoed into a 200 field: the quoted value never shows a piece of it', async () => {
    const apiKey = 'sk_live_Zq9sK2mX7vB4nP1wR8tY5uE3aQ6cL0dF'
    server.use(
      http.get(routeUrl, () =>
        HttpResponse.json({ path: [WETH, USDC], amount_out: `key ${apiKey} rejected` }),
      ),
    )
    const client = createSwapClient({ baseUrl, rateLimit: false, headers: { 'x-api-key': apiKey } })
    const error = await getSwapRoute(client, route).catch((e) => e)
    expect(error).toBeInstanceOf(ResponseValidationError)
    expect(error.shortMessage).toBe(
      'Unexpected response from /swap/route at $.amount_out: expected a non-negative integer amount, got the string "key *** rejected".',
    )
    expect(leaks(allText(error), apiKey)).toBe(false)
  })

  test('a key echoed as an object key: the issue path and the message hide it', async () => {
    const apiKey = 'sk_live_Zq9sK2mX7vB4nP1wR8tY5uE3aQ6cL0dF'
    server.use(http.get(tokensUrl, () => HttpResponse.json({ [apiKey]: [{ address: 'nope', symbol: 'X' }] })))
    const client = createSwapClient({ baseUrl, rateLimit: false, headers: { 'x-api-key': apiKey } })
    const error = await getTokens(client).catch((e) => e)
    expect(error).toBeInstanceOf(ResponseValidationError)
    expect(error.path).toBe('$.***[0].address')
    expect(leaks(allText(error), apiKey)).toBe(false)
  })

  test('a key in a body that is not JSON: the parser’s own message (the cause) hides it too', async () => {
    const apiKey = 'sk_live_Zq9sK2mX7vB4nP1wR8tY5uE3aQ6cL0dF'
    server.use(http.get(tokensUrl, () => new HttpResponse(`${apiKey} is not json`, { status: 200 })))
    const client = createSwapClient({ baseUrl, rateLimit: false, headers: { 'x-api-key': apiKey } })
    const error = await getTokens(client).catch((e) => e)
    expect(error).toBeInstanceOf(ResponseValidationError)
    expect(error.cause).toBeInstanceOf(SyntaxError)
    expect(leaks(allText(error), apiKey)).toBe(false)
  })

  test('a key cut in two by the end of the scanned part of a body leaves no piece behind', async () => {
    const apiKey = 'Zq9sK2mX7vB4nP1wR8tY5uE3aQ6cL0dF'
    server.use(
      http.get(tokensUrl, () => new HttpResponse(`${'<br>'.repeat(2043)}${apiKey} tail`, { status: 500 })),
    )
    const client = createSwapClient({ baseUrl, rateLimit: false, headers: { 'x-api-key': apiKey } })
    const error = await getTokens(client).catch((e) => e)
    expect(leaks(allText(error), apiKey)).toBe(false)
  })

  test('short header values and scheme words are not treated as secrets', async () => {
    server.use(http.get(tokensUrl, () => new HttpResponse('Bearer token missing for v2', { status: 401 })))
    const client = createSwapClient({
      baseUrl,
      rateLimit: false,
      headers: { authorization: 'Bearer abc123def456ghi789jkl', 'x-api-version': 'v2' },
    })
    const error = await getTokens(client).catch((e) => e)
    expect(error.body).toBe('Bearer token missing for v2')
  })
})

describe('response size cap (issue 10, item 4)', () => {
  test('a content-length above maxResponseBytes is refused before the body is read', async () => {
    let written = 0
    const origin = await startLoopbackServer((_, response) => {
      // Declares 50 MB, sends 1 kB and then nothing: a client reading the body would wait.
      response.writeHead(200, { 'content-type': 'application/json', 'content-length': String(50_000_000) })
      response.write('['.padEnd(1024, ' '))
      written += 1024
    })
    const client = createSwapClient({
      baseUrl: origin.url,
      rateLimit: false,
      timeoutMs: 2_000,
      maxResponseBytes: 1_000_000,
    })
    const started = Date.now()
    const error = await getTokens(client).catch((e) => e)
    expect(error).toBeInstanceOf(ResponseTooLargeError)
    expect(error).toBeInstanceOf(BaseError)
    expect(error.name).toBe('ResponseTooLargeError')
    expect(isRetryableError(error)).toBe(false)
    expect(error.maxBytes).toBe(1_000_000)
    expect(error.contentLength).toBe(50_000_000)
    expect(error.url).toBe(`${origin.url}/overview/tokens`)
    expect(Date.now() - started).toBeLessThan(1_500)
    expect(written).toBe(1024)
  })

  test('without a content-length, reading stops (and the stream is cancelled) once over the cap', async () => {
    let written = 0
    let closed = false
    const origin = await startLoopbackServer((request, response) => {
      // An endless chunked body: 256 kB at a time, as fast as the client reads.
      response.writeHead(200, { 'content-type': 'application/json' })
      const chunk = Buffer.alloc(256 * 1024, 32)
      request.socket.once('close', () => {
        closed = true
      })
      const pump = () => {
        while (!closed && response.write(chunk)) written += chunk.length
        if (!closed) written += chunk.length
        if (!closed) response.once('drain', pump)
      }
      pump()
    })
    const client = createSwapClient({
      baseUrl: origin.url,
      rateLimit: false,
      timeoutMs: 3_000,
      maxResponseBytes: 4 * 1024 * 1024,
      fetch: nodeFetch,
    })
    const error = await getTokens(client).catch((e) => e)
    expect(error).toBeInstanceOf(ResponseTooLargeError)
    expect(error.contentLength).toBeUndefined()
    expect(error.shortMessage).toBe('The swap service answered with more than 4194304 bytes.')
    await vi.waitFor(() => expect(closed).toBe(true))
    // The client stopped reading: far less than the 3 s of the timeout would have let through.
    expect(written).toBeLessThan(64 * 1024 * 1024)
  })

  test('the default cap is 16 MiB', async () => {
    const record = JSON.stringify({ address: WETH, symbol: 'WETH', padding: 'x'.repeat(1000) })
    const over = `[${Array.from({ length: 17 * 1024 }, () => record).join(',')}]`
    server.use(
      http.get(tokensUrl, () => new HttpResponse(over, { headers: { 'content-type': 'application/json' } })),
    )
    const client = createSwapClient({ baseUrl, rateLimit: false })
    const error = await getTokens(client).catch((e) => e)
    expect(error).toBeInstanceOf(ResponseTooLargeError)
    expect(error.maxBytes).toBe(16 * 1024 * 1024)
  })

  test('a body within the cap is read whole, multi-byte characters across chunks included', async () => {
    const origin = await startLoopbackServer((_, response) => {
      const body = Buffer.from(JSON.stringify([{ address: WETH, symbol: 'WΞTH €' }]))
      response.writeHead(200, { 'content-type': 'application/json' })
      // One byte at a time, so that multi-byte characters are split between chunks.
      let index = 0
      const next = () => {
        if (index === body.length) return void response.end()
        response.write(body.subarray(index, ++index), () => setImmediate(next))
      }
      next()
    })
    const client = createSwapClient({ baseUrl: origin.url, rateLimit: false, maxResponseBytes: 1_000 })
    expect(await getTokens(client)).toEqual([{ address: WETH, symbol: 'WΞTH €' }])
  })

  test.each([0, -1, 1.5, Number.NaN, '1000'])('maxResponseBytes %s is refused', (maxResponseBytes) => {
    expect(() => createSwapClient({ baseUrl, maxResponseBytes } as never)).toThrow(
      expect.objectContaining({ name: 'InvalidParameterError', parameter: 'maxResponseBytes' }),
    )
  })
})

describe('429 pause cap through the client (issue 10, item 6)', () => {
  test.each([
    ['Retry-After: 1000000000000', () => ({ 'retry-after': '1000000000000' })],
    [
      'a reset far in the future',
      () => ({ 'x-ratelimit-reset': String(Math.floor(Date.now() / 1000) + 86_400) }),
    ],
  ])('%s pauses the client for one minute at most (maxRateLimitPauseMs)', async (_, headers) => {
    server.use(
      http.get(tokensUrl, () => HttpResponse.json({ detail: 'later' }, { status: 429, headers: headers() })),
    )
    const client = createSwapClient({ baseUrl, rateLimit: false })
    const error = await getTokens(client).catch((e) => e)
    expect(error).toBeInstanceOf(RateLimitError)
    const state = client.rateLimiter.getState()
    expect((state.rateLimitedUntil as number) - Date.now()).toBeLessThanOrEqual(60_000)
    expect((state.rateLimitedUntil as number) - Date.now()).toBeGreaterThan(59_000)
    expect(state.capped).toBe(true)
    expect(state.requestedUntil).toBeGreaterThan(Date.now() + 3_000_000)
    // A query's retry waits for the client's (capped) pause, not for the hour the server asked;
    // the error says what the client does, and keeps what the server asked.
    expect(getRetryDelay(0, error, state.rateLimitedUntil)).toBeLessThanOrEqual(60_250)
    expect(error.pausedForMs).toBeLessThanOrEqual(60_000)
    expect(error.retryAfterMs).toBeGreaterThan(3_000_000)
    expect(error.shortMessage).toBe(
      'The swap service is rate limiting this client: it pauses its requests for 60 s.',
    )

    const short = createSwapClient({ baseUrl, rateLimit: false, maxRateLimitPauseMs: 2_000 })
    await getTokens(short).catch((e) => e)
    expect((short.rateLimiter.getState().rateLimitedUntil as number) - Date.now()).toBeLessThanOrEqual(2_000)
  })

  test('with maxRateLimitPauseMs: Infinity, Retry-After: 7200 pauses the client two hours, as asked, not capped', async () => {
    server.use(
      http.get(tokensUrl, () =>
        HttpResponse.json({ detail: 'later' }, { status: 429, headers: { 'retry-after': '7200' } }),
      ),
    )
    const client = createSwapClient({
      baseUrl,
      rateLimit: false,
      maxRateLimitPauseMs: Number.POSITIVE_INFINITY,
    })
    const before = Date.now()
    const error = await getTokens(client).catch((e) => e)
    expect(error).toBeInstanceOf(RateLimitError)
    expect(error.retryAfterMs).toBe(7_200_000)
    const { rateLimitedUntil, requestedUntil, capped } = client.rateLimiter.getState()
    expect(rateLimitedUntil).toBe(requestedUntil)
    expect(capped).toBe(false)
    expect((rateLimitedUntil as number) - before).toBeGreaterThanOrEqual(7_200_000)
    expect((rateLimitedUntil as number) - Date.now()).toBeLessThanOrEqual(7_200_000)
    expect(error.pausedForMs).toBeGreaterThan(7_199_000)
    expect(error.shortMessage).toBe(
      'The swap service is rate limiting this client: it pauses its requests for 7200 s.',
    )

    // With the default cap: one minute taken, the two hours asked kept in the state and the error.
    const capped60 = createSwapClient({ baseUrl, rateLimit: false })
    const cut = await getTokens(capped60).catch((e) => e)
    expect(cut.retryAfterMs).toBe(7_200_000)
    const state = capped60.rateLimiter.getState()
    expect((state.requestedUntil as number) - (state.rateLimitedUntil as number)).toBe(7_200_000 - 60_000)
    expect(state.capped).toBe(true)
  })

  test('maxRateLimitPauseMs must be a positive number', () => {
    expect(() => createSwapClient({ baseUrl, maxRateLimitPauseMs: 0 } as never)).toThrow(
      expect.objectContaining({ name: 'InvalidParameterError', parameter: 'maxRateLimitPauseMs' }),
    )
  })
})
