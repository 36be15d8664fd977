import { durationRule, ensure, type InvalidParameterError } from './errors/parameter.js'
import {
  createRateLimiter,
  type RateLimitConfig,
  type RateLimiter,
  resolveMaxPauseMs,
} from './rateLimiter.js'
import { createRequest, type RequestParameters } from './request.js'
import type { Endpoint } from './types.js'
import { type ArrayFormat, normalizeBaseUrl } from './utils/url.js'
import { isObject } from './utils/validate.js'

/** Headers sent with every request: fixed, or read (sync or async) before each one. */
export type SwapClientHeaders =
  | Record<string, string>
  | (() => Record<string, string> | Promise<Record<string, string>>)

/** What `createSwapClient` takes: the base URL, headers, time limits, the rate limit, redirects. */
export type SwapClientConfig = {
  /**
   * Where the service lives, with or without a trailing slash; may carry a
   * path prefix (`https://host/api/v2`) or be a same-origin path (`/api`).
   * Must be https unless the host is loopback or `allowInsecureHttp` is set.
   */
  baseUrl: string
  /** Accept a plain `http://` base URL on a non-loopback host. Default `false`. */
  allowInsecureHttp?: boolean | undefined
  /** The fetch to use. Default: the global `fetch`, looked up at request time. */
  fetch?: typeof fetch | undefined
  /**
   * Headers for every request (an API key, say), or a function returning them.
   * They never appear in URLs, cache keys or error messages.
   */
  headers?: SwapClientHeaders | undefined
  /** Milliseconds before a request fails with `TimeoutError`. Default 15 000. */
  timeoutMs?: number | undefined
  /** How array parameters are written. Default `'repeat'`. */
  arrayFormat?: ArrayFormat | undefined
  /**
   * Client-side pacing shared by every request of this client. Default
   * `{ requestsPerSecond: 5, burst: 5 }`; `false` turns pacing off (429
   * pauses still apply).
   */
  rateLimit?: RateLimitConfig | false | undefined
  /**
   * The longest pause after a 429, in milliseconds, whatever `Retry-After`
   * or a reset header asks (a server may ask for an hour or more). Default
   * 60 000. `useRateLimitState()` tells when a pause was cut short.
   */
  maxRateLimitPauseMs?: number | undefined
  /**
   * What to do when the service answers with a redirect. Default `'error'`:
   * the redirect is not followed and the request fails with `RedirectError`,
   * so headers (an API key) never reach another URL.
   *
   * With `'follow'`, the client follows redirects itself (fetch runs with
   * `redirect: 'manual'`), at most 5 per request, always with GET, and checks
   * each hop before sending anything to it; a hop that fails a check is not
   * sent and the request fails with `RedirectError`:
   * - every hop must meet the base URL's rule (https, or http on a loopback
   *   host or with `allowInsecureHttp`);
   * - the client's credentials stay on the base URL's origin: a hop to another
   *   origin is refused, not sent without them, when the request carries
   *   configured headers or the hop's URL carries a base-URL query value;
   *   a hop to another origin that carries none of them is followed;
   * - a URL already requested (a loop) or a sixth redirect is refused.
   *
   * A browser hides where a redirect leads (`fetch` answers an opaque
   * redirect), so there no hop can be checked and every redirect fails with
   * `RedirectError` (`reason: 'opaque'`): point `baseUrl` at the final URL.
   */
  redirect?: 'error' | 'follow' | undefined
  /**
   * The largest answer read, in bytes. Default 16 MiB. A larger
   * `Content-Length` is refused before the body is read; a body without one
   * is read until it passes the cap, then the stream is cancelled. Either way
   * the request fails with `ResponseTooLargeError`. `Infinity` for no cap.
   */
  maxResponseBytes?: number | undefined
  /**
   * Adapts a response body before validation, for services whose envelopes
   * differ from what the library accepts on its own.
   *
   * @example
   * transformResponse: (body, { endpoint }) =>
   *   endpoint === '/overview/tokens' ? Object.values(body.tokensByAddress) : body
   */
  transformResponse?: ((body: unknown, context: { endpoint: Endpoint }) => unknown) | undefined
}

