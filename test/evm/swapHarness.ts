import { type Address, createPublicClient, custom, erc20Abi, type PublicClient } from 'viem'
import { afterAll, beforeAll } from 'vitest'
import { createSwapClient } from '../../src/core/client.js'
import { swapGuardAddress } from '../../src/core/execute/guard/swapGuard.js'
import { createMockMarket } from '../../src/mock/createMockMarket.js'
import { getSwapInfoBody } from '../../src/mock/getSwapInfoBody.js'
import { type MockServer, startMockServer } from '../../src/mock/startMockServer.js'
import type { MockMarket } from '../../src/mock/types.js'
import type { PoolConfig, PoolTokenSymbol } from './fixture.js'
import { jsonRpc } from './rpc.js'
import { setupSwapFixture } from './setup.js'
import { createTestWallet, type TestWalletOptions } from './wallet.js'

/**
 * One test file's end-to-end rig: anvil with the deployed contracts, a mock
 * market built from the deployed tokens and pools (its calldata targets the
 * deployed router, its spender is the deployed spender), served on loopback.
 */
export function setupSwapHarness(
  options: {
    /**
     * Whom the flow has the user approve, and so what `approve`, `allowance` and `funds` read by
     * default: the swap guard (`'onchain'`, the default), or the service's spender
     * (`'simulation'`, the `floorEnforcement` opt-out).
     */
    floorEnforcement?: 'onchain' | 'simulation'
    /** The pools to deploy. Default: the fixture's. */
    pools?: readonly PoolConfig[] | undefined
  } = {},
) {
  const evm = setupSwapFixture(options.pools ? { pools: options.pools } : {})
  const approvalTarget = () =>
    options.floorEnforcement === 'simulation' ? evm.fixture.spender : swapGuardAddress
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
    /** Whom the flow has the user approve (see `floorEnforcement`). */
    get floorEnforcement() {
      return options.floorEnforcement ?? 'onchain'
    },
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
    /** The user's allowance of `symbol` for `spender`: by default whom the flow has the user approve. */
    allowance: (symbol: PoolTokenSymbol, spender: Address = approvalTarget()) =>
      evm.fixture.publicClient.readContract({
        address: evm.fixture.tokens[symbol].address,
        abi: erc20Abi,
        functionName: 'allowance',
        args: [evm.fixture.accounts.user.address, spender],
      }),
    nonce: () => evm.fixture.publicClient.getTransactionCount({ address: evm.fixture.accounts.user.address }),
    /** The user's TKA and TKB, the TKA allowance the flow gives and the user's nonce: what a TKA → TKB swap moves. */
    async funds() {
      return {
        TKA: await harness.balance('TKA'),
        TKB: await harness.balance('TKB'),
        allowance: await harness.allowance('TKA'),
        nonce: await harness.nonce(),
      }
    },
    /**
     * The next `/swap/info` answers the market's honest route and estimate, with
     * calldata that sends the output to `recipient` and no floor: a compromised
     * service.
     */
    serveRedirectedSwap(token0: Address, token1: Address, amountIn: bigint, recipient: Address) {
      return harness.serveSwap({ token0, token1, amountIn, recipient })
    },
    /**
     * The next `/swap/info` answers the market's route and estimate, with calldata
     * (no floor) paying `recipient` (default: the user) and `spender` as the
     * approval address (default: the fixture's).
     */
    async serveSwap({
      token0,
      token1,
      amountIn,
      recipient = evm.fixture.accounts.user.address,
      spender = evm.fixture.spender,
    }: {
      token0: Address
      token1: Address
      amountIn: bigint
      recipient?: Address
      spender?: Address
    }) {
      const block = await evm.fixture.publicClient.getBlock()
      const body = getSwapInfoBody({
        market: harness.market,
        token0,
        token1,
        amountIn,
        to: recipient,
        minAmountOut: 0n,
        deadline: block.timestamp + 600n,
      })
      if (!body) throw new Error('no route')
      harness.server.service.fail({
        status: 200,
        endpoint: '/swap/info',
        times: 1,
        body: { ...body, approvalAddress: spender },
      })
    },
    /**
     * A page's public client, every request it made (`requests`), and a way to
     * end the page: after `die()` its node never answers again (a tab closed
     * while waiting for a receipt).
     */
    dyingPage() {
      let dead = false
      const requests: { method: string; params: unknown }[] = []
      const forward = jsonRpc(evm.fixture.rpcUrl)
      const publicClient = createPublicClient({
        chain: evm.fixture.chain,
        pollingInterval: 50,
        transport: custom({
          request: ({ method, params }) => {
            requests.push({ method, params })
            return dead ? new Promise<never>(() => {}) : forward(method, params)
          },
        }),
      }) as PublicClient
      return {
        publicClient,
        requests,
        die: () => {
          dead = true
        },
      }
    },
    /** Resolves once `condition` returns a value (checked every 10 ms, for at most 10 s). */
    async until<value>(what: string, condition: () => Promise<value | undefined> | value | undefined) {
      for (let tries = 0; tries < 1000; tries++) {
        const value = await condition()
        if (value !== undefined && value !== false) return value
        await new Promise((resolve) => setTimeout(resolve, 10))
      }
      throw new Error(`Never: ${what}`)
    },
    /**
     * Sets the user's allowance directly (a previous session's approval): by default for whom the
     * flow has the user approve.
     */
    async approve(symbol: PoolTokenSymbol, amount: bigint, spender: Address = approvalTarget()) {
      const { userClient, publicClient, tokens } = evm.fixture
      const hash = await userClient.writeContract({
        address: tokens[symbol].address,
        abi: erc20Abi,
        functionName: 'approve',
        args: [spender, amount],
      })
      await publicClient.waitForTransactionReceipt({ hash })
      return hash
    },
  }
  return harness
}
