// token-swap-hooks/mock/msw, for the consumer that installs the optional peer msw.
import { setupServer } from 'msw/node'
import { createSwapHandlers } from 'token-swap-hooks/mock/msw'

export function mswServer() {
  const handlers = createSwapHandlers(undefined, { baseUrl: 'https://swap.test', latency: 10 })
  const server = setupServer(...handlers)
  handlers.service.fail({ status: 503, times: 1 })
  return { server, count: handlers.service.count('/swap/route') }
}
