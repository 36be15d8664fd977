import fc from 'fast-check'
import type { Hex, TransactionReceipt } from 'viem'
import { describe, expect, test } from 'vitest'
import type { JournalEntry } from '../records/journal.js'
import {
  createMemoryStorage,
  getPendingSwaps,
  journalOf,
  type PendingSwap,
  savePendingSwap,
  withJournal,
} from '../records/pendingSwaps.js'
import type { SwapStepKind } from '../types.js'
import {
  decideStanding,
  failureOf,
  isSettled,
  type Scan,
  type ScannedTransaction,
  type Standing,
  type StandingFacts,
  type StandingNeed,
  scanKey,
  swapReceiptOf,
} from './standing.js'

const hash = (byte: string) => `0x${byte.repeat(32)}` as Hex
const [reset, approval, swap, other] = [hash('aa'), hash('bb'), hash('cc'), hash('dd')]
const receiptOf = (transactionHash: Hex, status: 'success' | 'reverted' = 'success') =>
  ({ transactionHash, status }) as TransactionReceipt
const receipt = receiptOf(swap)
const e = (step: JournalEntry['step'], event: JournalEntry['event'], extra: Partial<JournalEntry> = {}) =>
  ({ step, event, at: 0, ...extra }) as JournalEntry
const at = (nonce: number) => ({ nonce, block: 10 })
const tx = (
  status: NonNullable<StandingFacts['transactions']>[string]['status'],
  r?: TransactionReceipt,
) => ({
  status,
  receipt: r,
})
const facts = (
  transactions: Record<string, ReturnType<typeof tx>> = {},
  scans: Record<string, Scan | 'unknown'> = {},
  rest: Omit<StandingFacts, 'transactions' | 'scans'> = {},
): StandingFacts => ({ transactions, scans, ...rest })
const scanned = (...transactions: ScannedTransaction[]): Scan => ({ transactions, pending: false, next: 5 })
const found = (kind: ScannedTransaction['kind'], of: Hex, status: 'success' | 'reverted' = 'success') => ({
  kind,
  receipt: receiptOf(of, status),
})
const none = scanned()

const approved = [
  e('approve', 'sending', at(3)),
  e('approve', 'sent', { hash: approval }),
  e('approve', 'mined', { hash: approval }),
]

/**
 * One row per rule: the journal, the chain facts read so far, and the
 * decision (or the fact it asks for next). The page that saw a failure and a
 * page after a reload both decide through these rows (see the property below).
 */
