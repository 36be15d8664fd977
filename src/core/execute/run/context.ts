import type { Chain, TransactionReceipt } from 'viem'
import type { SwapClient } from '../../client.js'
import type { SwapOutcome } from '../../errors/execute.js'
import type { SwapInfo } from '../../schemas.js'
import type { JournalEntry } from '../records/journal.js'
import { viewOf } from '../records/journal.js'
import { append, type Recorder, type RecordHeader } from '../records/recorder.js'
import type { CheckedParameters } from '../rules/checkSwapParameters.js'
import type { SwapPlan } from '../rules/planSwap.js'
import type {
  ExecuteSwapAction,
  ExecuteSwapParameters,
  ExecuteSwapStatus,
  ExecuteSwapStep,
  FloorEnforcement,
  SwapEvent,
} from '../types.js'

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

/** The entries this execution wrote (a resumed record's come before). */
export const ownEntries = (run: SwapRun): JournalEntry[] => run.recorder.journal.slice(run.recorder.start)

/** What `onStep` says the flow is doing, for each action; a simulation after approvals is the swap's. */
function statusOf(run: SwapRun, action: ExecuteSwapAction): ExecuteSwapStatus {
  if (action === 'done') return 'success'
  if (action === 'revoking') return run.step.status
  if (action === 'resetting-allowance' || action === 'approving' || action === 'waiting-for-approval')
    return 'approving'
  if (action === 'simulating')
    return ownEntries(run).some((entry) => entry.step !== 'batch') ? 'swapping' : 'quoting'
  return /swap|batch/.test(action) ? 'swapping' : 'quoting'
}

/** Whether this execution sent anything: from then on it goes on to its outcome whatever `onStep` does. */
const hasSent = (run: SwapRun) => ownEntries(run).some((entry) => entry.event === 'sent')

/**
 * Tells `onStep` where the flow is: the action, its status, what `patch`
 * adds, and this execution's hashes, read from its journal.
 */
export function emit(run: SwapRun, action: ExecuteSwapAction, patch: Partial<ExecuteSwapStep> = {}) {
  const { resetHash, approvalHash, swapHash, batchId } = viewOf(ownEntries(run))
  const status = statusOf(run, action)
  run.step = { ...run.step, resetHash, approvalHash, swapHash, batchId, ...patch, status, action }
  try {
    run.parameters.onStep?.(run.step)
  } catch (error) {
    if (!hasSent(run)) throw error
  }
}

/** Tells `onEvent` what happened; an `onEvent` that throws changes nothing. */
export function tell(run: SwapRun, event: SwapEvent) {
  try {
    run.parameters.onEvent?.(event)
  } catch {
    // Analytics never change a swap.
  }
}

/** What the record says of the swap: the flow's own parameters (a resume's, as the caller confirmed them) and the plan's addresses. */
export function headerOf(run: SwapRun, { chain, plan }: Prepared): RecordHeader {
  const p = run.parameters
  return {
    ...{
      chainId: chain.id,
      account: p.owner,
      baseUrl: run.client.baseUrl,
      token0: p.token0,
      token1: p.token1,
    },
    ...{ amountIn: p.amountIn.toString(), slippage: p.slippage, to: p.to, minAmountOut: p.floor.toString() },
    ...{ spender: plan.approvalTarget, router: plan.swap.to },
  }
}

/**
 * Writes an entry to the journal and the record (`required`: the step is not
 * sent unless written), and tells `onEvent` of a send and of a mined step.
 */
export async function record(
  run: SwapRun,
  prepared: Prepared,
  entry: Omit<JournalEntry, 'at'>,
  required = false,
): Promise<void> {
  await append(run.recorder, entry, headerOf(run, prepared), required)
  const { step, event, hash, batchId } = entry
  if (event === 'sent' || event === 'mined') {
    const what = step === 'reset' || step === 'approve' ? 'approval' : step
    tell(run, { type: `${what}-${event}`, chainId: prepared.chain.id, hash, batchId })
  }
}
