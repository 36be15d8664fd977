/**
 * Resume after a reload, on anvil: the cases where a resume could send a
 * second swap that gets mined (the user paying amountIn twice), or settle and
 * erase a record whose swap may have gone through. Each test states the
 * invariant it checks; a "reload" is a fresh copy of the library with new
 * clients and the same storage (see resumeSwap.test.ts).
 */
import {
  createPublicClient,
  custom,
  type EIP1193Provider,
  encodeFunctionData,
  erc20Abi,
  type Hex,
  numberToHex,
  type PublicClient,
  parseEther,
} from 'viem'
import { describe, expect, test, vi } from 'vitest'
import { resumeKit } from '../../../test/evm/resumeKit.js'
import { jsonRpc, mineHeld } from '../../../test/evm/rpc.js'
import { setupSwapHarness } from '../../../test/evm/swapHarness.js'
import type { TestWallet } from '../../../test/evm/wallet.js'
import { swapRouterAbi } from '../../mock/routerAbi.js'
import { executeSwap } from './executeSwap.js'
import {
  createMemoryStorage,
  getPendingSwaps,
  newPendingSwapId,
  type PendingSwap,
  type SwapStorage,
  savePendingSwap,
} from './records/pendingSwaps.js'

// The resume logic, with the approval to the service's spender and the swap to its router (the
// opt-out): the guarded flow's resume is in resumeSwap.guard.test.ts.
const h = setupSwapHarness({ floorEnforcement: 'simulation' })
const amountIn = parseEther('10')
const { trusted, startSwap, until, recordAt, clientsOf, walletDyingAtSwap, swapLeftInMempool } = resumeKit(
  h,
  amountIn,
)

/** The dapp's own node, which has not seen the account's pending transactions: pending = latest. */
function otherNode(options: { pruned?: boolean } = {}) {
  const forward = jsonRpc(h.fixture.rpcUrl)
  return createPublicClient({
    chain: h.fixture.chain,
    pollingInterval: 50,
    transport: custom({
      request: async ({ method, params }) => {
        const [address, tag] = (params ?? []) as [string, string]
        if (method === 'eth_getTransactionCount' && tag === 'pending')
          return forward(method, [address, 'latest'])
        if (options.pruned && method === 'eth_getTransactionCount' && tag !== 'latest')
          throw Object.assign(new Error('missing trie node'), { code: -32000 })
        return forward(method, params)
      },
    }),
  }) as PublicClient
}

/** A wallet extension that does not answer eth_getTransactionCount (many do not). */
function withoutNonceRead(wallet: TestWallet): EIP1193Provider {
  return {
    request: async (args: { method: string; params?: unknown }) => {
      if (args.method === 'eth_getTransactionCount')
        throw Object.assign(new Error('Method not supported'), { code: 4200 })
      return wallet.provider.request(args as never)
    },
  } as EIP1193Provider
}

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
    router: h.fixture.router,
    step: 'approved',
    createdAt: Date.now(),
    updatedAt: Date.now(),
    ...patch,
  }
  await savePendingSwap(storage, record)
  return record
}

async function afterReload() {
  vi.resetModules()
  const [resume, check, settle] = await Promise.all([
    import('./resumeSwap.js'),
    import('./checkPendingSwap.js'),
    import('./settlePendingSwaps.js'),
  ])
  return { ...resume, ...check, ...settle }
}

