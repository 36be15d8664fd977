import { type Account, type Address, type Hex, parseAbi, type TransactionReceipt } from 'viem'
import type { SwapOutcome } from '../../errors/execute.js'
import {
  BatchFailedError,
  InsufficientAllowanceError,
  TransactionReplacedError,
  TransactionRevertedError,
  UserRejectedError,
} from '../../errors/execute.js'
import { PermitRefusedError } from '../../errors/guard.js'
import { encodeSwapWithPermit2 } from '../guard/encodeSwapWithPermit2.js'
import { permit2Address, swapGuardAddress } from '../guard/swapGuard.js'
import { swapPermitTypedData } from '../guard/swapPermitTypedData.js'
import type { JournalEntry } from '../records/journal.js'
import { markQuoteSpent } from '../rules/checkSwapParameters.js'
import { type PlannedStep, sequentialSteps } from '../rules/planSwap.js'
import { type Standing, swapReceiptOf } from '../rules/standing.js'
import type { SwapCall } from '../types.js'
import { isBatchDeclined, sendBatch } from './batch.js'
import { pendingCount, readAllowance, sendPinned, waitForSuccess } from './chain.js'
import type { Prepared, Sent, Simulated, SwapRun } from './context.js'
import { emit, ownEntries, record, simulateCalls } from './context.js'
import { walletStep } from './walletErrors.js'

/** The send phase ended with nothing sent: a resume's pinned nonce was taken since its scan. */
type NonceTaken = { stopped: Standing }

type Batch = Extract<PlannedStep, { kind: 'batch' }>
type Transaction = Extract<PlannedStep, { call: SwapCall }>

/**
 * Sends the plan's steps: one atomic batch (one transaction after the other when the user declines the
 * wallet's upgrade to batch), or each transaction after the previous one is mined. A pinned nonce taken since
 * the scan sends nothing.
 * @example const sent = await send(run, simulated)
 */
export async function send(run: SwapRun, simulated: Simulated): Promise<Sent | NonceTaken> {
  const p = run.parameters
  const first = simulated.plan.steps.find((step) => step.kind !== 'permit')
  if (first && 'nonce' in first && first.nonce !== undefined) {
    const next = await walletStep('swap', () => pendingCount(p, p.owner, simulated.chain.id))
    if (next !== first.nonce) return { stopped: { status: 'pending' } }
  }
  if (first?.kind === 'batch')
    try {
      return await sendAll(run, simulated, first)
    } catch (error) {
      // The user declined the wallet's upgrade to batch (EIP-7702), or the wallet cannot batch
      // atomically after all: the same calls, already simulated, one transaction after the other.
      if (!isBatchDeclined(error) || ownEntries(run).some((entry) => entry.batchId)) throw error
      const { approvals, swap, permit } = simulated.plan
      const steps = sequentialSteps(approvals, swap, undefined, !!permit)
      simulated = { ...simulated, plan: { ...simulated.plan, mode: 'sequential', steps } }
      emit(run, run.step.action, { mode: 'sequential' })
    }
  return sendEach(run, simulated)
}

/**
 * The exact calls about to be sent, simulated on the current state and held to the bounds; a signature
 * Permit2 would refuse is a `PermitRefusedError`.
 */
async function resimulate(run: SwapRun, { plan }: Simulated, calls: SwapCall[]) {
  emit(run, 'simulating')
  const simulated = await walletStep('simulation', () =>
    simulateCalls(run, plan.approvalTarget, calls),
  ).catch((error: unknown) => {
    const { reason } = error as { reason?: unknown }
    if (reason === 'SignatureExpired') throw new PermitRefusedError({ reason: 'expired', cause: error })
    if (reason === 'InvalidNonce') throw new PermitRefusedError({ reason: 'nonce-used', cause: error })
    throw error
  })
  emit(run, 'simulating', { simulated })
  return simulated
}

/**
 * Each transaction after the previous one is mined; before the swap, the allowance checked, the Permit2
 * signature asked for, and the swap simulated again on the state the approvals left.
 */
