/**
 * Approve and swap as one atomic EIP-5792 batch, on anvil: a test wallet that
 * implements `wallet_getCapabilities` / `wallet_sendCalls` / `wallet_getCallsStatus`
 * over the node (all calls in one block, or none), and one that answers "method
 * not found" (the sequential flow). Balances, allowances and nonces are exact.
 */
import { type Address, decodeFunctionData, erc20Abi, parseEther } from 'viem'
import { describe, expect, test } from 'vitest'
import { testRouterAbi } from '../../../test/evm/abis.js'
import { setupSwapHarness } from '../../../test/evm/swapHarness.js'
import type { TestWallet, TestWalletOptions } from '../../../test/evm/wallet.js'
import { swapRouterAbi } from '../../mock/routerAbi.js'
import {
  BatchFailedError,
  BatchUnsupportedError,
  ChainMismatchError,
  UnsafeSwapOutcomeError,
  UserRejectedError,
} from '../errors/execute.js'
import { type ExecuteSwapParameters, type ExecuteSwapStep, executeSwap } from './executeSwap.js'
import { swapGuardAbi, swapGuardAddress } from './guard/swapGuard.js'

const h = setupSwapHarness()
type Swap = Omit<ExecuteSwapParameters, 'walletClient' | 'publicClient'>
const batchingWallet = ({
  beforeBatch,
  ...options
}: Omit<TestWalletOptions, 'rpcUrl' | 'account'> & { beforeBatch?: () => Promise<void> } = {}) =>
  h.wallet({ eip5792: { beforeBatch }, ...options })

async function run(swap: Partial<Swap>, wallet: TestWallet) {
  const token0 = swap.token0 ?? h.address('TKA')
  const token1 = swap.token1 ?? h.address('TKB')
  const amountIn = swap.amountIn ?? parseEther('10')
  const quote = h.market.quote({ token0, token1, amountIn })
  const steps: ExecuteSwapStep[] = []
  const outcome = await executeSwap(h.swapClient(), {
    walletClient: wallet.walletClient,
    publicClient: h.fixture.publicClient,
    trustedAddresses: { [h.fixture.chain.id]: [h.fixture.router, h.fixture.spender] },
    acceptedQuote: quote,
    slippage: 0.01,
    onStep: (step) => steps.push(step),
    ...swap,
    token0,
    token1,
    amountIn,
  }).then(
    (result) => ({ result, error: undefined }),
    (error: unknown) => ({ result: undefined, error }),
  )
  return { ...outcome, steps, quote, sent: wallet.sendRequests(), batches: wallet.batchRequests() }
}