describe('a swap that went out is never paid twice', () => {
  test('a swap in the wallet node’s mempool that the page’s node does not show: pending, nothing sent', async () => {
    const storage = createMemoryStorage()
    const rpc = jsonRpc(h.fixture.rpcUrl)
    const before = await h.funds()
    const wallet = h.wallet()
    try {
      const record = await swapLeftInMempool(wallet, storage, before.nonce, { approval: 'infinite' })
      const library = await afterReload()
      // The wallet's own count shows the swap the page's node does not.
      const clients = clientsOf(wallet, otherNode())
      expect(await library.checkPendingSwap(clients, record)).toEqual({ status: 'pending' })
      const sent = wallet.sendRequests().length
      expect(
        await library.resumeSwap(h.swapClient(), {
          ...clients,
          record,
          minAmountOut: BigInt(record.minAmountOut),
          floorEnforcement: h.floorEnforcement,
          storage,
          trustedAddresses: trusted(),
        }),
      ).toEqual({ resumed: 'nothing', status: 'pending' })
      expect(wallet.sendRequests()).toHaveLength(sent)
      await mineHeld(rpc)
      const after = await h.funds()
      expect(before.TKA - after.TKA).toBe(amountIn)
      expect(after.nonce - before.nonce).toBe(2)
      expect(await getPendingSwaps(storage)).toHaveLength(1)
    } finally {
      await mineHeld(rpc)
    }
  })

  test('neither the page’s node nor the wallet shows that swap: the resumed swap takes its nonce, only one is mined', async () => {
    const storage = createMemoryStorage()
    const rpc = jsonRpc(h.fixture.rpcUrl)
    const before = await h.funds()
    const wallet = h.wallet()
    try {
      const record = await swapLeftInMempool(wallet, storage, before.nonce, { approval: 'infinite' })
      const library = await afterReload()
      const clients = clientsOf(withoutNonceRead(wallet), otherNode())
      expect((await library.checkPendingSwap(clients, record)).status).toBe('resumable')
      const sent = wallet.sendRequests().length
      await library
        .resumeSwap(h.swapClient(), {
          ...clients,
          record,
          minAmountOut: BigInt(record.minAmountOut),
          floorEnforcement: h.floorEnforcement,
          storage,
          trustedAddresses: trusted(),
          receiptTimeoutMs: 500,
        })
        .catch(() => {})
      // The resumed swap was sent at the nonce the scan proved free: the first swap's.
      const resumed = wallet.sendRequests().slice(sent)
      expect(resumed).toHaveLength(1)
      expect(resumed[0]?.params).toMatchObject([{ nonce: numberToHex(before.nonce + 1) }])
      await mineHeld(rpc)
      const after = await h.funds()
      expect(before.TKA - after.TKA).toBe(amountIn)
      expect(after.nonce - before.nonce).toBe(2)
    } finally {
      await mineHeld(rpc)
    }
  })

  test('an approval sent by another address (a relayer, a bundler): its nonce says nothing, never resumed', async () => {
    const before = await h.funds()
    const done = await executeSwap(h.swapClient(), {
      ...clientsOf(h.wallet()),
      token0: h.address('TKA'),
      token1: h.address('TKB'),
      amountIn,
      minAmountOut: 1n,
      trustedAddresses: trusted(),
      storage: false,
      approval: 'infinite',
      floorEnforcement: h.floorEnforcement,
    })
    expect(done.receipt.status).toBe('success')
    const relayed = await h.fixture.deployerClient.sendTransaction({
      to: h.fixture.accounts.deployer.address,
      value: 0n,
    })
    await h.fixture.publicClient.waitForTransactionReceipt({ hash: relayed })
    const storage = createMemoryStorage()
    const record = await recordOf(storage, { approvalHash: relayed })
    const library = await afterReload()
    const wallet = h.wallet()
    expect(await library.checkPendingSwap(clientsOf(wallet), record)).toEqual({ status: 'unknown' })
    expect(
      await library.resumeSwap(h.swapClient(), {
        ...clientsOf(wallet),
        record,
        minAmountOut: BigInt(record.minAmountOut),
        floorEnforcement: h.floorEnforcement,
        storage,
        trustedAddresses: trusted(),
      }),
    ).toEqual({ resumed: 'nothing', status: 'unknown' })
    expect(wallet.sendRequests()).toHaveLength(0)
    expect(before.TKA - (await h.funds()).TKA).toBe(amountIn)
    await h.approve('TKA', 0n)
  })

  test('a mined swap to a router the record no longer names (a later resume wrote another one): confirmed from its receipt', async () => {
    const before = await h.funds()
    const storage = createMemoryStorage()
    const wallet = h.wallet()
    const page = startSwap(walletDyingAtSwap(wallet), storage, { approval: 'infinite' })
    const record = await recordAt(page, storage, 'approved')
    await until(page, 'the swap mined', async () => (await h.nonce()) === before.nonce + 2)
    // What a resume in between leaves when its prompt is rejected: the fresh quote's router.
    const rewritten = { ...record, router: h.fixture.revertingRouter }
    await savePendingSwap(storage, rewritten)
    const library = await afterReload()
    // Without any trusted address: token0 leaving the account is the swap.
    const checked = await library.checkPendingSwap(clientsOf(wallet), rewritten)
    expect(checked.status).toBe('confirmed')
    expect(checked.receipt?.to).toBe(h.fixture.router.toLowerCase())
    const resumed = await library.resumeSwap(h.swapClient(), {
      ...clientsOf(wallet),
      record: rewritten,
      minAmountOut: BigInt(rewritten.minAmountOut),
      floorEnforcement: h.floorEnforcement,
      storage,
      trustedAddresses: {
        [h.fixture.chain.id]: [h.fixture.router, h.fixture.spender, h.fixture.revertingRouter],
      },
    })
    expect(resumed).toMatchObject({ resumed: 'settled', status: 'confirmed' })
    expect(before.TKA - (await h.funds()).TKA).toBe(amountIn)
    expect(await getPendingSwaps(storage)).toHaveLength(0)
    await h.approve('TKA', 0n)
  })
})

