import { type Address, erc20Abi } from 'viem'
import { afterAll, beforeAll } from 'vitest'
import { createSwapClient } from '../../src/core/client.js'
import { createMockMarket } from '../../src/mock/createMockMarket.js'
import { type MockServer, startMockServer } from '../../src/mock/startMockServer.js'
import type { MockMarket } from '../../src/mock/types.js'
import type { PoolTokenSymbol } from './fixture.js'
import { setupSwapFixture } from './setup.js'
import { createTestWallet, type TestWalletOptions } from './wallet.js'

/**
 * One test file's end-to-end rig: anvil with the deployed contracts, a mock
 * market built from the deployed tokens and pools (its calldata targets the
 * deployed router, its spender is the deployed spender), served on loopback.
 */
export function setupSwapHarness() {
  const evm = setupSwapFixture()
  let market: MockMarket | undefined
  let server: MockServer | undefined

  beforeAll(async () => {
    const { tokens, pools, router, spender } = evm.fixture.market
    market = createMockMarket({ tokens, pairs: pools, router, spender })
    server = await startMockServer({ market })
  })
  afterAll(async () => {
    await server?.stop()
  })

  const harness = {
    get fixture() {
      return evm.fixture
    },
    get market() {
      if (!market) throw new Error('The market is built in beforeAll.')
      return market
    },
    get server() {
      if (!server) throw new Error('The mock server starts in beforeAll.')
      return server
    },
    /** A client of the mock service, paced off so tests do not wait. */
    swapClient: () => createSwapClient({ baseUrl: harness.server.url, rateLimit: false }),
    /** A mock server for another market built from the same chain (another router, spender…). */
    async otherServer(overrides: { router?: Address; spender?: Address }) {
      const { tokens, pools, router, spender } = evm.fixture.market
      const other = await startMockServer({
        market: createMockMarket({ tokens, pairs: pools, router, spender, ...overrides }),
      })
      return { client: createSwapClient({ baseUrl: other.url, rateLimit: false }), stop: other.stop }
    },
    /** The user's injected-style wallet (JSON-RPC account on anvil). */
    wallet: (options: Omit<TestWalletOptions, 'rpcUrl' | 'account'> = {}) =>
      createTestWallet({
        rpcUrl: evm.fixture.rpcUrl,
        account: evm.fixture.accounts.user.address,
        ...options,
      }),
    address: (symbol: PoolTokenSymbol) => evm.fixture.tokens[symbol].address,
    balance: (symbol: PoolTokenSymbol, owner: Address = evm.fixture.accounts.user.address) =>
      evm.fixture.balanceOf(symbol, owner),
    allowance: (symbol: PoolTokenSymbol, spender: Address = evm.fixture.spender) =>
      evm.fixture.publicClient.readContract({
        address: evm.fixture.tokens[symbol].address,
        abi: erc20Abi,
        functionName: 'allowance',
        args: [evm.fixture.accounts.user.address, spender],
      }),
    nonce: () => evm.fixture.publicClient.getTransactionCount({ address: evm.fixture.accounts.user.address }),
    /** Sets the user's allowance directly (a previous session's approval). */
    async approve(symbol: PoolTokenSymbol, amount: bigint) {
      const { userClient, publicClient, spender, tokens } = evm.fixture
      const hash = await userClient.writeContract({
        address: tokens[symbol].address,
        abi: erc20Abi,
        functionName: 'approve',
        args: [spender, amount],
      })
      await publicClient.waitForTransactionReceipt({ hash })
    },
  }
  return harness
}
