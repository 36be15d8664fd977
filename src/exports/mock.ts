// token-swap-hooks/mock: the mock market, its service and the loopback server. No msw: the MSW
// handlers are in token-swap-hooks/mock/msw, so that this entry works without msw installed.

export {
  type CreateMockMarketErrorType,
  type CreateMockMarketParameters,
  type CreateMockMarketReturnType,
  createMockMarket,
} from '../mock/createMockMarket.js'
export {
  type CreateMockServiceErrorType,
  type CreateMockServiceParameters,
  type CreateMockServiceReturnType,
  createMockService,
} from '../mock/createMockService.js'
export {
  defaultMockPairs,
  defaultMockRouter,
  defaultMockSpender,
  defaultMockTokens,
  mockTokenAddresses,
} from '../mock/fixtures.js'
export {
  type GetSwapInfoBodyParameters,
  type GetSwapInfoBodyReturnType,
  getSwapInfoBody,
} from '../mock/getSwapInfoBody.js'
export { swapRouterAbi } from '../mock/routerAbi.js'
export {
  type MockServer,
  type StartMockServerErrorType,
  type StartMockServerParameters,
  type StartMockServerReturnType,
  startMockServer,
} from '../mock/startMockServer.js'
export type {
  MockFailure,
  MockLatency,
  MockMarket,
  MockPair,
  MockPairParameters,
  MockRateLimit,
  MockRequestContext,
  MockRequestLogEntry,
  MockService,
  MockServiceOptions,
  MockToken,
  MockTokenParameters,
  Quote,
  QuoteHop,
  QuoteParameters,
  QuoteReturnType,
} from '../mock/types.js'
