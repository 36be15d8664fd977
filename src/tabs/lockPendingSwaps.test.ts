import { createPublicClient, createWalletClient, custom } from 'viem'
import { privateKeyToAccount } from 'viem/accounts'
import { mainnet } from 'viem/chains'
import { afterEach, describe, expect, test } from 'vitest'
import { createFakeBrowser, sleep } from '../../test/fakeTabs.js'
import { createSwapClient } from '../core/client.js'
import { SwapInProgressError } from '../core/errors/execute.js'
import { claimPendingSwap, isPendingSwapRunning } from '../core/execute/records/claims.js'
import {
  createMemoryStorage,
  type PendingSwap,
  savePendingSwap,
} from '../core/execute/records/pendingSwaps.js'
import { resumeSwap } from '../core/execute/resumeSwap.js'
import { claimAcrossTabs, lockPendingSwapsAcrossTabs } from './lockPendingSwaps.js'

const uninstalls: (() => void)[] = []
afterEach(() => {
  for (const uninstall of uninstalls.splice(0)) uninstall()
})

/** A released lock is free once the lock manager has heard of it (as a task, in a browser too). */
const released = () => sleep(20)

describe('a recorded swap is run by one tab at a time', () => {
  test('the record’s lock: a second tab is refused until the first releases it or closes', async () => {
    const browser = createFakeBrowser()
    const a = browser.tab()
    const b = browser.tab()
    const release = await claimAcrossTabs(a.environment.locks, 'record-1')
    expect(release).toBeTypeOf('function')
    expect(await claimAcrossTabs(b.environment.locks, 'record-1')).toBeUndefined()
    release?.()
    await released()
    const second = await claimAcrossTabs(b.environment.locks, 'record-1')
    expect(second).toBeTypeOf('function')
    second?.()
    // A tab that dies holding the lock lets it go (the browser releases a closed tab's locks).
    await claimAcrossTabs(a.environment.locks, 'record-2')
    expect(await claimAcrossTabs(b.environment.locks, 'record-2')).toBeUndefined()
    a.close()
    await released()
    expect(await claimAcrossTabs(b.environment.locks, 'record-2')).toBeTypeOf('function')
  })

  test('claimPendingSwap takes the record’s lock too once the tabs entry installs it', async () => {
    const browser = createFakeBrowser()
    const page = browser.tab()
    const otherTab = browser.tab()
    uninstalls.push(lockPendingSwapsAcrossTabs(page.environment.locks))
    // Another tab runs record-3: this page's claim is refused, and leaves no trace.
    const elsewhere = await claimAcrossTabs(otherTab.environment.locks, 'record-3')
    expect(await claimPendingSwap('record-3')).toBeUndefined()
    expect(isPendingSwapRunning('record-3')).toBe(false)
    elsewhere?.()
    await released()
    const release = await claimPendingSwap('record-3')
    expect(isPendingSwapRunning('record-3')).toBe(true)
    // The other tab is refused in turn while this page runs it.
    expect(await claimAcrossTabs(otherTab.environment.locks, 'record-3')).toBeUndefined()
    release?.()
    expect(isPendingSwapRunning('record-3')).toBe(false)
    await released()
    expect(await claimAcrossTabs(otherTab.environment.locks, 'record-3')).toBeTypeOf('function')
  })

  test('without the tabs entry, claimPendingSwap is the page’s claim alone', async () => {
    const browser = createFakeBrowser()
    const otherTab = browser.tab()
    const uninstall = lockPendingSwapsAcrossTabs(browser.tab().environment.locks)
    uninstall()
    await claimAcrossTabs(otherTab.environment.locks, 'record-4')
    const release = await claimPendingSwap('record-4')
    expect(release).toBeTypeOf('function')
    // The page's own claim still refuses a second run in this page.
    expect(await claimPendingSwap('record-4')).toBeUndefined()
    release?.()
  })

  test('a resume of a record another tab runs is refused before anything is asked of the node or the wallet', async () => {
    const browser = createFakeBrowser()
    const page = browser.tab()
    const otherTab = browser.tab()
    uninstalls.push(lockPendingSwapsAcrossTabs(page.environment.locks))
    const asked: string[] = []
    const transport = custom({
      request: async ({ method }: { method: string }) => {
        asked.push(method)
        throw new Error(`not expected: ${method}`)
      },
    })
    const account = privateKeyToAccount('0x59c6995e998f97a5a0044966f0945389dc9e86dae88c7a8412f4603b6b78690d')
    const walletClient = createWalletClient({ account, chain: mainnet, transport })
    const publicClient = createPublicClient({ chain: mainnet, transport })
    const client = createSwapClient({ baseUrl: 'https://swap.test' })
    const record: PendingSwap = {
      id: 'record-5',
      version: 2,
      chainId: mainnet.id,
      account: account.address,
      baseUrl: client.baseUrl,
      token0: '0xC02aaA39b223FE8D0A0e5C4F27eAD9083C756Cc2',
      token1: '0xA0b86991c6218b36c1d19D4a2e9Eb0cE3606eB48',
      amountIn: '1000',
      to: account.address,
      minAmountOut: '1',
      step: 'approved',
      journal: [{ step: 'approve', event: 'mined', hash: `0x${'1'.repeat(64)}`, at: 1 }],
      createdAt: 1,
      updatedAt: 1,
    }
    const storage = createMemoryStorage()
    await savePendingSwap(storage, record)
    await claimAcrossTabs(otherTab.environment.locks, record.id)
    const error = await resumeSwap(client, {
      walletClient,
      publicClient,
      record,
      minAmountOut: 1n,
      storage,
      dangerouslyTrustAnyAddress: true,
    }).catch((caught: unknown) => caught)
    expect(error).toBeInstanceOf(SwapInProgressError)
    expect(error).toMatchObject({ recordId: record.id })
    expect(asked).toEqual([])
    expect(isPendingSwapRunning(record.id)).toBe(false)
  })
})
