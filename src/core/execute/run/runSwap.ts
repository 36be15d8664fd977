import type { Address, Chain, TransactionReceipt } from 'viem'
import { getSwapInfo } from '../../actions/getSwapInfo.js'
import type { SwapClient } from '../../client.js'
import {
  BatchFailedError,
  InsufficientAllowanceError,
  type LeftoverAllowance,
  noteLeftoverAllowance,
  OutcomeUnknownError,
  QuoteBelowMinimumError,
  QuoteChangedError,
  type SwapOutcome,
  SwapSimulationError,
  TransactionReplacedError,
  TransactionRevertedError,
  UnsafeSwapOutcomeError,
  UserRejectedError,
} from '../../errors/execute.js'
import { SwapGuardIncompatibleError, SwapGuardNotDeployedError } from '../../errors/guard.js'
import type { SwapInfo } from '../../schemas.js'
import { deterministicDeployerAddress, swapGuardAddress } from '../guard/swapGuard.js'
import { type JournalEntry, viewOf } from '../records/journal.js'
import {
  claimPendingSwap,
  journalOf,
  newPendingSwapId,
  type PendingSwap,
  removePendingSwap,
  resolveStorage,
  type SwapStorage,
  savePendingSwap,
  withJournal,
} from '../records/pendingSwaps.js'
import { revokeAllowance } from '../revokeAllowance.js'
import { type CheckedParameters, checkAddresses } from '../rules/checkSwapParameters.js'
import { classifyFailure } from '../rules/classifyFailure.js'
import {
  type FloorEnforcement,
  type PlannedStep,
  planSwap,
  planSwapCall,
  type SwapPlan,
  sequentialSteps,
} from '../rules/planSwap.js'
import type { ExecuteSwapParameters, ExecuteSwapReturnType, ExecuteSwapStep, SwapEvent } from '../types.js'
import { approveCall, readAllowance } from './approvals.js'
import { isBatchDeclined, sendBatch } from './batch.js'
import { ensureChain, NonceTakenError, sendPinned, waitForSuccess } from './chain.js'
import {
  type CheckSwapOutcomeParameters,
  checkSwapOutcome,
  findViolations,
  type SwapCall,
} from './checkSwapOutcome.js'
import { pendingCount } from './readStanding.js'
import { hasCode, readSwapFacts } from './readSwapFacts.js'
import { realizedOutcome } from './realizedOutcome.js'
import { walletStep } from './walletErrors.js'

/** One execution: what it was asked, what it read, and its journal (a resumed record's first). */
export type SwapRun = {
  client: SwapClient
  parameters: CheckedParameters
  enforcement: FloorEnforcement
  storage: SwapStorage | undefined
  journal: JournalEntry[]
  /** Where this execution's own entries start (a resumed record's come before). */
  start: number
  /** The stored record, once written. */
  record: PendingSwap | undefined
  /** A resumed flow's first transaction goes at this nonce, the one its scan proved free. */
  pinnedNonce: number | undefined
  step: ExecuteSwapStep
  chain?: Chain | undefined
  plan?: SwapPlan | undefined
  /** The app's paymaster, where the wallet reports it can use one for the chain. */
  paymaster?: ExecuteSwapParameters['paymaster']
  release?: (() => void) | undefined
}

/**
 * A new execution of `parameters`, continuing `resumed` (its record and
 * journal) when there is one, its first transaction at `pinnedNonce`.
 *
 * @example
 * const run = createSwapRun(client, checkSwapParameters(parameters))
 */
export function createSwapRun(
  client: SwapClient,
  parameters: CheckedParameters,
  { resumed, pinnedNonce }: { resumed?: PendingSwap | undefined; pinnedNonce?: number | undefined } = {},
): SwapRun {
  const journal = resumed ? [...journalOf(resumed)] : []
  return {
    client,
    parameters,
    enforcement: parameters.floorEnforcement ?? 'onchain',
    storage: resolveStorage(parameters.storage),
    journal,
    start: journal.length,
    record: resumed,
    pinnedNonce,
    step: { status: 'quoting', action: 'fetching-quote' },
  }
}

