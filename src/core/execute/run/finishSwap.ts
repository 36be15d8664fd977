import type { Address } from 'viem'
import { type LeftoverAllowance, type SwapOutcome, UnsafeSwapOutcomeError } from '../../errors/execute.js'
import { viewOf } from '../records/journal.js'
import { forget } from '../records/recorder.js'
import type { ExecuteSwapReturnType, SwapShortfall } from '../types.js'
import { readAllowance } from './approvals.js'
import { findViolations } from './checkSwapOutcome.js'
import { emit, ownEntries, type Sent, type SwapRun, tell } from './context.js'
import { realizedOutcome } from './realizedOutcome.js'
import { boundsOf } from './simulateCalls.js'

/**
 * The swap was mined and succeeded: the record is forgotten, what it moved
 * measured (through the guard, its own event), and nothing may report it
 * failed from here (the user would swap again) but the floor broken on chain.
 *
 * @example
 * return { swapped: await finish(run, sent) }
 */
export async function finish(run: SwapRun, sent: Sent): Promise<ExecuteSwapReturnType> {
  await forget(run.recorder)
  const p = run.parameters
  const { plan, swapReceipt: receipt, receipts, chain, swapInfo, simulated } = sent
  const { enforcement: floorEnforcement, approvalTarget: target } = plan
  // Its owner and tokens as the flow's.
  const measured = await realizedOutcome(p.publicClient, {
    ...{ ...p, receipt, receipts, recipient: p.to },
    ...{ value: plan.swap.value ?? 0n, guard: floorEnforcement === 'onchain' },
  })
  // Without the output, only the overspend can be checked (its amountOut is then reported as 0).
  const { amountIn, amountOut } = measured
  const outcome: SwapOutcome = { amountIn, amountOut: amountOut ?? 0n, method: 'receipt' }
  const realized = amountOut === undefined ? undefined : outcome
  const violations = findViolations(
    boundsOf(run, target),
    { amountIn, amountOut: amountOut ?? p.floor },
    0n,
    [],
  )
  if (violations.length) throw new UnsafeSwapOutcomeError({ violations, outcome, stage: 'receipt', receipt })
  const shortfall = realized && shortfallOf(swapInfo.estimateAmount, realized.amountOut)
  const swapHash = receipt.transactionHash
  try {
    emit(run, 'done', { receipt, swapHash })
  } catch {
    // An onStep that throws does not undo a mined swap.
  }
  tell(run, { type: 'success', chainId: chain.id, hash: swapHash, floorEnforcement, realized, shortfall })
  // What allowance stands after the swap (a router that spent less, an 'infinite' approval); a read
  // that fails says nothing.
  const left = target ? await allowanceOf(run, target).catch(() => 0n) : 0n
  const { resetHash, approvalHash, batchId } = viewOf(ownEntries(run))
  return {
    ...{ swapInfo, chainId: chain.id, mode: plan.mode, resetHash, approvalHash, swapHash, receipt, batchId },
    ...{ transactionHashes: receipts.map((item) => item.transactionHash), receipts, simulated, realized },
    floorEnforcement,
    ...(realized ? { shortfall } : { realizedError: measured.amountOutError }),
    ...(left > 0n && { leftoverAllowance: leftoverOf(run, chain.id, target as Address, left) }),
  }
}

/**
 * How far below the service's estimate the recipient was paid, in basis points.
 *
 * @example
 * shortfallOf(1000n, 990n) // { estimate: 1000n, received: 990n, bps: 100 }
 */
export function shortfallOf(estimate: bigint, received: bigint): SwapShortfall {
  const bps = estimate > received ? Number(((estimate - received) * 10_000n) / estimate) : 0
  return { estimate, received, bps }
}

/**
 * The user's allowance of token0 for `target`, read on chain.
 *
 * @example
 * const amount = await allowanceOf(run, swapGuardAddress)
 */
export const allowanceOf = ({ parameters: p }: SwapRun, target: Address): Promise<bigint> =>
  readAllowance(p.publicClient, p.token0, p.owner, target)

/**
 * An allowance of this flow's token0, from its owner to `spender`, on `chainId`.
 *
 * @example
 * noteLeftoverAllowance(error, leftoverOf(run, chainId, spender, amount))
 */
export function leftoverOf(
  { parameters: p }: SwapRun,
  chainId: number,
  spender: Address,
  amount: bigint,
): LeftoverAllowance {
  return { chainId, token: p.token0, owner: p.owner, spender, amount }
}
