/**
 * One verdict over the journal, on anvil, through the public entries: the page
 * that saw a failure and a page after a reload reach the same standing, and
 * the swap's hash is the swap's. Each test is a defect the two rules sets
 * (the failing page's and the reloaded page's) once disagreed on.
 */
import { type Address, decodeFunctionData, erc20Abi, parseEther } from 'viem'
import { describe, expect, test, vi } from 'vitest'
import { testRouterAbi } from '../../../test/evm/abis.js'
import { resumeKit } from '../../../test/evm/resumeKit.js'
import { setupSwapHarness } from '../../../test/evm/swapHarness.js'
import type { TestWallet } from '../../../test/evm/wallet.js'
import { BatchFailedError } from '../errors/execute.js'
import { executeSwap } from './executeSwap.js'
import { swapGuardAddress } from './guard/swapGuard.js'
import { createMemoryStorage, getPendingSwaps } from './records/pendingSwaps.js'

const h = setupSwapHarness()
const amountIn = parseEther('10')
const { trusted, startSwap, until, clientsOf, walletDyingAt, swapParameters } = resumeKit(h, amountIn)

async function afterReload(wallet: TestWallet) {
  vi.resetModules()
  const [resume, settle, check] = await Promise.all([
    import('./resumeSwap.js'),
    import('./settlePendingSwaps.js'),
    import('./checkPendingSwap.js'),
  ])
  return { clients: clientsOf(wallet), ...resume, ...settle, ...check }
}

/** Makes the route's last pool worthless, so a swap simulated before it reverts on chain; returns the undo. */
async function drainLastPool() {
  const path = h.market.quote({ token0: h.address('TKA'), token1: h.address('TKB'), amountIn })
    ?.path as Address[]
  const [a, b] = [path.at(-2) as Address, path.at(-1) as Address]
  const { deployerClient, publicClient, router } = h.fixture
  const [reserveA, reserveB, fee] = await publicClient.readContract({
    address: router,
    abi: testRouterAbi,
    functionName: 'getPool',
    args: [a, b],
  })
  const setPool = async (x: bigint, y: bigint) =>
    publicClient.waitForTransactionReceipt({
      hash: await deployerClient.writeContract({
        address: router,
        abi: testRouterAbi,
        functionName: 'setPool',
        args: [a, b, x, y, fee],
      }),
    })
  await setPool(10n ** 30n, 1n)
  return () => setPool(reserveA, reserveB)
}

describe('one verdict: the page that saw it and the page after a reload agree', () => {
  test('the approval broadcast, the page gone before its hash was written: after the reload, resumable (found at its nonce), one swap', async () => {
    const storage = createMemoryStorage()
    const before = await h.funds()
    const wallet = h.wallet()
    const page = startSwap(walletDyingAt(wallet, 0), storage)
    // The approval mined, its hash never written: the record holds only "approve: sending", at its nonce.
    await until(page, 'the approval mined', async () => (await h.allowance('TKA')) === amountIn)
    const [record] = await getPendingSwaps(storage)
    expect(record).toMatchObject({ step: 'approving', spender: swapGuardAddress })
    expect(record?.journal).toMatchObject([{ step: 'approve', event: 'sending', nonce: before.nonce }])

    const { clients, settlePendingSwaps, checkPendingSwap, resumeSwap } = await afterReload(wallet)
    if (!record) throw new Error('no record')
    expect(await checkPendingSwap(clients, record)).toMatchObject({ status: 'resumable' })
    expect(await settlePendingSwaps({ ...clients, storage })).toMatchObject([{ status: 'resumable' }])
    const sent = wallet.sendRequests().length
    const resumed = await resumeSwap(h.swapClient(), {
      ...clients,
      record,
      minAmountOut: BigInt(record.minAmountOut),
      storage,
      trustedAddresses: trusted(),
    })
    expect(resumed).toMatchObject({ resumed: 'swapped', floorEnforcement: 'onchain' })
    expect(wallet.sendRequests().slice(sent)).toHaveLength(1) // the swap; never the approval again
    const after = await h.funds()
    expect(after.TKA).toBe(before.TKA - amountIn)
    expect(after.nonce).toBe(before.nonce + 2)
    expect(await getPendingSwaps(storage)).toEqual([])
  })

  test('a batch that failed non-atomically (EIP-5792 status 600, atomic: false): resumable on the page that saw it, and after the reload', async () => {
    const storage = createMemoryStorage()
    const before = await h.funds()
    let restore: (() => Promise<unknown>) | undefined
    const wallet = h.wallet({
      eip5792: {
        partial: true,
        beforeBatch: async () => {
          restore = await drainLastPool()
        },
      },
    })
    const error = await executeSwap(h.swapClient(), swapParameters(wallet.walletClient, storage)).catch(
      (e: unknown) => e,
    )
    expect(error).toBeInstanceOf(BatchFailedError)
    expect(error).toMatchObject({ statusCode: 600, atomic: false })
    // The page that saw it: the approval landed (its receipt says so), the record kept, the allowance reported.
    expect((error as BatchFailedError).leftoverAllowance).toMatchObject({
      spender: swapGuardAddress,
      amount: amountIn,
    })
    const [record] = await getPendingSwaps(storage)
    expect(record).toMatchObject({ step: 'batching' })

    const { clients, settlePendingSwaps, checkPendingSwap, resumeSwap } = await afterReload(wallet)
    if (!record) throw new Error('no record')
    expect(await checkPendingSwap(clients, record)).toMatchObject({ status: 'resumable' })
    expect(await settlePendingSwaps({ ...clients, storage })).toMatchObject([{ status: 'resumable' }])
    expect(await getPendingSwaps(storage)).toHaveLength(1)
    await restore?.()
    const resumed = await resumeSwap(h.swapClient(), {
      ...clients,
      record,
      minAmountOut: 1n,
      storage,
      trustedAddresses: trusted(),
    })
    expect(resumed).toMatchObject({ resumed: 'swapped' })
    const after = await h.funds()
    expect(after.TKA).toBe(before.TKA - amountIn)
    expect(after.allowance).toBe(0n)
    expect(await getPendingSwaps(storage)).toEqual([])
  })
})

