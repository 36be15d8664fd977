/**
 * Resume after a reload, on anvil. A "reload" is a flow that stops where a
 * page would (the wallet or the node never answers the next request; nothing
 * after it runs, no clean-up either), then a fresh start from the storage
 * alone: new clients, the same storage (as `localStorage` survives a reload)
 * and the same wallet extension.
 */
import { createPublicClient, custom, type PublicClient, parseEther } from 'viem'
import { afterAll, beforeAll, describe, expect, test, vi } from 'vitest'
import { type StartAnvilReturnType, startAnvil } from '../../../test/evm/anvil.js'
import { deploySwapFixture, type SwapFixture } from '../../../test/evm/fixture.js'
import { resumeKit } from '../../../test/evm/resumeKit.js'
import { jsonRpc, mineHeld } from '../../../test/evm/rpc.js'
import { setupSwapHarness } from '../../../test/evm/swapHarness.js'
import type { TestWallet } from '../../../test/evm/wallet.js'
import { OutcomeUnknownError, SwapInProgressError } from '../errors/execute.js'
import { checkPendingSwap } from './checkPendingSwap.js'
import { type ExecuteSwapParameters, executeSwap } from './executeSwap.js'
import {
  createMemoryStorage,
  getPendingSwaps,
  newPendingSwapId,
  type PendingSwap,
  type SwapStorage,
  savePendingSwap,
} from './records/pendingSwaps.js'
import { resumeSwap } from './resumeSwap.js'
import { settlePendingSwaps } from './settlePendingSwaps.js'

// The resume logic, with the approval to the service's spender and the swap to its router (the
// opt-out): the guarded flow's resume is in resumeSwap.guard.test.ts.
const h = setupSwapHarness({ floorEnforcement: 'simulation' })
const amountIn = parseEther('10')
const {
  trusted,
  swapParameters,
  startSwap,
  until,
  recordAt,
  clientsOf,
  walletDyingAtSwap,
  swapLeftInMempool,
} = resumeKit(h, amountIn)

type Page = ReturnType<typeof startSwap>

/** The first page died at the swap prompt: the wallet got the swap request (approval + swap) and never answered. */
const diedAtSwapPrompt = (page: Page, wallet: TestWallet) =>
  until(page, 'the swap request reached the wallet', () => wallet.sendRequests().length === 2)

/**
 * The page after a reload: new clients on the same wallet extension and node, and a fresh copy
 * of the library, as a new JS context has (the first page's executions, stuck at the wallet or
 * at its node, are gone with it).
 */
async function afterReload(wallet: TestWallet) {
  vi.resetModules()
  const [resume, check, settle] = await Promise.all([
    import('./resumeSwap.js'),
    import('./checkPendingSwap.js'),
    import('./settlePendingSwaps.js'),
  ])
  return {
    clients: clientsOf(wallet),
    settlePendingSwaps: settle.settlePendingSwaps,
    resumeSwap: resume.resumeSwap,
    checkPendingSwap: check.checkPendingSwap,
  }
}

