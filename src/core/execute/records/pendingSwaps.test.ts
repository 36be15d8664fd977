import { describe, expect, test } from 'vitest'
import {
  createMemoryStorage,
  getPendingSwaps,
  newPendingSwapId,
  type PendingSwap,
  removePendingSwap,
  type SwapStorage,
  savePendingSwap,
} from './pendingSwaps.js'

const key = 'token-swap-hooks:pending-swaps'
const address = (byte: string) => `0x${byte.repeat(20)}` as const

function recordOf(patch: Partial<PendingSwap> = {}): PendingSwap {
  return {
    id: newPendingSwapId(),
    version: 1,
    chainId: 1,
    account: address('11'),
    baseUrl: 'http://service',
    token0: address('22'),
    token1: address('33'),
    amountIn: '1',
    to: address('11'),
    minAmountOut: '1',
    step: 'approving',
    createdAt: 1,
    updatedAt: 1,
    ...patch,
  }
}

/** A memory storage whose next reads fail as told (`'throw'`) or answer `text`. */
function flakyStorage() {
  const inner = createMemoryStorage()
  const next: ('throw' | { text: string })[] = []
  const storage: SwapStorage = {
    getItem: (name) => {
      const read = next.shift()
      if (read === 'throw') throw new Error('storage busy')
      return read ? read.text : inner.getItem(name)
    },
    setItem: (name, value) => inner.setItem(name, value),
    removeItem: (name) => inner.removeItem(name),
  }
  return { storage, inner, next }
}

describe('a stored list that cannot be read is never overwritten', () => {
  const swapping = recordOf({ step: 'swapping', swapHash: `0x${'ab'.repeat(32)}` })

  test.each([
    ['a read that throws', 'throw' as const],
    ['text that is not JSON', { text: '{not json' }],
    ['JSON that is not a list', { text: '{"a":1}' }],
  ])('%s: save and remove reject, the other records stay; reads reject', async (_, read) => {
    const { storage, inner, next } = flakyStorage()
    await savePendingSwap(storage, swapping)
    const stored = inner.getItem(key)

    next.push(read)
    await expect(savePendingSwap(storage, recordOf())).rejects.toThrow()
    next.push(read)
    await expect(removePendingSwap(storage, swapping.id)).rejects.toThrow()
    next.push(read)
    await expect(getPendingSwaps(storage)).rejects.toThrow()

    expect(inner.getItem(key)).toBe(stored)
    expect(await getPendingSwaps(storage)).toEqual([swapping])
    // The next write, once the storage reads again, keeps it.
    const next2 = recordOf()
    await savePendingSwap(storage, next2)
    expect(await getPendingSwaps(storage)).toEqual([swapping, next2])
  })

  test('a missing key is an empty list', async () => {
    const storage = createMemoryStorage()
    expect(await getPendingSwaps(storage)).toEqual([])
    const record = recordOf()
    await savePendingSwap(storage, record)
    expect(await getPendingSwaps(storage)).toEqual([record])
  })

  test('entries this version does not read (another version’s) are kept by a write', async () => {
    const storage = createMemoryStorage()
    const foreign = { id: 'other', version: 2, step: 'somewhere' }
    storage.setItem(key, JSON.stringify([foreign]))
    const record = recordOf()
    await savePendingSwap(storage, record)
    expect(await getPendingSwaps(storage)).toEqual([record])
    await removePendingSwap(storage, record.id)
    expect(JSON.parse(storage.getItem(key) as string)).toEqual([foreign])
  })
})