const rows: [string, JournalEntry[], StandingFacts, Standing | StandingNeed][] = [
  [
    'nothing sent (a quote, a check, a simulation failed): nothing to settle',
    [],
    facts(),
    { status: 'dropped' },
  ],
  // An approval.
  [
    'an approval sent: its receipt',
    [e('approve', 'sent', { hash: approval })],
    facts(),
    { need: 'transaction', hash: approval },
  ],
  [
    'an approval reverted',
    [e('approve', 'sent', { hash: approval })],
    facts({ [approval]: tx('reverted') }),
    { status: 'reverted' },
  ],
  [
    'an approval not mined yet',
    [e('approve', 'sent', { hash: approval })],
    facts({ [approval]: tx('pending') }),
    { status: 'pending' },
  ],
  [
    'an approval replaced by a cancellation: dropped',
    [e('approve', 'sent', { hash: approval }), e('approve', 'replaced', { hash: other })],
    facts({ [approval]: tx('dropped') }),
    { status: 'dropped' },
  ],
  [
    'an approval no node shows, without its nonce (0.1.0): unknown, never dropped',
    [e('approve', 'sent', { hash: approval })],
    facts({ [approval]: tx('unknown') }),
    { status: 'unknown' },
  ],
  [
    'an approval no node shows (sped up while the page was closed): found at its nonce',
    [e('approve', 'sending', at(3)), e('approve', 'sent', { hash: approval })],
    facts({ [approval]: tx('unknown') }),
    { need: 'scan', start: at(3) },
  ],
  [
    'an approval mined: what followed it is read',
    [e('approve', 'sent', { hash: approval })],
    facts({ [approval]: tx('confirmed', receiptOf(approval)) }),
    { need: 'scan', start: approval },
  ],
  [
    'an approval broadcast, the page gone before its hash was written: looked for at its nonce',
    [e('approve', 'sending', at(3))],
    facts(),
    { need: 'scan', start: at(3) },
  ],
  [
    'an approval broadcast before its hash was written, found mined, nothing after it: resumable',
    [e('approve', 'sending', at(3))],
    facts({}, { [scanKey(at(3))]: scanned(found('approve', approval)) }, { allowance: 100n }),
    { status: 'resumable', nonce: 5, approved: true },
  ],
  [
    'an approval broadcast before its hash was written, found reverted: reverted',
    [e('approve', 'sending', at(3))],
    facts({}, { [scanKey(at(3))]: scanned(found('approve', approval, 'reverted')) }),
    { status: 'reverted', receipt: receiptOf(approval, 'reverted') },
  ],
  [
    'an approval the wallet refused, nothing at its nonce: dropped',
    [e('approve', 'sending', at(3)), e('approve', 'rejected')],
    facts({}, { [scanKey(at(3))]: none }),
    { status: 'dropped' },
  ],
  [
    'an approval the wallet said it refused, found mined at its nonce: the chain has the last word',
    [e('approve', 'sending', at(3)), e('approve', 'rejected')],
    facts({}, { [scanKey(at(3))]: scanned(found('approve', approval)) }, { allowance: 100n }),
    { status: 'resumable', nonce: 5, approved: true },
  ],
  [
    'an approval being sent without its nonce (0.1.0): nothing to settle',
    [e('approve', 'sending')],
    facts(),
    { status: 'dropped' },
  ],
  // After a mined approval.
  ['approved: the chain after it is scanned', approved, facts(), { need: 'scan', start: approval }],
  [
    'approved, the swap found after it: confirmed',
    approved,
    facts({}, { [approval]: scanned(found('swap', swap)) }),
    { status: 'confirmed', receipt, approved: true },
  ],
  [
    'approved, a reverted router call after it settles nothing: the allowance decides',
    approved,
    facts({}, { [approval]: scanned(found('swap', other, 'reverted')) }, { allowance: 100n }),
    { status: 'resumable', nonce: 5, approved: true },
  ],
  [
    'approved, a transaction after it pending: pending',
    approved,
    facts({}, { [approval]: { ...none, pending: true } }),
    { status: 'pending', approved: true },
  ],
  [
    'approved, the scan cannot tell: unknown',
    approved,
    facts({}, { [approval]: 'unknown' }),
    { status: 'unknown' },
  ],
  [
    'approved, a transaction a record without its router cannot tell apart: unknown',
    approved,
    facts({}, { [approval]: scanned(found('unclear', other)) }),
    { status: 'unknown' },
  ],
  [
    'approved, nothing after it: the allowance is read',
    approved,
    facts({}, { [approval]: none }),
    { need: 'allowance' },
  ],
  [
    'approved, nothing after it, the allowance covers the swap: resumable at the free nonce',
    approved,
    facts({}, { [approval]: none }, { allowance: 100n }),
    { status: 'resumable', nonce: 5, approved: true },
  ],
  [
    'approved, nothing after it, the allowance gone: dropped',
    approved,
    facts({}, { [approval]: none }, { allowance: 99n }),
    { status: 'dropped', approved: true },
  ],
  [
    'a reset recorded without its approval (0.1.0): read from the reset on',
    [e('reset', 'mined', { hash: reset }), e('approve', 'sending')],
    facts(),
    { need: 'scan', start: reset },
  ],
  [
    'a reset recorded, its approval and the swap mined unrecorded: confirmed',
    [e('reset', 'mined', { hash: reset }), e('approve', 'sending')],
    facts({}, { [reset]: scanned(found('approve', approval), found('swap', swap)) }),
    { status: 'confirmed', receipt, approved: true },
  ],
  [
    'a reset sent: its own receipt first',
    [e('reset', 'sent', { hash: reset })],
    facts(),
    { need: 'transaction', hash: reset },
  ],
  [
    'the swap rejected after the approval: still resumable',
    [...approved, e('swap', 'sending', at(4)), e('swap', 'rejected')],
    facts({}, { [approval]: none }, { allowance: 100n }),
    { status: 'resumable', nonce: 5, approved: true },
  ],
  [
    'the swap being sent (no hash back) after the approval: read as the approval alone',
    [...approved, e('swap', 'sending', at(4))],
    facts(),
    { need: 'scan', start: approval },
  ],
  [
    'a pinned swap refused (its nonce may be taken by the swap sent before the reload): confirmed from the chain',
    [...approved, e('swap', 'sending', { nonce: 5, pinned: true }), e('swap', 'unknown')],
    facts({}, { [approval]: scanned(found('swap', swap)) }),
    { status: 'confirmed', receipt, approved: true },
  ],
  // A swap with a hash.
  [
    'a swap sent: its receipt',
    [...approved, e('swap', 'sent', { hash: swap })],
    facts(),
    { need: 'transaction', hash: swap },
  ],
  [
    'a swap mined',
    [...approved, e('swap', 'sent', { hash: swap })],
    facts({ [swap]: tx('confirmed', receipt) }),
    { status: 'confirmed', receipt, approved: true },
  ],
  [
    'a swap reverted: settled, the approval’s allowance worth reading',
    [...approved, e('swap', 'sent', { hash: swap })],
    facts({ [swap]: tx('reverted', receipt) }),
    { status: 'reverted', receipt, approved: true },
  ],
  [
    'a swap whose wait ran out, still pending',
    [...approved, e('swap', 'sent', { hash: swap }), e('swap', 'unknown', { hash: swap })],
    facts({ [swap]: tx('pending') }),
    { status: 'pending', approved: true },
  ],
  [
    'a swap cancelled at its nonce: dropped',
    [...approved, e('swap', 'sent', { hash: swap }), e('swap', 'replaced', { hash: other })],
    facts({ [swap]: tx('dropped') }),
    { status: 'dropped', approved: true },
  ],
  [
    'a swap no node shows: the chain after the approval',
    [...approved, e('swap', 'sent', { hash: swap })],
    facts({ [swap]: tx('unknown') }),
    { need: 'scan', start: approval },
  ],
  [
    'a swap no node shows, found after the approval (sent before a reload): confirmed',
    [...approved, e('swap', 'sent', { hash: swap })],
    facts({ [swap]: tx('unknown') }, { [approval]: scanned(found('swap', swap)) }),
    { status: 'confirmed', receipt, approved: true },
  ],
  [
    'a swap no node shows, nothing after the approval: unknown, never offered for resume',
    [...approved, e('swap', 'sent', { hash: swap })],
    facts({ [swap]: tx('unknown') }, { [approval]: none }, { allowance: 100n }),
    { status: 'unknown', approved: true },
  ],
  // A swap with no approval before it.
  [
    'a swap with no approval, no node shows it: the account from its nonce',
    [e('swap', 'sending', at(3)), e('swap', 'sent', { hash: swap })],
    facts({ [swap]: tx('unknown') }),
    { need: 'scan', start: at(3) },
  ],
  [
    'a swap with no approval, no node shows it, nothing from its nonce: unknown',
    [e('swap', 'sending', at(3)), e('swap', 'sent', { hash: swap })],
    facts({ [swap]: tx('unknown') }, { [scanKey(at(3))]: none }),
    { status: 'unknown' },
  ],
  [
    'a swap being sent, no approval: the account from its nonce',
    [e('swap', 'sending', at(3))],
    facts(),
    { need: 'scan', start: at(3) },
  ],
  [
    'a swap being sent, found on chain',
    [e('swap', 'sending', at(3))],
    facts({}, { [scanKey(at(3))]: scanned(found('swap', swap)) }),
    { status: 'confirmed', receipt },
  ],
  [
    'a swap being sent, nothing on chain (its prompt may still be open): unknown',
    [e('swap', 'sending', at(3))],
    facts({}, { [scanKey(at(3))]: none }),
    { status: 'unknown' },
  ],
  [
    'a swap the wallet refused, nothing on chain: dropped',
    [e('swap', 'sending', at(3)), e('swap', 'rejected')],
    facts({}, { [scanKey(at(3))]: none }),
    { status: 'dropped' },
  ],
  [
    'a swap being sent, no nonce recorded (0.1.0): unknown',
    [e('swap', 'sending')],
    facts(),
    { status: 'unknown' },
  ],
  [
    'a swap refused, no nonce recorded (0.1.0): dropped',
    [e('swap', 'sending'), e('swap', 'rejected')],
    facts(),
    { status: 'dropped' },
  ],
  // A batch.
  [
    'a batch sent: the wallet’s status',
    [e('batch', 'sent', { batchId: 'b1' })],
    facts(),
    { need: 'batch', batchId: 'b1' },
  ],
  [
    'a batch done: the swap’s own receipt (never the reset after it)',
    [
      e('batch', 'sending', { ...at(3), calls: ['approve', 'swap', 'reset'] }),
      e('batch', 'sent', { batchId: 'b1' }),
    ],
    facts(
      {},
      {},
      { batch: { status: 'confirmed', receipts: [receiptOf(approval), receipt, receiptOf(reset)] } },
    ),
    { status: 'confirmed', receipt },
  ],
  [
    'a batch the wallet says is done without the swap’s receipt: the chain from its nonce',
    [e('batch', 'sending', { ...at(3), calls: ['approve', 'swap'] }), e('batch', 'sent', { batchId: 'b1' })],
    facts({}, {}, { batch: { status: 'confirmed', receipts: [] } }),
    { need: 'scan', start: at(3) },
  ],
  [
    'an atomic batch failed as one transaction: reverted',
    [e('batch', 'sending', { ...at(3), calls: ['approve', 'swap'] }), e('batch', 'sent', { batchId: 'b1' })],
    facts({}, {}, { batch: { status: 'reverted', receipts: [receiptOf(swap, 'reverted')] } }),
    { status: 'reverted', receipt: receiptOf(swap, 'reverted') },
  ],
  [
    'a batch that failed non-atomically may have left its approval: its receipt says it landed, the allowance decides',
    [e('batch', 'sending', { ...at(3), calls: ['approve', 'swap'] }), e('batch', 'sent', { batchId: 'b1' })],
    facts(
      {},
      { [approval]: scanned(found('swap', swap, 'reverted')) },
      {
        batch: { status: 'reverted', receipts: [receiptOf(approval), receiptOf(swap, 'reverted')] },
        allowance: 100n,
      },
    ),
    { status: 'resumable', nonce: 5, approved: true },
  ],
  [
    'a batch that failed non-atomically, as the page wrote it: the same, after a reload',
    [
      e('batch', 'sending', { ...at(3), calls: ['approve', 'swap'] }),
      e('batch', 'sent', { batchId: 'b1' }),
      e('batch', 'reverted', { hashes: [approval, swap] }),
    ],
    facts(
      { [approval]: tx('confirmed', receiptOf(approval)) },
      { [approval]: scanned(found('swap', swap, 'reverted')) },
      { allowance: 100n },
    ),
    { status: 'resumable', nonce: 5, approved: true },
  ],
  [
    'a batch whose calls all reverted: reverted',
    [
      e('batch', 'sending', { ...at(3), calls: ['approve', 'swap'] }),
      e('batch', 'reverted', { hashes: [approval, swap] }),
    ],
    facts({ [approval]: tx('reverted') }),
    { status: 'reverted', receipt: undefined },
  ],
  [
    'a batch the wallet no longer knows: the account from its nonce',
    [e('batch', 'sending', at(3)), e('batch', 'sent', { batchId: 'b1' })],
    facts({}, {}, { batch: { status: 'unknown' } }),
    { need: 'scan', start: at(3) },
  ],
  [
    'a batch the wallet no longer knows, nothing from its nonce: unknown',
    [e('batch', 'sending', at(3)), e('batch', 'sent', { batchId: 'b1' })],
    facts({}, { [scanKey(at(3))]: none }, { batch: { status: 'unknown' } }),
    { status: 'unknown' },
  ],
  [
    'a batch the wallet no longer knows, without its nonce (0.1.0): unknown',
    [e('batch', 'sent', { batchId: 'b1' })],
    facts({}, {}, { batch: { status: 'unknown' } }),
    { status: 'unknown' },
  ],
  [
    'a batch being sent (no id back): the account from its nonce',
    [e('batch', 'sending', at(3))],
    facts(),
    { need: 'scan', start: at(3) },
  ],
  [
    'a batch being sent, its one transaction found: confirmed',
    [e('batch', 'sending', at(3))],
    facts({}, { [scanKey(at(3))]: scanned(found('swap', swap)) }),
    { status: 'confirmed', receipt },
  ],
  [
    'a batch the wallet refused, nothing at its nonce: dropped',
    [e('batch', 'sending', at(3)), e('batch', 'rejected')],
    facts({}, { [scanKey(at(3))]: none }),
    { status: 'dropped' },
  ],
  [
    'a batch the wallet declined to upgrade for, then one transaction after the other: read as those',
    [e('batch', 'sending', at(3)), e('batch', 'rejected'), ...approved],
    facts({}, { [approval]: none }, { allowance: 100n }),
    { status: 'resumable', nonce: 5, approved: true },
  ],
]