describe('resume after a reload', () => {
  test('after the approval was mined and before the swap was sent: resume sends exactly one swap', async () => {
    const storage = createMemoryStorage()
    const before = await h.funds()
    // The page dies when the wallet is asked for the swap: the approval is mined, the swap never sent.
    const wallet = h.wallet({ hang: (method, count) => method === 'eth_sendTransaction' && count === 1 })
    const page = startSwap(wallet.walletClient, storage)
    const record = await recordAt(page, storage, 'approved')
    await diedAtSwapPrompt(page, wallet)
    expect(record).toMatchObject({
      account: h.fixture.accounts.user.address,
      chainId: h.fixture.chain.id,
      amountIn: amountIn.toString(),
      spender: h.fixture.spender,
      approvalHash: expect.stringMatching(/^0x/),
    })
    expect(JSON.stringify(record)).not.toMatch(/private|key|header/i)
    const middle = await h.funds()
    expect(middle.allowance).toBe(amountIn)
    expect(middle.nonce).toBe(before.nonce + 1)

    // The new page: the record is found and is resumable; checking it sends nothing.
    const { clients, settlePendingSwaps, resumeSwap } = await afterReload(wallet)
    const requestsBefore = wallet.sendRequests().length
    const [checked] = await settlePendingSwaps({ ...clients, storage })
    expect(checked?.status).toBe('resumable')
    expect(wallet.sendRequests()).toHaveLength(requestsBefore)

    const quote = h.market.quote({ token0: h.address('TKA'), token1: h.address('TKB'), amountIn })
    const result = await resumeSwap(h.swapClient(), {
      ...clients,
      record,
      minAmountOut: BigInt(record.minAmountOut),
      floorEnforcement: h.floorEnforcement,
      storage,
      trustedAddresses: trusted(),
    })
    expect(result.resumed).toBe('swapped')
    // Exactly one more transaction, the swap: no second approval.
    expect(wallet.sendRequests()).toHaveLength(requestsBefore + 1)
    expect(result.resumed === 'swapped' && result.approvalHash).toBeFalsy()
    expect(result.resumed === 'swapped' && result.realized?.amountOut).toBe(quote?.amountOut)
    const after = await h.funds()
    expect(after.nonce).toBe(before.nonce + 2)
    expect(after.allowance).toBe(0n)
    expect(after.TKA).toBe(before.TKA - amountIn)
    expect(after.TKB).toBe(before.TKB + (quote?.amountOut ?? 0n))
    expect(await getPendingSwaps(storage)).toEqual([])
  })

  test('after the swap was sent: no second swap, the record settles from the receipt', async () => {
    const storage = createMemoryStorage()
    const before = await h.funds()
    // The page dies while waiting for the swap's receipt: its node never answers again.
    const dyingPage = h.dyingPage()
    const dying = dyingPage.publicClient
    const wallet = h.wallet({
      // The swap request is the page's last one: it reaches the node, then the page is gone.
      hang: (method, count) => {
        if (method === 'eth_sendTransaction' && count === 1) dyingPage.die()
        return false
      },
    })
    const page = startSwap(wallet.walletClient, storage, { publicClient: dying })
    const record = await recordAt(page, storage, 'swapping')
    expect(record.swapHash).toMatch(/^0x/)
    const sent = wallet.sendRequests().length
    expect(sent).toBe(2)

    const { clients, settlePendingSwaps, resumeSwap } = await afterReload(wallet)
    const quote = h.market.quote({ token0: h.address('TKA'), token1: h.address('TKB'), amountIn })
    const settled = await settlePendingSwaps({ ...clients, storage })
    expect(settled).toMatchObject([{ status: 'confirmed', receipt: { transactionHash: record.swapHash } }])
    expect(await getPendingSwaps(storage)).toEqual([])
    // Resuming the same record (another tab did not see it settle) sends nothing either.
    const again = await resumeSwap(h.swapClient(), {
      ...clients,
      record,
      minAmountOut: BigInt(record.minAmountOut),
      floorEnforcement: h.floorEnforcement,
      storage,
      trustedAddresses: trusted(),
    })
    expect(again).toMatchObject({ resumed: 'settled', status: 'confirmed' })
    expect(wallet.sendRequests()).toHaveLength(sent)
    const after = await h.funds()
    expect(after.nonce).toBe(before.nonce + 2)
    expect(after.TKB).toBe(before.TKB + (quote?.amountOut ?? 0n))
    expect(after.TKA).toBe(before.TKA - amountIn)
  })

  test('a batch sent before the reload settles from the wallet’s status, nothing is sent again', async () => {
    const storage = createMemoryStorage()
    const before = await h.funds()
    // The page dies while waiting for the batch's status; the extension itself lives on.
    let reloaded = false
    const wallet = h.wallet({
      eip5792: {},
      hang: (method) => method === 'wallet_getCallsStatus' && !reloaded,
    })
    const page = startSwap(wallet.walletClient, storage)
    // The batch's id is written once the wallet answers wallet_sendCalls: the record the reload finds.
    const record = await until(page, 'the batch id in the record', async () =>
      (await getPendingSwaps(storage)).find((entry) => entry.step === 'batching' && entry.batchId),
    )
    reloaded = true
    const { clients, settlePendingSwaps } = await afterReload(wallet)
    const settled = await settlePendingSwaps({ ...clients, storage })
    expect(settled).toMatchObject([{ record: { batchId: record.batchId }, status: 'confirmed' }])
    expect(await getPendingSwaps(storage)).toEqual([])
    expect(wallet.batchRequests()).toHaveLength(1)
    const after = await h.funds()
    // approve, swap, and the allowance reset the batch carries when the floor is only simulated
    expect(after.nonce).toBe(before.nonce + 3)
    expect(after.allowance).toBe(0n)
    expect(after.TKA).toBe(before.TKA - amountIn)
  })

  test('a resumed swap keeps every check: a recipient redirect from the service is refused', async () => {
    const storage = createMemoryStorage()
    const wallet = h.wallet({ hang: (method, count) => method === 'eth_sendTransaction' && count === 1 })
    const page = startSwap(wallet.walletClient, storage)
    const record = await recordAt(page, storage, 'approved')
    await diedAtSwapPrompt(page, wallet)
    await h.serveRedirectedSwap(
      h.address('TKA'),
      h.address('TKB'),
      amountIn,
      '0x000000000000000000000000000000000000dEaD',
    )
    const { clients, resumeSwap } = await afterReload(wallet)
    const sent = wallet.sendRequests().length
    const error = await resumeSwap(h.swapClient(), {
      ...clients,
      record,
      minAmountOut: BigInt(record.minAmountOut),
      floorEnforcement: h.floorEnforcement,
      storage,
      trustedAddresses: trusted(),
    }).catch((e: unknown) => e)
    expect(error).toMatchObject({ name: 'UnsafeSwapOutcomeError' })
    expect(wallet.sendRequests()).toHaveLength(sent)
    // Still resumable: the approval stands and nothing was swapped.
    expect(await getPendingSwaps(storage)).toHaveLength(1)
  })
})

