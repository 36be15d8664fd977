import type { Hex } from 'viem'
import type { SwapStepKind } from '../types.js'

/**
 * What happened to a step: `'sending'`, written before the wallet is asked
 * (with the nonce it is expected at); `'sent'`, its hash (or batch id) came
 * back; `'mined'`, `'reverted'`, its receipt; `'replaced'`, another
 * transaction was mined at its nonce (`hash`: that one); `'rejected'`, the
 * wallet sent nothing (the user said no, or it refused); `'unknown'`, it may
 * be on its way and its outcome was not read (a receipt wait that ran out, a
 * node that failed, a pinned send refused: its nonce may be taken).
 */
export type JournalEvent = 'sending' | 'sent' | 'mined' | 'reverted' | 'replaced' | 'rejected' | 'unknown'

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
  /** A batch's `'sending'`: what each of its calls is, in order (which one is the swap). */
  calls?: readonly SwapStepKind[] | undefined
  /** A batch's `'mined'` or `'reverted'`: its transactions, as the wallet reported them (one per call, or one for all). */
  hashes?: readonly Hex[] | undefined
  at: number
}

export type Journal = readonly JournalEntry[]

/** Where one step stands: its last event, `'none'` before any. */
export type StepState = JournalEvent | 'none'

/**
 * A step's last event in the journal.
 *
 * @example
 * stepState(journal, 'approve') === 'mined' // the approval is on chain
 */
export function stepState(journal: Journal, step: JournalEntry['step']): StepState {
  return lastOf(journal, step)?.event ?? 'none'
}

/**
 * The last entry that `match`es (the newest).
 *
 * @example
 * findLast(journal, (entry) => entry.event === 'sending')
 */
export function findLast(
  journal: Journal,
  match: (entry: JournalEntry) => unknown,
): JournalEntry | undefined {
  for (let index = journal.length - 1; index >= 0; index--)
    if (match(journal[index] as JournalEntry)) return journal[index]
  return undefined
}

/** A step's last entry. */
export function lastOf(journal: Journal, step: JournalEntry['step']): JournalEntry | undefined {
  return findLast(journal, (entry) => entry.step === step)
}

/** The step's transaction: the mined one when it was, else the one sent. */
export function stepHash(journal: Journal, step: JournalEntry['step']): Hex | undefined {
  return findLast(
    journal,
    (entry) => entry.step === step && entry.hash && (entry.event === 'sent' || entry.event === 'mined'),
  )?.hash
}

/** Whether the step went out (or may have): sent, and every event after that. */
export function wentOut(state: StepState): boolean {
  return state !== 'none' && state !== 'sending' && state !== 'rejected'
}

/** The record's view of the journal, as 0.1.0 stored it: the step reached and its hashes. */
export type JournalView = {
  /**
   * `'approving'`: an approval was sent; `'approved'`: it was mined (or none
   * was needed) and the swap not sent yet; `'swapping'`: the swap was sent;
   * `'batching'`: the atomic batch was sent.
   */
  step: 'approving' | 'approved' | 'swapping' | 'batching'
  resetHash?: Hex | undefined
  approvalHash?: Hex | undefined
  swapHash?: Hex | undefined
  batchId?: string | undefined
}

/**
 * What the journal says in 0.1.0's terms (a record's `step` and hashes).
 *
 * @example
 * viewOf([{ step: 'approve', event: 'mined', hash, at }]) // { step: 'approved', approvalHash: hash }
 */
export function viewOf(journal: Journal): JournalView {
  const approve = stepState(journal, 'approve')
  const step =
    stepState(journal, 'batch') !== 'none'
      ? 'batching'
      : wentOut(stepState(journal, 'swap'))
        ? 'swapping'
        : approve === 'mined' || (approve === 'none' && stepState(journal, 'reset') === 'none')
          ? 'approved'
          : 'approving'
  return {
    step,
    resetHash: stepHash(journal, 'reset'),
    approvalHash: stepHash(journal, 'approve'),
    swapHash: stepHash(journal, 'swap'),
    batchId: findLast(journal, (entry) => entry.batchId)?.batchId,
  }
}

/**
 * The journal a 0.1.0 record's step and hashes describe (records before the
 * journal): each step it names, at the event the step implies.
 *
 * @example
 * journalFromView({ step: 'approved', approvalHash: hash }, at) // [{ step: 'approve', event: 'mined', hash, at }]
 */
export function journalFromView(view: JournalView, at: number): JournalEntry[] {
  const { step, resetHash, approvalHash, swapHash, batchId } = view
  const journal: JournalEntry[] = []
  const add = (kind: JournalEntry['step'], event: JournalEvent, hash?: Hex, id?: string) =>
    journal.push({ step: kind, event, ...(hash ? { hash } : {}), ...(id ? { batchId: id } : {}), at })
  if (step === 'batching') add('batch', batchId ? 'sent' : 'sending', undefined, batchId)
  else {
    const approvalsMined = step !== 'approving'
    // An approval is sent after the reset is mined: a reset with an approval after it was mined.
    if (resetHash) add('reset', approvalsMined || approvalHash ? 'mined' : 'sent', resetHash)
    if (approvalHash) add('approve', approvalsMined ? 'mined' : 'sent', approvalHash)
    else if (step === 'approved') add('approve', 'mined')
    else if (!resetHash) add('approve', 'sending')
    if (step === 'swapping') add('swap', swapHash ? 'sent' : 'sending', swapHash)
  }
  return journal
}
