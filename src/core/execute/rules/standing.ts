import type { Hex, TransactionReceipt } from 'viem'
import { findLast, type Journal, type JournalEntry, lastOf, stepHash } from '../records/journal.js'
import type { SwapStepKind } from '../types.js'

/**
 * Where a recorded execution stands: `'confirmed'`, `'reverted'` (its swap's
 * receipt) or `'dropped'` (nothing it sent is the swap, and no approval of it
 * still covers the swap) have settled; `'pending'` waits for a transaction or
 * batch in flight; `'resumable'` has an approval on chain and, on chain, no
 * swap after it; `'unknown'` could not be read soundly (a transaction no node
 * shows, transactions that cannot be told apart from the swap, a batch the
 * wallet cannot report), and is never resumed nor removed.
 */
export type PendingSwapStatus = 'confirmed' | 'reverted' | 'dropped' | 'pending' | 'resumable' | 'unknown'

/**
 * Whether a status has settled (`'confirmed'`, `'reverted'`, `'dropped'`):
 * its record is removed and reported once.
 *
 * @example
 * const settled = checked.filter(({ status }) => isSettled(status))
 */
export function isSettled(status: PendingSwapStatus): boolean {
  return status === 'confirmed' || status === 'reverted' || status === 'dropped'
}

/** A recorded transaction as the chain shows it; `'unknown'`: no node shows it; `'dropped'`: another transaction, not the swap, took its nonce. */
export type TransactionFact = {
  status: Exclude<PendingSwapStatus, 'resumable'>
  receipt?: TransactionReceipt | undefined
}

/** A mined transaction of the account, as the record sees it: one of its approvals, its swap, something else, or (a record without its router) not to be told apart. */
export type ScannedTransaction = {
  kind: 'approve' | 'swap' | 'other' | 'unclear'
  receipt: TransactionReceipt
}

/** What the account sent from a point on: its mined transactions in nonce order, whether more are pending, and its next nonce. */
export type Scan = { transactions: readonly ScannedTransaction[]; pending: boolean; next: number }

/** Where a scan starts: after a mined transaction of the account (its hash), or at a recorded nonce (and the head block then). */
export type ScanStart = Hex | { nonce: number; block: number }

/** The chain facts a decision was taken on, read one at a time as the decision asks for them. */
export type StandingFacts = {
  /** By hash, lower case. */
  transactions?: Record<string, TransactionFact>
  /** By `scanKey(start)`; `'unknown'` when the chain could not be read soundly. */
  scans?: Record<string, Scan | 'unknown'>
  /** The batch's status from the wallet, with its receipts. */
  batch?: { status: TransactionFact['status']; receipts?: readonly TransactionReceipt[] | undefined }
  /** The account's allowance of token0 for the record's approval target. */
  allowance?: bigint
}

/** A fact the decision needs before it can be taken. */
export type StandingNeed =
  | { need: 'transaction'; hash: Hex }
  | { need: 'scan'; start: ScanStart }
  | { need: 'batch'; batchId: string }
  | { need: 'allowance' }

export type Standing = {
  status: PendingSwapStatus
  /** The swap's own receipt, once it is known. */
  receipt?: TransactionReceipt | undefined
  /** For `'resumable'`: the account's nonce the scan proved free. */
  nonce?: number | undefined
  /** An approval of the record is on chain: the allowance it left is worth reading. */
  approved?: boolean | undefined
}

/**
 * The key of a scan's start in `StandingFacts.scans`.
 *
 * @example
 * facts.scans = { [scanKey(start)]: await scanFrom(start) }
 */
export function scanKey(start: ScanStart): string {
  return typeof start === 'string' ? start.toLowerCase() : `${start.nonce}@${start.block}`
}

const isNeed = (value: object): value is StandingNeed => 'need' in value

