import { ensure, type InvalidParameterError } from '../core/errors/parameter.js'
import {
  assertRateLimit,
  type ClientRateLimiter,
  createClientRateLimiter,
} from './createClientRateLimiter.js'
import { createMockMarket } from './createMockMarket.js'
import { isEndpoint, mockEndpoints } from './mockEndpoints.js'
import type {
  MockFailure,
  MockLatency,
  MockMarket,
  MockRateLimit,
  MockRequestContext,
  MockRequestLogEntry,
  MockService,
  MockServiceOptions,
} from './types.js'

/** The options of `createMockService` (its second argument, after the market): base path, latency, rate limit, log size. */
export type CreateMockServiceParameters = MockServiceOptions

/** What `createMockService` returns: the service (`handle(request)`, failures to inject, its latency, rate limit and request log). */
export type CreateMockServiceReturnType = MockService

/** What `createMockService` throws: a malformed option. */
export type CreateMockServiceErrorType = InvalidParameterError

/** Headers on every answer, so a page on another origin can call the loopback server. */
const corsHeaders = {
  'access-control-allow-origin': '*',
  'access-control-expose-headers': 'retry-after',
} as const

/** Headers of the answer to a CORS preflight. */
const preflightHeaders = {
  ...corsHeaders,
  'access-control-allow-methods': 'GET, OPTIONS',
  'access-control-allow-headers': '*',
  'access-control-max-age': '600',
} as const

type ActiveFailure = MockFailure & { remaining: number }

/** What `maxLogEntries` is when not given. */
const defaultMaxLogEntries = 10_000

/**
 * Puts the nine endpoints of the service over a market behind one Fetch-style
 * handler (`handle(request) → Response`), with knobs for tests and stories:
 * latency, a per-client rate limit, injected failures and a request log.
 * Transports (`createSwapHandlers` for MSW, `startMockServer` for a real
 * loopback server) only convert requests and responses. Memory stays
 * bounded: the log keeps the newest `maxLogEntries` (default 10 000) and the
 * rate limiter at most `rateLimit.maxClients` buckets.
 *
 * @example
 * import { createMockMarket, createMockService } from 'token-swap-hooks/mock'
 *
 * const service = createMockService(createMockMarket(), {
 *   basePath: '/api',
 *   latency: { min: 50, max: 200 },
 *   rateLimit: { requestsPerSecond: 5 },
 * })
 * const response = await service.handle(
 *   new Request('https://swap.test/api/overview/tokens?filter_by_token=USDC'),
 * )
 * service.fail({ status: 503, times: 2 }) // the next two requests answer 503
 * service.count('/overview/tokens') // 1
 */
export function createMockService(
  market: MockMarket = createMockMarket(),
  options: CreateMockServiceParameters = {},
): CreateMockServiceReturnType {
  const basePath = normalizeBasePath(options.basePath)
  const maxLogEntries = options.maxLogEntries ?? defaultMaxLogEntries
  ensure(
    typeof maxLogEntries === 'number' &&
      maxLogEntries >= 0 &&
      (Number.isInteger(maxLogEntries) || maxLogEntries === Number.POSITIVE_INFINITY),
    'maxLogEntries',
    'must be a whole number of at least 0 (or Infinity)',
    maxLogEntries,
  )
  let latency: MockLatency | undefined
  let limiter: ClientRateLimiter | undefined
  let failures: ActiveFailure[] = []
  const log = createRequestLog(maxLogEntries)

  const setLatency = (next: MockLatency | undefined) => {
    assertLatency(next)
    latency = next
  }
  const setRateLimit = (next: MockRateLimit | false | undefined) => {
    if (next) assertRateLimit(next)
    limiter = next ? createClientRateLimiter(next) : undefined
  }
  setLatency(options.latency)
  setRateLimit(options.rateLimit)

  const takeFailure = (path: string): ActiveFailure | undefined => {
    const failure = failures.find((item) => item.endpoint === undefined || item.endpoint === path)
    if (!failure) return undefined
    failure.remaining -= 1
    if (failure.remaining <= 0) failures = failures.filter((item) => item !== failure)
    return failure
  }

  const answer = (request: Request, url: URL, path: string | undefined, clientId: string, time: number) => {
    const shownPath = path ?? url.pathname
    if (limiter) {
      const taken = limiter.take(clientId, time)
      if (!taken.ok)
        return json(
          429,
          { detail: `Rate limit exceeded; retry in ${taken.retryAfterSeconds} s` },
          { 'retry-after': String(taken.retryAfterSeconds) },
        )
    }
    const failure = takeFailure(shownPath)
    if (failure) return failureResponse(failure)
    if (path === undefined || !isEndpoint(path)) return json(404, { detail: 'Not Found' })
    if (request.method.toUpperCase() !== 'GET')
      return json(405, { detail: 'Method Not Allowed' }, { allow: 'GET, OPTIONS' })
    const reply = mockEndpoints[path](market, url.searchParams)
    return json(reply.status, reply.body)
  }

  const service: MockService = {
    market,
    basePath,
    get log() {
      return log.read()
    },
    async handle(request: Request, context: MockRequestContext = {}) {
      const time = Date.now()
      const method = request.method.toUpperCase()
      const url = new URL(request.url)
      const path = relativePath(basePath, url.pathname)
      const clientId = request.headers.get('x-client-id') || context.clientAddress || 'anonymous'
      let response: Response
      if (method === 'OPTIONS') response = new Response(null, { status: 204, headers: preflightHeaders })
      else {
        try {
          response = answer(request, url, path, clientId, time)
        } catch (error) {
          response = json(500, { detail: 'Internal Server Error', error: String(error) })
        }
        await wait(pickLatency(latency), request.signal)
      }
      log.add({
        method,
        path: path ?? url.pathname,
        query: [...url.searchParams],
        status: response.type === 'error' ? 0 : response.status,
        clientId,
        time,
      })
      return response
    },
    clearLog: log.clear,
    count(path) {
      return log
        .read()
        .filter((entry) => entry.method !== 'OPTIONS' && (path === undefined || entry.path === path)).length
    },
    setLatency,
    setRateLimit,
    fail(failure: MockFailure = {}) {
      failures.push(resolveFailure(failure))
    },
    clearFailures() {
      failures = []
    },
    reset() {
      setLatency(options.latency)
      setRateLimit(options.rateLimit)
      failures = []
      log.clear()
    },
  }
  return service
}

