import type { Hex } from 'viem'
import type { JournalEvent, SwapStepKind } from '../types.js'

export type { JournalEvent } from '../types.js'

/** One line of a swap's journal: a transaction's (or a batch's) step; a signature sends nothing. */
export type JournalEntry = {
  step: Exclude<SwapStepKind, 'permit'>
  event: JournalEvent
  /** The transaction: sent, or mined (a sped-up one's replacement), or what replaced it. */
  hash?: Hex | undefined
  /** The EIP-5792 batch id, once sent. */
  batchId?: string | undefined
  /** `'sending'`: the nonce it is expected at; `pinned` when the flow chose it (a resume). */
  nonce?: number | undefined
  pinned?: boolean | undefined
  /** `'sending'`: the head block then, where a scan of the account's transactions may start. */
  block?: number | undefined
  /** A batch's `'sending'`: what each of its calls is, in order. */
  calls?: readonly SwapStepKind[] | undefined
  /** A batch's `'mined'` or `'reverted'`: its transactions, as the wallet reported them. */
  hashes?: readonly Hex[] | undefined
  at: number
}

export type Journal = readonly JournalEntry[]

/**
 * The last entry that `match`es.
 * @example findLast(journal, (entry) => entry.event === 'sending')
 */
export function findLast(
  journal: Journal,
  match: (entry: JournalEntry) => unknown,
): JournalEntry | undefined {
  for (let index = journal.length; index--; ) if (match(journal[index] as JournalEntry)) return journal[index]
}

/**
 * A step's last entry.
 * @example lastOf(journal, 'approve')?.event === 'mined' // the approval is on chain
 */
export const lastOf = (journal: Journal, step: JournalEntry['step']) =>
  findLast(journal, (entry) => entry.step === step)

/**
 * The step's transaction: the mined one when it was, else the one sent.
 * @example const swapHash = stepHash(journal, 'swap')
 */
export const stepHash = (journal: Journal, step: JournalEntry['step']): Hex | undefined =>
  findLast(journal, (e) => e.step === step && e.hash && (e.event === 'sent' || e.event === 'mined'))?.hash

/** The record's view of the journal, as 0.1.0 stored it: the step reached and its hashes. */
export type JournalView = {
  /** An approval was sent; it was mined (or none was needed) and the swap not sent; the swap sent; the batch sent. */
  step: 'approving' | 'approved' | 'swapping' | 'batching'
  resetHash?: Hex | undefined
  approvalHash?: Hex | undefined
  swapHash?: Hex | undefined
  batchId?: string | undefined
}

/**
 * What the journal says in 0.1.0's terms (a record's `step` and hashes).
 * @example viewOf([{ step: 'approve', event: 'mined', hash, at }]) // { step: 'approved', approvalHash: hash }
 */
export function viewOf(journal: Journal): JournalView {
  const event = (step: JournalEntry['step']) => lastOf(journal, step)?.event
  const swap = event('swap')
  const approve = event('approve')
  return {
    step: event('batch')
      ? 'batching'
      : swap && swap !== 'sending' && swap !== 'rejected'
        ? 'swapping'
        : approve === 'mined' || (!approve && !event('reset'))
          ? 'approved'
          : 'approving',
    resetHash: stepHash(journal, 'reset'),
    approvalHash: stepHash(journal, 'approve'),
    swapHash: stepHash(journal, 'swap'),
    batchId: findLast(journal, (entry) => entry.batchId)?.batchId,
  }
}

/**
 * The journal a 0.1.0 record's step and hashes describe: each step it names, at the event the step implies.
 * @example
 * journalFromView({ step: 'approved', approvalHash: hash }, at) // [{ step: 'approve', event: 'mined', hash, at }]
 */
export function journalFromView(view: JournalView, at: number): JournalEntry[] {
  const { step, resetHash, approvalHash, swapHash, batchId } = view
  const journal: JournalEntry[] = []
  const add = (kind: JournalEntry['step'], event: JournalEvent, hash?: Hex, id?: string) =>
    journal.push({ step: kind, event, ...(hash && { hash }), ...(id && { batchId: id }), at })
  if (step === 'batching') add('batch', batchId ? 'sent' : 'sending', undefined, batchId)
  else {
    const mined = step !== 'approving'
    // An approval is sent after the reset is mined: a reset with an approval after it was mined.
    if (resetHash) add('reset', mined || approvalHash ? 'mined' : 'sent', resetHash)
    if (approvalHash) add('approve', mined ? 'mined' : 'sent', approvalHash)
    else if (step === 'approved') add('approve', 'mined')
    else if (!resetHash) add('approve', 'sending')
    if (step === 'swapping') add('swap', swapHash ? 'sent' : 'sending', swapHash)
  }
  return journal
}