describe('a record written before its approval’s hash, and a pinned send that loses its nonce', () => {
  test('a transaction of the account shows up between the check and the send: nothing sent, nothing revoked, the record kept', async () => {
    const before = await h.funds()
    const storage = createMemoryStorage()
    const approvalHash = await h.approve('TKA', amountIn)
    const record = await recordOf(storage, { step: 'approved', approvalHash })
    // The wallet's own count: as the chain's for the scan, one more at the check before the send.
    const wallet = h.wallet()
    let reads = 0
    const moving = {
      request: async (args: { method: string; params?: unknown }) => {
        const answer = await wallet.provider.request(args as never)
        if (args.method === 'eth_getTransactionCount' && reads++ > 0) return numberToHex(Number(answer) + 1)
        return answer
      },
    } as EIP1193Provider
    const library = await afterReload()
    expect(
      await library.resumeSwap(h.swapClient(), {
        ...clientsOf(moving),
        record,
        minAmountOut: BigInt(record.minAmountOut),
        floorEnforcement: h.floorEnforcement,
        storage,
        trustedAddresses: trusted(),
        revokeOnFailure: true,
      }),
    ).toEqual({ resumed: 'nothing', status: 'pending' })
    expect(reads).toBe(2)
    expect(wallet.sendRequests()).toHaveLength(0)
    expect(await getPendingSwaps(storage)).toEqual([record])
    expect((await h.funds()).nonce).toBe(before.nonce + 1) // the approval only
    await h.approve('TKA', 0n)
  })

  /** The reset (approve 0) of a USDT-style flow, mined and recorded; the approval's hash never written. */
  async function resetOnlyRecord(storage: SwapStorage) {
    const { userClient, publicClient } = h.fixture
    const resetHash = await userClient.writeContract({
      address: h.address('TKA'),
      abi: erc20Abi,
      functionName: 'approve',
      args: [h.fixture.spender, 0n],
    })
    await publicClient.waitForTransactionReceipt({ hash: resetHash })
    return recordOf(storage, { step: 'approving', resetHash })
  }

  test('the reset is recorded, the approval and the swap were mined unrecorded: confirmed, never dropped, nothing sent', async () => {
    const before = await h.funds()
    const storage = createMemoryStorage()
    const record = await resetOnlyRecord(storage)
    // The approval and the swap went out after the reset, their hashes never written.
    const done = await executeSwap(h.swapClient(), {
      ...clientsOf(h.wallet()),
      token0: h.address('TKA'),
      token1: h.address('TKB'),
      amountIn,
      minAmountOut: 1n,
      trustedAddresses: trusted(),
      storage: false,
      floorEnforcement: h.floorEnforcement,
    })
    expect(done.receipt.status).toBe('success')
    const library = await afterReload()
    const wallet = h.wallet()
    expect((await library.checkPendingSwap(clientsOf(wallet), record)).status).toBe('confirmed')
    expect(
      await library.resumeSwap(h.swapClient(), {
        ...clientsOf(wallet),
        record,
        minAmountOut: BigInt(record.minAmountOut),
        floorEnforcement: h.floorEnforcement,
        storage,
        trustedAddresses: trusted(),
      }),
    ).toMatchObject({ resumed: 'settled', status: 'confirmed' })
    expect(wallet.sendRequests()).toHaveLength(0)
    expect(await getPendingSwaps(storage)).toEqual([])
    expect(before.TKA - (await h.funds()).TKA).toBe(amountIn)
  })

  test('the reset is recorded and the approval mined unrecorded, no swap: resumable, one swap', async () => {
    const before = await h.funds()
    const storage = createMemoryStorage()
    const record = await resetOnlyRecord(storage)
    await h.approve('TKA', amountIn) // the approval the page sent before it died
    const library = await afterReload()
    const wallet = h.wallet()
    expect((await library.checkPendingSwap(clientsOf(wallet), record)).status).toBe('resumable')
    expect(
      await library.resumeSwap(h.swapClient(), {
        ...clientsOf(wallet),
        record,
        minAmountOut: BigInt(record.minAmountOut),
        floorEnforcement: h.floorEnforcement,
        storage,
        trustedAddresses: trusted(),
      }),
    ).toMatchObject({ resumed: 'swapped' })
    expect(wallet.sendRequests()).toHaveLength(1)
    expect(before.TKA - (await h.funds()).TKA).toBe(amountIn)
  })

  test('the swap sent before the reload takes the pinned nonce as the resume sends: settled confirmed, paid once, nothing revoked', async () => {
    const before = await h.funds()
    const storage = createMemoryStorage()
    const approvalHash = await h.approve('TKA', amountIn)
    const record = await recordOf(storage, { step: 'approved', approvalHash })
    // The first page's swap, signed before the reload, reaches the chain just as the resumed one is
    // sent: the resumed one, at the same nonce, is refused by the node ("nonce too low").
    const wallet = h.wallet()
    const { userClient, publicClient } = h.fixture
    const token0 = h.address('TKA')
    const token1 = h.address('TKB')
    const original = h.market.quote({ token0, token1, amountIn })
    let raced = false
    const racing = {
      request: async (args: { method: string; params?: unknown }) => {
        if (args.method === 'eth_sendTransaction' && !raced) {
          raced = true
          const block = await publicClient.getBlock()
          const hash = await userClient.sendTransaction({
            to: h.fixture.router,
            data: encodeFunctionData({
              abi: swapRouterAbi,
              functionName: 'swap',
              args: [
                original?.path ?? [],
                amountIn,
                1n,
                h.fixture.accounts.user.address,
                block.timestamp + 600n,
              ],
            }),
          })
          await publicClient.waitForTransactionReceipt({ hash })
        }
        return wallet.provider.request(args as never)
      },
    } as EIP1193Provider
    const library = await afterReload()
    const resumed = await library.resumeSwap(h.swapClient(), {
      ...clientsOf(racing),
      record,
      minAmountOut: BigInt(record.minAmountOut),
      floorEnforcement: h.floorEnforcement,
      storage,
      trustedAddresses: trusted(),
      revokeOnFailure: true,
    })
    expect(resumed).toMatchObject({ resumed: 'settled', status: 'confirmed' })
    const after = await h.funds()
    expect(before.TKA - after.TKA).toBe(amountIn) // paid once
    expect(after.nonce).toBe(before.nonce + 2) // the approval and the first page's swap: no revoke
    expect(await getPendingSwaps(storage)).toEqual([])
  })
})