describe('the swap is the swap', () => {
  test('signed as it is with an exact approval, a batch ends approve → swap → approve(0): the hash, receipt and success event are the swap’s', async () => {
    const storage = createMemoryStorage()
    const events: { type: string; hash?: string }[] = []
    const wallet = h.wallet({ eip5792: {} })
    const result = await executeSwap(h.swapClient(), {
      ...swapParameters(wallet.walletClient, storage),
      floorEnforcement: 'simulation',
      onEvent: (event) => events.push(event as { type: string; hash?: string }),
    })
    expect(result.mode).toBe('batch')
    expect(result.receipts).toHaveLength(3)
    const [approve, swap, reset] = result.receipts
    expect(result.swapHash).toBe(swap?.transactionHash)
    expect(result.receipt.transactionHash).toBe(swap?.transactionHash)
    expect(events.find((event) => event.type === 'success')?.hash).toBe(swap?.transactionHash)
    // The swap's receipt is the router's call; the approve(0) after it is the last one.
    expect(result.receipt.to?.toLowerCase()).toBe(h.fixture.router.toLowerCase())
    for (const [receipt, amount] of [
      [approve, amountIn],
      [reset, 0n],
    ] as const) {
      const tx = await h.fixture.publicClient.getTransaction({
        hash: receipt?.transactionHash as `0x${string}`,
      })
      expect(decodeFunctionData({ abi: erc20Abi, data: tx.input }).args).toEqual([h.fixture.spender, amount])
    }
    expect(result.realized?.amountOut).toBeGreaterThan(0n)
  })

  test('a batch sent before the reload settles with the swap’s own receipt', async () => {
    const storage = createMemoryStorage()
    let answering = false
    const wallet = h.wallet({
      eip5792: {},
      hang: (method) => method === 'wallet_getCallsStatus' && !answering,
    })
    const error = await executeSwap(h.swapClient(), {
      ...swapParameters(wallet.walletClient, storage),
      floorEnforcement: 'simulation',
      batchTimeoutMs: 300,
    }).catch((e: unknown) => e)
    expect(error).toMatchObject({ name: 'OutcomeUnknownError' })
    answering = true
    const { clients, settlePendingSwaps } = await afterReload(wallet)
    const [settled] = await settlePendingSwaps({ ...clients, storage })
    expect(settled).toMatchObject({ status: 'confirmed' })
    expect(settled?.receipt?.to?.toLowerCase()).toBe(h.fixture.router.toLowerCase())
  })
})
