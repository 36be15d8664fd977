import { ensure } from '../errors/parameter.js'

/** How arrays are written in the query string. The spec does not say, so it is a setting. */
export type ArrayFormat = 'repeat' | 'comma' | 'brackets'

export type QueryValue = string | number | bigint | boolean | readonly string[] | undefined

/** True for localhost, 127.0.0.0/8, [::1] and *.localhost. */
export function isLoopbackHost(hostname: string): boolean {
  return /^(localhost|\[::1]|::1|127(\.\d{1,3}){3})$|\.localhost$/i.test(hostname)
}

export type NormalizedBaseUrl = {
  /** The base URL without a trailing slash and without its own query string. */
  base: string
  /** Query parameters carried by the base URL itself, sent with every request. */
  baseQuery: [string, string][]
}

/** The rule a base URL (and every hop of a redirect) meets: https, or http on a loopback host or with `allowInsecureHttp`. */
const isSecure = (url: URL, allowInsecureHttp: boolean) =>
  url.protocol === 'https:' ||
  (url.protocol === 'http:' && (allowInsecureHttp || isLoopbackHost(url.hostname)))

/** What a base URL that is neither an absolute http(s) URL nor a clean path is told. */
const baseUrlRule = 'must be an absolute http(s) URL or a clean same-origin path ("/api")'

/**
 * Checks and normalizes a base URL. Absolute URLs must be https, or http on a
 * loopback host (or with `allowInsecureHttp`). A clean path starting with `/`
 * (no `//`, backslash, white space or control character) is resolved against
 * the page's origin at request time.
 */
export function normalizeBaseUrl(baseUrl: unknown, allowInsecureHttp = false): NormalizedBaseUrl {
  const trimmed = typeof baseUrl === 'string' ? baseUrl.trim() : ''
  if (trimmed.startsWith('/')) return normalizeSameOriginPath(trimmed)
  let url: URL | undefined
  try {
    url = new URL(trimmed)
  } catch {}
  ensure(url, 'baseUrl', baseUrlRule, baseUrl)
  const { protocol, host } = url
  ensure(
    isSecure(url, allowInsecureHttp),
    'baseUrl',
    'must use https:// (http:// only on a loopback host, or with allowInsecureHttp: true)',
    `${protocol}//${host}`,
  )
  ensure(!url.hash, 'baseUrl', 'must not contain a #fragment', baseUrl)
  ensure(
    !url.username && !url.password,
    'baseUrl',
    'must not contain credentials (user:password@): pass them in headers',
    `${protocol}//***@${host}`,
  )
  return { base: `${protocol}//${host}${url.pathname.replace(/\/+$/, '')}`, baseQuery: [...url.searchParams] }
}

/**
 * A clean absolute path: RFC 3986 path characters only (letters, digits,
 * `-._~!$&'()*+,;=:@%` and `/`), then an optional query of the same plus `?`.
 * No backslash, white space, control or non-ASCII character, no fragment.
 */
const cleanPath = /^\/[\w.~!$&'()*+,;=:@%/-]*(\?[\w.~!$&'()*+,;=:@%/?-]*)?$/

/**
 * A same-origin base URL. Browsers read `/\\host`, `/\t/host` (tabs and
 * newlines are dropped) and `//host` as another host, so only clean absolute
 * paths are accepted, and the path must resolve to the page's own origin.
 */
function normalizeSameOriginPath(path: string): NormalizedBaseUrl {
  const probe = 'https://origin.invalid'
  let resolved: URL | undefined
  try {
    resolved = new URL(path, probe)
  } catch {}
  ensure(
    cleanPath.test(path) && !path.startsWith('//') && resolved?.origin === probe,
    'baseUrl',
    baseUrlRule,
    path,
  )
  const [pathname = '', search = ''] = path.split(/\?(.*)/)
  return { base: pathname.replace(/\/+$/, ''), baseQuery: [...new URLSearchParams(search)] }
}

/**
 * Whether `target` (a hop of a redirect, checked before anything is sent to
 * it) meets the same rule as the base URL: https, or http on a loopback host,
 * with `allowInsecureHttp`, or on the page's own origin when the request went
 * there (a same-origin base path).
 *
 * @example
 * isSecureTarget('http://evil.test/x', 'https://swap.test/x', false) // false
 */
export function isSecureTarget(target: string, requested: string, allowInsecureHttp: boolean): boolean {
  try {
    const url = new URL(target)
    return (
      isSecure(url, allowInsecureHttp) ||
      (url.protocol === 'http:' && new URL(requested, globalThis.location?.href).origin === url.origin)
    )
  } catch {
    return false
  }
}

/** Writes query parameters in the spec's wire names; `undefined` and empty arrays are not sent. */
export function encodeQuery(
  query: Record<string, QueryValue>,
  arrayFormat: ArrayFormat,
  baseQuery: readonly [string, string][] = [],
): string {
  const params = new URLSearchParams(baseQuery as [string, string][])
  for (const [key, value] of Object.entries(query))
    if (Array.isArray(value)) {
      if (arrayFormat !== 'comma')
        for (const item of value) params.append(arrayFormat === 'brackets' ? `${key}[]` : key, item)
      else if (value.length) params.append(key, value.join(','))
    } else if (value !== undefined) params.append(key, String(value))
  const search = params.toString()
  return search ? `?${search}` : ''
}

/**
 * The URL as it may appear in an error: the values of the base URL's own query
 * parameters (where an API key could sit) are hidden. They are the first
 * parameters `encodeQuery` writes, so they are found by position, whatever
 * their spelling.
 *
 * @example
 * redactUrl('https://swap.test/x?api+key=s3cret&amount_in=1', [['api key', 's3cret']])
 * // 'https://swap.test/x?api+key=***&amount_in=1'
 */
export function redactUrl(url: string, baseQuery: readonly [string, string][]): string {
  const [path, query] = url.split(/\?(.*)/)
  if (query === undefined || baseQuery.length === 0) return url
  const pairs = query.split('&')
  for (const [index, [, value]] of baseQuery.entries())
    if (value && pairs[index] !== undefined) pairs[index] = pairs[index].replace(/=.*|$/, '=***')
  return `${path}?${pairs.join('&')}`
}