/**
 * The log of a mock service's requests, the newest `maxLogEntries` of them.
 * It is `entries` from `dropped` on: past `maxLogEntries`, the oldest entry
 * is dropped by counting it; the dropped ones are cut off in one copy once
 * they are as many as the kept ones (or when the log is read): amortized O(1)
 * per request, not a move of every entry.
 */
function createRequestLog(maxLogEntries: number) {
  let entries: MockRequestLogEntry[] = []
  let dropped = 0
  const read = () => {
    if (dropped > 0) {
      entries = entries.slice(dropped)
      dropped = 0
    }
    return entries
  }
  return {
    read,
    add(entry: MockRequestLogEntry) {
      entries.push(entry)
      if (entries.length - dropped > maxLogEntries) dropped += 1
      if (dropped >= Math.max(1024, entries.length - dropped)) read()
    },
    clear() {
      entries = []
      dropped = 0
    },
  }
}

/** The path relative to the base path, or undefined when outside it. */
function relativePath(basePath: string, pathname: string): string | undefined {
  if (basePath === '') return pathname
  if (pathname === basePath) return '/'
  return pathname.startsWith(`${basePath}/`) ? pathname.slice(basePath.length) : undefined
}

/** `''` or `/prefix` without a trailing slash. */
function normalizeBasePath(basePath: string | undefined): string {
  if (basePath === undefined) return ''
  ensure(
    typeof basePath === 'string' && (basePath === '' || basePath.startsWith('/')),
    'basePath',
    'must be a path starting with "/" (or "" for the root)',
    basePath,
  )
  return basePath.replace(/\/+$/, '')
}

function json(status: number, body: unknown, headers: Record<string, string> = {}): Response {
  return new Response(JSON.stringify(body), {
    status,
    headers: { 'content-type': 'application/json', ...corsHeaders, ...headers },
  })
}

function resolveFailure(failure: MockFailure): ActiveFailure {
  const { status = 500, network = false, endpoint } = failure
  const times = failure.times ?? (endpoint !== undefined ? Number.POSITIVE_INFINITY : 1)
  ensure(
    network || (Number.isInteger(status) && status >= 200 && status <= 599),
    'status',
    'must be an HTTP status from 200 to 599',
    status,
  )
  ensure(typeof times === 'number' && times >= 1, 'times', 'must be at least 1 (or Infinity)', times)
  ensure(
    endpoint === undefined || (typeof endpoint === 'string' && endpoint.startsWith('/')),
    'endpoint',
    'must be a path starting with "/"',
    endpoint,
  )
  return { ...failure, status, network, remaining: times }
}

function failureResponse(failure: ActiveFailure): Response {
  if (failure.network) return Response.error()
  const { body = { detail: 'Injected failure' }, status = 500 } = failure
  const text = typeof body === 'string' ? body : JSON.stringify(body)
  const contentType =
    failure.contentType ??
    (typeof body !== 'string'
      ? 'application/json'
      : body.trimStart().startsWith('<')
        ? 'text/html; charset=utf-8'
        : 'text/plain; charset=utf-8')
  return new Response(status === 204 || status === 205 || status === 304 ? null : text, {
    status,
    headers: { 'content-type': contentType, ...corsHeaders, ...failure.headers },
  })
}

function assertLatency(latency: unknown): asserts latency is MockLatency | undefined {
  if (latency === undefined) return
  const ok =
    typeof latency === 'number'
      ? Number.isFinite(latency) && latency >= 0
      : typeof latency === 'object' &&
        latency !== null &&
        typeof (latency as { min?: unknown }).min === 'number' &&
        typeof (latency as { max?: unknown }).max === 'number' &&
        (latency as { min: number }).min >= 0 &&
        Number.isFinite((latency as { max: number }).max) &&
        (latency as { min: number }).min <= (latency as { max: number }).max
  ensure(
    ok,
    'latency',
    'must be milliseconds (a number of at least 0) or { min, max } with 0 <= min <= max',
    latency,
  )
}

function pickLatency(latency: MockLatency | undefined): number {
  if (latency === undefined) return 0
  if (typeof latency === 'number') return latency
  return latency.min + Math.random() * (latency.max - latency.min)
}

function wait(ms: number, signal: AbortSignal): Promise<void> {
  if (ms <= 0 || signal.aborted) return Promise.resolve()
  return new Promise((resolve) => {
    const done = () => {
      clearTimeout(timer)
      signal.removeEventListener('abort', done)
      resolve()
    }
    const timer = setTimeout(done, ms)
    signal.addEventListener('abort', done, { once: true })
  })
}