/** Whether this execution sent anything: from then on it goes on to its outcome whatever `onStep` does. */
const hasSent = (run: SwapRun) => run.journal.slice(run.start).some((entry) => entry.event === 'sent')

/** Tells `onEvent` what happened; an `onEvent` that throws changes nothing. */
function tell(run: SwapRun, event: SwapEvent) {
  try {
    run.parameters.onEvent?.(event)
  } catch {
    // Analytics never change a swap.
  }
}

/** Tells `onStep` where the flow is: the patch, and this execution's hashes, read from its journal. */
function emit(run: SwapRun, patch: Partial<ExecuteSwapStep>) {
  const { resetHash, approvalHash, swapHash, batchId } = viewOf(run.journal.slice(run.start))
  run.step = { ...run.step, resetHash, approvalHash, swapHash, batchId, ...patch }
  try {
    run.parameters.onStep?.(run.step)
  } catch (error) {
    if (!hasSent(run)) throw error
  }
}

/**
 * Appends to the journal and writes the record (created at the first entry).
 * `required`: the step is not sent unless that is written; else a storage
 * that fails leaves the record as last written.
 */
async function note(run: SwapRun, entry: Omit<JournalEntry, 'at'>, required = false) {
  run.journal.push({ ...entry, at: Date.now() })
  const { step, event, hash, batchId } = entry
  if ((event === 'sent' || event === 'mined') && run.chain) {
    const what = step === 'reset' || step === 'approve' ? 'approval' : step
    tell(run, { type: `${what}-${event}`, chainId: run.chain.id, hash, batchId })
  }
  const { storage, parameters: p, plan, chain } = run
  if (!storage || !chain) return
  const now = Date.now()
  if (!run.record) {
    const id = newPendingSwapId()
    run.release = await claimPendingSwap(id)
    // Its step and version are the journal's (withJournal), its recipient and floor set below.
    run.record = {
      ...{ id, chainId: chain.id, account: p.owner, baseUrl: run.client.baseUrl, createdAt: now },
      ...{ token0: p.token0, token1: p.token1, amountIn: p.amountIn.toString(), slippage: p.slippage },
    } as PendingSwap
  }
  // The recipient and floor it runs with (a resumed one's, as the caller confirmed them), the
  // target approved and the swap's `to` (a resumed flow's fresh quote may name others).
  run.record = withJournal(
    {
      ...run.record,
      ...{ to: p.to, minAmountOut: p.floor.toString(), updatedAt: now },
      ...{ spender: plan?.approvalTarget, router: plan?.swap.to },
    },
    run.journal,
  )
  try {
    await savePendingSwap(storage, run.record)
  } catch (error) {
    if (required) throw error
  }
}

/**
 * Runs the execution: a fresh quote, the chain, the plan, the simulation of
 * its calls, then each step, every send written to the journal first; a
 * failure is classified from the journal (`classifyFailure`).
 *
 * @example
 * const result = await runSwap(createSwapRun(client, checkSwapParameters(parameters)))
 */
export async function runSwap(run: SwapRun): Promise<ExecuteSwapReturnType> {
  try {
    let receipts: TransactionReceipt[]
    try {
      emit(run, {})
      const swapInfo = await quote(run)
      const plan = await prepare(run, swapInfo)
      await simulate(run, plan, swapInfo)
      receipts = await send(run, plan)
    } catch (error) {
      throw await fail(run, error)
    }
    return await finish(run, receipts)
  } finally {
    run.release?.()
  }
}

/** A fresh quote, right before anything is signed, against the user's floor. */
async function quote(run: SwapRun): Promise<SwapInfo> {
  const { floor, acceptedAmount } = run.parameters
  // Its tokens, amount, recipient, slippage and deadline as the flow's.
  const swapInfo = await getSwapInfo(run.client, run.parameters)
  emit(run, { swapInfo })
  if (swapInfo.estimateAmount < floor)
    throw acceptedAmount === undefined
      ? new QuoteBelowMinimumError({ estimateAmount: swapInfo.estimateAmount, minAmountOut: floor })
      : new QuoteChangedError({ acceptedAmount, newQuote: swapInfo, minAmountOut: floor })
  return swapInfo
}