/** A client of one swap service (`createSwapClient`): its base URL, its limiter and its `request`. */
export type SwapClient = {
  /** The normalized base URL (no trailing slash). Part of every cache key. */
  readonly baseUrl: string
  readonly arrayFormat: ArrayFormat
  readonly timeoutMs: number
  /** The client-wide limiter; `rateLimiter.getState()` tells whether it is paused. */
  readonly rateLimiter: RateLimiter
  /** Sends one GET to an endpoint and returns its body, validated by `schema`. */
  readonly request: <output>(parameters: RequestParameters<output>) => Promise<output>
  /**
   * Hides the client's secrets in a text (`***`), with the redactor its errors pass through: the
   * values of its headers (of a headers function, as the last request read them) and of the base
   * URL's query. `createFailureReport` runs every string of a report through it.
   */
  readonly redact: (text: string) => string
  readonly uid: string
}

/** Every error `createSwapClient` may throw (narrow by `name`, or by `code`). */
export type CreateSwapClientErrorType = InvalidParameterError

/** What `maxResponseBytes` is when not given: 16 MiB. */
const defaultMaxResponseBytes = 16 * 1024 * 1024

let uidCounter = 0

/**
 * Creates a client for the token swap service. Pass it to any action, query
 * factory or to `<SwapProvider client={client}>`.
 *
 * @example
 * import { createSwapClient, getSwapRoute } from 'token-swap-hooks/core'
 *
 * const client = createSwapClient({ baseUrl: 'https://swap.example.com/api' })
 * const route = await getSwapRoute(client, {
 *   token0: '0xC02aaA39b223FE8D0A0e5C4F27eAD9083C756Cc2',
 *   token1: '0xA0b86991c6218b36c1d19D4a2e9Eb0cE3606eB48',
 *   amountIn: 10n ** 18n,
 * })
 */
export function createSwapClient(config: SwapClientConfig): SwapClient {
  ensure(isObject(config), 'config', 'must be an object with a baseUrl', config)
  const {
    baseUrl,
    allowInsecureHttp = false,
    arrayFormat = 'repeat',
    timeoutMs = 15_000,
    rateLimit,
    redirect = 'error',
    maxResponseBytes = defaultMaxResponseBytes,
  } = config
  const normalized = normalizeBaseUrl(baseUrl, allowInsecureHttp)
  ensure(
    ['repeat', 'comma', 'brackets'].includes(arrayFormat),
    'arrayFormat',
    "must be 'repeat', 'comma' or 'brackets'",
    arrayFormat,
  )
  ensure(typeof timeoutMs === 'number' && timeoutMs > 0, 'timeoutMs', durationRule, timeoutMs)
  ensure(redirect === 'error' || redirect === 'follow', 'redirect', "must be 'error' or 'follow'", redirect)
  ensure(
    typeof maxResponseBytes === 'number' &&
      maxResponseBytes >= 1 &&
      (Number.isInteger(maxResponseBytes) || maxResponseBytes === Infinity),
    'maxResponseBytes',
    'must be a whole number of bytes above 0 (Infinity for no limit)',
    maxResponseBytes,
  )
  ensure(
    config.fetch === undefined || typeof config.fetch === 'function',
    'fetch',
    'must be a function',
    config.fetch,
  )
  const rateLimiter = createRateLimiter(rateLimit, {
    maxPauseMs: resolveMaxPauseMs(config.maxRateLimitPauseMs, 'maxRateLimitPauseMs'),
  })
  const request = createRequest({
    ...config,
    ...normalized,
    arrayFormat,
    timeoutMs,
    rateLimiter,
    redirect,
    allowInsecureHttp,
    maxResponseBytes,
  })
  return {
    baseUrl: normalized.base,
    arrayFormat,
    timeoutMs,
    rateLimiter,
    request,
    redact: request.redact,
    uid: `swap-client-${++uidCounter}`,
  }
}