/**
 * A node that has not seen the account's unmined transactions (pending = latest, unmined
 * unknown); `fail` picks requests it answers with an error (a rate limit).
 */
function blindNode(fail?: (method: string, params: unknown) => boolean) {
  const forward = jsonRpc(h.fixture.rpcUrl)
  return createPublicClient({
    chain: h.fixture.chain,
    pollingInterval: 50,
    transport: custom({
      request: async ({ method, params }) => {
        if (fail?.(method, params)) throw Object.assign(new Error('rate limited'), { code: 429 })
        const [address, tag] = (params ?? []) as [string, string]
        if (method === 'eth_getTransactionCount' && tag === 'pending')
          return forward(method, [address, 'latest'])
        if (method === 'eth_getTransactionByHash') {
          const transaction = (await forward(method, params)) as { blockNumber?: unknown } | null
          return transaction?.blockNumber ? transaction : null
        }
        return forward(method, params)
      },
    }),
  }) as PublicClient
}

/** The router's swap of amountIn TKA → TKB for the user (the deadline varies the calldata; an unreachable minOut makes it revert). */
async function swapData(deadlineExtra: bigint, minOut = 1n) {
  const quote = h.market.quote({ token0: h.address('TKA'), token1: h.address('TKB'), amountIn })
  const block = await h.fixture.publicClient.getBlock()
  return encodeFunctionData({
    abi: swapRouterAbi,
    functionName: 'swap',
    args: [
      quote?.path ?? [],
      amountIn,
      minOut,
      h.fixture.accounts.user.address,
      block.timestamp + 600n + deadlineExtra,
    ],
  })
}