describe('a resumed swap that fails before it is sent', () => {
  test.each([
    ['reports the allowance its record’s approval left', false],
    ['revokes it with revokeOnFailure, and reports the revoke', true],
  ] as const)('a /swap/info failure %s', async (_, revokeOnFailure) => {
    const storage = createMemoryStorage()
    const wallet = h.wallet({ hang: (method, count) => method === 'eth_sendTransaction' && count === 1 })
    const page = startSwap(wallet.walletClient, storage)
    await recordAt(page, storage, 'approved')
    await diedAtSwapPrompt(page, wallet)
    // The record as the page left it: its journal ends with the swap it was sending.
    const [record] = (await getPendingSwaps(storage)) as [PendingSwap]
    const { clients, resumeSwap } = await afterReload(wallet)
    h.server.service.fail({ status: 500, endpoint: '/swap/info' })
    try {
      const error = await resumeSwap(h.swapClient(), {
        ...clients,
        record,
        minAmountOut: BigInt(record.minAmountOut),
        floorEnforcement: h.floorEnforcement,
        storage,
        trustedAddresses: trusted(),
        revokeOnFailure,
      }).catch((e: unknown) => e)
      // The service's error, wrapped so that the documented check finds the allowance.
      expect(error).toMatchObject({
        name: 'ExecuteSwapError',
        shortMessage: 'The swap service answered 500.',
        leftoverAllowance: {
          chainId: h.fixture.chain.id,
          token: h.address('TKA'),
          owner: h.fixture.accounts.user.address,
          spender: h.fixture.spender,
          amount: revokeOnFailure ? 0n : amountIn,
          ...(revokeOnFailure ? { revokeHash: expect.stringMatching(/^0x[0-9a-f]{64}$/) } : {}),
        },
      })
      expect((error as Error).cause).toMatchObject({
        name: 'HttpError',
        status: 500,
        shortMessage: 'The swap service answered 500.',
      })
      expect((error as Error).message).toMatch(
        revokeOnFailure ? 'The approval was revoked' : `Allowance left: ${amountIn}`,
      )
      expect(await h.allowance('TKA')).toBe(revokeOnFailure ? 0n : amountIn)
      // Still resumable unless revoked; never a swap.
      expect(await getPendingSwaps(storage)).toEqual(revokeOnFailure ? [] : [record])
      expect(wallet.sendRequests()).toHaveLength(revokeOnFailure ? 3 : 2)
    } finally {
      h.server.service.clearFailures()
    }
  })
})

test('a resumed swap whose fresh quote names another trusted spender records that spender', async () => {
  const storage = createMemoryStorage()
  const first = h.wallet({ hang: (method, count) => method === 'eth_sendTransaction' && count === 1 })
  const page = startSwap(first.walletClient, storage)
  const record = await recordAt(page, storage, 'approved')
  await diedAtSwapPrompt(page, first)
  // The new page's quote names another spender the app trusts; the user rejects the swap itself.
  const newSpender = h.fixture.accounts.recipient.address
  await h.serveSwap({ token0: h.address('TKA'), token1: h.address('TKB'), amountIn, spender: newSpender })
  const wallet = h.wallet({ reject: (method, count) => method === 'eth_sendTransaction' && count === 1 })
  const { clients, resumeSwap } = await afterReload(wallet)
  const error = await resumeSwap(h.swapClient(), {
    ...clients,
    record,
    minAmountOut: BigInt(record.minAmountOut),
    floorEnforcement: h.floorEnforcement,
    storage,
    trustedAddresses: { [h.fixture.chain.id]: [h.fixture.router, h.fixture.spender, newSpender] },
  }).catch((e: unknown) => e)
  expect(error).toMatchObject({
    name: 'UserRejectedError',
    stage: 'swap',
    leftoverAllowance: { spender: newSpender, amount: amountIn },
  })
  expect(wallet.sendRequests()).toHaveLength(2) // the new spender's approval, the rejected swap
  // The record names the spender whose approval now stands for it.
  expect(await getPendingSwaps(storage)).toMatchObject([
    { id: record.id, step: 'approved', spender: newSpender, approvalHash: expect.stringMatching(/^0x/) },
  ])
})

