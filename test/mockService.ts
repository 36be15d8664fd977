import { afterAll, afterEach, beforeAll } from 'vitest'
import { createMockMarket } from '../src/mock/createMockMarket.js'
import { createMockService } from '../src/mock/createMockService.js'
import { createSwapHandlers } from '../src/mock/createSwapHandlers.js'
import { type MockServer, startMockServer } from '../src/mock/startMockServer.js'
import type { MockService, MockServiceOptions } from '../src/mock/types.js'
import { baseUrl } from './constants.js'
import { setupMswServer } from './msw.js'

export type Transport = 'msw' | 'loopback'

/**
 * The default mock market behind both transports for one test file: MSW
 * (`https://swap.test`) and a loopback server. `use(transport)` gives the base
 * URL and the service (log, knobs) to test against; the service is reset
 * after each test.
 */
export function setupMockService(options: MockServiceOptions = {}) {
  const msw = setupMswServer()
  const market = createMockMarket()
  const services: Record<Transport, MockService> = {
    msw: createMockService(market, options),
    loopback: createMockService(market, options),
  }
  let server: MockServer | undefined
  beforeAll(async () => {
    server = await startMockServer({ service: services.loopback })
  })
  afterEach(() => {
    services.msw.reset()
    services.loopback.reset()
  })
  afterAll(async () => {
    await server?.stop()
  })
  return {
    market,
    msw,
    use(transport: Transport) {
      if (transport === 'msw') {
        msw.server.use(...createSwapHandlers(services.msw, { baseUrl }))
        return { baseUrl, service: services.msw }
      }
      if (!server) throw new Error('The loopback mock server is not started yet.')
      return { baseUrl: server.url, service: services.loopback }
    },
  }
}