describe('a recorded swap that no node knows, or that another took the nonce of', () => {
  test('resuming a swapping record whose swap is replaced at its nonce by the swap sent before the reload: confirmed, not dropped', async () => {
    const rpc = jsonRpc(h.fixture.rpcUrl)
    const user = h.fixture.accounts.user.address
    const before = await h.funds()
    const approvalHash = await h.approve('TKA', amountIn)
    const nonce = numberToHex(await h.nonce())
    const gasPrice = await h.fixture.publicClient.getGasPrice()
    const storage = createMemoryStorage()
    await rpc('evm_setAutomine', [false])
    let result: unknown
    try {
      // S2, a resumed swap, recorded at 'swapping' (the resuming page then reloaded).
      const s2 = (await rpc('eth_sendTransaction', [
        {
          from: user,
          to: h.fixture.router,
          data: await swapData(1n),
          nonce,
          gas: '0x100000',
          gasPrice: numberToHex(gasPrice),
        },
      ])) as Hex
      const record = await recordOf(storage, { step: 'swapping', approvalHash, swapHash: s2 })
      const library = await afterReload()
      // The resuming page's node, whose reads show when the resume is waiting for S2.
      const forward = jsonRpc(h.fixture.rpcUrl)
      const reads: string[] = []
      // The worst order: after the resume's first read of S2, every other read of it waits until S1
      // has replaced it, so the wait never sees S2 (viem's own replacement check needs to have).
      let replaced: () => void = () => {}
      const afterReplacement = new Promise<void>((resolve) => {
        replaced = resolve
      })
      const publicClient = createPublicClient({
        chain: h.fixture.chain,
        pollingInterval: 50,
        transport: custom({
          request: async ({ method, params }) => {
            if (method === 'eth_getTransactionByHash' && reads.includes(method)) await afterReplacement
            reads.push(method)
            return forward(method, params)
          },
        }),
      }) as PublicClient
      const running = library
        .resumeSwap(h.swapClient(), {
          ...clientsOf(h.wallet(), publicClient),
          record,
          minAmountOut: BigInt(record.minAmountOut),
          floorEnforcement: h.floorEnforcement,
          storage,
          trustedAddresses: trusted(),
        })
        .then(
          (value) => (result = value),
          (error) => (result = error),
        )
      await h.until('the resume waits for S2', () => reads.includes('eth_getTransactionByHash'))
      // S1, the swap signed before the first reload, reaches the chain at the same nonce.
      await rpc('eth_sendTransaction', [
        {
          from: user,
          to: h.fixture.router,
          data: await swapData(2n),
          nonce,
          gas: '0x100000',
          gasPrice: numberToHex(gasPrice * 2n),
        },
      ])
      await rpc('evm_mine', [])
      replaced()
      await running
    } finally {
      await mineHeld(rpc)
    }
    expect(result).toMatchObject({ resumed: 'settled', status: 'confirmed' })
    expect(before.TKA - (await h.funds()).TKA).toBe(amountIn)
    expect(await getPendingSwaps(storage)).toEqual([])
  })

  test('a swap with no approval before it, shown only by the wallet’s node: never dropped, kept', async () => {
    const rpc = jsonRpc(h.fixture.rpcUrl)
    const before = await h.funds()
    await h.approve('TKA', parseEther('1000'))
    const storage = createMemoryStorage()
    const wallet = h.wallet()
    try {
      await rpc('evm_setAutomine', [false])
      const page = startSwap(wallet.walletClient, storage)
      const record = await recordAt(page, storage, 'swapping')
      const library = await afterReload()
      const clients = clientsOf(wallet, blindNode())
      // The page's node shows nothing; the wallet's shows the account's transaction pending at the
      // swap's nonce: in flight, never dropped.
      expect((await library.checkPendingSwap(clients, record)).status).toBe('pending')
      expect((await library.settlePendingSwaps({ ...clients, storage })).map(({ status }) => status)).toEqual(
        ['pending'],
      )
      expect(await getPendingSwaps(storage)).toHaveLength(1)
      await mineHeld(rpc)
      expect(before.TKA - (await h.funds()).TKA).toBe(amountIn)
    } finally {
      await mineHeld(rpc)
      await h.approve('TKA', 0n)
    }
  })

  test('a swapping record whose swap no node knows, nothing after its approval: unknown, never offered for resume', async () => {
    const approvalHash = await h.approve('TKA', amountIn)
    const storage = createMemoryStorage()
    const record = await recordOf(storage, {
      step: 'swapping',
      approvalHash,
      swapHash: `0x${'cd'.repeat(32)}`,
    })
    const library = await afterReload()
    const wallet = h.wallet()
    expect((await library.checkPendingSwap(clientsOf(wallet), record)).status).toBe('unknown')
    expect(wallet.sendRequests()).toHaveLength(0)
    await h.approve('TKA', 0n)
  })
})

