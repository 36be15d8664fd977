import type { Address } from 'viem'
import type { SwapStorage } from '../types.js'
import { claimPendingSwap } from './claims.js'
import type { JournalEntry } from './journal.js'
import type { PendingSwap } from './pendingSwaps.js'
import {
  journalOf,
  newPendingSwapId,
  removePendingSwap,
  savePendingSwap,
  withJournal,
} from './pendingSwaps.js'

/** What a record says of its swap besides its journal, written with every entry. */
export type RecordHeader = Pick<
  PendingSwap,
  'chainId' | 'account' | 'baseUrl' | 'token0' | 'token1' | 'amountIn' | 'slippage' | 'to' | 'minAmountOut'
> & {
  /** Who the swap approves (the guard, the service's spender, Permit2). */
  spender: Address | undefined
  /** The swap transaction's `to`. */
  router: Address | undefined
}

/** One execution's journal (a resumed record's entries first) and the record it is written to. */
export type Recorder = {
  readonly journal: JournalEntry[]
  /** Where this execution's own entries start. */
  readonly start: number
  readonly storage: SwapStorage | undefined
  record: PendingSwap | undefined
  /** Ends the execution's claim on its record. */
  release: (() => void) | undefined
}

/**
 * A recorder for one execution, continuing `resumed` (claimed by its resume).
 * @example const recorder = createRecorder(getDefaultStorage())
 */
export function createRecorder(
  storage: SwapStorage | undefined,
  resumed?: PendingSwap | undefined,
): Recorder {
  const journal = resumed ? [...journalOf(resumed)] : []
  return { journal, start: journal.length, storage, record: resumed, release: undefined }
}

/**
 * Appends to the journal, then writes the record (created and claimed at the first entry); `required`: a
 * storage that fails rejects (nothing is sent).
 * @example await append(recorder, { step: 'swap', event: 'sending', nonce }, header, true)
 */
export async function append(
  recorder: Recorder,
  entry: Omit<JournalEntry, 'at'>,
  header: RecordHeader,
  required = false,
): Promise<void> {
  const now = Date.now()
  recorder.journal.push({ ...entry, at: now })
  const { storage } = recorder
  if (!storage) return
  if (!recorder.record) {
    const id = newPendingSwapId()
    recorder.release = await claimPendingSwap(id)
    recorder.record = { id, version: 2, step: 'approving', createdAt: now, ...header, updatedAt: now }
  }
  recorder.record = withJournal({ ...recorder.record, ...header, updatedAt: now }, recorder.journal)
  try {
    await savePendingSwap(storage, recorder.record)
  } catch (error) {
    if (required) throw error
  }
}

/**
 * Forgets the record: the execution settled (a failing storage keeps it, to settle later).
 * @example await forget(recorder)
 */
export async function forget(recorder: Recorder): Promise<void> {
  if (recorder.storage && recorder.record)
    await removePendingSwap(recorder.storage, recorder.record.id).catch(() => {})
}
