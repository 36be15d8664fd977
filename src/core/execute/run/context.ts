import type { Address, Chain, TransactionReceipt } from 'viem'
import type { SwapClient } from '../../client.js'
import type { SwapOutcome } from '../../errors/execute.js'
import type { SwapInfo } from '../../schemas.js'
import { type JournalEntry, viewOf } from '../records/journal.js'
import { append, type Recorder } from '../records/recorder.js'
import type { CheckedParameters } from '../rules/checkSwapParameters.js'
import type { SwapPlan } from '../rules/planSwap.js'
import type {
  ExecuteSwapAction,
  ExecuteSwapParameters,
  ExecuteSwapStep,
  FloorEnforcement,
  SwapCall,
  SwapEvent,
} from '../types.js'
import { type CheckSwapOutcomeParameters, checkSwapOutcome } from './checkSwapOutcome.js'

/** One execution: what it was asked, where it records, and what it last told `onStep`. */
export type SwapRun = {
  readonly client: SwapClient
  readonly parameters: CheckedParameters
  readonly enforcement: FloorEnforcement
  readonly recorder: Recorder
  /** A resumed flow's first transaction goes at this nonce, the one its scan proved free. */
  readonly pinnedNonce: number | undefined
  step: ExecuteSwapStep
}

/** The phases of a run, each holding what the one before it had. */
export type Quoted = { swapInfo: SwapInfo }
export type Prepared = Quoted & {
  chain: Chain
  plan: SwapPlan
  /** The app's paymaster, where the wallet reports it can use one for the chain. */
  paymaster: ExecuteSwapParameters['paymaster']
}
export type Simulated = Prepared & { simulated: SwapOutcome }
export type Sent = Simulated & {
  /** Every transaction the flow sent, in order (a batch's as the wallet reported them). */
  receipts: TransactionReceipt[]
  /** The swap's own, by its place in the plan. */
  swapReceipt: TransactionReceipt
}

/**
 * The entries this execution wrote (a resumed record's come before).
 * @example const sent = ownEntries(run).some((entry) => entry.event === 'sent')
 */
export const ownEntries = (run: SwapRun): JournalEntry[] => run.recorder.journal.slice(run.recorder.start)

/**
 * Tells `onStep` where the flow is: the action, its status, what `patch` adds, and this execution's hashes
 * from its journal. An `onStep` that throws stops the flow only before anything was sent.
 * @example emit(run, 'simulating', { simulated })
 */
export function emit(run: SwapRun, action: ExecuteSwapAction, patch: Partial<ExecuteSwapStep> = {}) {
  const own = ownEntries(run)
  const { resetHash, approvalHash, swapHash, batchId } = viewOf(own)
  // A simulation after an approval is the swap's; revoking keeps the status the flow ended in.
  const status =
    action === 'done'
      ? 'success'
      : action === 'revoking'
        ? run.step.status
        : /approv|resetting/.test(action)
          ? 'approving'
          : /swap|batch/.test(action) || (action === 'simulating' && own.some((e) => e.step !== 'batch'))
            ? 'swapping'
            : 'quoting'
  run.step = { ...run.step, resetHash, approvalHash, swapHash, batchId, ...patch, status, action }
  try {
    run.parameters.onStep?.(run.step)
  } catch (error) {
    if (!own.some((entry) => entry.event === 'sent')) throw error
  }
}

/**
 * Tells `onEvent` what happened; an `onEvent` that throws changes nothing.
 * @example tell(run, { type: 'failure', code, error })
 */
export function tell(run: SwapRun, event: SwapEvent) {
  try {
    run.parameters.onEvent?.(event)
  } catch {
    // Analytics never change a swap.
  }
}

/**
 * Writes an entry to the journal and the record (`required`: the step is not sent unless written), with what
 * the record says of the swap, and tells `onEvent` of a send and of a mined step.
 * @example await record(run, prepared, { step: 'swap', event: 'sent', hash }, true)
 */
export async function record(
  run: SwapRun,
  { chain, plan }: Prepared,
  entry: Omit<JournalEntry, 'at'>,
  required = false,
): Promise<void> {
  const p = run.parameters
  const header = {
    ...{
      chainId: chain.id,
      account: p.owner,
      baseUrl: run.client.baseUrl,
      token0: p.token0,
      token1: p.token1,
    },
    ...{ amountIn: `${p.amountIn}`, slippage: p.slippage, to: p.to, minAmountOut: `${p.floor}` },
    ...{ spender: plan.approvalTarget, router: plan.swap.to },
  }
  await append(run.recorder, entry, header, required)
  const { step, event, hash, batchId } = entry
  if (event === 'sent' || event === 'mined') {
    const what = step === 'reset' || step === 'approve' ? 'approval' : step
    tell(run, { type: `${what}-${event}`, chainId: chain.id, hash, batchId })
  }
}

/**
 * The bounds the flow's calls are held to: token0 out ≤ `amountIn`, token1 in ≥ the floor, no approval but of
 * `spender`.
 * @example findViolations(boundsOf(run, plan.approvalTarget), outcome, 0n, [])
 */
export function boundsOf(
  { parameters: p }: SwapRun,
  spender: Address | undefined,
): Omit<CheckSwapOutcomeParameters, 'calls' | 'approvals'> {
  // Its tokens and dangerouslyAllowBalancesOnlySimulation as the flow's.
  return { ...p, account: p.owner, recipient: p.to, maxAmountIn: p.amountIn, minAmountOut: p.floor, spender }
}

/**
 * The calls (the approvals of `spender` first, the swap last) simulated together on the current state, held
 * to the bounds.
 * @example const simulated = await simulateCalls(run, plan.approvalTarget, [...plan.approvals, plan.swap])
 */
export const simulateCalls = (run: SwapRun, spender: Address | undefined, calls: SwapCall[]) =>
  checkSwapOutcome(run.parameters.publicClient, {
    ...boundsOf(run, spender),
    calls,
    approvals: calls.length - 1,
  })