describe('a reverted call, and a read that fails, settle nothing', () => {
  test('a reverted router call after the approval, the swap pending where the page cannot see it: nothing settled reverted, both records kept', async () => {
    const rpc = jsonRpc(h.fixture.rpcUrl)
    const user = h.fixture.accounts.user.address
    const before = await h.funds()
    const approvalHash = await h.approve('TKA', amountIn)
    // Another tab's call to the same router, reverted (its floor unreachable), mined.
    const call = (await rpc('eth_sendTransaction', [
      { from: user, to: h.fixture.router, data: await swapData(0n, 2n ** 200n), gas: '0x100000' },
    ])) as Hex
    expect((await h.fixture.publicClient.waitForTransactionReceipt({ hash: call })).status).toBe('reverted')
    const storage = createMemoryStorage()
    await rpc('evm_setAutomine', [false])
    try {
      // This record's swap, held by the wallet's node only, not mined yet.
      const swapHash = (await rpc('eth_sendTransaction', [
        { from: user, to: h.fixture.router, data: await swapData(1n), gas: '0x100000' },
      ])) as Hex
      const swapping = await recordOf(storage, { step: 'swapping', approvalHash, swapHash })
      const approved = await recordOf(storage, { step: 'approved', approvalHash })
      const library = await afterReload()
      const clients = clientsOf(withoutNonceRead(h.wallet()), blindNode())
      expect((await library.checkPendingSwap(clients, swapping)).status).toBe('unknown')
      // Resumable at the nonce the swap holds: a resumed swap could only replace it.
      expect(await library.checkPendingSwap(clients, approved)).toMatchObject({ status: 'resumable' })
      const settled = await library.settlePendingSwaps({ ...clients, storage, trustedAddresses: trusted() })
      expect(settled.map(({ status }) => status).sort()).toEqual(['resumable', 'unknown'])
      expect(await getPendingSwaps(storage)).toHaveLength(2)
      await mineHeld(rpc)
      expect(before.TKA - (await h.funds()).TKA).toBe(amountIn)
    } finally {
      await mineHeld(rpc)
      await h.approve('TKA', 0n)
    }
  })

  test('one record’s read fails: the call fails and no record is removed, so no settled outcome goes unreported', async () => {
    const rpc = jsonRpc(h.fixture.rpcUrl)
    const user = h.fixture.accounts.user.address
    const approvalHash = await h.approve('TKA', amountIn)
    const reverted = (await rpc('eth_sendTransaction', [
      { from: user, to: h.fixture.router, data: await swapData(0n, 2n ** 200n), gas: '0x100000' },
    ])) as Hex
    await h.fixture.publicClient.waitForTransactionReceipt({ hash: reverted })
    const storage = createMemoryStorage()
    const first = await recordOf(storage, { step: 'swapping', approvalHash, swapHash: reverted })
    const flaky = `0x${'ef'.repeat(32)}` as Hex
    const second = await recordOf(storage, { step: 'swapping', approvalHash, swapHash: flaky })
    const library = await afterReload()
    const failing = blindNode(
      (method, params) => method === 'eth_getTransactionReceipt' && (params as Hex[])[0] === flaky,
    )
    const error = await library
      .settlePendingSwaps({ ...clientsOf(h.wallet(), failing), storage, trustedAddresses: trusted() })
      .catch((e: unknown) => e)
    expect(error).toMatchObject({ name: 'WalletError' })
    expect((await getPendingSwaps(storage)).map(({ id }) => id).sort()).toEqual([first.id, second.id].sort())
    // Once the node answers, the reverted swap is settled and reported.
    const settled = await library.settlePendingSwaps({
      ...clientsOf(h.wallet()),
      storage,
      trustedAddresses: trusted(),
    })
    expect(settled.find(({ record }) => record.id === first.id)?.status).toBe('reverted')
    await h.approve('TKA', 0n)
  })
})