describe('an execution still running in this page', () => {
  test('is neither listed as interrupted nor resumed while the wallet shows its swap prompt', async () => {
    const storage = createMemoryStorage()
    const before = await h.funds()
    // The flow waits at the wallet's swap prompt (the approval is mined): it runs, in this page.
    const wallet = h.wallet({ hang: (method, count) => method === 'eth_sendTransaction' && count === 1 })
    const page = startSwap(wallet.walletClient, storage)
    await recordAt(page, storage, 'approved')
    await diedAtSwapPrompt(page, wallet)
    // The record as the page left it: its journal ends with the swap it is sending.
    const [record] = (await getPendingSwaps(storage)) as [PendingSwap]
    // The page refetches its pending swaps (window focus): its own swap is not among them.
    const clients = clientsOf(wallet)
    expect(await settlePendingSwaps({ ...clients, storage })).toEqual([])
    expect(await checkPendingSwap(clients, record)).toEqual({ status: 'pending' })
    // Resuming it would send a second swap: refused, nothing sent, the record kept.
    const error = await resumeSwap(h.swapClient(), {
      ...clients,
      record,
      minAmountOut: BigInt(record.minAmountOut),
      floorEnforcement: h.floorEnforcement,
      storage,
      trustedAddresses: trusted(),
    }).catch((e: unknown) => e)
    expect(error).toBeInstanceOf(SwapInProgressError)
    expect(error).toMatchObject({ recordId: record.id })
    expect(wallet.sendRequests()).toHaveLength(2) // the approval and the swap prompt, still open
    expect(await getPendingSwaps(storage)).toEqual([record])
    expect(await h.nonce()).toBe(before.nonce + 1) // the approval, nothing since
  })

  test('a resume of this page runs once: a second resume of the same record is refused', async () => {
    const storage = createMemoryStorage()
    const first = h.wallet({ hang: (method, count) => method === 'eth_sendTransaction' && count === 1 })
    const page = startSwap(first.walletClient, storage)
    const record = await recordAt(page, storage, 'approved')
    await diedAtSwapPrompt(page, first)
    const { clients, resumeSwap } = await afterReload(first)
    const resume = () =>
      resumeSwap(h.swapClient(), {
        ...clients,
        record,
        minAmountOut: BigInt(record.minAmountOut),
        floorEnforcement: h.floorEnforcement,
        storage,
        trustedAddresses: trusted(),
      })
    const [one, two] = await Promise.allSettled([resume(), resume()])
    expect(one).toMatchObject({ status: 'fulfilled', value: { resumed: 'swapped' } })
    expect(two).toMatchObject({ status: 'rejected', reason: { name: 'SwapInProgressError' } })
    expect(first.sendRequests()).toHaveLength(3) // approval, the first page's prompt, one swap
    expect(await getPendingSwaps(storage)).toEqual([])
  })
})

describe('a wait that fails after something was sent keeps the record', () => {
  const swap = (wallet: TestWallet, storage: SwapStorage, extra: Partial<ExecuteSwapParameters> = {}) =>
    executeSwap(h.swapClient(), swapParameters(wallet.walletClient, storage, extra)).catch(
      (error: unknown) => error,
    )

  test('the swap was sent and its receipt wait ran out: OutcomeUnknownError, the record stays, settles later', async () => {
    const storage = createMemoryStorage()
    const before = await h.funds()
    // The page's node stops answering once the swap is sent (the swap itself reaches the chain).
    const page = h.dyingPage()
    const wallet = h.wallet({
      hang: (method, count) => {
        if (method === 'eth_sendTransaction' && count === 1) page.die()
        return false
      },
    })
    const error = await swap(wallet, storage, { publicClient: page.publicClient, receiptTimeoutMs: 300 })
    expect(error).toBeInstanceOf(OutcomeUnknownError)
    const [record] = await getPendingSwaps(storage)
    expect(error).toMatchObject({ stage: 'swap', hash: record?.swapHash })
    expect(record).toMatchObject({ step: 'swapping', swapHash: expect.stringMatching(/^0x/) })
    expect(await getPendingSwaps(storage)).toHaveLength(1)
    // Later, from the chain: the swap went through, once.
    const settled = await settlePendingSwaps({ ...clientsOf(wallet), storage })
    expect(settled).toMatchObject([{ status: 'confirmed', receipt: { transactionHash: record?.swapHash } }])
    expect(await getPendingSwaps(storage)).toEqual([])
    expect(wallet.sendRequests()).toHaveLength(2)
    const after = await h.funds()
    expect(after.nonce).toBe(before.nonce + 2)
    expect(after.TKA).toBe(before.TKA - amountIn)
  })

  test('the batch was sent and its status wait ran out: OutcomeUnknownError, the record stays', async () => {
    const storage = createMemoryStorage()
    let answering = false
    const wallet = h.wallet({
      eip5792: {},
      hang: (method) => method === 'wallet_getCallsStatus' && !answering,
    })
    const error = await swap(wallet, storage, { batchTimeoutMs: 300 })
    expect(error).toBeInstanceOf(OutcomeUnknownError)
    const records = await getPendingSwaps(storage)
    expect(records).toMatchObject([{ step: 'batching', batchId: expect.stringMatching(/^0x/) }])
    expect(error).toMatchObject({ stage: 'swap', batchId: records[0]?.batchId })
    answering = true
    expect(await settlePendingSwaps({ ...clientsOf(wallet), storage })).toMatchObject([
      { status: 'confirmed' },
    ])
    expect(await getPendingSwaps(storage)).toEqual([])
    expect(wallet.batchRequests()).toHaveLength(1)
  })

  test('resuming a batch whose wallet fails to answer its status keeps the record; it settles once answered', async () => {
    const storage = createMemoryStorage()
    let wallet: 'hangs' | 'fails' | 'answers' = 'hangs'
    const extension = h.wallet({
      eip5792: {},
      hang: (method) => method === 'wallet_getCallsStatus' && wallet === 'hangs',
      fail: (method) => method === 'wallet_getCallsStatus' && wallet === 'fails',
    })
    await swap(extension, storage, { batchTimeoutMs: 300 })
    const [record] = await getPendingSwaps(storage)
    expect(record?.step).toBe('batching')

    wallet = 'fails'
    const clients = clientsOf(extension)
    const resume = () =>
      resumeSwap(h.swapClient(), {
        ...clients,
        record: record as PendingSwap,
        minAmountOut: BigInt((record as PendingSwap).minAmountOut),
        floorEnforcement: h.floorEnforcement,
        storage,
        trustedAddresses: trusted(),
      })
    const error = await resume().catch((e: unknown) => e)
    expect(error).toMatchObject({ name: 'WalletError', stage: 'swap' })
    expect(await getPendingSwaps(storage)).toEqual([record])

    wallet = 'answers'
    expect(await resume()).toMatchObject({ resumed: 'settled', status: 'confirmed' })
    expect(await getPendingSwaps(storage)).toEqual([])
    expect(extension.batchRequests()).toHaveLength(1)
    expect(extension.sendRequests()).toHaveLength(0)
  })
})

