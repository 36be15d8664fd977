import type { Address } from 'viem'
import type { SwapCall } from '../types.js'
import { type CheckSwapOutcomeParameters, checkSwapOutcome } from './checkSwapOutcome.js'
import type { SwapRun } from './context.js'

/**
 * The bounds the flow's calls are held to: token0 out ≤ `amountIn`, token1 in ≥ the floor, no approval but of `spender`.
 *
 * @example
 * findViolations(boundsOf(run, plan.approvalTarget), outcome, 0n, [])
 */
export function boundsOf(
  { parameters: p }: SwapRun,
  spender: Address | undefined,
): Omit<CheckSwapOutcomeParameters, 'calls' | 'approvals'> {
  // Its tokens and dangerouslyAllowBalancesOnlySimulation as the flow's.
  return { ...p, account: p.owner, recipient: p.to, maxAmountIn: p.amountIn, minAmountOut: p.floor, spender }
}

/**
 * The calls (the approvals of `spender` first, the swap last) simulated together on the current state, held to the bounds.
 *
 * @example
 * const simulated = await simulateCalls(run, plan.approvalTarget, [...plan.approvals, plan.swap])
 */
export const simulateCalls = (run: SwapRun, spender: Address | undefined, calls: SwapCall[]) =>
  checkSwapOutcome(run.parameters.publicClient, {
    ...boundsOf(run, spender),
    calls,
    approvals: calls.length - 1,
  })