describe('decideStanding: where a journal stands, one row per rule', () => {
  test.each(rows)('%s', (_, journal, chain, expected) => {
    expect(decideStanding(journal, 100n, chain)).toEqual(expected)
  })
})

describe('failureOf: what a failure means, derived from the standing', () => {
  const own = (...entries: JournalEntry[]) => entries
  test.each<[string, Standing, JournalEntry[], ReturnType<typeof failureOf>]>([
    [
      'nothing sent: the record goes',
      { status: 'dropped' },
      [],
      { keep: false, leftover: undefined, lostNonce: false, unknown: undefined },
    ],
    [
      'the approval mined, the swap refused: resumable, kept, the allowance noted',
      { status: 'resumable', nonce: 5, approved: true },
      own(...approved, e('swap', 'sending', at(4)), e('swap', 'rejected')),
      { keep: true, leftover: { ifLeft: false }, lostNonce: false, unknown: undefined },
    ],
    [
      'the swap’s wait ran out, still pending: kept, an outcome not known',
      { status: 'pending', approved: true },
      own(...approved, e('swap', 'sent', { hash: swap }), e('swap', 'unknown', { hash: swap })),
      {
        keep: true,
        leftover: undefined,
        lostNonce: false,
        unknown: { stage: 'swap', hash: swap, batchId: undefined },
      },
    ],
    [
      'a batch whose status never came: kept, unknown',
      { status: 'pending' },
      own(e('batch', 'sent', { batchId: 'b' }), e('batch', 'unknown')),
      {
        keep: true,
        leftover: undefined,
        lostNonce: false,
        unknown: { stage: 'swap', hash: undefined, batchId: 'b' },
      },
    ],
    [
      'an atomic batch failed: settled, the allowance read and noted only if some is left',
      { status: 'reverted' },
      own(e('batch', 'sent', { batchId: 'b' }), e('batch', 'reverted', { hashes: [swap] })),
      { keep: false, leftover: { ifLeft: true }, lostNonce: false, unknown: undefined },
    ],
    [
      'a pinned swap refused by the node: its nonce lost, nothing wrapped, nothing revoked',
      { status: 'unknown' },
      own(e('swap', 'sending', { nonce: 5, pinned: true }), e('swap', 'unknown')),
      { keep: true, leftover: undefined, lostNonce: true, unknown: undefined },
    ],
    [
      'a pinned swap replaced at its nonce by the swap sent before the reload: settled confirmed',
      { status: 'confirmed', receipt },
      own(
        e('swap', 'sending', { nonce: 5, pinned: true }),
        e('swap', 'sent', { hash: other }),
        e('swap', 'replaced', { hash: swap }),
      ),
      { keep: false, leftover: undefined, lostNonce: true, unknown: undefined },
    ],
  ])('%s', (_, standing, entries, expected) => {
    expect(failureOf(standing, entries)).toEqual(expected)
  })
})

