import { BaseError } from './errors/base.js'
import {
  HttpError,
  maxRedirects,
  NetworkError,
  RateLimitError,
  RedirectError,
  ResponseTooLargeError,
  TimeoutError,
} from './errors/request.js'
import { ResponseValidationError } from './errors/response.js'
import type { RateLimiter } from './rateLimiter.js'
import { parseResponse, type Schema } from './schemas.js'
import type { Endpoint } from './types.js'
import { createRedactor, type Redactor, redactError, secretsOf } from './utils/redact.js'
import { parseRetryAfter } from './utils/retryAfter.js'
import { abortError, raceAbort, withTimeout } from './utils/signal.js'
import { type ArrayFormat, encodeQuery, isSecureTarget, type QueryValue, redactUrl } from './utils/url.js'

export type RequestParameters<output = unknown> = {
  endpoint: Endpoint
  /** The schema the body must match; the request resolves with its output. */
  schema: Schema<output>
  /** Wire names and values; `undefined` values and empty arrays are left out. */
  query?: Record<string, QueryValue> | undefined
  signal?: AbortSignal | undefined
}

type RequestConfig = {
  base: string
  baseQuery: [string, string][]
  arrayFormat: ArrayFormat
  timeoutMs: number
  rateLimiter: RateLimiter
  redirect: 'error' | 'follow'
  allowInsecureHttp: boolean
  maxResponseBytes: number
  fetch?: typeof fetch | undefined
  headers?:
    | Record<string, string>
    | (() => Record<string, string> | Promise<Record<string, string>>)
    | undefined
  transformResponse?: ((body: unknown, context: { endpoint: Endpoint }) => unknown) | undefined
}

type RedirectReason = RedirectError['reason']

/** Characters of a body shown in an error. */
const excerptLength = 200
/** Characters of a body the excerpt looks at: plenty for 200 readable ones, and a bound on the work. */
const excerptScanLength = 8 * 1024
/** The longest body parsed for a FastAPI `detail`, and the longest detail kept. */
const detailScanLength = 64 * 1024
const detailLength = 500

/**
 * Builds the `request` function of a client: pacing, timeout, status and body
 * handling. Its parts, each a function of the client's `config`: `send` (one
 * request, from the limiter's slot to the schema's output), `fetchOnce` (the
 * fetch under the timeout, the body read within a size cap) and
 * `fetchFollowing` (redirects, each hop checked before it is sent). What is
 * built here is the redactor of the request's secrets, kept per client, and
 * offered as `request.redact` for any other text (the client's `redact`).
 *
 * @example
 * const request = createRequest({ base, baseQuery: [], arrayFormat: 'repeat', timeoutMs: 15_000, rateLimiter, redirect: 'error', allowInsecureHttp: false, maxResponseBytes: 16 * 1024 * 1024 })
 * const route = await request({ endpoint: '/swap/route', query, schema: routeSchemaFor({ token0, token1 }) })
 */
export function createRequest(config: RequestConfig) {
  // Every error a request ends with passes through the redactor of its secrets. The base URL's
  // query values give one redactor per client; header values one per set of values, built again
  // only when they change (never for a headers object, unless it is changed in place).
  const baseRedact = createRedactor(secretsOf(undefined, config.baseQuery))
  let headerSecrets: [values: string, redact: Redactor] | undefined
  const redactorOf = (headers: Record<string, string>) => {
    const values = JSON.stringify(Object.values(headers))
    if (headerSecrets?.[0] !== values)
      headerSecrets = [values, createRedactor(secretsOf(headers, config.baseQuery))]
    return headerSecrets[1]
  }

  const request = async <output>(parameters: RequestParameters<output>): Promise<output> => {
    // The redactor of every secret value the request carries; every error that leaves goes through it.
    const secrets = { redact: baseRedact }
    try {
      return await send(config, redactorOf, parameters, secrets)
    } catch (error) {
      throw error instanceof BaseError ? redactError(error, secrets.redact) : error
    }
  }
  // The same redactor for any text (a failure report): the base URL's query values, and the header
  // values the last request sent.
  request.redact = (text: string) => (headerSecrets?.[1] ?? baseRedact)(text)
  return request
}

