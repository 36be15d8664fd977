import type { Hex } from 'viem'
import { describe, expect, test } from 'vitest'
import type { JournalEntry } from '../records/journal.js'
import { classifyFailure, type FailureOutcome } from './classifyFailure.js'

const hash = (byte: string) => `0x${byte.repeat(32)}` as Hex
const [approval, swap, other] = [hash('bb'), hash('cc'), hash('dd')]
const e = (step: JournalEntry['step'], event: JournalEntry['event'], extra: Partial<JournalEntry> = {}) =>
  ({ step, event, at: 0, ...extra }) as JournalEntry
const approved = [
  e('approve', 'sending'),
  e('approve', 'sent', { hash: approval }),
  e('approve', 'mined', { hash: approval }),
]

/** One row per rule: the journal at the failure, whether a failed batch said it was atomic, and what the failure means. */
const rows: [string, JournalEntry[], boolean | undefined, FailureOutcome][] = [
  [
    'nothing sent (a quote, a check, a simulation failed): nothing to keep',
    [],
    undefined,
    { record: 'remove', leftover: false },
  ],
  [
    'the approval rejected: nothing to keep',
    [e('approve', 'sending'), e('approve', 'rejected')],
    undefined,
    { record: 'remove', leftover: false },
  ],
  [
    'the approval reverted: nothing to keep',
    [e('approve', 'sent', { hash: approval }), e('approve', 'reverted', { hash: approval })],
    undefined,
    { record: 'remove', leftover: false },
  ],
  [
    'the approval replaced (cancelled): nothing to keep',
    [e('approve', 'sent', { hash: approval }), e('approve', 'replaced', { hash: other })],
    undefined,
    { record: 'remove', leftover: false },
  ],
  [
    'the approval’s wait ran out: unknown, kept',
    [e('approve', 'sent', { hash: approval }), e('approve', 'unknown', { hash: approval })],
    undefined,
    { record: 'keep', leftover: false, unknown: { stage: 'approval', hash: approval, batchId: undefined } },
  ],
  [
    'the approval mined, then a check failed: resumable, the allowance read',
    approved,
    undefined,
    { record: 'keep', leftover: true },
  ],
  [
    'the approval mined, the swap rejected: resumable, the allowance read',
    [...approved, e('swap', 'sending'), e('swap', 'rejected')],
    undefined,
    { record: 'keep', leftover: true },
  ],
  [
    'the approval mined, the swap reverted: settled, the allowance read',
    [...approved, e('swap', 'sent', { hash: swap }), e('swap', 'reverted', { hash: swap })],
    undefined,
    { record: 'remove', leftover: true },
  ],
  [
    'the swap’s wait ran out: unknown, kept, nothing revoked',
    [...approved, e('swap', 'sent', { hash: swap }), e('swap', 'unknown', { hash: swap })],
    undefined,
    { record: 'keep', leftover: false, unknown: { stage: 'swap', hash: swap, batchId: undefined } },
  ],
  [
    'a swap with no approval rejected: nothing to keep',
    [e('swap', 'sending'), e('swap', 'rejected')],
    undefined,
    { record: 'remove', leftover: false },
  ],
  [
    'a pinned swap refused by the node: its nonce may hold the swap sent before the reload; kept as is',
    [...approved, e('swap', 'sending', { nonce: 5, pinned: true }), e('swap', 'unknown')],
    undefined,
    { record: 'keep', leftover: false, pinned: true },
  ],
  [
    'a pinned swap replaced at its nonce: kept as is, the chain says',
    [
      ...approved,
      e('swap', 'sending', { nonce: 5, pinned: true }),
      e('swap', 'sent', { hash: swap }),
      e('swap', 'replaced', { hash: other }),
    ],
    undefined,
    { record: 'keep', leftover: false, pinned: true },
  ],
  [
    'a pinned swap the user rejected: resumable as before',
    [...approved, e('swap', 'sending', { nonce: 5, pinned: true }), e('swap', 'rejected')],
    undefined,
    { record: 'keep', leftover: true },
  ],
  [
    'a pinned swap reverted: settled',
    [
      ...approved,
      e('swap', 'sending', { nonce: 5, pinned: true }),
      e('swap', 'sent', { hash: swap }),
      e('swap', 'reverted', { hash: swap }),
    ],
    undefined,
    { record: 'remove', leftover: true },
  ],
  [
    'a batch rejected: nothing to keep, nothing left',
    [e('batch', 'sending'), e('batch', 'rejected')],
    undefined,
    { record: 'remove', leftover: false },
  ],
  [
    'an atomic batch failed: settled, the allowance read all the same',
    [e('batch', 'sent', { batchId: 'b' }), e('batch', 'reverted')],
    true,
    { record: 'remove', leftover: true },
  ],
  [
    'a batch that failed non-atomically may have left its approval: kept, the allowance read',
    [e('batch', 'sent', { batchId: 'b' }), e('batch', 'reverted')],
    false,
    { record: 'keep', leftover: true },
  ],
  [
    'a batch whose status never came: unknown, kept',
    [e('batch', 'sent', { batchId: 'b' }), e('batch', 'unknown')],
    undefined,
    { record: 'keep', leftover: false, unknown: { stage: 'swap', hash: undefined, batchId: 'b' } },
  ],
]

describe('classifyFailure: what a failure means, one row per rule', () => {
  test.each(rows)('%s', (_, journal, atomic, expected) => {
    expect(classifyFailure(journal, { atomic })).toEqual(expected)
  })
})