/**
 * Where a journal stands given the chain facts read so far, or the next fact
 * it needs: the one place the rules live. The page that saw a failure and a
 * page after a reload both decide through it, from the same journal (every
 * fact a failure teaches is written into it first), so they reach the same
 * standing. The journal's own word goes first; the chain answers the rest:
 *
 * - a swap with a hash: its receipt; one no node shows is looked for on chain;
 * - the approvals: mined (the journal or a receipt), else looked for from the
 *   nonce they were expected at, so a reload before a hash came back still
 *   finds them;
 * - from the last approval on chain (or the swap's nonce): the swap found is
 *   confirmed, anything pending is pending, a record that cannot tell is
 *   unknown; nothing after a mined approval is resumable while the allowance
 *   covers the swap, else dropped;
 * - a batch: its outcome as the journal or the wallet reports it, whose
 *   receipts (never its `atomic` word) say whether its approval landed; one
 *   whose id never came back is looked for from its nonce.
 *
 * @example
 * decideStanding(journal, amountIn, {}) // { need: 'transaction', hash }
 */
export function decideStanding(
  journal: Journal,
  amountIn: bigint,
  facts: StandingFacts,
): Standing | StandingNeed {
  // A batch the wallet declined (its upgrade refused) is followed by one transaction after the other.
  if (journal[journal.length - 1]?.step === 'batch') return batchStanding(journal, amountIn, facts)
  const swapHash = stepHash(journal, 'swap')
  if (swapHash) {
    const swap = transaction(facts, swapHash)
    if (isNeed(swap)) return swap
    if (swap.status !== 'unknown') return { ...swap, approved: lastOf(journal, 'approve')?.event === 'mined' }
  }
  const from = approvalsOnChain(journal, facts)
  if ('status' in from || isNeed(from)) return from
  return walk(journal, amountIn, facts, from, !!swapHash)
}

/** A recorded transaction's fact, or the need for it; a swap's receipt kept. */
function transaction(facts: StandingFacts, hash: Hex): Standing | StandingNeed {
  const fact = facts.transactions?.[hash.toLowerCase()]
  return fact ? { status: fact.status, receipt: fact.receipt } : { need: 'transaction', hash }
}

/** Where the chain is read from for the approvals: after a mined one, or from the nonce one was expected at. */
type From = { start: ScanStart | undefined; anchored: boolean }

/** The approvals (the approval, else the reset) as the journal and the chain show them. */
function approvalsOnChain(journal: Journal, facts: StandingFacts): From | Standing | StandingNeed {
  const step = lastOf(journal, 'approve') ?? lastOf(journal, 'reset')
  if (!step) return { start: startOf(journal, 'swap'), anchored: false }
  const hash = stepHash(journal, step.step)
  if (hash && step.event === 'mined') return { start: hash, anchored: true }
  if (hash) {
    const fact = transaction(facts, hash)
    if (isNeed(fact)) return fact
    if (fact.status === 'confirmed') return { start: fact.receipt?.transactionHash ?? hash, anchored: true }
    if (fact.status !== 'unknown') return { status: fact.status }
  }
  const start = startOf(journal, step.step)
  if (start) return { start, anchored: false }
  // A record without the nonce (0.1.0): read on from a reset of its own that was mined.
  const reset = step.step === 'approve' && lastOf(journal, 'reset')?.event === 'mined'
  if (reset) return { start: stepHash(journal, 'reset'), anchored: true }
  // A hash no node shows cannot be looked for; no hash at all, nothing of the approvals went out.
  return hash ? { status: 'unknown' } : { start: undefined, anchored: false }
}

/**
 * The account's transactions from `from` on: an approval found anchors the
 * swap, the swap found is confirmed; then pending, then (anchored) the
 * allowance decides between resumable and dropped.
 */