describe('a record whose swap may have gone through is never erased', () => {
  test('an approval sped up while the page was closed: unknown while the allowance stands, kept', async () => {
    const rpc = jsonRpc(h.fixture.rpcUrl)
    const user = h.fixture.accounts.user.address
    const data = encodeFunctionData({
      abi: erc20Abi,
      functionName: 'approve',
      args: [h.fixture.spender, amountIn],
    })
    const nonce = numberToHex(await h.nonce())
    const gasPrice = await h.fixture.publicClient.getGasPrice()
    const send = (price: bigint) =>
      rpc('eth_sendTransaction', [
        { from: user, to: h.address('TKA'), data, nonce, gas: '0x20000', gasPrice: numberToHex(price) },
      ]) as Promise<Hex>
    let original: Hex
    await rpc('evm_setAutomine', [false])
    try {
      original = await send(gasPrice)
      await send(gasPrice * 2n)
      await rpc('evm_mine', [])
    } finally {
      await rpc('evm_setAutomine', [true])
    }
    expect(await h.allowance('TKA')).toBe(amountIn)
    const storage = createMemoryStorage()
    const record = await recordOf(storage, { step: 'approving', approvalHash: original })
    const library = await afterReload()
    const wallet = h.wallet()
    expect(await library.checkPendingSwap(clientsOf(wallet), record)).toEqual({ status: 'unknown' })
    const settled = await library.settlePendingSwaps({ ...clientsOf(wallet), storage })
    expect(settled.map((item) => item.status)).toEqual(['unknown'])
    expect(await getPendingSwaps(storage)).toHaveLength(1)
    // Not waited for until the receipt wait runs out: nothing sent, the record kept.
    expect(
      await library.resumeSwap(h.swapClient(), {
        ...clientsOf(wallet),
        record,
        minAmountOut: BigInt(record.minAmountOut),
        floorEnforcement: h.floorEnforcement,
        storage,
        trustedAddresses: trusted(),
      }),
    ).toEqual({ resumed: 'nothing', status: 'unknown' })
    expect(wallet.sendRequests()).toHaveLength(0)
    expect(await getPendingSwaps(storage)).toHaveLength(1)
    await h.approve('TKA', 0n)
  })

  test('a scan that cannot read the chain stays unknown once the allowance is spent (not dropped)', async () => {
    const before = await h.funds()
    const storage = createMemoryStorage()
    const wallet = h.wallet()
    const page = startSwap(walletDyingAtSwap(wallet), storage)
    const record = await recordAt(page, storage, 'approved')
    await until(page, 'the swap mined', async () => (await h.nonce()) === before.nonce + 2)
    expect(await h.allowance('TKA')).toBe(0n)
    const library = await afterReload()
    // A node without the old state: the transactions after the approval cannot be read.
    const clients = clientsOf(wallet, otherNode({ pruned: true }))
    expect(await library.checkPendingSwap(clients, record)).toEqual({ status: 'unknown' })
    const settled = await library.settlePendingSwaps({ ...clients, storage })
    expect(settled.map((item) => item.status)).toEqual(['unknown'])
    expect(await getPendingSwaps(storage)).toHaveLength(1)
  })

  test('a batch the wallet cannot report (no wallet_getCallsStatus): unknown, kept', async () => {
    const storage = createMemoryStorage()
    const record = await recordOf(storage, {
      step: 'batching',
      batchId: `0x${'ab'.repeat(32)}`,
    })
    const library = await afterReload()
    const wallet = h.wallet()
    expect(await library.checkPendingSwap(clientsOf(wallet), record)).toEqual({ status: 'unknown' })
    const settled = await library.settlePendingSwaps({ ...clientsOf(wallet), storage })
    expect(settled.map((item) => item.status)).toEqual(['unknown'])
    expect(
      await library.resumeSwap(h.swapClient(), {
        ...clientsOf(wallet),
        record,
        minAmountOut: BigInt(record.minAmountOut),
        floorEnforcement: h.floorEnforcement,
        storage,
        trustedAddresses: trusted(),
      }),
    ).toEqual({ resumed: 'nothing', status: 'unknown' })
    expect(await getPendingSwaps(storage)).toHaveLength(1)
  })
})