test('swapReceiptOf: the swap’s own receipt, by its place; one receipt for a batch sent as one transaction', () => {
  const receipts = [receiptOf(approval), receipt, receiptOf(reset)]
  expect(swapReceiptOf(receipts, ['approve', 'swap', 'reset'])).toBe(receipt)
  expect(swapReceiptOf([receipt], ['approve', 'swap', 'reset'])).toBe(receipt)
  expect(swapReceiptOf(receipts.slice(0, 2), ['approve', 'swap', 'reset'])).toBeUndefined()
})

// Journals the runner can write: each step's events in the order it writes them; a step starts
// only after the one before it was mined; records with or without the nonces (0.1.0).
const hashes = fc.constantFrom(reset, approval, swap, other)
const stepEvents = (step: JournalEntry['step'], nonce: number, pinned: boolean, last: boolean) =>
  fc
    .record({
      withNonce: fc.boolean(),
      end: fc.constantFrom(
        'none',
        'rejected',
        'unknown-no-hash',
        'sent',
        'mined',
        'reverted',
        'replaced',
        'unknown',
      ),
      hash: hashes,
      other: hashes,
      batchId: fc.constantFrom('b1', 'b2'),
      calls: fc.constantFrom<SwapStepKind[]>(
        ['approve', 'swap'],
        ['reset', 'approve', 'swap'],
        ['approve', 'swap', 'reset'],
        ['swap'],
      ),
      reported: fc.array(hashes, { maxLength: 3 }),
    })
    .map(({ withNonce, end, hash: sent, other: replacement, batchId, calls, reported }) => {
      const entries: JournalEntry[] = [
        e(step, 'sending', {
          ...(withNonce || pinned ? { nonce, block: 10 } : {}),
          ...(pinned ? { pinned: true } : {}),
          ...(step === 'batch' ? { calls } : {}),
        }),
      ]
      const id = step === 'batch' ? { batchId } : { hash: sent }
      const terminal = last ? end : 'mined'
      if (terminal === 'rejected') entries.push(e(step, 'rejected'))
      else if (terminal === 'unknown-no-hash') entries.push(e(step, 'unknown'))
      else if (terminal !== 'none') {
        entries.push(e(step, 'sent', id))
        if (terminal === 'mined')
          entries.push(e(step, 'mined', { hash: sent, ...(step === 'batch' ? { hashes: reported } : {}) }))
        if (terminal === 'reverted')
          entries.push(e(step, 'reverted', step === 'batch' ? { hashes: reported } : { hash: sent }))
        if (terminal === 'replaced') entries.push(e(step, 'replaced', { hash: replacement }))
        if (terminal === 'unknown') entries.push(e(step, 'unknown', step === 'batch' ? {} : { hash: sent }))
      }
      return entries
    })