async function sendEach(run: SwapRun, simulated: Simulated): Promise<Sent> {
  const { plan } = simulated
  const receipts: TransactionReceipt[] = []
  let { swap } = plan
  let swapReceipt: TransactionReceipt | undefined
  for (const step of plan.steps) {
    if (step.kind === 'batch') continue
    if (step.kind === 'permit') {
      swap = await signPermit(run, simulated)
      continue
    }
    const isSwap = step.kind === 'swap'
    if (isSwap) {
      if (plan.approvals.length) await checkAllowance(run, simulated)
      if (plan.approvals.length || plan.permit)
        simulated = { ...simulated, simulated: await resimulate(run, simulated, [swap]) }
    }
    emit(run, isSwap ? 'sending-swap' : step.kind === 'reset' ? 'resetting-allowance' : 'approving')
    const receipt = await sendOne(run, simulated, isSwap ? { ...step, call: swap } : step)
    receipts.push(receipt)
    if (isSwap) swapReceipt = receipt
  }
  return { ...simulated, receipts, swapReceipt: swapReceipt as TransactionReceipt }
}

/** Never swap without a confirmed, sufficient allowance. */
async function checkAllowance({ parameters: p }: SwapRun, { plan }: Simulated) {
  const spender = plan.approvalTarget as `0x${string}`
  const allowance = await walletStep('approval', () =>
    readAllowance(p.publicClient, p.token0, p.owner, spender),
  )
  if (allowance < p.amountIn)
    throw new InsufficientAllowanceError({ allowance, required: p.amountIn, spender })
}

/**
 * Where a send is expected, written before the wallet is asked: its pinned nonce, or the account's next, and
 * the head block (where a scan after a reload looks for it when no hash came back).
 */
async function expectedAt(run: SwapRun, { chain }: Prepared, pinned: number | undefined) {
  const p = run.parameters
  const [nonce, block] = await Promise.all([
    pinned ?? pendingCount(p, p.owner, chain.id),
    p.publicClient.getBlockNumber({ cacheTime: 0 }),
  ]).catch(() => [pinned, undefined] as const)
  return {
    nonce,
    block: block === undefined ? block : Number(block),
    pinned: pinned !== undefined || undefined,
  }
}

/**
 * One transaction: written to the journal first with the nonce it is expected at (the swap is not sent unless
 * written), sent pinned to the chain (the guarded swap with its gas limit), its outcome written.
 */
async function sendOne(run: SwapRun, simulated: Simulated, { kind: step, call, nonce }: Transaction) {
  const p = run.parameters
  const stage = step === 'swap' ? 'swap' : 'approval'
  const required = stage === 'swap' && !!run.recorder.record
  await record(
    run,
    simulated,
    { step, event: 'sending', ...(await expectedAt(run, simulated, nonce)) },
    required,
  )
  const gas =
    stage === 'swap' && simulated.plan.enforcement === 'onchain' ? gasLimit(simulated.simulated) : undefined
  const hash = await sendPinned(p, simulated.chain, stage, { ...call, nonce, gas }).catch(
    async (error: unknown) => {
      // Refused by the node (not the user) at a pinned nonce: a swap sent before a reload may hold it.
      const event = nonce !== undefined && !(error instanceof UserRejectedError) ? 'unknown' : 'rejected'
      await record(run, simulated, { step, event })
      throw error
    },
  )
  await record(run, simulated, { step, event: 'sent', hash })
  if (stage === 'swap') markQuoteSpent(p.acceptedQuote)
  if (step !== 'reset') emit(run, stage === 'swap' ? 'waiting-for-swap' : 'waiting-for-approval')
  try {
    // Its confirmations and time limits are the flow's.
    const receipt = await waitForSuccess(p, { ...p, hash, stage })
    await record(run, simulated, { step, event: 'mined', hash: receipt.transactionHash })
    return receipt
  } catch (error) {
    await record(run, simulated, outcomeOf(step, hash, error))
    throw error
  }
}

/**
 * The guarded swap's gas limit from its simulation: the gas it used plus 30% and 30,000 (each nested call
 * keeps 1/64 back; a pool swapped earlier in the block writes its price history again); `undefined` where
 * nothing measured it.
 * @example gasLimit({ amountIn, amountOut, method: 'eth_simulateV1', gasUsed: [100_000n] }) // 160_000n
 */
export function gasLimit({ gasUsed }: Pick<SwapOutcome, 'gasUsed'>, extra = 0n): bigint | undefined {
  const used = gasUsed?.at(-1)
  return used === undefined ? used : ((used + extra) * 13n) / 10n + 30_000n
}

