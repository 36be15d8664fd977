import type { Hex } from 'viem'
import { describe, expect, test } from 'vitest'
import { type JournalEntry, type JournalView, journalFromView, viewOf } from './journal.js'
import {
  createMemoryStorage,
  getPendingSwaps,
  isPendingSwap,
  journalOf,
  type PendingSwap,
  savePendingSwap,
  withJournal,
} from './pendingSwaps.js'

const hash = (byte: string) => `0x${byte.repeat(32)}` as Hex
const [reset, approval, swap] = [hash('aa'), hash('bb'), hash('cc')]
const e = (step: JournalEntry['step'], event: JournalEntry['event'], extra: Partial<JournalEntry> = {}) =>
  ({ step, event, at: 0, ...extra }) as JournalEntry

describe('the journal in 0.1.0’s terms (a record’s step and hashes)', () => {
  test.each([
    ['an approval being sent', [e('approve', 'sending')], { step: 'approving' }],
    [
      'an approval sent',
      [e('approve', 'sent', { hash: approval })],
      { step: 'approving', approvalHash: approval },
    ],
    [
      'an approval mined (sped up: the mined hash)',
      [e('approve', 'sent', { hash: approval }), e('approve', 'mined', { hash: swap })],
      { step: 'approved', approvalHash: swap },
    ],
    [
      'a swap being sent after the approval: not sent yet',
      [e('approve', 'mined', { hash: approval }), e('swap', 'sending')],
      { step: 'approved', approvalHash: approval },
    ],
    [
      'a swap rejected: not sent',
      [e('approve', 'mined', { hash: approval }), e('swap', 'sending'), e('swap', 'rejected')],
      { step: 'approved', approvalHash: approval },
    ],
    [
      'a swap sent',
      [e('approve', 'mined', { hash: approval }), e('swap', 'sent', { hash: swap })],
      { step: 'swapping', approvalHash: approval, swapHash: swap },
    ],
    ['a swap with no approval, being sent', [e('swap', 'sending')], { step: 'approved' }],
    ['a reset sent', [e('reset', 'sent', { hash: reset })], { step: 'approving', resetHash: reset }],
    [
      'a batch sent',
      [e('batch', 'sending'), e('batch', 'sent', { batchId: 'b1' })],
      { step: 'batching', batchId: 'b1' },
    ],
  ] as const)('%s', (_, journal, view) => {
    expect(viewOf(journal as unknown as JournalEntry[])).toEqual({
      resetHash: undefined,
      approvalHash: undefined,
      swapHash: undefined,
      batchId: undefined,
      ...view,
    })
  })

  // A 0.1.0 record's step and hashes, read as a journal, say the same step and hashes again.
  test.each<[string, JournalView]>([
    ['approving, approval sent', { step: 'approving', approvalHash: approval }],
    ['approving, reset sent', { step: 'approving', resetHash: reset }],
    [
      'approving, reset mined and approval sent',
      { step: 'approving', resetHash: reset, approvalHash: approval },
    ],
    ['approved', { step: 'approved', approvalHash: approval }],
    ['approved after a reset', { step: 'approved', resetHash: reset, approvalHash: approval }],
    ['swapping', { step: 'swapping', approvalHash: approval, swapHash: swap }],
    ['batching', { step: 'batching', batchId: 'b1' }],
  ])('a 0.1.0 record at %s', (_, view) => {
    expect(viewOf(journalFromView(view, 0))).toEqual({
      resetHash: undefined,
      approvalHash: undefined,
      swapHash: undefined,
      batchId: undefined,
      ...view,
    })
  })
})

describe('records stored by 0.1.0', () => {
  const v1: PendingSwap = {
    id: 'old',
    version: 1,
    chainId: 1,
    account: '0x00000000000000000000000000000000000000e5',
    baseUrl: 'https://swap.test',
    token0: '0x00000000000000000000000000000000000000a1',
    token1: '0x00000000000000000000000000000000000000b2',
    amountIn: '100',
    to: '0x00000000000000000000000000000000000000e5',
    minAmountOut: '90',
    step: 'approved',
    approvalHash: approval,
    createdAt: 1,
    updatedAt: 2,
  }

  test('are read, and their journal is the one their step describes', async () => {
    const storage = createMemoryStorage()
    await savePendingSwap(storage, v1)
    const [read] = await getPendingSwaps(storage)
    expect(read).toEqual(v1)
    expect(journalOf(v1)).toEqual([{ step: 'approve', event: 'mined', hash: approval, at: 2 }])
  })

  test('are upgraded to version 2 when written again, step and hashes kept', async () => {
    const upgraded = withJournal(v1, [...journalOf(v1), e('swap', 'sent', { hash: swap })])
    expect(upgraded).toMatchObject({ version: 2, step: 'swapping', approvalHash: approval, swapHash: swap })
    expect(isPendingSwap(upgraded)).toBe(true)
  })

  test('another version, or a journal that is not one, is not a record: left untouched in storage', async () => {
    const storage = createMemoryStorage()
    const future = { ...v1, id: 'future', version: 3 }
    const broken = { ...v1, id: 'broken', version: 2, journal: [{ step: 'fly', event: 'sent' }] }
    storage.setItem('token-swap-hooks:pending-swaps', JSON.stringify([future, broken]))
    expect(await getPendingSwaps(storage)).toEqual([])
    await savePendingSwap(storage, v1)
    const stored = JSON.parse(storage.getItem('token-swap-hooks:pending-swaps') as string) as unknown[]
    expect(stored).toEqual([future, broken, v1])
  })
})