const journals = fc.oneof(
  stepEvents('batch', 3, false, true),
  fc
    .record({
      steps: fc.constantFrom<JournalEntry['step'][]>(
        ['swap'],
        ['approve', 'swap'],
        ['reset', 'approve', 'swap'],
      ),
      upTo: fc.nat(2),
      pinned: fc.boolean(),
    })
    .chain(({ steps, upTo, pinned }) => {
      const taken = steps.slice(0, Math.min(upTo + 1, steps.length))
      return fc.tuple(
        ...taken.map((step, index) =>
          stepEvents(step, 3 + index, pinned && step === 'swap', index === taken.length - 1),
        ),
      )
    })
    .map((parts) => parts.flat()),
)

// The chain as it answers every fact the verdict asks for.
const scannedTransaction = fc.record({
  kind: fc.constantFrom<ScannedTransaction['kind']>('approve', 'swap', 'other', 'unclear'),
  receipt: fc.record({
    transactionHash: hashes,
    status: fc.constantFrom<'success' | 'reverted'>('success', 'reverted'),
  }),
}) as fc.Arbitrary<ScannedTransaction>
const chains = fc.record({
  transaction: fc.constantFrom('confirmed', 'reverted', 'pending', 'dropped', 'unknown'),
  scan: fc.oneof(
    fc.constant('unknown' as const),
    fc.record({
      transactions: fc.array(scannedTransaction, { maxLength: 3 }),
      pending: fc.boolean(),
      next: fc.nat(9),
    }),
  ),
  batch: fc.constantFrom('confirmed', 'reverted', 'pending', 'unknown'),
  batchReceipts: fc.array(
    fc.record({ transactionHash: hashes, status: fc.constantFrom('success', 'reverted') }),
    { maxLength: 3 },
  ),
  allowance: fc.bigInt({ min: 0n, max: 200n }),
})

