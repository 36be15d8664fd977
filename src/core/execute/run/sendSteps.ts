import type { Address, TransactionReceipt } from 'viem'
import {
  BatchFailedError,
  InsufficientAllowanceError,
  type SwapOutcome,
  TransactionReplacedError,
  TransactionRevertedError,
  UserRejectedError,
} from '../../errors/execute.js'
import { PermitRefusedError } from '../../errors/guard.js'
import type { JournalEntry } from '../records/journal.js'
import { type PlannedStep, sequentialSteps } from '../rules/planSwap.js'
import { markQuoteSpent } from '../rules/spentQuotes.js'
import { type Standing, swapReceiptOf } from '../rules/standing.js'
import type { FloorEnforcement, SwapCall, SwapStepKind } from '../types.js'
import { readAllowance } from './approvals.js'
import { isBatchDeclined, sendBatch as sendCalls } from './batch.js'
import { pendingCount, sendPinned, waitForSuccess } from './chain.js'
import {
  emit,
  ownEntries,
  type Prepared,
  record,
  type Sent,
  type Simulated,
  type SwapRun,
} from './context.js'
import { signPermit } from './signPermit.js'
import { simulateCalls } from './simulateCalls.js'
import { walletStep } from './walletErrors.js'

/** The send phase ended with nothing sent: a resume's pinned nonce was taken since its scan (something of the account is pending). */
export type NonceTaken = { stopped: Standing }

/**
 * Sends the plan's steps: one atomic batch (falling back to one transaction
 * after the other when the user declines the wallet's upgrade to batch), or
 * each transaction after the previous one is mined. A pinned nonce is checked
 * right before the first send: taken, nothing is sent.
 */
export async function send(run: SwapRun, simulated: Simulated): Promise<Sent | NonceTaken> {
  const { parameters } = run
  const first = simulated.plan.steps.find((step) => step.kind !== 'permit')
  if (first?.kind !== 'batch' && first?.nonce !== undefined) {
    const next = await walletStep('swap', () =>
      pendingCount(parameters, parameters.owner, simulated.chain.id),
    )
    if (next !== first.nonce) return { stopped: { status: 'pending' } }
  }
  if (first?.kind === 'batch')
    try {
      return await sendBatch(run, simulated, first)
    } catch (error) {
      // The user declined the wallet's upgrade to batch (EIP-7702), or the wallet cannot batch
      // atomically after all: the same calls, already simulated, one transaction after the other.
      if (!isBatchDeclined(error) || ownEntries(run).some((entry) => entry.batchId)) throw error
      const { approvals, swap, permit } = simulated.plan
      const steps = sequentialSteps(approvals, swap, undefined, !!permit)
      simulated = { ...simulated, plan: { ...simulated.plan, mode: 'sequential', steps } }
      emit(run, run.step.action, { mode: 'sequential' })
    }
  return sendSequential(run, simulated)
}

/**
 * The batch: signed first when it goes through Permit2 (its exact calls then
 * simulated again, signature included), then sent as one.
 */
async function sendBatch(
  run: SwapRun,
  simulated: Simulated,
  { calls, kinds }: Extract<PlannedStep, { kind: 'batch' }>,
): Promise<Sent> {
  const { plan } = simulated
  let sent = calls
  let outcome = simulated.simulated
  if (plan.permit) {
    const swap = await signPermit(run, simulated)
    sent = calls.map((call, index) => (kinds[index] === 'swap' ? swap : call))
    outcome = await resimulate(run, simulated, sent)
  }
  return { ...simulated, simulated: outcome, ...(await sendBatchStep(run, simulated, sent, kinds)) }
}

/**
 * The exact calls about to be sent, simulated on the current state, held to
 * the user's bounds; a signature Permit2 would refuse (expired, its nonce
 * spent) is a `PermitRefusedError`.
 */