/** A record of a TKA → TKB swap of `amountIn` left at `step` (default: approved), saved in `storage`. */
async function recordOf(storage: SwapStorage, patch: Partial<PendingSwap> = {}) {
  const record: PendingSwap = {
    id: newPendingSwapId(),
    version: 1,
    chainId: h.fixture.chain.id,
    account: h.fixture.accounts.user.address,
    baseUrl: h.swapClient().baseUrl,
    token0: h.address('TKA'),
    token1: h.address('TKB'),
    amountIn: amountIn.toString(),
    to: h.fixture.accounts.user.address,
    minAmountOut: '1',
    spender: h.fixture.spender,
    step: 'approved',
    createdAt: Date.now(),
    updatedAt: Date.now(),
    ...patch,
  }
  await savePendingSwap(storage, record)
  return record
}

describe('checking records on chain', () => {
  test('a node that fails to answer settles nothing, and "not found" alone never erases a sent swap', async () => {
    const storage = createMemoryStorage()
    // A swap sent with this hash: never on chain.
    const record = await recordOf(storage, { step: 'swapping', swapHash: `0x${'ab'.repeat(32)}` })
    const forward = jsonRpc(h.fixture.rpcUrl)
    const failing = createPublicClient({
      chain: h.fixture.chain,
      transport: custom(
        {
          request: ({ method, params }) =>
            method === 'eth_getTransactionReceipt' || method === 'eth_getTransactionByHash'
              ? Promise.reject(Object.assign(new Error('upstream unavailable'), { code: -32603 }))
              : forward(method, params),
        },
        { retryCount: 0 },
      ),
    }) as PublicClient
    const { walletClient } = clientsOf(h.wallet())
    const error = await settlePendingSwaps({ walletClient, publicClient: failing, storage }).catch(
      (e: unknown) => e,
    )
    expect(error).toMatchObject({ name: 'WalletError', stage: 'swap' })
    expect(await getPendingSwaps(storage)).toEqual([record])
    // A node that answers "not found": the swap may still be on its way (the wallet's node has
    // it), and with no approval before it nothing on chain tells: unknown, kept for the user.
    expect(
      await settlePendingSwaps({ walletClient, publicClient: h.fixture.publicClient, storage }),
    ).toMatchObject([{ status: 'unknown' }])
    expect(await getPendingSwaps(storage)).toEqual([record])
  })
})