/** Decides as `readStanding` does: each fact asked for, answered by the chain, until the decision. */
function decideOnChain(
  journal: readonly JournalEntry[],
  chain: typeof chains extends fc.Arbitrary<infer value> ? value : never,
) {
  const known: StandingFacts = { transactions: {}, scans: {} }
  for (let asked = 0; asked < 20; asked++) {
    const decision = decideStanding(journal, 100n, known)
    if (!('need' in decision)) return decision
    if (decision.need === 'transaction')
      (known.transactions as Record<string, unknown>)[decision.hash.toLowerCase()] = {
        status: chain.transaction,
        receipt: receiptOf(decision.hash, chain.transaction === 'reverted' ? 'reverted' : 'success'),
      }
    else if (decision.need === 'scan')
      (known.scans as Record<string, unknown>)[scanKey(decision.start)] = chain.scan
    else if (decision.need === 'batch')
      known.batch = { status: chain.batch as never, receipts: chain.batchReceipts as TransactionReceipt[] }
    else known.allowance = chain.allowance
  }
  throw new Error('the verdict kept asking')
}

const record = (journal: JournalEntry[]): PendingSwap =>
  withJournal(
    {
      ...{
        id: 'r1',
        version: 2,
        chainId: 1,
        baseUrl: 'https://swap.test',
        amountIn: '100',
        minAmountOut: '90',
      },
      ...{ account: `0x${'e5'.repeat(20)}`, token0: `0x${'a1'.repeat(20)}`, token1: `0x${'b2'.repeat(20)}` },
      ...{ to: `0x${'e5'.repeat(20)}`, step: 'approving', createdAt: 1, updatedAt: 1 },
    } as PendingSwap,
    journal,
  )

