import { ensure, type InvalidParameterError } from '../core/errors/parameter.js'
import { createMockMarket } from './createMockMarket.js'
import { createMockService } from './createMockService.js'
import type { MockMarket, MockService, MockServiceOptions } from './types.js'

type IncomingMessage = import('node:http').IncomingMessage
type ServerResponse = import('node:http').ServerResponse

/** The parameters of `startMockServer`: the market or service to serve, the mock service's options, and where to listen. */
export type StartMockServerParameters = MockServiceOptions & {
  /** The port to listen on. Default 0: a free port, see `url`. */
  port?: number | undefined
  /** The interface to listen on. Default `127.0.0.1`. */
  host?: string | undefined
  /** The market to serve (ignored with `service`). Default: the default fixture. */
  market?: MockMarket | undefined
  /** A service to serve as it is; otherwise one is created from `market` and the service options. */
  service?: MockService | undefined
}

/** A mock service listening on a loopback port: its URL, its service (failures, log) and `stop()`. */
export type MockServer = {
  /** Where the server listens, e.g. `http://127.0.0.1:53117` (add the service's base path). */
  url: string
  service: MockService
  /** Closes the server and every open connection. */
  stop(): Promise<void>
}

/** What `startMockServer` resolves to: the running server. */
export type StartMockServerReturnType = MockServer

/** What `startMockServer` throws: a malformed option, or the port cannot be listened on. */
export type StartMockServerErrorType = InvalidParameterError | Error

/**
 * Serves a mock service over real HTTP on `node:http` (Node only; the module
 * is loaded when this function runs, so importing it in a browser is safe).
 * Answers carry CORS headers, so a page on another origin can use it. An
 * injected network failure destroys the connection.
 *
 * @example
 * import { startMockServer } from 'token-swap-hooks/mock'
 * import { createSwapClient, getSwapRoute } from 'token-swap-hooks/core'
 *
 * const server = await startMockServer({ latency: 20 })
 * const client = createSwapClient({ baseUrl: server.url })
 * const route = await getSwapRoute(client, { token0, token1, amountIn: 10n ** 18n })
 * await server.stop()
 */
export async function startMockServer(
  parameters: StartMockServerParameters = {},
): Promise<StartMockServerReturnType> {
  const { port = 0, host = '127.0.0.1', market, service: givenService, ...serviceOptions } = parameters
  ensure(
    Number.isInteger(port) && port >= 0 && port <= 65_535,
    'port',
    'must be an integer from 0 to 65535',
    port,
  )
  const service = givenService ?? createMockService(market ?? createMockMarket(), serviceOptions)
  const http = await import('node:http')

  let origin = ''
  const server = http.createServer((req, res) => {
    void respond(service, req, res, origin)
  })
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject)
    server.listen(port, host, () => {
      server.off('error', reject)
      resolve()
    })
  })
  const address = server.address()
  const boundPort = typeof address === 'object' && address !== null ? address.port : port
  origin = `http://${host.includes(':') ? `[${host}]` : host}:${boundPort}`

  let stopping: Promise<void> | undefined
  return {
    url: origin,
    service,
    stop() {
      stopping ??= new Promise<void>((resolve, reject) => {
        server.close((error) => (error ? reject(error) : resolve()))
        server.closeAllConnections()
      })
      return stopping
    },
  }
}

/** Turns a Node request into a `Request`, lets the service answer, writes the `Response` back. */
async function respond(service: MockService, req: IncomingMessage, res: ServerResponse, origin: string) {
  const controller = new AbortController()
  res.once('close', () => controller.abort())
  try {
    const method = req.method ?? 'GET'
    const headers = new Headers()
    for (let index = 0; index + 1 < req.rawHeaders.length; index += 2)
      headers.append(req.rawHeaders[index] as string, req.rawHeaders[index + 1] as string)
    // The service is GET-only and never reads a body: none is read here either (another
    // method gets its 405 at once); what the client still sends is dropped after the answer.
    const request = new Request(new URL(req.url ?? '/', origin), {
      method,
      headers,
      signal: controller.signal,
    })
    const response = await service.handle(request, { clientAddress: req.socket.remoteAddress })
    if (response.type === 'error') {
      req.socket.destroy()
      return
    }
    const payload = new Uint8Array(await response.arrayBuffer())
    res.statusCode = response.status
    response.headers.forEach((value, name) => {
      res.setHeader(name, value)
    })
    if (!req.complete) res.setHeader('connection', 'close')
    res.end(payload)
    dropBody(req)
  } catch (error) {
    if (res.headersSent) {
      res.destroy()
      return
    }
    res.statusCode = 500
    res.setHeader('content-type', 'application/json')
    res.setHeader('access-control-allow-origin', '*')
    res.end(JSON.stringify({ detail: 'Internal Server Error', error: String(error) }))
    dropBody(req)
  }
}

/** Bytes of an unread request body drained after the answer before the connection is closed. */
const maxDroppedBodyBytes = 1024 * 1024

/**
 * Drains what is left of a request body after the answer (so that a client
 * still sending it gets the answer rather than a reset), up to
 * `maxDroppedBodyBytes`; then the connection is closed. Nothing is kept.
 */
function dropBody(req: IncomingMessage) {
  if (req.complete) return
  let dropped = 0
  req.on('data', (chunk: Uint8Array) => {
    dropped += chunk.length
    if (dropped > maxDroppedBodyBytes) req.socket.destroy()
  })
}