/**
 * One request: a slot of the client's limiter, the headers (their values are
 * secrets from then on: `secrets.redact` hides them), the fetch, then the
 * answer: a 429 is a `RateLimitError`, another status that is not ok an
 * `HttpError`; the body is parsed as JSON (an empty body, or one that is not
 * JSON, is a `ResponseValidationError` that quotes it, secrets hidden), goes
 * through `transformResponse` when there is one, then through the schema.
 */
async function send<output>(
  config: RequestConfig,
  redactorOf: (headers: Record<string, string>) => Redactor,
  { endpoint, query = {}, signal, schema }: RequestParameters<output>,
  secrets: { redact: Redactor },
): Promise<output> {
  const url = `${config.base}${endpoint}${encodeQuery(query, config.arrayFormat, config.baseQuery)}`
  const safeUrl = redactUrl(url, config.baseQuery)

  const release = await config.rateLimiter.acquire(signal)
  let answer: readonly [Response, string]
  try {
    let headers: Record<string, string>
    try {
      headers = { ...(typeof config.headers === 'function' ? await config.headers() : config.headers) }
    } catch (cause) {
      throw new BaseError('Could not build the request headers.', { cause })
    }
    secrets.redact = redactorOf(headers)
    answer = await fetchOnce(config, url, safeUrl, headers, signal, secrets.redact)
    config.rateLimiter.onSuccess()
  } finally {
    // The answer is in (or the request failed): the limiter may let the next one go.
    release()
  }

  // The excerpt, the detail and the redactor's pattern are only worked out for an error.
  const [response, text] = answer
  const { redact } = secrets
  if (!response.ok)
    throw new HttpError({
      status: response.status,
      url: safeUrl,
      body: excerpt(text, redact),
      details: errorDetail(text, redact),
      contentType: response.headers.get('content-type') ?? undefined,
    })

  // A body that is no JSON, or that transformResponse cannot take: a problem with the body as a whole.
  const invalidBody = (problem: string, cause?: unknown) =>
    new ResponseValidationError({ endpoint, path: '$', problem, url: safeUrl, cause })
  let json: unknown
  try {
    json = JSON.parse(text)
  } catch (cause) {
    if (/^\s*$/.test(text))
      throw invalidBody(`expected a JSON body, got an empty body (status ${response.status})`)
    const type = response.headers.get('content-type') ?? 'no content-type'
    throw invalidBody(
      `expected JSON, got ${type}: ${JSON.stringify(excerpt(text, redact).slice(0, 80))}`,
      // The parser quotes the first characters of the body, cut where a secret may start: not kept.
      new SyntaxError(String((cause as Error).message).replace(/"[\s\S]*"/, '"…"')),
    )
  }
  if (config.transformResponse) {
    try {
      json = config.transformResponse(json, { endpoint })
    } catch (cause) {
      throw invalidBody('transformResponse threw', cause)
    }
  }
  return parseResponse(schema, json, { endpoint, url: safeUrl, redact })
}

/**
 * One request under the timeout, redirects included; the body is read in
 * full before the timeout is cleared. Returns the answer and its body; a 429
 * pauses the client's limiter and is a `RateLimitError`.
 */
