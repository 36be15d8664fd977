import { setupServer } from 'msw/node'
import { afterAll, afterEach, beforeAll } from 'vitest'

/**
 * An MSW server for one test file that records every request it sees, so a
 * test can assert how many requests went out (and that none did).
 */
export function setupMswServer() {
  const server = setupServer()
  const requests: Request[] = []
  server.events.on('request:start', ({ request }) => {
    requests.push(request)
  })
  beforeAll(() => server.listen({ onUnhandledRequest: 'error' }))
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
