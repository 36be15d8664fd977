import { type Address, withTimeout } from 'viem'
import { noteLeftoverAllowance, OutcomeUnknownError } from '../../errors/execute.js'
import { forget } from '../records/recorder.js'
import { type Failure, failureOf, type Standing } from '../rules/standing.js'
import type { ExecuteSwapReturnType } from '../types.js'
import {
  emit,
  ownEntries,
  type Prepared,
  type Quoted,
  type Simulated,
  type SwapRun,
  tell,
} from './context.js'
import { allowanceOf, finish, leftoverOf } from './finishSwap.js'
import { readStanding } from './readStanding.js'
import { revoke } from './revoke.js'

/** What a run ends with: the swap, or where it stands without it (and the error its caller throws). */
export type RunResult = { swapped: ExecuteSwapReturnType } | { stopped: Standing; error?: unknown }

/**
 * After a failure (written to the journal where it happened), the chain is
 * read through the one verdict (`readStanding`, as a page after a reload
 * reads it) and the failure handled as it says (`failureOf`): the record
 * forgotten or kept, an outcome not known said so, the allowance an approval
 * left read (and revoked on request); a swap the chain shows mined is this
 * execution's success after all.
 */
export async function fail(
  run: SwapRun,
  error: unknown,
  reached: Quoted | Prepared | Simulated | undefined,
): Promise<RunResult> {
  const p = run.parameters
  const prepared = reached && 'plan' in reached ? reached : undefined
  const chainId = prepared?.chain.id ?? run.recorder.record?.chainId ?? p.chainId
  const standing = await standingAfter(run, prepared, chainId)
  const receipt = standing.status === 'confirmed' ? standing.receipt : undefined
  // A swap on chain that is this execution's (a new one's, or sent by this resume): done after all.
  if (receipt && reached && 'simulated' in reached && isOwn(run, receipt.transactionHash))
    return { swapped: await finish(run, { ...reached, receipts: [receipt], swapReceipt: receipt }) }
  const failure = failureOf(standing, ownEntries(run))
  if (!failure.keep) await forget(run.recorder)
  let final =
    failure.unknown && !(error instanceof OutcomeUnknownError)
      ? new OutcomeUnknownError({ ...failure.unknown, cause: error })
      : error
  const target = prepared ? prepared.plan.approvalTarget : run.recorder.record?.spender
  if (failure.leftover && target && chainId !== undefined)
    final = await leftover(run, final, chainId, target, failure)
  if (final && typeof final === 'object') Object.assign(final, { step: run.step })
  const code = (final as { code?: unknown })?.code
  tell(run, { type: 'failure', code: typeof code === 'string' ? code : 'UNKNOWN', error: final })
  return { stopped: standing, error: final }
}

/** Whether a hash is one this execution sent (or, for a new execution, any: its record is its own). */
function isOwn(run: SwapRun, hash: string): boolean {
  const own = ownEntries(run)
  return (
    run.recorder.start === 0 ||
    own.some((entry) => [entry.hash, ...(entry.hashes ?? [])].includes(hash as never))
  )
}

/** The run's journal as a record's, read through the verdict; a chain that cannot be read stands unknown. */
function standingAfter(
  run: SwapRun,
  prepared: Prepared | undefined,
  chainId: number | undefined,
): Promise<Standing> {
  const p = run.parameters
  const { record } = run.recorder
  const subject = {
    ...{ journal: run.recorder.journal, account: p.owner, token0: p.token0, amountIn: p.amountIn, chainId },
    ...{
      spender: prepared?.plan.approvalTarget ?? record?.spender,
      router: prepared?.plan.swap.to ?? record?.router,
    },
  }
  const trusted = chainId === undefined ? undefined : p.trustedAddresses?.[chainId]
  // A node or wallet that fails, or hangs, leaves it unknown: never a reason to wait longer than the
  // flow's own time limits allow (10 s at most).
  const limit = Math.min(10_000, p.receiptTimeoutMs ?? 10_000, p.batchTimeoutMs ?? 10_000)
  return withTimeout(() => readStanding(p, subject, trusted), { timeout: limit }).catch(
    (): Standing => ({ status: 'unknown' }),
  )
}

/**
 * Reads (and with `revokeOnFailure`, revokes) the allowance an approval of
 * this flow (or of the resumed record) left for `target`, and notes it on the error.
 */
async function leftover(run: SwapRun, error: unknown, chainId: number, target: Address, failure: Failure) {
  const p = run.parameters
  const note = leftoverOf(run, chainId, target, 0n)
  try {
    note.amount = await allowanceOf(run, target)
    if (note.amount > 0n && p.revokeOnFailure) {
      emit(run, 'revoking')
      // The note names the token, the spender and the chain, as it does for the caller.
      note.revokeHash = (await revoke(p, note)).hash
      note.amount = await allowanceOf(run, target)
      await forget(run.recorder)
    }
  } catch {
    // The note says what is known; the original error is what the caller needs.
  }
  const quiet = failure.leftover?.ifLeft && note.amount === 0n && !note.revokeHash
  return quiet ? error : noteLeftoverAllowance(error, note)
}
