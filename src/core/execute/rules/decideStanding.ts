import type { Hex, TransactionReceipt } from 'viem'
import { type Journal, lastOf, stepHash, stepState, wentOut } from '../records/journal.js'

/**
 * Where a recorded execution stands, read from the chain (nothing is sent):
 * `'confirmed'`, `'reverted'` (its transaction's receipt) or `'dropped'`
 * (nothing it sent is the swap, and the approval it made no longer covers
 * it) have settled; `'pending'` waits for a transaction or batch in flight;
 * `'resumable'` has a mined approval and, on chain, no swap after it;
 * `'unknown'` could not be read soundly (a transaction no node shows,
 * transactions that cannot be told apart from the swap, a batch the wallet
 * cannot report), and is never resumed nor removed.
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

/** Where a scan of the account's transactions starts: after a transaction, or at a recorded nonce and block. */
export type ScanStart = Hex | { nonce: number; block: number }

/**
 * What the account sent from a point on, read from the chain: `'none'` when
 * nothing there is the swap and nothing is pending (with `nonce`, the
 * account's next one); the swap's receipt; `'pending'`; or `'unknown'`.
 */
export type ScanResult =
  | { status: 'none'; nonce: number }
  | { status: 'confirmed'; receipt: TransactionReceipt }
  | { status: 'pending' | 'unknown' }

/**
 * A recorded transaction as the chain shows it: `'dropped'`, no node knows
 * it; `'replaced'`, another transaction that is not the swap took its nonce
 * (one that is the swap reads `'success'`, with its receipt).
 */
export type TransactionState = {
  status: 'success' | 'reverted' | 'pending' | 'dropped' | 'replaced'
  receipt?: TransactionReceipt | undefined
}

/** The chain facts a decision was taken on, read one at a time as the decision asks for them. */
export type StandingFacts = {
  batch?: { status: 'success' | 'failure' | 'pending' | 'unknown'; receipt?: TransactionReceipt | undefined }
  transaction?: TransactionState
  scan?: ScanResult
  allowance?: bigint
}

/** A fact the decision needs before it can be taken. */
export type StandingNeed =
  | { need: 'batch'; batchId: string }
  | { need: 'transaction'; hash: Hex }
  | { need: 'scan'; start: ScanStart }
  | { need: 'allowance' }

export type Standing = {
  status: PendingSwapStatus
  receipt?: TransactionReceipt | undefined
  /** For `'resumable'`: the account's nonce the scan proved free. */
  nonce?: number | undefined
}

/**
 * Where a journal stands given the chain facts read so far, or the next fact
 * it needs: a pure function, the one place the rules live (`checkPendingSwap`,
 * `settlePendingSwaps` and `resumeSwap` all read through it).
 *
 * - A batch: its status from the wallet (a batch whose id never came back:
 *   the account's transactions from its recorded nonce).
 * - A swap sent: its receipt; a swap no node shows is read from the
 *   transactions after its approval (or from its recorded nonce), and is
 *   never taken for dropped.
 * - A swap being sent (no hash back) after a mined approval is read as the
 *   approval alone; without an approval, from its recorded nonce.
 * - An approval sent: its receipt; mined, what follows it.
 * - After a mined approval: the account's transactions after it; nothing
 *   that is the swap and nothing pending: resumable while the allowance
 *   covers the swap, else dropped.
 *
 * @example
 * decideStanding(journal, amountIn, {}) // { need: 'transaction', hash }
 */
export function decideStanding(
  journal: Journal,
  amountIn: bigint,
  facts: StandingFacts,
): Standing | StandingNeed {
  const batch = lastOf(journal, 'batch')
  if (batch) return batchStanding(journal, facts)
  const swap = stepState(journal, 'swap')
  const swapHash = stepHash(journal, 'swap')
  const anchor = stepHash(journal, 'approve') ?? stepHash(journal, 'reset')
  const { transaction } = facts
  if (wentOut(swap) && swapHash) {
    if (!transaction) return { need: 'transaction', hash: swapHash }
    if (transaction.status === 'success') return { status: 'confirmed', receipt: transaction.receipt }
    // A swap no node shows may be on its way: only the chain after it can tell.
    return transaction.status === 'dropped' ? foundOrUnknown(facts, anchor) : ended(transaction)
  }
  const approvalsMined = stepState(journal, 'approve') === 'mined'
  if ((swap === 'sending' || swap === 'unknown') && !approvalsMined && !anchor)
    return foundOrUnknown(facts, startOf(journal, 'swap'))
  if (!approvalsMined) {
    if (!anchor) return { status: 'dropped' }
    if (!transaction) return { need: 'transaction', hash: anchor }
    if (transaction.status === 'dropped') return { status: 'unknown' }
    if (transaction.status !== 'success') return ended(transaction)
  }
  return afterApproval(facts, amountIn, anchor)
}

/** A transaction that did not succeed: reverted or pending as it is; replaced by another, dropped. */
function ended({ status, receipt }: TransactionState): Standing {
  return { status: status === 'replaced' ? 'dropped' : (status as PendingSwapStatus), receipt }
}

/** A batch: its status, or (its id never back) the chain from its recorded nonce. */
function batchStanding(journal: Journal, facts: StandingFacts): Standing | StandingNeed {
  const batchId = viewBatchId(journal)
  if (!batchId) {
    if (stepState(journal, 'batch') === 'rejected') return { status: 'dropped' }
    return foundOrUnknown(facts, startOf(journal, 'batch'))
  }
  const { batch } = facts
  if (!batch) return { need: 'batch', batchId }
  if (batch.status === 'success') return { status: 'confirmed', receipt: batch.receipt }
  if (batch.status === 'failure') return { status: 'reverted', receipt: batch.receipt }
  return { status: batch.status }
}

/** After a mined approval: the swap found after it, or resumable while the allowance covers the swap. */
function afterApproval(
  facts: StandingFacts,
  amountIn: bigint,
  anchor: Hex | undefined,
): Standing | StandingNeed {
  if (!anchor) return { status: 'unknown' }
  const { scan } = facts
  if (!scan) return { need: 'scan', start: anchor }
  if (scan.status !== 'none') return scan
  if (facts.allowance === undefined) return { need: 'allowance' }
  return facts.allowance < amountIn ? { status: 'dropped' } : { status: 'resumable', nonce: scan.nonce }
}

/** A scan that finds the swap or something pending says so; anything else stays unknown. */
function foundOrUnknown(facts: StandingFacts, start: ScanStart | undefined): Standing | StandingNeed {
  if (!start) return { status: 'unknown' }
  const { scan } = facts
  if (!scan) return { need: 'scan', start }
  return scan.status === 'confirmed' || scan.status === 'pending' ? scan : { status: 'unknown' }
}

/** Where a step's send was expected, from its `'sending'` entry. */
function startOf(journal: Journal, step: 'swap' | 'batch'): ScanStart | undefined {
  const sending = journal.find((entry) => entry.step === step && entry.event === 'sending')
  return sending?.nonce !== undefined && sending.block !== undefined
    ? { nonce: sending.nonce, block: sending.block }
    : undefined
}

function viewBatchId(journal: Journal): string | undefined {
  return journal.find((entry) => entry.batchId)?.batchId
}
