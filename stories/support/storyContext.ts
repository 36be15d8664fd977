import { isPendingSwapRunning } from '../../src/core/execute/records/claims.js'
import {
  createMemoryStorage,
  getPendingSwaps,
  type SwapStorage,
  savePendingSwap,
} from '../../src/core/execute/records/pendingSwaps.js'
import { createMockMarket } from '../../src/mock/createMockMarket.js'
import { createMockService } from '../../src/mock/createMockService.js'
import { createSwapHandlers } from '../../src/mock/createSwapHandlers.js'
import { mockTokenAddresses } from '../../src/mock/fixtures.js'
import type { MockService, MockServiceOptions } from '../../src/mock/types.js'
import { createMovableMarket, type MovableMarket } from './movableMarket.js'
import { createSimulatedWallet, type SimulatedWallet, simulatedAccount } from './simulatedWallet.js'

/** Where the stories' SwapProvider points; MSW answers it in the browser. */
export const storyBaseUrl = 'https://swap.mock'

/** The default mock market: ETH, WETH, USDC, USDT, DAI, WBTC, LINK, UNI, SCAM (blacklisted), LONE (no pairs), TAIL. */
export const market = createMockMarket()
export const tokens = mockTokenAddresses
export { simulatedAccount }

/** What a story may set under `parameters.mockService`. */
export type MockServiceParameters = MockServiceOptions & {
  /** Runs against the fresh service before the story renders (inject failures, …). */
  setup?: ((service: MockService) => void) | undefined
}

let current:
  | { market: MovableMarket; service: MockService; wallet: SimulatedWallet; storage: SwapStorage }
  | undefined

/** Gives every story a fresh mock service (behind MSW) and a fresh simulated wallet. */
export function installStoryMocks(
  msw: { use: (...handlers: import('msw').RequestHandler[]) => void },
  parameters: { mockService?: MockServiceParameters },
) {
  const { setup, ...options } = parameters.mockService ?? {}
  // The story's own copy of the market, which it may move; the service and the wallet's chain share it.
  const moving = createMovableMarket(market)
  const service = createMockService(moving, { latency: { min: 80, max: 250 }, ...options })
  setup?.(service)
  msw.use(...createSwapHandlers(service, { baseUrl: storyBaseUrl }))
  const wallet = createSimulatedWallet({
    market: moving,
    balances: {
      [tokens.ETH]: 10n * 10n ** 18n,
      [tokens.WETH]: 5n * 10n ** 18n,
      [tokens.USDC]: 25_000n * 10n ** 6n,
      [tokens.USDT]: 10_000n * 10n ** 6n,
      [tokens.DAI]: 10_000n * 10n ** 18n,
      [tokens.LINK]: 1_000n * 10n ** 18n,
    },
  })
  current = { market: moving, service, wallet, storage: createMemoryStorage() }
}

/** The current story's market, as its service quotes and its chain swaps: a story may move its pools. */
export function storyMarket(): MovableMarket {
  if (!current) throw new Error('No story market: installStoryMocks runs in the preview’s beforeEach.')
  return current.market
}

/** The current story's mock service: its request log, its knobs. */
export function storyService(): MockService {
  if (!current) throw new Error('No story mock service: installStoryMocks runs in the preview’s beforeEach.')
  return current.service
}

/** The current story's simulated wallet. */
export function storyWallet(): SimulatedWallet {
  if (!current) throw new Error('No story wallet: installStoryMocks runs in the preview’s beforeEach.')
  return current.wallet
}

/**
 * The current story's storage of pending swaps: it survives a "reload" of the
 * widget inside the story, as `localStorage` survives a page reload.
 */
export function storyStorage(): SwapStorage {
  if (!current) throw new Error('No story storage: installStoryMocks runs in the preview’s beforeEach.')
  return current.storage
}

/**
 * A page reload inside a story: the next page gets the storage as it is now
 * (a closed page writes nothing more), and the closed page's JS stops: its
 * requests left at the wallet end, and this resolves once none of its
 * executions runs any more (a real reload gives the new page a new JS context,
 * where they never ran).
 */
export async function reloadStoryPage(): Promise<void> {
  if (!current) throw new Error('No story page: installStoryMocks runs in the preview’s beforeEach.')
  const records = await getPendingSwaps(current.storage)
  const next = createMemoryStorage()
  for (const record of records) await savePendingSwap(next, record)
  current.storage = next
  current.wallet.closePage()
  const deadline = Date.now() + 5000
  while (records.some(({ id }) => isPendingSwapRunning(id))) {
    if (Date.now() > deadline) throw new Error('The closed page still runs an execution after 5 s.')
    await new Promise((resolve) => setTimeout(resolve, 20))
  }
}

/** Typed `parameters.mockService` for a story. */
export function withMockService(parameters: MockServiceParameters): MockServiceParameters {
  return parameters
}