/** The journal entry a failed wait leaves: reverted, replaced, or (a timeout, a node) unknown. */
function outcomeOf(
  step: JournalEntry['step'],
  hash: `0x${string}`,
  error: unknown,
): Omit<JournalEntry, 'at'> {
  if (error instanceof TransactionRevertedError) return { step, event: 'reverted', hash: error.hash }
  if (error instanceof TransactionReplacedError)
    return { step, event: 'replaced', hash: error.replacementHash }
  return { step, event: 'unknown', hash }
}

/**
 * Approvals and swap as one atomic `wallet_sendCalls` (signed first through Permit2, the exact calls
 * simulated again), written to the journal before (what each call is) and after (the transactions the wallet
 * reports).
 */
async function sendAll(run: SwapRun, simulated: Simulated, { calls, kinds }: Batch): Promise<Sent> {
  const p = run.parameters
  if (simulated.plan.permit) {
    const swap = await signPermit(run, simulated)
    calls = calls.map((call, index) => (kinds[index] === 'swap' ? swap : call))
    simulated = { ...simulated, simulated: await resimulate(run, simulated, calls) }
  }
  emit(run, 'sending-batch')
  const step = 'batch'
  await record(run, simulated, {
    step,
    event: 'sending',
    calls: kinds,
    ...(await expectedAt(run, simulated, undefined)),
  })
  let batchId: string | undefined
  try {
    const { receipts } = await sendBatch(p, simulated.chain, calls, {
      timeoutMs: p.batchTimeoutMs ?? 300_000,
      paymaster: simulated.paymaster,
      onSent: async (id) => {
        batchId = id
        await record(run, simulated, { step, event: 'sent', batchId })
        markQuoteSpent(p.acceptedQuote)
        emit(run, 'waiting-for-batch')
      },
    })
    const swapReceipt = swapReceiptOf(receipts, kinds)
    if (!swapReceipt) throw new Error("The wallet reported the batch done without the swap's receipt.")
    const hashes = receipts.map((receipt) => receipt.transactionHash)
    await record(run, simulated, { step, event: 'mined', hash: swapReceipt.transactionHash, hashes })
    return { ...simulated, receipts, swapReceipt }
  } catch (error) {
    const failed = error instanceof BatchFailedError
    const hashes = failed ? error.receipts.map((receipt) => receipt.transactionHash) : undefined
    await record(run, simulated, {
      step,
      event: !batchId ? 'rejected' : failed ? 'reverted' : 'unknown',
      hashes,
    })
    throw error
  }
}

/**
 * A Permit2 unordered nonce the owner has not used: the lowest clear bit of the first bitmap word not yet
 * full (a fresh word costs 17,100 more gas).
 */
async function freePermit2Nonce(
  publicClient: SwapRun['parameters']['publicClient'],
  owner: Address,
): Promise<bigint> {
  const abi = parseAbi(['function nonceBitmap(address, uint256) view returns (uint256)'])
  for (let word = 0n; ; word++) {
    const args = [owner, word] as const
    const bitmap = await publicClient.readContract({
      address: permit2Address,
      abi,
      functionName: 'nonceBitmap',
      args,
    })
    let bit = 0n
    while (bit < 256n && (bitmap >> bit) & 1n) bit++
    if (bit < 256n) return (word << 8n) | bit
  }
}

/**
 * Asks the wallet to sign the Permit2 transfer of `amountIn` to the guard, its witness binding the whole
 * swap, a free nonce and a deadline ten minutes after the latest block; returns the guard call that carries
 * it. Nothing is sent (a refusal is a `UserRejectedError`).
 */
async function signPermit(run: SwapRun, { plan, chain }: Prepared): Promise<SwapCall> {
  emit(run, 'signing-permit')
  const p = run.parameters
  const [nonce, block] = await walletStep('approval', () =>
    Promise.all([freePermit2Nonce(p.publicClient, p.owner), p.publicClient.getBlock()]),
  )
  // Anyone can send it until the deadline, but only for exactly this swap.
  const permit = {
    ...{ chainId: chain.id, token0: p.token0, amountIn: p.amountIn, nonce, deadline: block.timestamp + 600n },
    witness: { token1: p.token1, minAmountOut: p.floor, recipient: p.to, value: 0n, ...plan.permit! },
  }
  const account = p.walletClient.account as Account
  const signature: Hex = await walletStep('approval', () =>
    p.walletClient.signTypedData({ account, ...swapPermitTypedData(permit) }),
  )
  return {
    to: swapGuardAddress,
    data: encodeSwapWithPermit2({ ...permit, owner: p.owner, signature }),
    value: 0n,
  }
}
