import { BaseError, type BaseErrorType } from './base.js'
import type { ResponseValidationErrorType } from './response.js'

/** `HttpError` narrowed by its `name`, as a function's `…ErrorType` union lists it. */
export type HttpErrorType = HttpError & { name: 'HttpError' }

/**
 * The service answered with a status that is not 2xx.
 * `url` carries no credentials; `body` is a short excerpt of what came back.
 *
 * @example
 * if (error instanceof HttpError && error.status >= 500) showRetryLater()
 */
export class HttpError extends BaseError {
  override name: string = 'HttpError'
  declare status: number
  declare url: string
  /** The first characters of the response body, white space folded. */
  declare body: string
  /** The response's `content-type`, when it had one. */
  declare contentType: string | undefined

  constructor(
    {
      status,
      url,
      body,
      details,
      contentType,
    }: {
      status: number
      url: string
      body: string
      details?: string | undefined
      contentType?: string | undefined
    },
    shortMessage = `The swap service answered ${status}.`,
  ) {
    super(shortMessage, {
      metaMessages: [`URL: ${url}`, ...(body ? [`Body: ${body}`] : [])],
      details,
    })
    this.status = status
    this.url = url
    this.body = body
    this.contentType = contentType
  }
}

/** `NoRouteError` narrowed by its `name`, as a function's `…ErrorType` union lists it. */
export type NoRouteErrorType = NoRouteError & { name: 'NoRouteError' }

/**
 * The service found no path between the two tokens (404 on `/swap/route`,
 * `/get_path` or `/swap/info`). A normal outcome for a swap UI, never retried.
 *
 * @example
 * if (error instanceof NoRouteError) return <p>No route for this pair</p>
 */
export class NoRouteError extends HttpError {
  override name = 'NoRouteError' as const
  declare token0: string
  declare token1: string

  constructor({ url, body, token0, token1 }: { url: string; body: string; token0: string; token1: string }) {
    super({ status: 404, url, body }, `No route from ${token0} to ${token1}.`)
    this.token0 = token0
    this.token1 = token1
  }
}

/** `RateLimitError` narrowed by its `name`, as a function's `…ErrorType` union lists it. */
export type RateLimitErrorType = RateLimitError & { name: 'RateLimitError' }

/**
 * The service answered 429. `retryAfterMs` is what the service asked, from
 * `Retry-After` (seconds or an HTTP date) or `RateLimit-Reset` /
 * `X-RateLimit-Reset`, uncapped, or `undefined` when it sent none of them;
 * `pausedForMs` is how long the client actually waits (capped by
 * `maxRateLimitPauseMs`), which the message states.
 *
 * @example
 * if (error instanceof RateLimitError) console.log(`paused for ${error.pausedForMs} ms`)
 */
export class RateLimitError extends HttpError {
  override name = 'RateLimitError' as const
  declare retryAfterMs: number | undefined
  declare pausedForMs: number | undefined

  constructor({
    url,
    body,
    retryAfterMs,
    pausedForMs = retryAfterMs,
  }: { url: string; body: string; retryAfterMs: number | undefined; pausedForMs?: number | undefined }) {
    super(
      { status: 429, url, body },
      pausedForMs === undefined
        ? 'The swap service is rate limiting this client.'
        : `The swap service is rate limiting this client: it pauses its requests for ${Math.ceil(pausedForMs / 1000)} s.`,
    )
    this.retryAfterMs = retryAfterMs
    this.pausedForMs = pausedForMs
  }
}

/** `NetworkError` narrowed by its `name`, as a function's `…ErrorType` union lists it. */
export type NetworkErrorType = NetworkError & { name: 'NetworkError' }

/**
 * The request never got an HTTP answer (DNS, connection refused, CORS, offline).
 *
 * @example
 * if (error instanceof NetworkError) showOfflineBanner()
 */
export class NetworkError extends BaseError {
  override name = 'NetworkError' as const
  declare url: string

  constructor({ url, cause }: { url: string; cause: unknown }) {
    super('The swap service could not be reached.', { metaMessages: [`URL: ${url}`], cause })
    this.url = url
  }
}

/** `TimeoutError` narrowed by its `name`, as a function's `…ErrorType` union lists it. */
export type TimeoutErrorType = TimeoutError & { name: 'TimeoutError' }

/**
 * The service did not answer within `timeoutMs`.
 *
 * @example
 * const client = createSwapClient({ baseUrl, timeoutMs: 5_000 })
 */
export class TimeoutError extends BaseError {
  override name = 'TimeoutError' as const
  declare url: string
  declare timeoutMs: number

  constructor({ url, timeoutMs }: { url: string; timeoutMs: number }) {
    super(`The swap service did not answer within ${timeoutMs} ms.`, {
      metaMessages: [`URL: ${url}`],
    })
    this.url = url
    this.timeoutMs = timeoutMs
  }
}

/** `RedirectError` narrowed by its `name`, as a function's `…ErrorType` union lists it. */
export type RedirectErrorType = RedirectError & { name: 'RedirectError' }

/** The most redirects one request follows with `redirect: 'follow'`. */
export const maxRedirects = 5

/** Why a redirect was not followed; see `RedirectError`. */
type RedirectReason =
  | 'refused'
  | 'insecure'
  | 'crossOrigin'
  | 'tooMany'
  | 'loop'
  | 'invalid'
  | 'opaque'
  | 'unchecked'