async function fetchOnce(
  config: RequestConfig,
  url: string,
  safeUrl: string,
  headers: Record<string, string>,
  signal: AbortSignal | undefined,
  redact: Redactor,
) {
  const [timeoutSignal, timedOut, clear] = withTimeout(signal, config.timeoutMs)
  try {
    const response = await fetchFollowing(config, url, safeUrl, headers, timeoutSignal, redact)
    // A 429 pauses the whole client as soon as its status is known, not after its body is read:
    // no request leaves in between.
    const limited = response.status === 429
    const retryAfterMs = limited ? parseRetryAfter(response.headers) : undefined
    const pausedUntil = limited ? config.rateLimiter.onRateLimited(retryAfterMs) : 0
    const maxBytes = config.maxResponseBytes
    const contentLength = Number(response.headers.get('content-length') ?? Number.NaN)
    if (contentLength > maxBytes) {
      cancelBody(response)
      throw new ResponseTooLargeError({ url: safeUrl, maxBytes, contentLength })
    }
    const text = await raceAbort(readText(response, maxBytes, safeUrl, timeoutSignal), timeoutSignal)
    if (limited)
      throw new RateLimitError({
        url: safeUrl,
        body: excerpt(text, redact),
        retryAfterMs,
        pausedForMs: Math.max(0, pausedUntil - Date.now()),
      })
    return [response, text] as const
  } catch (error) {
    // Our own errors (a refused redirect, an answer too large) are final; the rest is the network's.
    if (error instanceof BaseError) throw error
    if (timedOut()) throw new TimeoutError({ url: safeUrl, timeoutMs: config.timeoutMs })
    if (signal?.aborted) throw abortError(signal)
    if (error instanceof DOMException && error.name === 'AbortError') throw error
    throw new NetworkError({ url: safeUrl, cause: error })
  } finally {
    clear()
  }
}

/**
 * Sends the request, and with `redirect: 'follow'` each hop of its
 * redirects, always with `redirect: 'manual'`, so that no hop is sent before
 * it is checked. Returns the first answer that is not a redirect to follow.
 * A hop is refused (`RedirectError`), before anything is sent to it:
 * - when it breaks the base URL's rule: https, or http on a loopback host or
 *   with `allowInsecureHttp` (`'insecure'`);
 * - when this request was already sent to its URL (`'loop'`), or it is the
 *   hop after the last one allowed (`'tooMany'`);
 * - when it leads to another origin than the base URL's while the request
 *   carries configured headers, or the hop's URL carries a secret (a base-URL
 *   query value the server copied into it): refused (`'crossOrigin'`), not
 *   sent without them. A hop without any of them is followed.
 */
async function fetchFollowing(
  config: RequestConfig,
  url: string,
  safeUrl: string,
  headers: Record<string, string>,
  signal: AbortSignal,
  redact: Redactor,
): Promise<Response> {
  const init: RequestInit = {
    method: 'GET',
    headers: { accept: 'application/json', ...headers },
    // 'manual' rather than 'error' by default: the redirect is not followed either, and it can be
    // told apart from a network failure everywhere (a browser answers an opaque redirect).
    redirect: 'manual',
    signal,
  }
  const follow = config.redirect === 'follow'
  const resolve = (target: string, base?: string) => new URL(target, base ?? globalThis.location?.href)
  const sent: string[] = []
  let current = url
  for (;;) {
    sent.push(withoutHash(resolve(current).href))
    const response = await raceAbort((config.fetch ?? globalThis.fetch)(current, init), signal)
    let location = response.headers.get('location') ?? undefined
    let reason: RedirectReason | undefined
    // A browser hides the target of a redirect from 'manual': it cannot be checked, so it is not
    // followed (nor sent again with 'follow', which would skip the checks).
    if (response.type === 'opaqueredirect' || response.status === 0) {
      reason = follow ? 'opaque' : 'refused'
      location = undefined
    }
    // A custom fetch may follow redirects whatever it is told: its hops went unchecked.
    else if (response.redirected) {
      reason = follow ? 'unchecked' : 'refused'
      location = response.url
    } else if (!follow) {
      if (response.status < 300 || response.status > 399) return response
      reason = 'refused'
    }
    // As fetch: only these statuses with a Location are followed; any other answer is the answer.
    else if (!/^30[12378]$/.test(String(response.status)) || location === undefined) return response
    else {
      let target: URL | undefined
      try {
        target = resolve(location, resolve(current).href)
      } catch {}
      // A URL with credentials (user:password@) is refused, as for the base URL; they are not shown.
      if (!target || target.username || target.password) {
        reason = 'invalid'
        if (target) location = `${target.protocol}//***@${target.host}${target.pathname}`
      } else {
        location = target.href
        const carriesSecrets = Object.keys(headers).length > 0 || redact(location) !== location
        if (!isSecureTarget(location, url, config.allowInsecureHttp)) reason = 'insecure'
        else if (sent.includes(withoutHash(location))) reason = 'loop'
        else if (sent.length > maxRedirects) reason = 'tooMany'
        else if (carriesSecrets && target.origin !== resolve(url).origin) reason = 'crossOrigin'
      }
    }
    // The body of a redirect is not read.
    cancelBody(response)
    if (reason) throw new RedirectError({ reason, url: safeUrl, location })
    current = location as string
  }
}

