import { type Address, withTimeout } from 'viem'
import { noteLeftoverAllowance, OutcomeUnknownError } from '../../errors/execute.js'
import { forget } from '../records/recorder.js'
import { type Failure, failureOf, type Standing } from '../rules/standing.js'
import type { ExecuteSwapReturnType } from '../types.js'
import { revoke } from './chain.js'
import type { Prepared, Quoted, Simulated, SwapRun } from './context.js'
import { emit, ownEntries, tell } from './context.js'
import { allowanceOf, finish, leftoverOf } from './finishSwap.js'
import { readStanding } from './readStanding.js'

/** What a run ends with: the swap, or where it stands without it (and the error its caller throws). */
export type RunResult = { swapped: ExecuteSwapReturnType } | { stopped: Standing; error?: unknown }

/**
 * After a failure, the chain read through the one verdict (`readStanding`, as after a reload) and the failure
 * handled as `failureOf` says; a swap the chain shows mined is this execution's success after all.
 * @example return await fail(run, error, reached)
 */
export async function fail(
  run: SwapRun,
  error: unknown,
  reached: Quoted | Prepared | Simulated | undefined,
): Promise<RunResult> {
  const { recorder } = run
  const prepared = reached && 'plan' in reached ? reached : undefined
  const chainId = prepared?.chain.id ?? recorder.record?.chainId ?? run.parameters.chainId
  const target = prepared ? prepared.plan.approvalTarget : recorder.record?.spender
  const standing = await standingAfter(run, prepared, chainId)
  const { receipt } = standing
  // A swap on chain that is this execution's (a new one's, or sent by this resume): done after all.
  const own = (hash: string) =>
    !recorder.start ||
    ownEntries(run).some((entry) => [entry.hash, ...(entry.hashes ?? [])].includes(hash as never))
  if (
    standing.status === 'confirmed' &&
    receipt &&
    reached &&
    'simulated' in reached &&
    own(receipt.transactionHash)
  )
    return { swapped: await finish(run, { ...reached, receipts: [receipt], swapReceipt: receipt }) }
  const failure = failureOf(standing, ownEntries(run))
  if (!failure.keep) await forget(recorder)
  let final =
    failure.unknown && !(error instanceof OutcomeUnknownError)
      ? new OutcomeUnknownError({ ...failure.unknown, cause: error })
      : error
  if (failure.leftover && target && chainId !== undefined)
    final = await leftover(run, final, chainId, target, failure.leftover)
  if (final && typeof final === 'object') Object.assign(final, { step: run.step })
  const { code } = (final ?? {}) as { code?: unknown }
  tell(run, { type: 'failure', code: typeof code === 'string' ? code : 'UNKNOWN', error: final })
  return { stopped: standing, error: final }
}

/** The run's journal as a record's, read through the verdict; a chain that cannot be read stands unknown. */
function standingAfter(
  run: SwapRun,
  prepared: Prepared | undefined,
  chainId: number | undefined,
): Promise<Standing> {
  const { parameters: p, recorder } = run
  const subject = {
    ...{ journal: recorder.journal, account: p.owner, token0: p.token0, amountIn: p.amountIn, chainId },
    spender: prepared?.plan.approvalTarget ?? recorder.record?.spender,
    router: prepared?.plan.swap.to ?? recorder.record?.router,
  }
  const trusted = chainId === undefined ? undefined : p.trustedAddresses?.[chainId]
  // A node or wallet that fails, or hangs, leaves it unknown: never a wait beyond the flow's own limits (10 s at most).
  const timeout = Math.min(10_000, p.receiptTimeoutMs ?? 10_000, p.batchTimeoutMs ?? 10_000)
  return withTimeout(() => readStanding(p, subject, trusted), { timeout }).catch(
    (): Standing => ({ status: 'unknown' }),
  )
}

/** Reads (and with `revokeOnFailure`, revokes) the allowance an approval left for `target`, noted on the error. */
async function leftover(
  run: SwapRun,
  error: unknown,
  chainId: number,
  target: Address,
  { ifLeft }: NonNullable<Failure['leftover']>,
) {
  const note = leftoverOf(run, chainId, target, 0n)
  try {
    note.amount = await allowanceOf(run, target)
    if (note.amount > 0n && run.parameters.revokeOnFailure) {
      emit(run, 'revoking')
      // The note names the token, the spender and the chain, as it does for the caller.
      note.revokeHash = (await revoke(run.parameters, note)).hash
      note.amount = await allowanceOf(run, target)
      await forget(run.recorder)
    }
  } catch {
    // The note says what is known; the original error is what the caller needs.
  }
  return ifLeft && !note.amount && !note.revokeHash ? error : noteLeftoverAllowance(error, note)
}