function walk(
  journal: Journal,
  amountIn: bigint,
  facts: StandingFacts,
  { start, anchored: wasAnchored }: From,
  swapUnseen: boolean,
): Standing | StandingNeed {
  if (!start) return { status: swapUnseen || sentSwap(journal) ? 'unknown' : 'dropped' }
  const scan = facts.scans?.[scanKey(start)]
  if (scan === undefined) return { need: 'scan', start }
  if (scan === 'unknown') return { status: 'unknown' }
  let anchored = wasAnchored
  const approved = (standing: Standing): Standing => (anchored ? { ...standing, approved: true } : standing)
  for (const { kind, receipt } of scan.transactions) {
    if (kind === 'unclear') return { status: 'unknown' }
    const success = receipt.status === 'success'
    // A reverted call to the router settles nothing: it may be another tab's; the swap may come later.
    if (kind === 'swap' && success) return approved({ status: 'confirmed', receipt })
    if (kind === 'approve' && !anchored && !success) return { status: 'reverted', receipt }
    if (kind === 'approve') anchored = true
  }
  if (scan.pending) return approved({ status: 'pending' })
  if (swapUnseen) return approved({ status: 'unknown' })
  if (!anchored) return { status: sentSwap(journal) ? 'unknown' : 'dropped' }
  if (facts.allowance === undefined) return { need: 'allowance' }
  return approved(
    facts.allowance < amountIn ? { status: 'dropped' } : { status: 'resumable', nonce: scan.next },
  )
}

/** Whether the last send asked of the wallet was a swap (or batch) that did not end: its prompt may still be open. */
function sentSwap(journal: Journal): boolean {
  const last = findLast(journal, (entry) => entry.step !== 'reset' && entry.step !== 'approve')
  return !!last && last.event !== 'rejected' && last.event !== 'reverted'
}

/** A batch: its outcome from the journal or the wallet; one that failed, from its receipts; else the chain from its nonce. */
function batchStanding(journal: Journal, amountIn: bigint, facts: StandingFacts): Standing | StandingNeed {
  const last = lastOf(journal, 'batch') as JournalEntry
  const calls = journal.find((entry) => entry.step === 'batch' && entry.calls)?.calls
  if (last.event === 'mined' && last.hash) return transaction(facts, last.hash)
  if (last.event === 'reverted' && last.hashes)
    return failedBatch(journal, amountIn, facts, calls, last.hashes, undefined)
  const batchId = journal.find((entry) => entry.batchId)?.batchId
  if (batchId && last.event !== 'rejected') {
    const { batch } = facts
    if (!batch) return { need: 'batch', batchId }
    const receipts = batch.receipts ?? []
    // Done, as the wallet says: with the swap's own receipt; without it, the chain is asked.
    const receipt = batch.status === 'confirmed' ? swapReceiptOf(receipts, calls) : undefined
    if (receipt) return { status: 'confirmed', receipt }
    if (batch.status === 'reverted')
      return failedBatch(
        journal,
        amountIn,
        facts,
        calls,
        receipts.map((receipt) => receipt.transactionHash),
        receipts,
      )
    if (batch.status === 'pending' || batch.status === 'dropped') return { status: batch.status }
  }
  // No id back, or a wallet that no longer knows it: the chain from the batch's nonce.
  return walk(journal, amountIn, facts, { start: startOf(journal, 'batch'), anchored: false }, false)
}

/**
 * A failed batch: when its receipts are one per call, the approval's receipt
 * says whether it landed (a wallet that ran the calls one by one, whatever it
 * says of atomicity), and the chain after it decides; a batch of one
 * transaction reverted whole; a batch without receipts, from its nonce.
 */
