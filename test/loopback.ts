import { createServer, type IncomingMessage, type ServerResponse } from 'node:http'
import { afterEach } from 'vitest'

export type LoopbackRequest = { method: string; url: string; headers: IncomingMessage['headers'] }

export type LoopbackServer = {
  /** `http://127.0.0.1:<port>` */
  url: string
  /** Every request the server received, in order. */
  requests: LoopbackRequest[]
  close(): Promise<void>
}

/**
 * A real `node:http` server on a free loopback port, for tests that need real
 * HTTP (redirects, streamed and oversized bodies). Every server started in a
 * test is closed after it.
 */
export function setupLoopbackServers() {
  const open: LoopbackServer[] = []
  afterEach(async () => {
    await Promise.all(open.splice(0).map((server) => server.close()))
  })
  return async function startLoopbackServer(
    handler: (request: IncomingMessage, response: ServerResponse, server: LoopbackServer) => void,
  ): Promise<LoopbackServer> {
    const requests: LoopbackRequest[] = []
    let self: LoopbackServer | undefined
    const server = createServer((request, response) => {
      requests.push({ method: request.method ?? '', url: request.url ?? '', headers: request.headers })
      handler(request, response, self as LoopbackServer)
    })
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
    const address = server.address()
    const port = typeof address === 'object' && address ? address.port : 0
    self = {
      url: `http://127.0.0.1:${port}`,
      requests,
      close: () =>
        new Promise<void>((resolve) => {
          server.closeAllConnections()
          server.close(() => resolve())
        }),
    }
    open.push(self)
    return self
  }
}