describe('a wallet that batches atomically (EIP-5792)', () => {
  test('one wallet_sendCalls: exact approve then swap, one block, balances and allowance exact', async () => {
    const before = await h.funds()
    const wallet = batchingWallet()
    const { result, error, sent, batches, quote, steps } = await run({}, wallet)
    expect(error).toBeUndefined()
    expect(sent).toHaveLength(0) // no eth_sendTransaction from the dapp: one prompt
    expect(batches).toHaveLength(1)
    const [request] = (batches[0] as { params: unknown }).params as [
      { atomicRequired: boolean; chainId: string; calls: { to: Address; data: `0x${string}` }[] },
    ]
    expect(request.atomicRequired).toBe(true)
    expect(request.chainId).toBe(`0x${h.fixture.chain.id.toString(16)}`)
    // The calls are exactly the simulated ones: approve(guard, amountIn) on the token, then the swap
    // through the guard, whose floor reverts the whole batch below it.
    expect(request.calls.map((call) => call.to.toLowerCase())).toEqual([
      h.address('TKA').toLowerCase(),
      swapGuardAddress.toLowerCase(),
    ])
    expect(decodeFunctionData({ abi: erc20Abi, data: request.calls[0]?.data ?? '0x' }).args).toEqual([
      swapGuardAddress,
      parseEther('10'),
    ])
    const guarded = decodeFunctionData({ abi: swapGuardAbi, data: request.calls[1]?.data ?? '0x' })
    expect(guarded.functionName).toBe('swap')
    expect(guarded.args[6]).toBe(h.fixture.router)
    expect(decodeFunctionData({ abi: swapRouterAbi, data: guarded.args[7] }).functionName).toBe('swap')

    expect(result).toMatchObject({ mode: 'batch', batchId: expect.stringMatching(/^0x/) })
    expect(result?.transactionHashes).toHaveLength(2)
    expect(result?.receipts.map((receipt) => receipt.status)).toEqual(['success', 'success'])
    expect(result?.receipts[0]?.blockNumber).toBe(result?.receipts[1]?.blockNumber) // one block
    expect(result?.swapHash).toBe(result?.transactionHashes[1])
    expect(result?.realized).toEqual({
      amountIn: parseEther('10'),
      amountOut: quote?.amountOut,
      method: 'receipt',
    })

    const after = await h.funds()
    expect(after.TKA).toBe(before.TKA - parseEther('10'))
    expect(after.TKB).toBe(before.TKB + (quote?.amountOut ?? 0n))
    expect(after.allowance).toBe(0n)
    expect(after.nonce).toBe(before.nonce + 2)
    expect(steps.map((step) => step.action)).toEqual(
      expect.arrayContaining(['simulating', 'sending-batch', 'waiting-for-batch', 'done']),
    )
    expect(steps.some((step) => step.status === 'approving')).toBe(false)
  })

  test('atomic: a batch whose swap reverts on chain leaves no approval behind', async () => {
    const before = await h.funds()
    // The simulation passes; then another transaction drains the route's last pool before the batch
    // is mined, so the swap's own floor makes it revert on chain.
    const path = h.market.quote({
      token0: h.address('TKA'),
      token1: h.address('TKB'),
      amountIn: parseEther('10'),
    })?.path as Address[]
    const wallet = batchingWallet({
      beforeBatch: async () => {
        const { deployerClient, publicClient } = h.fixture
        const hash = await deployerClient.writeContract({
          address: h.fixture.router,
          abi: testRouterAbi,
          functionName: 'setPool',
          args: [path.at(-2) as Address, path.at(-1) as Address, 10n ** 30n, 1n, 30n],
        })
        await publicClient.waitForTransactionReceipt({ hash })
      },
    })
    const { error, batches } = await run({}, wallet)
    expect(error).toBeInstanceOf(BatchFailedError)
    expect(error).toMatchObject({ statusCode: 500, atomic: true })
    expect(batches).toHaveLength(1)
    expect((error as BatchFailedError).leftoverAllowance).toBeUndefined()
    const after = await h.funds()
    expect(after.allowance).toBe(0n) // the approval of the batch did not survive
    expect(after.TKA).toBe(before.TKA)
    expect(after.TKB).toBe(before.TKB)
    expect(after.nonce).toBe(before.nonce) // nothing of the batch was included
  })

  test('a wallet that reports a failed batch as atomic when it ran the calls one by one: the approval it left is read and reported', async () => {
    const path = h.market.quote({
      token0: h.address('TKA'),
      token1: h.address('TKB'),
      amountIn: parseEther('10'),
    })?.path as Address[]
    const drainPool = async () => {
      const { deployerClient, publicClient } = h.fixture
      const hash = await deployerClient.writeContract({
        address: h.fixture.router,
        abi: testRouterAbi,
        functionName: 'setPool',
        args: [path.at(-2) as Address, path.at(-1) as Address, 10n ** 30n, 1n, 30n],
      })
      await publicClient.waitForTransactionReceipt({ hash })
    }
    const wallet = h.wallet({ eip5792: { beforeBatch: drainPool, lying: true } })
    const { error } = await run({}, wallet)
    expect(error).toMatchObject({ name: 'BatchFailedError', statusCode: 500, atomic: true })
    // The wallet said atomic; the chain says the approval stands: read, never assumed.
    expect((error as BatchFailedError).leftoverAllowance).toMatchObject({
      spender: swapGuardAddress,
      amount: parseEther('10'),
    })
    expect((await h.funds()).allowance).toBe(parseEther('10'))
  })

  test('no approval needed (native in): one ordinary transaction, no batch', async () => {
    const wallet = batchingWallet()
    const { result, error, sent, batches } = await run(
      { token0: h.address('ETH'), token1: h.address('USDC'), amountIn: parseEther('1') },
      wallet,
    )
    expect(error).toBeUndefined()
    expect(result?.mode).toBe('sequential')
    expect(sent).toHaveLength(1)
    expect(batches).toHaveLength(0)
  })

  test("batch: 'never' sends approval and swap as two transactions", async () => {
    const before = await h.funds()
    const { result, error, sent, batches } = await run({ batch: 'never' }, batchingWallet())
    expect(error).toBeUndefined()
    expect(result?.mode).toBe('sequential')
    expect(sent).toHaveLength(2)
    expect(batches).toHaveLength(0)
    expect((await h.funds()).nonce).toBe(before.nonce + 2)
  })

  test('the outcome check holds for a batch: hostile calldata is refused, no batch is sent', async () => {
    const amountIn = parseEther('10')
    await h.serveRedirectedSwap(
      h.address('TKA'),
      h.address('TKB'),
      amountIn,
      '0x000000000000000000000000000000000000dEaD',
    )
    const before = await h.funds()
    const { error, batches, sent } = await run({ amountIn }, batchingWallet())
    expect(error).toBeInstanceOf(UnsafeSwapOutcomeError)
    expect(batches).toHaveLength(0)
    expect(sent).toHaveLength(0)
    expect(await h.funds()).toEqual(before)
  })

  test('a rejected batch is a UserRejectedError, nothing sent', async () => {
    const before = await h.funds()
    const wallet = batchingWallet({ reject: (method) => method === 'wallet_sendCalls' })
    const { error, batches } = await run({}, wallet)
    expect(error).toBeInstanceOf(UserRejectedError)
    expect(batches).toHaveLength(1)
    expect(await h.funds()).toEqual(before)
  })

  test('a wallet that moved to another chain before the batch: refused, nothing sent', async () => {
    const before = await h.funds()
    const wallet = batchingWallet()
    const { error, batches } = await run(
      {
        onStep: (step) => {
          if (step.action === 'sending-batch') wallet.moveTo({ rpcUrl: h.fixture.rpcUrl, chainId: 999 })
        },
      },
      wallet,
    )
    expect(error).toBeInstanceOf(ChainMismatchError)
    expect(batches).toHaveLength(0)
    expect(await h.funds()).toEqual(before)
  })
})

describe('a wallet without EIP-5792', () => {
  test("batch: 'auto' falls back to two transactions, each awaited", async () => {
    const before = await h.funds()
    const wallet = h.wallet()
    const { result, error, sent } = await run({}, wallet)
    expect(error).toBeUndefined()
    expect(result?.mode).toBe('sequential')
    expect(sent).toHaveLength(2)
    expect(wallet.requests.some((request) => request.method === 'wallet_getCapabilities')).toBe(true)
    expect((await h.funds()).nonce).toBe(before.nonce + 2)
  })

  test("batch: 'require' refuses it before anything is signed", async () => {
    const before = await h.funds()
    const { error, sent } = await run({ batch: 'require' }, h.wallet())
    expect(error).toBeInstanceOf(BatchUnsupportedError)
    expect(sent).toHaveLength(0)
    expect(await h.funds()).toEqual(before)
  })
})