/** The chain (every transaction pinned to it), the allowlist, what the chain and the wallet say, and the plan. */
async function prepare(run: SwapRun, swapInfo: SwapInfo): Promise<SwapPlan> {
  const p = run.parameters
  emit(run, { action: 'checking-chain' })
  const chain = await ensureChain(p, p.chainId, 'chain')
  run.chain = chain
  const call = planSwapCall({
    ...p,
    enforcement: run.enforcement,
    minAmountOut: p.floor,
    recipient: p.to,
    swapInfo,
  })
  checkAddresses(p, swapInfo, call.serviceSpender, chain.id)
  if (call.approvalTarget) emit(run, { action: 'checking-allowance' })
  const facts = await walletStep('approval', () =>
    // Its owner, token0, amount, resetAllowance and capabilitiesTimeoutMs as the flow's.
    readSwapFacts(p, {
      ...{ ...p, chainId: chain.id, approvalTarget: call.approvalTarget },
      ...{ batchMode: p.batch ?? 'auto', pinnedNonce: run.pinnedNonce, guard: run.enforcement === 'onchain' },
    }),
  )
  run.paymaster = facts.paymaster ? p.paymaster : undefined
  if (facts.guardDeployed === false)
    throw new SwapGuardNotDeployedError({
      chainId: chain.id,
      address: swapGuardAddress,
      deployerAvailable: await hasCode(p.publicClient, deterministicDeployerAddress).catch(() => false),
    })
  run.plan = planSwap(
    {
      ...{ ...facts, ...p, enforcement: run.enforcement, minAmountOut: p.floor, recipient: p.to, swapInfo },
      ...{ batchMode: p.batch ?? 'auto', pinnedNonce: run.pinnedNonce },
    },
    chain.id,
  )
  return run.plan
}

/** The bounds the simulation holds the calls to. */
function boundsOf(
  run: SwapRun,
  spender: Address | undefined,
): Omit<CheckSwapOutcomeParameters, 'calls' | 'approvals'> {
  const p = run.parameters
  // Its tokens and dangerouslyAllowBalancesOnlySimulation as the flow's.
  return { ...p, account: p.owner, recipient: p.to, maxAmountIn: p.amountIn, minAmountOut: p.floor, spender }
}

/** The exact calls the wallet will sign, simulated together on the current state. */
async function simulate(run: SwapRun, plan: SwapPlan, swapInfo: SwapInfo) {
  emit(run, { action: 'simulating' })
  const simulated = await walletStep('simulation', () =>
    simulateCalls(run, plan.approvalTarget, [...plan.approvals, plan.swap]),
  ).catch(async (error) => {
    // A revert through the guard: when the service's own calls would pass, the calldata cannot
    // run through the guard (it names the user as payer, say): said so, never downgraded.
    if (plan.enforcement === 'onchain' && error instanceof SwapSimulationError && error.stage === 'swap')
      await explainGuardRevert(run, swapInfo, error)
    throw error
  })
  emit(run, { simulated, mode: plan.mode })
}

/**
 * After the guarded calls reverted in simulation: the service's own calls
 * (approving its spender, calling its router) with the same bounds. When they
 * pass, the calldata cannot run through the guard: `SwapGuardIncompatibleError`.
 */
async function explainGuardRevert(run: SwapRun, swapInfo: SwapInfo, guarded: SwapSimulationError) {
  const p = run.parameters
  const direct = planSwapCall({
    ...p,
    enforcement: 'simulation',
    minAmountOut: p.floor,
    recipient: p.to,
    swapInfo,
  })
  const approvals = direct.serviceSpender ? [approveCall(p.token0, direct.serviceSpender, p.amountIn)] : []
  const passes = await simulateCalls(run, direct.serviceSpender, [...approvals, direct.call]).then(
    () => true,
    () => false,
  )
  if (passes) throw new SwapGuardIncompatibleError({ reason: guarded.reason, cause: guarded })
}

