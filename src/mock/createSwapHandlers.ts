import { type HttpHandler, HttpResponse, http } from 'msw'
import { InvalidParameterError } from '../core/errors/parameter.js'
import { createMockMarket } from './createMockMarket.js'
import { createMockService } from './createMockService.js'
import { mockEndpoints } from './mockEndpoints.js'
import type { MockMarket, MockService, MockServiceOptions } from './types.js'

/** The options of `createSwapHandlers` (its second argument, after the market or service): the mock service's options, and the base URL to intercept. */
export type CreateSwapHandlersParameters = MockServiceOptions & {
  /**
   * The origin and path prefix to intercept, as the client's `baseUrl`:
   * `https://swap.test`, `https://swap.test/api` or a same-origin path
   * (`/api`, browser only). Everything under it is answered, unknown paths
   * with a 404. Default: the nine endpoint paths on any origin and under any
   * prefix.
   */
  baseUrl?: string | undefined
}

/** MSW handlers, plus the service answering them (to read its log or turn its knobs). */
export type CreateSwapHandlersReturnType = HttpHandler[] & { service: MockService }

/** What `createSwapHandlers` throws: a malformed option. */
export type CreateSwapHandlersErrorType = InvalidParameterError

/**
 * MSW v2 request handlers for all nine endpoints, answered by a mock service.
 * Given a market, a service is created from the same options (latency,
 * rateLimit, …); given a service, its options are used as they are. The
 * service's own `basePath` does not need to match `baseUrl`. An injected
 * network failure becomes `HttpResponse.error()`.
 *
 * @example
 * import { setupServer } from 'msw/node'
 * import { createSwapHandlers } from 'token-swap-hooks/mock/msw'
 *
 * const handlers = createSwapHandlers(undefined, { baseUrl: 'https://swap.test', latency: 20 })
 * const server = setupServer(...handlers)
 * server.listen()
 * handlers.service.fail({ status: 503 }) // the next request answers 503
 *
 * @example
 * // Storybook (msw-storybook-addon)
 * import { createSwapHandlers } from 'token-swap-hooks/mock/msw'
 *
 * export default { parameters: { msw: { handlers: createSwapHandlers() } } }
 */
export function createSwapHandlers(
  marketOrService: MockMarket | MockService = createMockMarket(),
  options: CreateSwapHandlersParameters = {},
): CreateSwapHandlersReturnType {
  const { baseUrl, ...serviceOptions } = options
  const service = isService(marketOrService)
    ? marketOrService
    : createMockService(marketOrService, serviceOptions)

  const forward = async (request: Request, relativePath: string) => {
    const url = new URL(request.url)
    url.pathname = `${service.basePath}${relativePath}`
    const forwarded =
      url.href === request.url
        ? request
        : new Request(url, { method: request.method, headers: request.headers, signal: request.signal })
    const response = await service.handle(forwarded)
    return response.type === 'error' ? HttpResponse.error() : response
  }

  let handlers: HttpHandler[]
  if (baseUrl === undefined) {
    handlers = Object.keys(mockEndpoints).map((endpoint) =>
      http.all(`*${endpoint}`, ({ request }) => forward(request, endpoint)),
    )
  } else {
    const { base, prefix } = parseBaseUrl(baseUrl)
    handlers = [
      http.all(`${base}/*`, ({ request }) => {
        const { pathname } = new URL(request.url)
        const relative = pathname.startsWith(prefix) ? pathname.slice(prefix.length) : pathname
        return forward(request, relative || '/')
      }),
    ]
  }
  return Object.assign(handlers, { service })
}

function isService(value: MockMarket | MockService): value is MockService {
  return typeof (value as Partial<MockService>).handle === 'function'
}

/** The base to match (no trailing slash, query or fragment) and its path prefix. */
function parseBaseUrl(baseUrl: unknown): { base: string; prefix: string } {
  if (typeof baseUrl === 'string' && baseUrl.startsWith('/') && !baseUrl.startsWith('//')) {
    const path = (baseUrl.split(/[?#]/)[0] as string).replace(/\/+$/, '')
    return { base: path, prefix: path }
  }
  try {
    const url = new URL(String(baseUrl))
    const path = url.pathname.replace(/\/+$/, '')
    if (url.protocol === 'http:' || url.protocol === 'https:')
      return { base: `${url.origin}${path}`, prefix: path }
  } catch {}
  throw new InvalidParameterError({
    parameter: 'baseUrl',
    rule: 'must be an absolute http(s) URL or a path starting with "/"',
    value: baseUrl,
  })
}