async function resimulate(run: SwapRun, { plan }: Simulated, calls: SwapCall[]) {
  emit(run, 'simulating')
  const outcome = await walletStep('simulation', () => simulateCalls(run, plan.approvalTarget, calls)).catch(
    (error: unknown) => {
      const reason = (error as { reason?: unknown })?.reason
      if (reason === 'SignatureExpired') throw new PermitRefusedError({ reason: 'expired', cause: error })
      if (reason === 'InvalidNonce') throw new PermitRefusedError({ reason: 'nonce-used', cause: error })
      throw error
    },
  )
  emit(run, 'simulating', { simulated: outcome })
  return outcome
}

/**
 * Each transaction after the previous one is mined; before the swap, the
 * allowance checked, the Permit2 signature asked for (where the plan has
 * one), and the swap simulated again on the state the approvals left.
 */
async function sendSequential(run: SwapRun, simulated: Simulated): Promise<Sent> {
  const { plan } = simulated
  const receipts: TransactionReceipt[] = []
  let swap = plan.swap
  let swapReceipt: TransactionReceipt | undefined
  let outcome = simulated.simulated
  for (const step of plan.steps) {
    if (step.kind === 'batch') continue
    if (step.kind === 'permit') {
      swap = await signPermit(run, simulated)
      continue
    }
    if (step.kind === 'swap') {
      if (plan.approvals.length) await checkAllowance(run, plan.approvalTarget as Address)
      if (plan.approvals.length || plan.permit) outcome = await resimulate(run, simulated, [swap])
      emit(run, 'sending-swap')
    } else emit(run, step.kind === 'reset' ? 'resetting-allowance' : 'approving')
    const receipt = await sendStep(
      run,
      simulated,
      step.kind === 'swap' ? { ...step, call: swap } : step,
      outcome,
    )
    receipts.push(receipt)
    if (step.kind === 'swap') swapReceipt = receipt
  }
  return { ...simulated, simulated: outcome, receipts, swapReceipt: swapReceipt as TransactionReceipt }
}

/** Never swap without a confirmed, sufficient allowance. */
async function checkAllowance(run: SwapRun, target: Address) {
  const { publicClient, token0, owner, amountIn } = run.parameters
  const allowance = await walletStep('approval', () => readAllowance(publicClient, token0, owner, target))
  if (allowance < amountIn)
    throw new InsufficientAllowanceError({ allowance, required: amountIn, spender: target })
}

/**
 * Where a send is expected, written before the wallet is asked: its pinned
 * nonce, or the account's next (the larger of the page's node's and the
 * wallet's count), and the head block, where a scan after a reload looks for
 * it when no hash came back.
 */
async function expectedAt(run: SwapRun, prepared: Prepared, pinned: number | undefined) {
  const { publicClient, owner } = run.parameters
  const [nonce, block] = await Promise.all([
    pinned ?? pendingCount(run.parameters, owner, prepared.chain.id),
    publicClient.getBlockNumber({ cacheTime: 0 }),
  ]).catch(() => [pinned, undefined] as const)
  return {
    nonce,
    block: block === undefined ? undefined : Number(block),
    pinned: pinned !== undefined || undefined,
  }
}

/**
 * One transaction: written to the journal first with the nonce it is expected
 * at (the swap is not sent unless written), sent pinned to the chain, then
 * its outcome written.
 */
async function sendStep(
  run: SwapRun,
  prepared: Prepared,
  { kind, call, nonce }: Extract<PlannedStep, { call: SwapCall }>,
  outcome: SwapOutcome,
): Promise<TransactionReceipt> {
  const stage = kind === 'swap' ? 'swap' : 'approval'
  const required = kind === 'swap' && !!run.recorder.record
  await record(
    run,
    prepared,
    { step: kind, event: 'sending', ...(await expectedAt(run, prepared, nonce)) },
    required,
  )
  let hash: `0x${string}`
  try {
    hash = await sendPinned(run.parameters, prepared.chain, stage, {
      ...call,
      nonce,
      gas: gasLimit(kind, outcome, prepared.plan.enforcement),
    })
  } catch (error) {
    // Refused by the node (not the user) at a pinned nonce: a swap sent before a reload may hold it.
    const event = nonce !== undefined && !(error instanceof UserRejectedError) ? 'unknown' : 'rejected'
    await record(run, prepared, { step: kind, event })
    throw error
  }
  await record(run, prepared, { step: kind, event: 'sent', hash })
  if (kind === 'swap') markQuoteSpent(run.parameters.acceptedQuote)
  if (kind !== 'reset') emit(run, kind === 'swap' ? 'waiting-for-swap' : 'waiting-for-approval')
  try {
    // Its confirmations and time limits are the flow's.
    const receipt = await waitForSuccess(run.parameters, { ...run.parameters, hash, stage })
    await record(run, prepared, { step: kind, event: 'mined', hash: receipt.transactionHash })
    return receipt
  } catch (error) {
    await record(run, prepared, outcomeOf(kind, hash, error))
    throw error
  }
}