/** Sends the plan's steps: one atomic batch, or each transaction after the previous one is mined. */
async function send(run: SwapRun, planned: SwapPlan): Promise<TransactionReceipt[]> {
  let plan = planned
  const [first] = plan.steps
  if (first?.kind === 'batch')
    try {
      return await sendBatchStep(run, first.calls)
    } catch (error) {
      // The user declined the wallet's upgrade to batch (EIP-7702), or the wallet cannot batch
      // atomically after all: the same calls, already simulated, one transaction after the other.
      if (!isBatchDeclined(error) || run.journal.some((entry) => entry.batchId)) throw error
      plan = { ...plan, mode: 'sequential', steps: sequentialSteps(plan.approvals, plan.swap) }
      run.plan = plan
      emit(run, { mode: 'sequential' })
    }
  const receipts: TransactionReceipt[] = []
  for (const step of plan.steps) {
    if (step.kind === 'batch') continue
    if (step.kind === 'swap') {
      if (plan.approvals.length) await checkAllowance(run, plan.approvalTarget as Address)
      // The swap alone, simulated again on the state the approvals left.
      emit(run, { status: 'swapping', action: 'simulating' })
      if (plan.approvals.length)
        emit(run, {
          simulated: await walletStep('simulation', () =>
            simulateCalls(run, plan.approvalTarget, [plan.swap]),
          ),
        })
      emit(run, { action: 'sending-swap' })
    } else
      emit(run, { status: 'approving', action: step.kind === 'reset' ? 'resetting-allowance' : 'approving' })
    receipts.push(await sendStep(run, step))
  }
  return receipts
}

/** Never swap without a confirmed, sufficient allowance. */
async function checkAllowance(run: SwapRun, target: Address) {
  const allowance = await walletStep('approval', () => allowanceOf(run, target))
  const required = run.parameters.amountIn
  if (allowance < required) throw new InsufficientAllowanceError({ allowance, required, spender: target })
}

/** The calls (the approvals of `spender` first, the swap last) simulated together, held to the bounds. */
function simulateCalls(run: SwapRun, spender: Address | undefined, calls: SwapCall[]) {
  return checkSwapOutcome(run.parameters.publicClient, {
    ...boundsOf(run, spender),
    calls,
    approvals: calls.length - 1,
  })
}

/**
 * One transaction: written to the journal first (the swap after an approval
 * is not sent unless written), checked right before it goes when its nonce is
 * pinned, sent pinned to the chain, then its outcome written.
 */