describe('one verdict: the page that saw the failure and the page after a reload agree, by construction', () => {
  test('for 10,000 journals the runner can write × chains: the same standing from the journal kept in memory and from the record read back from storage; the failure kept or forgot the record as the reloaded page lists it', async () => {
    await fc.assert(
      fc.asyncProperty(journals, chains, async (journal, chain) => {
        const atFailure = decideOnChain(journal, chain)
        // What the page after a reload reads: the record as stored (JSON), validated, its journal.
        const storage = createMemoryStorage()
        await savePendingSwap(storage, record(journal))
        const [stored] = await getPendingSwaps(storage)
        expect(stored).toBeDefined()
        const afterReload = decideOnChain(journalOf(stored as PendingSwap), chain)
        expect(afterReload).toEqual(atFailure)
        // The failure's handling is the standing's: kept exactly while it has not settled (what
        // usePendingSwaps lists after the reload), an outcome called unknown only while open.
        const failure = failureOf(atFailure, journal)
        expect(failure.keep).toBe(!isSettled(atFailure.status))
        if (failure.unknown) expect(['pending', 'unknown']).toContain(atFailure.status)
        // Never resumable while a swap of the record may have gone out with a hash, nor without an
        // allowance that covers it.
        if (atFailure.status === 'resumable') {
          expect(journal.some((entry) => entry.step === 'swap' && entry.hash)).toBe(false)
          expect(chain.allowance >= 100n).toBe(true)
        }
        if (atFailure.status === 'confirmed') expect(atFailure.receipt).toBeDefined()
      }),
      { numRuns: 10_000 },
    )
  })
})
