import type { Hex, TransactionReceipt } from 'viem'
import type { SentStage } from '../../errors/execute.js'
import { findLast, type Journal, lastOf, stepHash } from '../records/journal.js'
import type { SwapStepKind } from '../types.js'

/**
 * Where a recorded execution stands: `'confirmed'`, `'reverted'` and `'dropped'` (nothing it sent is the
 * swap, no approval of it covers the swap) have settled; `'pending'` waits for something in flight;
 * `'resumable'`: an approval on chain, no swap after it; `'unknown'`: never resumed nor removed.
 */
export type PendingSwapStatus = 'confirmed' | 'reverted' | 'dropped' | 'pending' | 'resumable' | 'unknown'

/** The statuses that have settled: the record is removed and reported once. */
export type SettledStatus = Extract<PendingSwapStatus, 'confirmed' | 'reverted' | 'dropped'>

/**
 * Whether a status has settled.
 * @example const settled = checked.filter(({ status }) => isSettled(status))
 */
export function isSettled(status: PendingSwapStatus): status is SettledStatus {
  return status === 'confirmed' || status === 'reverted' || status === 'dropped'
}

/**
 * A recorded transaction as the chain shows it (`'unknown'`: no node shows it; `'dropped'`: another took its
 * nonce).
 */
export type TransactionFact = {
  status: Exclude<PendingSwapStatus, 'resumable'>
  receipt?: TransactionReceipt | undefined
}

/** A mined transaction of the account, as the record sees it (`'unclear'`: a record without its router cannot tell). */
export type ScannedTransaction = {
  kind: Extract<SwapStepKind, 'approve' | 'swap'> | 'other' | 'unclear'
  receipt: TransactionReceipt
}

/** What the account sent from a point on: its mined transactions in nonce order, more pending, its next nonce. */
export type Scan = { transactions: readonly ScannedTransaction[]; pending: boolean; next: number }

/** Where a scan starts: after a mined transaction of the account (its hash), or at a recorded nonce and block. */
export type ScanStart = Hex | { nonce: number; block: number }

/** The chain facts a decision was taken on, read as the decision asks for them. */
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

type Decision = Standing | StandingNeed
/** What a decision is taken on. */
type Case = { journal: Journal; amountIn: bigint; facts: StandingFacts }
/** Where the chain is read from for the approvals: after a mined one, or from the nonce one was expected at. */
type From = { start: ScanStart | undefined; anchored: boolean }

/**
 * The key of a scan's start in `StandingFacts.scans`.
 * @example facts.scans = { [scanKey(start)]: await scanFrom(start) }
 */
export function scanKey(start: ScanStart): string {
  return typeof start === 'string' ? start.toLowerCase() : `${start.nonce}@${start.block}`
}

const isNeed = (value: object): value is StandingNeed => 'need' in value

/**
 * Where a journal stands given the chain facts read so far, or the next fact it needs: the one place the
 * rules live, for the page that saw a failure and a page after a reload alike. The journal's word first; from
 * the last approval on chain, the swap found is confirmed, anything pending pending, nothing resumable while
 * the allowance covers the swap, else dropped; a batch by its receipts, never `atomic`.
 * @example decideStanding(journal, amountIn, {}) // { need: 'transaction', hash }
 */
export function decideStanding(journal: Journal, amountIn: bigint, facts: StandingFacts): Decision {
  const c = { journal, amountIn, facts }
  // A batch the wallet declined (its upgrade refused) is followed by one transaction after the other.
  if (journal.at(-1)?.step === 'batch') return batchStanding(c)
  const swapHash = stepHash(journal, 'swap')
  const swap = swapHash && transaction(c, swapHash)
  if (swap && (isNeed(swap) || swap.status !== 'unknown'))
    return isNeed(swap) ? swap : { ...swap, approved: lastOf(journal, 'approve')?.event === 'mined' }
  const from = approvalsOnChain(c)
  return 'status' in from || isNeed(from) ? from : walk(c, from, !!swapHash)
}