describe('a record rewritten in storage pays nothing away', () => {
  test('to = another address and a 1-wei floor: the resumed swap pays the account, at the floor the caller confirms', async () => {
    const storage = createMemoryStorage()
    const attacker = h.fixture.accounts.recipient.address
    const approvalHash = await h.approve('TKA', amountIn)
    // What anything on the page could write: the output to another address, almost no floor.
    const record = await recordOf(storage, {
      step: 'approved',
      approvalHash,
      to: attacker,
      minAmountOut: '1',
    })
    const quote = h.market.quote({ token0: h.address('TKA'), token1: h.address('TKB'), amountIn })
    if (!quote) throw new Error('no route')
    const before = { user: await h.balance('TKB'), attacker: await h.balance('TKB', attacker) }
    const library = await afterReload()
    const wallet = h.wallet()

    // Without a floor confirmed now, nothing is sent.
    await expect(
      library.resumeSwap(h.swapClient(), {
        ...clientsOf(wallet),
        record,
        storage,
        trustedAddresses: trusted(),
      }),
    ).rejects.toMatchObject({ name: 'InvalidParameterError', parameter: 'minAmountOut' })
    expect(wallet.sendRequests()).toHaveLength(0)

    // With the floor the user confirms (1% under a fresh quote) and no recipient: paid to the account.
    const minAmountOut = (quote.amountOut * 99n) / 100n
    const resumed = await library.resumeSwap(h.swapClient(), {
      ...clientsOf(wallet),
      record,
      minAmountOut,
      storage,
      trustedAddresses: trusted(),
    })
    expect(resumed).toMatchObject({ resumed: 'swapped' })
    expect(await h.balance('TKB', attacker)).toBe(before.attacker)
    expect((await h.balance('TKB')) - before.user).toBe(quote.amountOut)
  })
})