describe('a record read on another chain', () => {
  let other: StartAnvilReturnType | undefined
  let otherFixture: SwapFixture | undefined
  beforeAll(async () => {
    // Another chain with the same contracts at the same addresses (the same deployer, the same
    // nonces): its reads look plausible, and say nothing about the record's chain.
    other = await startAnvil({ chainId: 31_339 })
    otherFixture = await deploySwapFixture({ rpcUrl: other.rpcUrl, chainId: other.chainId })
  }, 30_000)
  afterAll(async () => {
    await other?.stop()
  })

  async function approvedRecord(storage: SwapStorage) {
    await h.approve('TKA', amountIn)
    return recordOf(storage)
  }

  test('resumeSwap with a public client on another chain: ChainMismatchError, nothing sent or removed', async () => {
    expect(otherFixture?.tokens.TKA.address).toBe(h.address('TKA'))
    const storage = createMemoryStorage()
    const record = await approvedRecord(storage)
    const wallet = h.wallet()
    const error = await resumeSwap(h.swapClient(), {
      walletClient: wallet.walletClient,
      publicClient: otherFixture?.publicClient as PublicClient,
      record,
      minAmountOut: BigInt(record.minAmountOut),
      floorEnforcement: h.floorEnforcement,
      storage,
      trustedAddresses: trusted(),
    }).catch((e: unknown) => e)
    expect(error).toMatchObject({
      name: 'ChainMismatchError',
      client: 'public',
      expectedChainId: h.fixture.chain.id,
      actualChainId: 31_339,
    })
    expect(await getPendingSwaps(storage)).toEqual([record])
    expect(wallet.sendRequests()).toHaveLength(0)
  })

  test('settlePendingSwaps for the record’s chain through a client on another: refused, nothing removed', async () => {
    const storage = createMemoryStorage()
    const record = await approvedRecord(storage)
    const error = await settlePendingSwaps({
      walletClient: h.wallet().walletClient,
      publicClient: otherFixture?.publicClient as PublicClient,
      chainId: h.fixture.chain.id,
      storage,
    }).catch((e: unknown) => e)
    expect(error).toMatchObject({ name: 'ChainMismatchError', client: 'public' })
    expect(await getPendingSwaps(storage)).toEqual([record])
  })
})

test('two records settled at once both go (storage writes one after the other)', async () => {
  // An asynchronous storage (IndexedDB-like): each read and write takes a moment.
  const memory = new Map<string, string>()
  const later = <value>(fn: () => value) =>
    new Promise<value>((resolve) => setTimeout(() => resolve(fn()), 5))
  const storage: SwapStorage = {
    getItem: (key) => later(() => memory.get(key) ?? null),
    setItem: (key, value) => later(() => memory.set(key, value)),
    removeItem: (key) => later(() => memory.delete(key)),
  }
  const base = {
    version: 1,
    chainId: h.fixture.chain.id,
    account: h.fixture.accounts.user.address,
    baseUrl: h.swapClient().baseUrl,
    token0: h.address('TKA'),
    token1: h.address('TKB'),
    amountIn: '1',
    to: h.fixture.accounts.user.address,
    minAmountOut: '1',
    // An approval that never left (no hash): dropped, at once, with no request.
    step: 'approving',
    createdAt: Date.now(),
    updatedAt: Date.now(),
  } as const
  await savePendingSwap(storage, { ...base, id: 'first' })
  await savePendingSwap(storage, { ...base, id: 'second' })
  const settled = await settlePendingSwaps({ ...clientsOf(h.wallet()), storage })
  expect(settled.map(({ record, status }) => [record.id, status])).toEqual([
    ['first', 'dropped'],
    ['second', 'dropped'],
  ])
  expect(await getPendingSwaps(storage)).toEqual([])
})

