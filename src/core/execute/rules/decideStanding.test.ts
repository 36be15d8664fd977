import type { Hex, TransactionReceipt } from 'viem'
import { describe, expect, test } from 'vitest'
import type { JournalEntry } from '../records/journal.js'
import { decideStanding, type StandingFacts } from './decideStanding.js'

const hash = (byte: string) => `0x${byte.repeat(32)}` as Hex
const [reset, approval, swap, other] = [hash('aa'), hash('bb'), hash('cc'), hash('dd')]
const receipt = { transactionHash: swap } as TransactionReceipt
const e = (step: JournalEntry['step'], event: JournalEntry['event'], extra: Partial<JournalEntry> = {}) =>
  ({ step, event, at: 0, ...extra }) as JournalEntry

const approved = [
  e('approve', 'sending'),
  e('approve', 'sent', { hash: approval }),
  e('approve', 'mined', { hash: approval }),
]
const scanned = { status: 'none', nonce: 5 } as const

/**
 * One row per rule, most of them fixed after a review found a swap paid twice
 * or a record erased while its swap may have gone through: the journal, the
 * facts read so far, and what the decision is (or the fact it asks for next).
 */
const rows: [string, JournalEntry[], StandingFacts, ReturnType<typeof decideStanding>][] = [
  // An approval in flight.
  [
    'an approval sent: its receipt is read',
    [e('approve', 'sent', { hash: approval })],
    {},
    { need: 'transaction', hash: approval },
  ],
  [
    'an approval reverted',
    [e('approve', 'sent', { hash: approval })],
    { transaction: { status: 'reverted' } },
    { status: 'reverted' },
  ],
  [
    'an approval not mined yet',
    [e('approve', 'sent', { hash: approval })],
    { transaction: { status: 'pending' } },
    { status: 'pending' },
  ],
  [
    'an approval no node shows (sped up while the page was closed): unknown, never dropped',
    [e('approve', 'sent', { hash: approval })],
    { transaction: { status: 'dropped' } },
    { status: 'unknown' },
  ],
  [
    'an approval mined: what followed it is read',
    [e('approve', 'sent', { hash: approval })],
    { transaction: { status: 'success' } },
    { need: 'scan', start: approval },
  ],
  [
    'an approval never sent back a hash: nothing to settle',
    [e('approve', 'sending')],
    {},
    { status: 'dropped' },
  ],
  // After a mined approval.
  ['approved: the chain after it is scanned', approved, {}, { need: 'scan', start: approval }],
  [
    'approved, the swap found after it: confirmed',
    approved,
    { scan: { status: 'confirmed', receipt } },
    { status: 'confirmed', receipt },
  ],
  [
    'approved, a transaction after it pending: pending',
    approved,
    { scan: { status: 'pending' } },
    { status: 'pending' },
  ],
  [
    'approved, the scan cannot tell: unknown',
    approved,
    { scan: { status: 'unknown' } },
    { status: 'unknown' },
  ],
  ['approved, nothing after it: the allowance is read', approved, { scan: scanned }, { need: 'allowance' }],
  [
    'approved, nothing after it, the allowance covers the swap: resumable at the free nonce',
    approved,
    { scan: scanned, allowance: 100n },
    { status: 'resumable', nonce: 5 },
  ],
  [
    'approved, nothing after it, the allowance gone: dropped',
    approved,
    { scan: scanned, allowance: 99n },
    { status: 'dropped' },
  ],
  [
    'a reset recorded without its approval: read from the reset on',
    [e('reset', 'mined', { hash: reset })],
    { transaction: { status: 'success' } },
    { need: 'scan', start: reset },
  ],
  [
    'a reset sent: its own receipt first',
    [e('reset', 'sent', { hash: reset })],
    {},
    { need: 'transaction', hash: reset },
  ],
  [
    'the swap rejected after the approval: still resumable',
    [...approved, e('swap', 'sending'), e('swap', 'rejected')],
    { scan: scanned, allowance: 100n },
    { status: 'resumable', nonce: 5 },
  ],
  [
    'the swap being sent (no hash back) after the approval: read as the approval alone',
    [...approved, e('swap', 'sending')],
    {},
    { need: 'scan', start: approval },
  ],
  [
    'a pinned swap refused (its nonce may be taken): read as the approval alone',
    [...approved, e('swap', 'sending', { nonce: 5, pinned: true }), e('swap', 'unknown')],
    { scan: { status: 'confirmed', receipt } },
    { status: 'confirmed', receipt },
  ],
  // A swap sent.
  [
    'a swap sent: its receipt',
    [...approved, e('swap', 'sent', { hash: swap })],
    {},
    { need: 'transaction', hash: swap },
  ],
  [
    'a swap mined',
    [...approved, e('swap', 'sent', { hash: swap })],
    { transaction: { status: 'success', receipt } },
    { status: 'confirmed', receipt },
  ],
  [
    'a swap reverted',
    [...approved, e('swap', 'sent', { hash: swap })],
    { transaction: { status: 'reverted', receipt } },
    { status: 'reverted', receipt },
  ],
  [
    'a swap whose wait ran out, still pending',
    [...approved, e('swap', 'sent', { hash: swap }), e('swap', 'unknown', { hash: swap })],
    { transaction: { status: 'pending' } },
    { status: 'pending' },
  ],
  [
    'a swap no node shows: the chain after the approval',
    [...approved, e('swap', 'sent', { hash: swap })],
    { transaction: { status: 'dropped' } },
    { need: 'scan', start: approval },
  ],
  [
    'a swap no node shows, found after the approval (sent before a reload): confirmed',
    [...approved, e('swap', 'sent', { hash: swap })],
    { transaction: { status: 'dropped' }, scan: { status: 'confirmed', receipt } },
    { status: 'confirmed', receipt },
  ],
  [
    'a swap no node shows, nothing after the approval: unknown, never offered for resume',
    [...approved, e('swap', 'sent', { hash: swap })],
    { transaction: { status: 'dropped' }, scan: scanned },
    { status: 'unknown' },
  ],
  [
    'a swap replaced at its nonce: its own receipt decides first',
    [...approved, e('swap', 'sent', { hash: swap }), e('swap', 'replaced', { hash: other })],
    {},
    { need: 'transaction', hash: swap },
  ],
  [
    'a swap with no approval, no node shows it: unknown',
    [e('swap', 'sending', { nonce: 3, block: 10 }), e('swap', 'sent', { hash: swap })],
    { transaction: { status: 'dropped' } },
    { status: 'unknown' },
  ],
  // A swap with no approval, whose hash never came back (written before it was sent).
  [
    'a swap being sent, no approval: the account from its nonce',
    [e('swap', 'sending', { nonce: 3, block: 10 })],
    {},
    { need: 'scan', start: { nonce: 3, block: 10 } },
  ],
  [
    'a swap being sent, found on chain',
    [e('swap', 'sending', { nonce: 3, block: 10 })],
    { scan: { status: 'confirmed', receipt } },
    { status: 'confirmed', receipt },
  ],
  [
    'a swap being sent, nothing on chain (its prompt may still be open): unknown',
    [e('swap', 'sending', { nonce: 3, block: 10 })],
    { scan: scanned },
    { status: 'unknown' },
  ],
  ['a swap being sent, no nonce recorded: unknown', [e('swap', 'sending')], {}, { status: 'unknown' }],
  // A batch.
  [
    'a batch sent: the wallet’s status',
    [e('batch', 'sent', { batchId: 'b1' })],
    {},
    { need: 'batch', batchId: 'b1' },
  ],
  [
    'a batch done',
    [e('batch', 'sent', { batchId: 'b1' })],
    { batch: { status: 'success', receipt } },
    { status: 'confirmed', receipt },
  ],
  [
    'a batch failed',
    [e('batch', 'sent', { batchId: 'b1' })],
    { batch: { status: 'failure', receipt } },
    { status: 'reverted', receipt },
  ],
  [
    'a batch the wallet no longer knows: unknown',
    [e('batch', 'sent', { batchId: 'b1' })],
    { batch: { status: 'unknown' } },
    { status: 'unknown' },
  ],
  [
    'a batch being sent (no id back): the account from its nonce',
    [e('batch', 'sending', { nonce: 3, block: 10 })],
    {},
    { need: 'scan', start: { nonce: 3, block: 10 } },
  ],
  [
    'a batch being sent, nothing on chain: unknown',
    [e('batch', 'sending', { nonce: 3, block: 10 })],
    { scan: scanned },
    { status: 'unknown' },
  ],
  [
    'a batch the wallet refused: dropped',
    [e('batch', 'sending', { nonce: 3, block: 10 }), e('batch', 'rejected')],
    {},
    { status: 'dropped' },
  ],
]

describe('decideStanding: where a journal stands, one row per rule', () => {
  test.each(rows)('%s', (_, journal, facts, expected) => {
    const decision = decideStanding(journal, 100n, facts)
    expect(decision).toEqual(expected)
  })
})