/** A recorded transaction's fact, or the need for it. */
function transaction({ facts }: Case, hash: Hex): Decision {
  const fact = facts.transactions?.[hash.toLowerCase()]
  return fact ? { status: fact.status, receipt: fact.receipt } : { need: 'transaction', hash }
}

/** The approvals (the approval, else the reset) as the journal and the chain show them. */
function approvalsOnChain(c: Case): From | Decision {
  const { journal } = c
  const step = lastOf(journal, 'approve') ?? lastOf(journal, 'reset')
  if (!step) return { start: startOf(journal, 'swap'), anchored: false }
  const hash = stepHash(journal, step.step)
  if (hash && step.event === 'mined') return { start: hash, anchored: true }
  if (hash) {
    const fact = transaction(c, hash)
    if (isNeed(fact)) return fact
    if (fact.status === 'confirmed') return { start: fact.receipt?.transactionHash ?? hash, anchored: true }
    if (fact.status !== 'unknown') return { status: fact.status }
  }
  const start = startOf(journal, step.step)
  if (start) return { start, anchored: false }
  // A record without the nonce (0.1.0): read on from a reset of its own that was mined.
  if (step.step === 'approve' && lastOf(journal, 'reset')?.event === 'mined')
    return { start: stepHash(journal, 'reset'), anchored: true }
  // A hash no node shows cannot be looked for; no hash at all, nothing of the approvals went out.
  return hash ? { status: 'unknown' } : { start: undefined, anchored: false }
}

/**
 * The account's transactions from `start` on: an approval found anchors the swap, the swap found is
 * confirmed; then pending, then (anchored) the allowance decides between resumable and dropped.
 */
function walk(c: Case, { start, anchored }: From, swapUnseen: boolean): Decision {
  const { journal, facts } = c
  if (!start) return { status: swapUnseen || sentSwap(journal) ? 'unknown' : 'dropped' }
  const scan = facts.scans?.[scanKey(start)]
  if (scan === undefined) return { need: 'scan', start }
  if (scan === 'unknown') return { status: 'unknown' }
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
    facts.allowance < c.amountIn ? { status: 'dropped' } : { status: 'resumable', nonce: scan.next },
  )
}

/** Whether the last send asked of the wallet was a swap (or batch) that did not end: its prompt may still be open. */
function sentSwap(journal: Journal): boolean {
  const last = findLast(journal, (entry) => entry.step === 'swap' || entry.step === 'batch')
  return !!last && last.event !== 'rejected' && last.event !== 'reverted'
}

/**
 * A batch: its outcome from the journal or the wallet; one that failed, from its receipts; else the chain
 * from its nonce.
 */
function batchStanding(c: Case): Decision {
  const { journal, facts } = c
  const last = lastOf(journal, 'batch')
  const calls = journal.find((entry) => entry.step === 'batch' && entry.calls)?.calls
  if (last?.event === 'mined' && last.hash) return transaction(c, last.hash)
  if (last?.event === 'reverted' && last.hashes) return failedBatch(c, calls, last.hashes)
  const batchId = journal.find((entry) => entry.batchId)?.batchId
  if (batchId && last?.event !== 'rejected') {
    const { batch } = facts
    if (!batch) return { need: 'batch', batchId }
    const receipts = batch.receipts ?? []
    // Done, as the wallet says: with the swap's own receipt; without it, the chain is asked.
    const receipt = batch.status === 'confirmed' ? swapReceiptOf(receipts, calls) : undefined
    if (receipt) return { status: 'confirmed', receipt }
    if (batch.status === 'reverted')
      return failedBatch(
        c,
        calls,
        receipts.map((r) => r.transactionHash),
        receipts,
      )
    if (batch.status === 'pending' || batch.status === 'dropped') return { status: batch.status }
  }
  // No id back, or a wallet that no longer knows it: the chain from the batch's nonce.
  return walk(c, { start: startOf(journal, 'batch'), anchored: false }, false)
}