describe('a swap that went out is never sent again', () => {
  test('the same record resumed twice (a list not refetched yet): the second resume reads the stored record and sends nothing', async () => {
    const storage = createMemoryStorage()
    const before = await h.funds()
    const wallet = h.wallet({ hang: (method, count) => method === 'eth_sendTransaction' && count === 1 })
    const page = startSwap(wallet.walletClient, storage, { approval: 'infinite' })
    const record = await recordAt(page, storage, 'approved')
    await diedAtSwapPrompt(page, wallet)

    const { clients, resumeSwap } = await afterReload(wallet)
    const resume = () =>
      resumeSwap(h.swapClient(), {
        ...clients,
        record,
        minAmountOut: BigInt(record.minAmountOut),
        floorEnforcement: h.floorEnforcement,
        storage,
        trustedAddresses: trusted(),
      })
    expect(await resume()).toMatchObject({ resumed: 'swapped' })
    const sent = wallet.sendRequests().length
    // The allowance still covers another swap: only the stored record (gone) stops it.
    expect(await resume()).toEqual({ resumed: 'nothing', status: 'missing' })
    expect(wallet.sendRequests()).toHaveLength(sent)
    const after = await h.funds()
    expect(after.TKA).toBe(before.TKA - amountIn)
    expect(after.nonce).toBe(before.nonce + 2)
  })

  test('a resume whose swap outcome is unknown, resumed again with the same record: waits for that swap, sends nothing', async () => {
    const storage = createMemoryStorage()
    const rpc = jsonRpc(h.fixture.rpcUrl)
    const wallet = h.wallet({ hang: (method, count) => method === 'eth_sendTransaction' && count === 1 })
    const page = startSwap(wallet.walletClient, storage)
    const record = await recordAt(page, storage, 'approved')
    await diedAtSwapPrompt(page, wallet)

    const { clients, resumeSwap } = await afterReload(wallet)
    // A slow chain: the resumed swap sits in the mempool past the receipt wait.
    await rpc('evm_setAutomine', [false])
    try {
      const resume = () =>
        resumeSwap(h.swapClient(), {
          ...clients,
          record,
          minAmountOut: BigInt(record.minAmountOut),
          floorEnforcement: h.floorEnforcement,
          storage,
          trustedAddresses: trusted(),
          receiptTimeoutMs: 500,
        }).catch((e: unknown) => e)
      expect(await resume()).toMatchObject({ name: 'OutcomeUnknownError', stage: 'swap' })
      expect(await getPendingSwaps(storage)).toMatchObject([{ step: 'swapping' }])
      const sent = wallet.sendRequests().length // approval, dead prompt, resumed swap
      expect(await resume()).toMatchObject({ name: 'OutcomeUnknownError', stage: 'swap' })
      expect(wallet.sendRequests()).toHaveLength(sent)
    } finally {
      await mineHeld(rpc)
    }
  })

  test('the wallet sent the swap and the page closed before its hash came back: the record reads confirmed, not resumable', async () => {
    const storage = createMemoryStorage()
    const before = await h.funds()
    const wallet = h.wallet()
    // The user confirmed the swap, the wallet broadcast it, the page was gone before the answer.
    const page = startSwap(walletDyingAtSwap(wallet), storage, { approval: 'infinite' })
    const record = await recordAt(page, storage, 'approved')
    expect(record.router).toBe(h.fixture.router)
    await until(page, 'the swap mined', async () => (await h.nonce()) === before.nonce + 2)

    const { clients, settlePendingSwaps, resumeSwap, checkPendingSwap } = await afterReload(wallet)
    expect(await checkPendingSwap(clients, record)).toMatchObject({ status: 'confirmed' })
    const [listed] = await settlePendingSwaps({ ...clients, storage })
    expect(listed).toMatchObject({ status: 'confirmed', receipt: { status: 'success' } })
    expect(await getPendingSwaps(storage)).toEqual([])
    // The record passed again (a list not refetched): nothing sent.
    expect(
      await resumeSwap(h.swapClient(), {
        ...clients,
        record,
        minAmountOut: BigInt(record.minAmountOut),
        floorEnforcement: h.floorEnforcement,
        storage,
        trustedAddresses: trusted(),
      }),
    ).toEqual({ resumed: 'nothing', status: 'missing' })
    // Nor with no storage to re-read it from: the chain says the swap went out.
    expect(
      await resumeSwap(h.swapClient(), {
        ...clients,
        record,
        minAmountOut: BigInt(record.minAmountOut),
        floorEnforcement: h.floorEnforcement,
        storage: false,
        trustedAddresses: trusted(),
      }),
    ).toMatchObject({ resumed: 'settled', status: 'confirmed' })
    const after = await h.funds()
    expect(after.TKA).toBe(before.TKA - amountIn)
    expect(after.nonce).toBe(before.nonce + 2)
  })

  test('a swap sent and still pending after the approval: the record reads pending, resume sends nothing', async () => {
    const storage = createMemoryStorage()
    const rpc = jsonRpc(h.fixture.rpcUrl)
    const before = await h.funds()
    const wallet = h.wallet()
    try {
      // A slow chain: the swap reaches the mempool, the page closes.
      const record = await swapLeftInMempool(wallet, storage, before.nonce)
      const { clients, settlePendingSwaps, resumeSwap } = await afterReload(wallet)
      expect(await settlePendingSwaps({ ...clients, storage })).toMatchObject([{ status: 'pending' }])
      const sent = wallet.sendRequests().length
      expect(
        await resumeSwap(h.swapClient(), {
          ...clients,
          record,
          minAmountOut: BigInt(record.minAmountOut),
          floorEnforcement: h.floorEnforcement,
          storage,
          trustedAddresses: trusted(),
        }),
      ).toEqual({ resumed: 'nothing', status: 'pending' })
      expect(wallet.sendRequests()).toHaveLength(sent)
    } finally {
      await mineHeld(rpc)
    }
    await h.until('the swap mined', async () => (await h.nonce()) === before.nonce + 2)
    const after = await h.funds()
    expect(after.TKA).toBe(before.TKA - amountIn)
  })

  test('an onStep that throws once the swap is sent: the flow still ends with the mined swap, the record settled', async () => {
    const storage = createMemoryStorage()
    const before = await h.funds()
    const wallet = h.wallet()
    const page = startSwap(wallet.walletClient, storage, {
      approval: 'infinite',
      onStep: (step) => {
        if (step.action === 'waiting-for-swap' || step.action === 'waiting-for-approval')
          throw new Error('UI bug')
      },
    })
    await h.until('the flow ended', () => page.error ?? page.done)
    expect(page.error).toBeUndefined()
    expect(page.done).toMatchObject({ receipt: { status: 'success' } })
    expect(await getPendingSwaps(storage)).toEqual([])
    const after = await h.funds()
    expect(after.TKA).toBe(before.TKA - amountIn)
  })

  test('the "swapping" write fails and the receipt wait runs out: the record left at approved reads confirmed, never resumable', async () => {
    const inner = createMemoryStorage()
    const storage: SwapStorage = {
      getItem: (key) => inner.getItem(key),
      setItem: (key, value) => {
        if (value.includes('"swapping"')) throw new Error('QuotaExceededError')
        inner.setItem(key, value)
      },
      removeItem: (key) => inner.removeItem(key),
    }
    const before = await h.funds()
    const dying = h.dyingPage()
    const wallet = h.wallet({
      hang: (method, count) => {
        if (method === 'eth_sendTransaction' && count === 1) dying.die()
        return false
      },
    })
    const error = await executeSwap(h.swapClient(), {
      walletClient: wallet.walletClient,
      publicClient: dying.publicClient,
      token0: h.address('TKA'),
      token1: h.address('TKB'),
      amountIn,
      acceptedQuote: h.market.quote({ token0: h.address('TKA'), token1: h.address('TKB'), amountIn }),
      slippage: 0.01,
      trustedAddresses: trusted(),
      storage,
      approval: 'infinite',
      receiptTimeoutMs: 300,
      floorEnforcement: h.floorEnforcement,
    }).catch((e: unknown) => e)
    expect(error).toMatchObject({ name: 'OutcomeUnknownError', stage: 'swap' })
    const [record] = await getPendingSwaps(storage)
    expect(record?.step).toBe('approved')
    expect(record?.swapHash).toBeUndefined()
    await h.until('the swap mined', async () => (await h.nonce()) === before.nonce + 2)

    const { clients, settlePendingSwaps, resumeSwap } = await afterReload(wallet)
    const sent = wallet.sendRequests().length
    expect(await settlePendingSwaps({ ...clients, storage })).toMatchObject([{ status: 'confirmed' }])
    expect(
      await resumeSwap(h.swapClient(), {
        ...clients,
        record: record as PendingSwap,
        minAmountOut: BigInt((record as PendingSwap).minAmountOut),
        floorEnforcement: h.floorEnforcement,
        storage: false,
        trustedAddresses: trusted(),
      }),
    ).toMatchObject({ resumed: 'settled', status: 'confirmed' })
    expect(wallet.sendRequests()).toHaveLength(sent)
    expect((await h.funds()).TKA).toBe(before.TKA - amountIn)
  })

  test('an approval followed by an unrelated transaction is still resumable; a record without its router is not', async () => {
    const storage = createMemoryStorage()
    const before = await h.funds()
    const wallet = h.wallet({ hang: (method, count) => method === 'eth_sendTransaction' && count === 1 })
    const page = startSwap(wallet.walletClient, storage)
    const record = await recordAt(page, storage, 'approved')
    await diedAtSwapPrompt(page, wallet)
    // The user sends something else meanwhile (to themselves).
    const hash = await h.fixture.userClient.sendTransaction({
      to: h.fixture.accounts.user.address,
      value: 1n,
    })
    await h.fixture.publicClient.waitForTransactionReceipt({ hash })

    const { clients, resumeSwap, checkPendingSwap } = await afterReload(wallet)
    expect(await checkPendingSwap(clients, record)).toEqual({ status: 'resumable' })
    expect(await checkPendingSwap(clients, { ...record, router: undefined })).toEqual({ status: 'unknown' })
    expect(
      await resumeSwap(h.swapClient(), {
        ...clients,
        record,
        minAmountOut: BigInt(record.minAmountOut),
        floorEnforcement: h.floorEnforcement,
        storage,
        trustedAddresses: trusted(),
      }),
    ).toMatchObject({ resumed: 'swapped' })
    const after = await h.funds()
    expect(after.TKA).toBe(before.TKA - amountIn)
  })

  test('a mined swap whose record the storage fails to remove: resume still reports it confirmed', async () => {
    const inner = createMemoryStorage()
    let broken = false
    const storage: SwapStorage = {
      getItem: (key) => inner.getItem(key),
      setItem: (key, value) => {
        if (broken) throw new Error('storage unavailable')
        inner.setItem(key, value)
      },
      removeItem: (key) => {
        if (broken) throw new Error('storage unavailable')
        inner.removeItem(key)
      },
    }
    const dying = h.dyingPage()
    const wallet = h.wallet({
      hang: (method, count) => {
        if (method === 'eth_sendTransaction' && count === 1) dying.die()
        return false
      },
    })
    const page = startSwap(wallet.walletClient, storage, { publicClient: dying.publicClient })
    const record = await recordAt(page, storage, 'swapping')
    broken = true
    const { clients, resumeSwap, settlePendingSwaps } = await afterReload(wallet)
    expect(
      await resumeSwap(h.swapClient(), {
        ...clients,
        record,
        minAmountOut: BigInt(record.minAmountOut),
        floorEnforcement: h.floorEnforcement,
        storage,
        trustedAddresses: trusted(),
      }),
    ).toMatchObject({ resumed: 'settled', status: 'confirmed' })
    expect(await settlePendingSwaps({ ...clients, storage })).toMatchObject([{ status: 'confirmed' }])
  })
})