/**
 * The guarded swap's gas limit, from its own simulation: the gas it used
 * there, plus 30% and 30,000 (each call it nests keeps 1/64 of its gas back,
 * and a pool swapped earlier in the same block writes its price history
 * again); left to the wallet for approvals, for calldata signed as it is, and
 * where nothing measured it (the `eth_call` fallback).
 *
 * @example
 * gasLimit('swap', { amountIn, amountOut, method: 'eth_simulateV1', gasUsed: [100_000n] }, 'onchain') // 160_000n
 */
export function gasLimit(
  kind: SwapStepKind,
  outcome: SwapOutcome,
  enforcement: FloorEnforcement,
): bigint | undefined {
  const used = kind === 'swap' && enforcement === 'onchain' ? outcome.gasUsed?.at(-1) : undefined
  return used === undefined ? undefined : (used * 13n) / 10n + 30_000n
}

/** The journal entry a failed wait leaves: reverted, replaced, or (a timeout, a node) unknown. */
function outcomeOf(
  step: JournalEntry['step'],
  hash: `0x${string}`,
  error: unknown,
): Omit<JournalEntry, 'at'> {
  if (error instanceof TransactionRevertedError) return { step, event: 'reverted', hash: error.hash }
  if (error instanceof TransactionReplacedError)
    return { step, event: 'replaced', hash: error.receipt.transactionHash }
  return { step, event: 'unknown', hash }
}

/**
 * Approvals and swap as one atomic `wallet_sendCalls`, written to the journal
 * before (with what each call is) and after (with the transactions the wallet
 * reports); the swap's receipt is the one at the swap's place.
 */
async function sendBatchStep(
  run: SwapRun,
  prepared: Prepared,
  calls: SwapCall[],
  kinds: SwapStepKind[],
): Promise<Pick<Sent, 'receipts' | 'swapReceipt'>> {
  emit(run, 'sending-batch')
  await record(run, prepared, {
    step: 'batch',
    event: 'sending',
    calls: kinds,
    ...(await expectedAt(run, prepared, undefined)),
  })
  let batchId: string | undefined
  try {
    const { receipts } = await sendCalls(run.parameters, prepared.chain, calls, {
      timeoutMs: run.parameters.batchTimeoutMs ?? 300_000,
      paymaster: prepared.paymaster,
      onSent: async (id) => {
        batchId = id
        await record(run, prepared, { step: 'batch', event: 'sent', batchId: id })
        markQuoteSpent(run.parameters.acceptedQuote)
        emit(run, 'waiting-for-batch')
      },
    })
    const swapReceipt = swapReceiptOf(receipts, kinds)
    if (!swapReceipt) throw new Error("The wallet reported the batch done without the swap's receipt.")
    const hashes = receipts.map((receipt) => receipt.transactionHash)
    await record(run, prepared, { step: 'batch', event: 'mined', hash: swapReceipt.transactionHash, hashes })
    return { receipts, swapReceipt }
  } catch (error) {
    const failed = error instanceof BatchFailedError
    const hashes = failed ? error.receipts.map((receipt) => receipt.transactionHash) : undefined
    await record(run, prepared, {
      step: 'batch',
      event: !batchId ? 'rejected' : failed ? 'reverted' : 'unknown',
      hashes,
    })
    throw error
  }
}