/** A URL as it is sent: without its fragment. */
const withoutHash = (url: string) => url.split('#')[0] as string

function cancelBody(response: Response) {
  void response.body?.cancel().catch(() => {})
}

/**
 * Reads a body as UTF-8 text, as `response.text()` does, but stops (and
 * cancels the stream) as soon as more than `maxBytes` bytes have come.
 */
async function readText(response: Response, maxBytes: number, url: string, signal: AbortSignal) {
  const body = response.body
  if (!body) return ''
  const reader = body.getReader()
  const cancel = () => void reader.cancel().catch(() => {})
  signal.addEventListener('abort', cancel, { once: true })
  const decoder = new TextDecoder()
  let text = ''
  let size = 0
  try {
    for (;;) {
      const { done, value } = await reader.read()
      if (done) return text + decoder.decode()
      size += value.byteLength
      if (size > maxBytes) {
        cancel()
        throw new ResponseTooLargeError({ url, maxBytes })
      }
      text += decoder.decode(value, { stream: true })
    }
  } finally {
    signal.removeEventListener('abort', cancel)
  }
}

/** A short, readable excerpt of a body: tags stripped, white space folded, secrets hidden. */
function excerpt(text: string, redact: Redactor): string {
  const out = redact(stripTags(redact.cut(text, excerptScanLength)).replace(/\s+/g, ' ').trim())
  return truncate(out, excerptLength)
}

/**
 * A tag, or a script or style element with its content (an unclosed one runs
 * to the end, as in a browser), or else a "<" that no ">" follows: then the
 * rest is text (the second group), after a space.
 */
const tags = /<(script|style)[\s/>][\s\S]*?(?:<\/\1[^>]*(?:>|$)|$)|<[^>]*>|(<[\s\S]*)/gi

/**
 * Replaces every tag, and every script and style element with its content,
 * by a space. Linear whatever the input: a match that could fail after a long
 * scan (a "<" with no ">" after it) is taken by the next alternative instead,
 * which ends the text.
 */
const stripTags = (html: string) => html.replace(tags, (_, __, rest?: string) => ` ${rest ?? ''}`)

function truncate(text: string, length: number): string {
  return text.length > length ? `${text.slice(0, length - 3)}...` : text
}

/**
 * Turns a FastAPI-style `{ detail }` body into one line, when there is one.
 * Bodies longer than `detailScanLength` are not parsed; the line is capped.
 */
function errorDetail(text: string, redact: Redactor): string | undefined {
  if (text.length > detailScanLength) return undefined
  try {
    const { detail } = JSON.parse(text) as { detail?: unknown }
    const line =
      typeof detail === 'string'
        ? detail
        : Array.isArray(detail)
          ? detail
              .map((item: { loc?: unknown[]; msg?: unknown }) => {
                const loc = Array.isArray(item?.loc)
                  ? item.loc.filter((part) => part !== 'query').join('.')
                  : ''
                return `${loc ? `${loc}: ` : ''}${String(item?.msg ?? '')}`
              })
              .join('; ')
          : undefined
    return line === undefined ? undefined : truncate(redact(line), detailLength)
  } catch {}
  return undefined
}