/**
 * A failed batch: with one receipt per call, the approval's says whether it landed and the chain after it
 * decides; one transaction for all reverted whole; no receipts at all, the chain from its nonce.
 */
function failedBatch(
  c: Case,
  calls: readonly SwapStepKind[] | undefined,
  hashes: readonly Hex[],
  receipts?: readonly TransactionReceipt[],
): Decision {
  const approval = calls?.lastIndexOf('approve') ?? -1
  if (hashes.length === calls?.length && approval >= 0) {
    const hash = hashes[approval] as Hex
    const landed = receipts?.[approval] ?? transaction(c, hash)
    if (isNeed(landed)) return landed
    if (landed.status === 'success' || landed.status === 'confirmed')
      return walk(c, { start: hash, anchored: true }, false)
  } else if (!hashes.length) return walk(c, { start: startOf(c.journal, 'batch'), anchored: false }, false)
  return { status: 'reverted', receipt: receipts && swapReceiptOf(receipts, calls) }
}

/**
 * The swap's own receipt among a batch's: at the swap's place with one per call, the only one for a batch
 * sent as one transaction; never "the last".
 * @example swapReceiptOf(receipts, ['approve', 'swap', 'reset']) // receipts[1]
 */
export function swapReceiptOf(
  receipts: readonly TransactionReceipt[],
  calls: readonly SwapStepKind[] | undefined,
): TransactionReceipt | undefined {
  if (receipts.length === 1) return receipts[0]
  return receipts.length === calls?.length ? receipts[calls.indexOf('swap')] : undefined
}

/** Where a step's send was expected, from its `'sending'` entry. */
function startOf(journal: Journal, step: SwapStepKind): ScanStart | undefined {
  const { nonce, block } = findLast(journal, (e) => e.step === step && e.event === 'sending') ?? {}
  return nonce !== undefined && block !== undefined ? { nonce, block } : undefined
}

/** What a failed execution does, derived from where its journal stands. */
export type Failure = {
  /** The record stays (for the chain to settle, or for a resume) unless the standing settled. */
  keep: boolean
  /** What this execution sent whose outcome is not known: the error becomes an `OutcomeUnknownError`. */
  unknown?: { stage: SentStage; hash?: Hex | undefined; batchId?: string | undefined } | undefined
  /** Read the allowance an approval may have left and note it (`ifLeft`: only when some is left). */
  leftover?: { ifLeft: boolean } | undefined
  /** A resume's pinned send refused, or replaced, at its nonce: the standing is the resume's answer. */
  lostNonce: boolean
}

/**
 * What a failure means for the execution that saw it, from its standing and its own entries alone.
 * @example failureOf({ status: 'resumable', approved: true }, own) // { keep: true, leftover: { ifLeft: false }, … }
 */
export function failureOf(standing: Standing, own: Journal): Failure {
  const last = own.at(-1)
  const pinned = !!last && own.some((entry) => entry.step === last.step && entry.pinned)
  const lostNonce = pinned && ((last?.event === 'unknown' && !last.hash) || last?.event === 'replaced')
  const sent = findLast(own, (entry) => !!entry.hash || !!entry.batchId)
  const open = standing.status === 'pending' || standing.status === 'unknown'
  const unknown =
    open && !lostNonce && sent
      ? {
          stage: sent.step === 'swap' || sent.step === 'batch' ? ('swap' as const) : ('approval' as const),
          hash: sent.step === 'batch' ? undefined : (stepHash(own, sent.step) ?? sent.hash),
          batchId: sent.batchId,
        }
      : undefined
  const failedBatch = last?.step === 'batch' && last.event === 'reverted'
  const leftover =
    open || lostNonce || !(standing.approved || failedBatch) ? undefined : { ifLeft: !standing.approved }
  return { keep: !isSettled(standing.status), unknown, leftover, lostNonce }
}
