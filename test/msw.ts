import { setupServer } from 'msw/node'
import { afterAll, afterEach, beforeAll } from 'vitest'

/**
 * An MSW server for one test file that records every request it sees, so a
 * test can assert how many requests went out (and that none did). Requests to
 * 127.0.0.1 pass through to the real loopback servers.
 */
export function setupMswServer() {
  const server = setupServer()
  const requests: Request[] = []
  server.events.on('request:start', ({ request }) => {
    if (new URL(request.url).hostname !== '127.0.0.1') requests.push(request)
  })
  beforeAll(() =>
    server.listen({
      // Real loopback servers (the mock server, anvil) are reached for real; anything else unhandled fails.
      onUnhandledRequest(request, print) {
        if (new URL(request.url).hostname !== '127.0.0.1') print.error()
      },
    }),
  )
  afterEach(() => {
    server.resetHandlers()
    requests.length = 0
  })
  afterAll(() => server.close())
  return { server, requests }
}

/** The query string of a recorded request as an ordered list of pairs. */
export function queryOf(request: Request): [string, string][] {
  return [...new URL(request.url).searchParams]
}