/** Each reason's short message, and what else there is to say. */
const redirectMessages: Record<RedirectReason, [string, string?]> = {
  refused: ['answered with a redirect', "Point baseUrl at the final URL, or set redirect: 'follow'."],
  insecure: [
    'redirected to an insecure URL',
    'Hops must use https (http only on loopback or with allowInsecureHttp).',
  ],
  crossOrigin: ['redirected to another origin', "The client's credentials stay on the base URL's origin."],
  tooMany: [`redirected more than ${maxRedirects} times`],
  loop: ['redirected in a loop'],
  invalid: ['redirected to an unusable URL', 'The Location is not a URL, or it carries credentials.'],
  opaque: [
    'answered with a redirect the browser hides',
    'The browser hides its target: it cannot be checked.',
  ],
  unchecked: ['redirected, and the fetch followed', "The fetch ignored redirect: 'manual'."],
}

/**
 * The service answered with a redirect the client will not follow. With
 * `redirect: 'error'` (the default), any redirect (`reason: 'refused'`).
 * With `redirect: 'follow'`, the client follows redirects itself and checks
 * each hop before sending anything to it: a hop that breaks the https rule
 * (`'insecure'`), a hop to another origin while the request carries the
 * client's credentials (`'crossOrigin'`), more than 5 redirects (`'tooMany'`), a URL already
 * requested (`'loop'`), a `Location` that is not a valid URL or carries
 * credentials (`'invalid'`), a browser's
 * opaque redirect, whose target cannot be known (`'opaque'`), or a custom
 * fetch that followed on its own (`'unchecked'`). `location` is the target
 * when it is known (redacted like `url`). Never retried.
 *
 * @example
 * if (error instanceof RedirectError && error.reason === 'refused')
 *   console.warn('The service moved; update baseUrl or set redirect: "follow"')
 */
export class RedirectError extends BaseError {
  override name = 'RedirectError' as const
  /** Why the redirect was not followed (see the class). */
  declare reason: RedirectReason
  /** The request's URL (no secrets). */
  declare url: string
  /** Where the redirect led, resolved against the URL that answered it, when known. */
  declare location: string | undefined

  constructor({
    reason,
    url,
    location,
    cause,
  }: { reason: RedirectReason; url: string; location?: string | undefined; cause?: unknown }) {
    const [what, details] = redirectMessages[reason]
    super(`The swap service ${what}, which this client refuses.`, {
      metaMessages: [`URL: ${url}`, ...(location ? [`Location: ${location}`] : [])],
      details: reason === 'refused' ? details : `${details ?? ''} Point baseUrl at the final URL.`.trim(),
      cause,
    })
    this.reason = reason
    this.url = url
    this.location = location
  }
}

/** `ResponseTooLargeError` narrowed by its `name`, as a function's `…ErrorType` union lists it. */
export type ResponseTooLargeErrorType = ResponseTooLargeError & { name: 'ResponseTooLargeError' }

/**
 * The answer is larger than the client's `maxResponseBytes` (default 16 MiB):
 * refused from its `Content-Length` before the body is read, or once more
 * bytes than that have arrived (reading then stops). Never retried.
 *
 * @example
 * const client = createSwapClient({ baseUrl, maxResponseBytes: 64 * 1024 * 1024 })
 * // …
 * if (error instanceof ResponseTooLargeError) console.warn(`over ${error.maxBytes} bytes`)
 */
export class ResponseTooLargeError extends BaseError {
  override name = 'ResponseTooLargeError' as const
  declare url: string
  /** The client's `maxResponseBytes`. */
  declare maxBytes: number
  /** The size the service declared, when it was the `Content-Length` that exceeded the cap. */
  declare contentLength: number | undefined

  constructor({
    url,
    maxBytes,
    contentLength,
  }: { url: string; maxBytes: number; contentLength?: number | undefined }) {
    super(`The swap service answered with more than ${maxBytes} bytes.`, {
      metaMessages: [
        `URL: ${url}`,
        ...(contentLength === undefined ? [] : [`Content-Length: ${contentLength}`]),
      ],
      details: 'Raise maxResponseBytes if answers this large are expected.',
    })
    this.url = url
    this.maxBytes = maxBytes
    this.contentLength = contentLength
  }
}

/** Every error a request to the service can end with. */
export type RequestErrorType =
  | HttpErrorType
  | RateLimitErrorType
  | NetworkErrorType
  | TimeoutErrorType
  | RedirectErrorType
  | ResponseTooLargeErrorType
  | ResponseValidationErrorType
  | BaseErrorType

/**
 * Turns a 404 from a route endpoint into `NoRouteError`; other errors pass
 * through. A 404 that is an HTML page (a proxy's or a web server's: a wrong
 * `baseUrl` or path prefix) stays an `HttpError` saying so, rather than
 * passing for a market without a route.
 */
export function toNoRouteError(error: unknown, token0: string, token1: string): unknown {
  if (!(error instanceof HttpError) || error.status !== 404 || error instanceof NoRouteError) return error
  if (/html/i.test(error.contentType ?? ''))
    return new HttpError(error, 'The swap service answered 404 with an HTML page: check the base URL.')
  return new NoRouteError({ url: error.url, body: error.body, token0, token1 })
}