async function sendStep(
  run: SwapRun,
  step: Exclude<PlannedStep, { kind: 'batch' }>,
): Promise<TransactionReceipt> {
  const { kind, call, nonce } = step
  const stage = kind === 'swap' ? 'swap' : 'approval'
  if (nonce !== undefined && (await pendingCount(run.parameters, run.parameters.owner)) !== nonce)
    throw new NonceTakenError()
  await note(
    run,
    { step: kind, event: 'sending', ...(await expectedAt(run, kind, nonce)) },
    kind === 'swap' && !!run.record,
  )
  let hash: `0x${string}`
  try {
    hash = await sendPinned(run.parameters, run.chain as Chain, stage, { ...call, nonce })
  } catch (error) {
    // Refused by the node (not the user) at a pinned nonce: a swap sent before a reload may hold it.
    const event = nonce !== undefined && !(error instanceof UserRejectedError) ? 'unknown' : 'rejected'
    await note(run, { step: kind, event })
    throw error
  }
  await note(run, { step: kind, event: 'sent', hash })
  emit(run, kind === 'reset' ? {} : { action: kind === 'swap' ? 'waiting-for-swap' : 'waiting-for-approval' })
  try {
    // Its confirmations and time limits are the flow's.
    const receipt = await waitForSuccess(run.parameters, { ...run.parameters, hash, stage })
    await note(run, { step: kind, event: 'mined', hash: receipt.transactionHash })
    return receipt
  } catch (error) {
    await note(run, outcomeOf(kind, hash, error))
    throw error
  }
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
 * Where a send is expected: its pinned nonce; for a swap without an approval
 * before it, and a batch, the account's next nonce and the head block, where
 * a scan after a reload looks for it.
 */
async function expectedAt(run: SwapRun, kind: JournalEntry['step'], nonce: number | undefined) {
  if (nonce !== undefined) return { nonce, pinned: true }
  if (kind === 'reset' || kind === 'approve' || run.journal.some((entry) => entry.event === 'mined'))
    return {}
  const { publicClient, owner } = run.parameters
  const [next, block] = await Promise.all([
    publicClient.getTransactionCount({ address: owner, blockTag: 'pending' }),
    publicClient.getBlockNumber({ cacheTime: 0 }),
  ]).catch(() => [undefined, undefined] as const)
  return next === undefined ? {} : { nonce: next, block: Number(block) }
}

/** Approvals and swap as one atomic `wallet_sendCalls`, written to the journal before and after. */
async function sendBatchStep(run: SwapRun, calls: SwapCall[]): Promise<TransactionReceipt[]> {
  emit(run, { status: 'swapping', action: 'sending-batch' })
  await note(run, { step: 'batch', event: 'sending', ...(await expectedAt(run, 'batch', undefined)) })
  let batchId: string | undefined
  try {
    const result = await sendBatch(run.parameters, run.chain as Chain, calls, {
      timeoutMs: run.parameters.batchTimeoutMs ?? 300_000,
      paymaster: run.paymaster,
      onSent: async (id) => {
        batchId = id
        await note(run, { step: 'batch', event: 'sent', batchId: id })
        emit(run, { action: 'waiting-for-batch' })
      },
    })
    if (!result.receipts.length) throw new Error('The wallet reported the batch done without receipts.')
    await note(run, { step: 'batch', event: 'mined', hash: result.receipts.at(-1)?.transactionHash })
    return result.receipts
  } catch (error) {
    const event = !batchId ? 'rejected' : error instanceof BatchFailedError ? 'reverted' : 'unknown'
    await note(run, { step: 'batch', event })
    throw error
  }
}

/** What a failure leaves, and the failure told to `onEvent` with its stable code. */
async function fail(run: SwapRun, error: unknown): Promise<unknown> {
  const final = await classify(run, error)
  const code = (final as { code?: unknown })?.code
  tell(run, { type: 'failure', code: typeof code === 'string' ? code : 'UNKNOWN', error: final })
  return final
}

/** What a failure leaves, from the journal: the record kept or removed, the outcome unknown, the allowance left. */
async function classify(run: SwapRun, error: unknown): Promise<unknown> {
  if (error instanceof NonceTakenError) return error
  const outcome = classifyFailure(run.journal, {
    atomic: error instanceof BatchFailedError ? error.atomic : undefined,
  })
  if (outcome.unknown)
    return error instanceof OutcomeUnknownError
      ? error
      : new OutcomeUnknownError({ ...outcome.unknown, cause: error })
  // A pinned send refused or replaced: the record stays as it was, unrevoked, for the chain to settle.
  if (outcome.pinned) return error
  if (outcome.record === 'remove') await settle(run)
  const target = run.record?.spender ?? run.plan?.approvalTarget
  if (!outcome.leftover || !target) return error
  // A failed batch: whether its approval is left is read, never assumed from what the wallet said.
  const batch = run.journal[run.journal.length - 1]?.step === 'batch'
  return leftover(run, error, target, batch)
}

/** Forgets the record: the execution settled. */
async function settle(run: SwapRun) {
  if (run.storage && run.record) await removePendingSwap(run.storage, run.record.id).catch(() => {})
}

/**
 * Reads (and with `revokeOnFailure`, revokes) the allowance an approval of
 * this flow (or of the resumed record) left for `target`, and notes it on the error.
 */
async function leftover(run: SwapRun, error: unknown, target: Address, onlyWhenLeft = false) {
  const p = run.parameters
  const note = leftoverOf(run, target, 0n)
  try {
    note.amount = await allowanceOf(run, target)
    if (note.amount > 0n && p.revokeOnFailure) {
      emit(run, { action: 'revoking' })
      // The note names the token, the spender and the chain, as it does for the caller.
      note.revokeHash = (await revokeAllowance({ ...p, ...note })).hash
      note.amount = await allowanceOf(run, target)
      await settle(run)
    }
  } catch {
    // The note says what is known; the original error is what the caller needs.
  }
  return onlyWhenLeft && note.amount === 0n && !note.revokeHash ? error : noteLeftoverAllowance(error, note)
}

/**
 * The swap was mined and succeeded: nothing may report it failed from here
 * (the user would swap again), but the floor broken on chain.
 */
async function finish(run: SwapRun, receipts: TransactionReceipt[]): Promise<ExecuteSwapReturnType> {
  await settle(run)
  const p = run.parameters
  const plan = run.plan as SwapPlan
  const receipt = receipts[receipts.length - 1] as TransactionReceipt
  const batch = plan.mode === 'batch'
  // Through the guard, its event says what it measured; else token0 spent is read from the logs,
  // always checked, and a native output needs balance reads, retried, that may leave it unknown.
  const measured = await realizedOutcome(p.publicClient, {
    // Its owner and tokens as the flow's.
    ...{ ...p, receipts: batch ? receipts : [receipt], recipient: p.to },
    ...{ value: plan.swap.value ?? 0n, guard: plan.enforcement === 'onchain' },
  })
  // Without the output, only the overspend can be checked (its amountOut is then reported as 0).
  const { amountIn, amountOut } = measured
  const outcome: SwapOutcome = { amountIn, amountOut: amountOut ?? 0n, method: 'receipt' }
  const realized = amountOut === undefined ? undefined : outcome
  const violations = findViolations(
    boundsOf(run, plan.approvalTarget),
    { amountIn, amountOut: amountOut ?? p.floor },
    0n,
    [],
  )
  if (violations.length) throw new UnsafeSwapOutcomeError({ violations, outcome, stage: 'receipt', receipt })
  try {
    emit(run, { status: 'success', action: 'done', receipt, swapHash: receipt.transactionHash })
  } catch {
    // An onStep that throws does not undo a mined swap.
  }
  const chainId = (run.chain as Chain).id
  tell(run, {
    type: 'success',
    chainId,
    hash: receipt.transactionHash,
    floorEnforcement: plan.enforcement,
    realized,
  })
  const left = await allowanceLeft(run, plan)
  // The last step holds the quote, the mode, the simulated outcome, every hash and the receipt.
  const { status: _, action: __, ...step } = run.step
  return {
    ...(step as typeof step &
      Pick<ExecuteSwapReturnType, 'swapInfo' | 'mode' | 'simulated' | 'swapHash' | 'receipt'>),
    ...{ chainId, receipts, realized },
    ...{
      transactionHashes: receipts.map((item) => item.transactionHash),
      floorEnforcement: plan.enforcement,
    },
    ...(realized ? {} : { realizedError: measured.amountOutError }),
    ...(left ? { leftoverAllowance: left } : {}),
  }
}

/**
 * What allowance stands after a mined swap, for the target of this flow's
 * approval: none after an exact approval the swap spent; what a router that
 * spent less left, or an `'infinite'` approval. A read that fails says
 * nothing (the swap is mined all the same).
 */
async function allowanceLeft(run: SwapRun, plan: SwapPlan): Promise<LeftoverAllowance | undefined> {
  const target = plan.approvalTarget
  if (!target) return undefined
  const amount = await allowanceOf(run, target).catch(() => 0n)
  return amount > 0n ? leftoverOf(run, target, amount) : undefined
}

/** The user's allowance of token0 for `target`, read on chain. */
function allowanceOf(run: SwapRun, target: Address): Promise<bigint> {
  const { publicClient, token0, owner } = run.parameters
  return readAllowance(publicClient, token0, owner, target)
}

/** An allowance of this flow's token0, from its owner to `target`, on the flow's chain (or its record's). */
function leftoverOf(run: SwapRun, spender: Address, amount: bigint): LeftoverAllowance {
  const { token0: token, owner } = run.parameters
  return { chainId: run.chain?.id ?? (run.record as PendingSwap).chainId, token, owner, spender, amount }
}