function failedBatch(
  journal: Journal,
  amountIn: bigint,
  facts: StandingFacts,
  calls: readonly SwapStepKind[] | undefined,
  hashes: readonly Hex[],
  receipts: readonly TransactionReceipt[] | undefined,
): Standing | StandingNeed {
  const approval = calls?.lastIndexOf('approve') ?? -1
  if (calls && hashes.length === calls.length && approval >= 0) {
    const hash = hashes[approval] as Hex
    const landed = receipts?.[approval] ?? transaction(facts, hash)
    if ('need' in landed) return landed
    const success = 'status' in landed && (landed.status === 'success' || landed.status === 'confirmed')
    if (success) return walk(journal, amountIn, facts, { start: hash, anchored: true }, false)
  } else if (!hashes.length)
    return walk(journal, amountIn, facts, { start: startOf(journal, 'batch'), anchored: false }, false)
  return { status: 'reverted', receipt: receipts && swapReceiptOf(receipts, calls) }
}

/**
 * The swap's own receipt among a batch's: the one at the swap's position when
 * there is one per call, the only one when the wallet sent the batch as one
 * transaction; never "the last" (a reset after the swap is last).
 *
 * @example
 * swapReceiptOf(receipts, ['approve', 'swap', 'reset']) // receipts[1]
 */
export function swapReceiptOf(
  receipts: readonly TransactionReceipt[],
  calls: readonly SwapStepKind[] | undefined,
): TransactionReceipt | undefined {
  if (receipts.length === 1) return receipts[0]
  const index = calls?.indexOf('swap') ?? -1
  return calls && receipts.length === calls.length && index >= 0 ? receipts[index] : undefined
}

/** Where a step's send was expected, from its `'sending'` entry. */
function startOf(journal: Journal, step: SwapStepKind): ScanStart | undefined {
  const sending = findLast(journal, (entry) => entry.step === step && entry.event === 'sending')
  return sending?.nonce !== undefined && sending.block !== undefined
    ? { nonce: sending.nonce, block: sending.block }
    : undefined
}

/** What a failed execution does, derived from where its journal stands. */
export type Failure = {
  /** The record stays (for the chain to settle, or for a resume) unless the standing settled. */
  keep: boolean
  /** What this execution sent whose outcome is not known: the error becomes an `OutcomeUnknownError` saying so. */
  unknown?: { stage: 'approval' | 'swap'; hash?: Hex | undefined; batchId?: string | undefined } | undefined
  /** The allowance an approval may have left: read and noted, noted only when some is left (a failed batch), or not read. */
  leftover: 'note' | 'note-if-left' | 'none'
  /**
   * A resume's pinned send refused, or replaced, at its nonce: what holds it
   * may be the swap sent before the reload. Nothing is revoked or wrapped; the
   * standing is the resume's answer.
   */
  lostNonce: boolean
}

/**
 * What a failure means for the execution that saw it, from the standing the
 * verdict gave for its journal (`decideStanding`, read after the failure was
 * written to it) and the entries this execution wrote: a pure function of the
 * same verdict a page after a reload reads, so the two cannot disagree.
 *
 * @example
 * failureOf({ status: 'resumable', approved: true }, own) // { keep: true, leftover: 'note', lostNonce: false }
 */
export function failureOf(standing: Standing, own: Journal): Failure {
  const last = own[own.length - 1]
  const pinned = !!last && own.some((entry) => entry.step === last.step && entry.pinned)
  const lostNonce = pinned && ((last?.event === 'unknown' && !last.hash) || last?.event === 'replaced')
  const keep = !isSettled(standing.status)
  const sent = findLast(own, (entry) => !!entry.hash || !!entry.batchId)
  const open = standing.status === 'pending' || standing.status === 'unknown'
  const unknown =
    open && !lostNonce && sent
      ? {
          stage: sent.step === 'reset' || sent.step === 'approve' ? ('approval' as const) : ('swap' as const),
          hash: sent.step === 'batch' ? undefined : (stepHash(own, sent.step) ?? sent.hash),
          batchId: sent.batchId,
        }
      : undefined
  const leftover =
    open || lostNonce
      ? 'none'
      : standing.approved
        ? 'note'
        : last?.step === 'batch' && last.event === 'reverted'
          ? 'note-if-left'
          : 'none'
  return { keep, unknown, leftover, lostNonce }
}
