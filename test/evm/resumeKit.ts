/**
 * What the resume tests share: a page that starts a TKA → TKB swap and is cut
 * short (never awaited), waits on it that report its own failure, and a new
 * page's clients on the same wallet extension and node.
 */
import {
  createPublicClient,
  createWalletClient,
  custom,
  type EIP1193Provider,
  http,
  type PublicClient,
  type WalletClient,
} from 'viem'
import { type ExecuteSwapParameters, executeSwap } from '../../src/core/execute/executeSwap.js'
import {
  getPendingSwaps,
  type PendingSwap,
  type SwapStorage,
} from '../../src/core/execute/records/pendingSwaps.js'
import { jsonRpc } from './rpc.js'
import type { setupSwapHarness } from './swapHarness.js'
import type { TestWallet } from './wallet.js'

type Harness = ReturnType<typeof setupSwapHarness>

/** A page whose swap may never end: its result or its failure, once it ended. */
export type Page = { error?: unknown; done?: unknown }

/** The resume tests' helpers, for a harness and the amount every swap moves. */
export function resumeKit(h: Harness, amountIn: bigint) {
  const trusted = () => ({ [h.fixture.chain.id]: [h.fixture.router, h.fixture.spender] })

  /** A TKA → TKB swap of `amountIn` through `walletClient`, at the market's quote less 1%. */
  function swapParameters(
    walletClient: WalletClient | TestWallet['walletClient'],
    storage: SwapStorage,
    extra: Partial<ExecuteSwapParameters> = {},
  ): ExecuteSwapParameters {
    const token0 = h.address('TKA')
    const token1 = h.address('TKB')
    return {
      walletClient: walletClient as ExecuteSwapParameters['walletClient'],
      publicClient: h.fixture.publicClient,
      token0,
      token1,
      amountIn,
      acceptedQuote: h.market.quote({ token0, token1, amountIn }),
      slippage: 0.01,
      trustedAddresses: trusted(),
      storage,
      floorEnforcement: h.floorEnforcement,
      ...extra,
    } as ExecuteSwapParameters
  }

  /** Starts a swap that will be cut short; never awaited, as the page that ran it is gone. */
  function startSwap(
    walletClient: WalletClient | TestWallet['walletClient'],
    storage: SwapStorage,
    extra: Partial<ExecuteSwapParameters> = {},
  ): Page {
    const page: Page = {}
    void executeSwap(h.swapClient(), swapParameters(walletClient, storage, extra)).then(
      (done) => {
        page.done = done
      },
      (error: unknown) => {
        page.error = error
      },
    )
    return page
  }

  /** Resolves once `condition` holds (every 25 ms, at most 15 s); fails at once if the page's flow failed. */
  async function until<value>(
    page: Page,
    what: string,
    condition: () => Promise<value | undefined> | value | undefined,
  ) {
    for (let tries = 0; tries < 600; tries++) {
      if (page.error) throw new Error(`The swap failed before ${what}`, { cause: page.error })
      const value = await condition()
      if (value) return value
      await new Promise((resolve) => setTimeout(resolve, 25))
    }
    throw new Error(`Never: ${what}`)
  }

  const recordAt = (page: Page, storage: SwapStorage, step: PendingSwap['step']) =>
    until(page, `a record at ${step}`, async () =>
      (await getPendingSwaps(storage)).find((record) => record.step === step),
    )

  /** New clients of a page: new objects, the same wallet extension (or provider) and node. */
  function clientsOf(wallet: TestWallet | EIP1193Provider, publicClient?: PublicClient) {
    return {
      walletClient: createWalletClient({
        account: h.fixture.accounts.user.address,
        transport: custom('provider' in wallet ? wallet.provider : wallet),
        pollingInterval: 50,
      }),
      publicClient:
        publicClient ??
        (createPublicClient({
          chain: h.fixture.chain,
          transport: http(h.fixture.rpcUrl),
          pollingInterval: 50,
        }) as PublicClient),
    }
  }

  /**
   * A wallet whose `at`-th eth_sendTransaction (0: the first) is broadcast and never answered: the
   * page dies before that transaction's hash comes back. `before` runs first (e.g. automine off).
   */
  function walletDyingAt(wallet: TestWallet, at: number, before?: () => Promise<unknown>) {
    let count = 0
    const provider = {
      request: async (args: { method: string; params?: unknown }) => {
        if (args.method === 'eth_sendTransaction' && count++ === at) {
          await before?.()
          await wallet.provider.request(args as never)
          return new Promise<never>(() => {})
        }
        return wallet.provider.request(args as never)
      },
    } as EIP1193Provider
    return createWalletClient({
      account: h.fixture.accounts.user.address,
      transport: custom(provider),
      pollingInterval: 50,
    })
  }

  /** A wallet whose second eth_sendTransaction (the swap, after an approval) is broadcast and never answered. */
  const walletDyingAtSwap = (wallet: TestWallet, before?: () => Promise<unknown>) =>
    walletDyingAt(wallet, 1, before)

  /**
   * A page whose swap reached the node's mempool, unmined (automine off; the caller turns it back
   * on), just before the page died: its record, at 'approved'.
   */
  async function swapLeftInMempool(
    wallet: TestWallet,
    storage: SwapStorage,
    nonceBefore: number,
    extra: Partial<ExecuteSwapParameters> = {},
  ) {
    const rpc = jsonRpc(h.fixture.rpcUrl)
    const page = startSwap(
      walletDyingAtSwap(wallet, () => rpc('evm_setAutomine', [false])),
      storage,
      extra,
    )
    const record = await recordAt(page, storage, 'approved')
    await until(page, 'the swap in the mempool', async () =>
      (await h.fixture.publicClient.getTransactionCount({
        address: h.fixture.accounts.user.address,
        blockTag: 'pending',
      })) ===
      nonceBefore + 2
        ? true
        : undefined,
    )
    return record
  }

  return {
    trusted,
    swapParameters,
    startSwap,
    until,
    recordAt,
    clientsOf,
    walletDyingAt,
    walletDyingAtSwap,
    swapLeftInMempool,
  }
}
