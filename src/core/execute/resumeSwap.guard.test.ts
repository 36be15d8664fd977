/**
 * Resume after a reload through the swap guard (the default): the approval
 * goes to the guard, the resumed swap through it; a guarded swap sent before
 * the reload is found on chain and never sent again. The resume logic itself
 * is tested in resumeSwap.test.ts and resumeSwap.funds.test.ts.
 */
import { parseEther } from 'viem'
import { describe, expect, test, vi } from 'vitest'
import { resumeKit } from '../../../test/evm/resumeKit.js'
import { setupSwapHarness } from '../../../test/evm/swapHarness.js'
import type { TestWallet } from '../../../test/evm/wallet.js'
import { swapGuardAddress } from './guard/swapGuard.js'
import { createMemoryStorage, getPendingSwaps, savePendingSwap } from './records/pendingSwaps.js'

const h = setupSwapHarness()
const amountIn = parseEther('10')
const { trusted, startSwap, until, recordAt, clientsOf, walletDyingAtSwap } = resumeKit(h, amountIn)

async function afterReload(wallet: TestWallet) {
  vi.resetModules()
  const [resume, settle] = await Promise.all([import('./resumeSwap.js'), import('./settlePendingSwaps.js')])
  return { clients: clientsOf(wallet), ...resume, ...settle }
}

const quoteOut = () =>
  h.market.quote({ token0: h.address('TKA'), token1: h.address('TKB'), amountIn })?.amountOut ?? 0n

describe('resume through the guard', () => {
  test('the guard’s approval mined, the page gone at the swap prompt: one swap, through the guard', async () => {
    const storage = createMemoryStorage()
    const before = await h.funds()
    const wallet = h.wallet({ hang: (method, count) => method === 'eth_sendTransaction' && count === 1 })
    const page = startSwap(wallet.walletClient, storage)
    const record = await recordAt(page, storage, 'approved')
    await until(page, 'the swap prompt', () => wallet.sendRequests().length === 2)
    expect(record).toMatchObject({ spender: swapGuardAddress, router: swapGuardAddress })
    expect(await h.allowance('TKA')).toBe(amountIn)

    const { clients, settlePendingSwaps, resumeSwap } = await afterReload(wallet)
    expect(await settlePendingSwaps({ ...clients, storage })).toMatchObject([{ status: 'resumable' }])
    const sent = wallet.sendRequests().length
    const result = await resumeSwap(h.swapClient(), {
      ...clients,
      record,
      minAmountOut: BigInt(record.minAmountOut),
      storage,
      trustedAddresses: trusted(),
    })
    expect(result).toMatchObject({ resumed: 'swapped', floorEnforcement: 'onchain' })
    const requests = wallet.sendRequests().slice(sent)
    expect(requests).toHaveLength(1)
    const [sentSwap] = (requests[0]?.params ?? []) as [{ to: string }]
    expect(sentSwap?.to.toLowerCase()).toBe(swapGuardAddress.toLowerCase())
    const after = await h.funds()
    expect(after.TKA).toBe(before.TKA - amountIn)
    expect(after.TKB).toBe(before.TKB + quoteOut())
    expect(after.allowance).toBe(0n)
    expect(after.nonce).toBe(before.nonce + 2)
    expect(await getPendingSwaps(storage)).toEqual([])
  })

  test('a guarded swap broadcast before the reload: confirmed from the chain, never sent again', async () => {
    const storage = createMemoryStorage()
    const before = await h.funds()
    const wallet = h.wallet()
    const page = startSwap(walletDyingAtSwap(wallet), storage)
    const record = await recordAt(page, storage, 'approved')
    await until(page, 'the swap mined', async () => (await h.nonce()) === before.nonce + 2)

    const { clients, settlePendingSwaps, resumeSwap } = await afterReload(wallet)
    const [checked] = await settlePendingSwaps({ ...clients, storage })
    expect(checked).toMatchObject({ status: 'confirmed' })
    expect(checked?.receipt?.to).toBe(swapGuardAddress.toLowerCase())
    const sent = wallet.sendRequests().length
    const again = await resumeSwap(h.swapClient(), {
      ...clients,
      record,
      minAmountOut: BigInt(record.minAmountOut),
      storage,
      trustedAddresses: trusted(),
    })
    // Settled and removed: the list a page still shows resumes nothing.
    expect(again).toEqual({ resumed: 'nothing', status: 'missing' })
    expect(wallet.sendRequests()).toHaveLength(sent)
    const after = await h.funds()
    expect(after.TKA).toBe(before.TKA - amountIn)
    expect(after.TKB).toBe(before.TKB + quoteOut())
  })

  test('a record of 0.1.0 (approval to the service’s spender) resumes through the guard: its approval, then the swap', async () => {
    const storage = createMemoryStorage()
    const approvalHash = await h.approve('TKA', amountIn, h.fixture.spender)
    const before = await h.funds()
    const record = {
      id: 'old-record',
      version: 1 as const,
      chainId: h.fixture.chain.id,
      account: h.fixture.accounts.user.address,
      baseUrl: h.swapClient().baseUrl,
      token0: h.address('TKA'),
      token1: h.address('TKB'),
      amountIn: amountIn.toString(),
      to: h.fixture.accounts.user.address,
      minAmountOut: ((quoteOut() * 99n) / 100n).toString(),
      spender: h.fixture.spender,
      router: h.fixture.router,
      step: 'approved' as const,
      approvalHash,
      createdAt: Date.now(),
      updatedAt: Date.now(),
    }
    await savePendingSwap(storage, record)
    const wallet = h.wallet()
    const { clients, resumeSwap } = await afterReload(wallet)
    const result = await resumeSwap(h.swapClient(), {
      ...clients,
      record,
      minAmountOut: BigInt(record.minAmountOut),
      storage,
      trustedAddresses: trusted(),
    })
    expect(result).toMatchObject({ resumed: 'swapped', floorEnforcement: 'onchain' })
    const after = await h.funds()
    expect(after.TKA).toBe(before.TKA - amountIn)
    expect(after.TKB).toBe(before.TKB + quoteOut())
    expect(after.nonce).toBe(before.nonce + 2) // the guard's approval, then the swap
    // The old approval to the spender is left as it was (the swap never used it).
    expect(await h.allowance('TKA', h.fixture.spender)).toBe(amountIn)
  })
})
