import type { Hex } from 'viem'
import { type Journal, lastOf, stepState, wentOut } from '../records/journal.js'

/** What a failed flow does with its record and its error. */
export type FailureOutcome = {
  /** `'keep'`: the record stays, for the chain to settle or for a resume; `'remove'`: nothing is left to settle. */
  record: 'keep' | 'remove'
  /** The step that was sent and whose outcome is not known: the error becomes an `OutcomeUnknownError` saying so. */
  unknown?: { stage: 'approval' | 'swap'; hash?: Hex | undefined; batchId?: string | undefined } | undefined
  /** Whether an approval of the flow may be left: the allowance is read (and revoked on request) and noted on the error. */
  leftover: boolean
  /** A pinned send refused or replaced: its nonce may hold the swap sent before a reload; the chain says. */
  pinned?: boolean | undefined
}

/**
 * What a failure means, from the journal the flow wrote up to it (a pure
 * function of the journal and of whether a failed batch said it was atomic):
 *
 * - a pinned send (a resume's, at the nonce its scan proved free) refused by
 *   the node or replaced: the swap sent before the reload may hold that
 *   nonce; the record stays as it is, nothing is revoked;
 * - a step sent whose outcome was not read (`'unknown'`): it may still be
 *   mined, the record stays and nothing is revoked;
 * - an approval mined (or a failed batch that was not atomic) and the swap
 *   not sent, nothing reverted or replaced: the record stays, resumable;
 * - anything else: the record goes.
 *
 * Any approval of the flow, and any failed batch, has the allowance read.
 *
 * @example
 * classifyFailure(journal, { atomic: undefined }) // { record: 'keep', leftover: true } after a mined approval
 */
export function classifyFailure(
  journal: Journal,
  { atomic }: { atomic: boolean | undefined },
): FailureOutcome {
  const last = journal[journal.length - 1]
  const failing = last ? journal.filter((entry) => entry.step === last.step) : []
  const pinned = failing.some((entry) => entry.pinned)
  if (pinned && last && ((last.event === 'unknown' && !last.hash) || last.event === 'replaced'))
    return { record: 'keep', leftover: false, pinned: true }
  if (last?.event === 'unknown') {
    const sent = lastOf(
      journal.filter((entry) => entry.event === 'sent'),
      last.step,
    )
    return {
      record: 'keep',
      leftover: false,
      unknown: {
        stage: last.step === 'reset' || last.step === 'approve' ? 'approval' : 'swap',
        hash: last.hash ?? sent?.hash,
        batchId: sent?.batchId,
      },
    }
  }
  const batchFailed = last?.step === 'batch' && last.event === 'reverted'
  const approved = stepState(journal, 'approve') === 'mined' || (batchFailed && atomic === false)
  const failed = !!last && last.step !== 'batch' && (last.event === 'reverted' || last.event === 'replaced')
  const resumable = approved && !wentOut(stepState(journal, 'swap')) && !failed
  return { record: resumable ? 'keep' : 'remove', leftover: approved || batchFailed }
}
