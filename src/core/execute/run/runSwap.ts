import { type Address, isAddressEqual } from 'viem'
import { getSwapInfo } from '../../actions/getSwapInfo.js'
import type { SwapClient } from '../../client.js'
import {
  QuoteBelowMinimumError,
  QuoteChangedError,
  SwapSimulationError,
  UnsafeSwapOutcomeError,
} from '../../errors/execute.js'
import { SwapGuardIncompatibleError, SwapGuardNotDeployedError } from '../../errors/guard.js'
import { deterministicDeployerAddress, swapGuardAddress } from '../guard/swapGuard.js'
import type { PendingSwap } from '../records/pendingSwaps.js'
import { createRecorder } from '../records/recorder.js'
import { approveCall } from '../rules/approvals.js'
import type { CheckedParameters } from '../rules/checkSwapParameters.js'
import { checkAddresses, checkValue } from '../rules/checkSwapParameters.js'
import { planSwap, planSwapCall } from '../rules/planSwap.js'
import type { SwapStorage } from '../types.js'
import { ensureChain } from './chain.js'
import { emit, type Prepared, type Quoted, type Simulated, type SwapRun } from './context.js'
import { fail, type RunResult } from './failSwap.js'
import { finish } from './finishSwap.js'
import { hasCode, readSwapFacts } from './readSwapFacts.js'
import { send } from './sendSteps.js'
import { simulateCalls } from './simulateCalls.js'
import { walletStep } from './walletErrors.js'

export type { RunResult } from './failSwap.js'

/**
 * A new execution of `parameters`, continuing `resumed` (its record and
 * journal, already claimed by the resume) when there is one, its first
 * transaction at `pinnedNonce`.
 *
 * @example
 * const run = createSwapRun(client, checkSwapParameters(parameters), storage)
 */
export function createSwapRun(
  client: SwapClient,
  parameters: CheckedParameters,
  storage: SwapStorage | undefined,
  { resumed, pinnedNonce }: { resumed?: PendingSwap | undefined; pinnedNonce?: number | undefined } = {},
): SwapRun {
  return {
    client,
    parameters,
    enforcement: parameters.floorEnforcement ?? 'onchain',
    recorder: createRecorder(storage, resumed),
    pinnedNonce,
    step: { status: 'quoting', action: 'fetching-quote' },
  }
}

/**
 * Runs the execution, one phase after the other, each holding what the one
 * before it had: a fresh quote, the chain and the plan, the simulation of the
 * plan's calls, the sends (every one written to the journal first), the
 * outcome. A failure is written where it happened and read through the one
 * verdict (`fail`).
 *
 * @example
 * const result = await runSwap(createSwapRun(client, checkSwapParameters(parameters), storage))
 * if ('stopped' in result) throw result.error
 */
export async function runSwap(run: SwapRun): Promise<RunResult> {
  let reached: Quoted | Prepared | Simulated | undefined
  try {
    let sent: Awaited<ReturnType<typeof send>>
    try {
      emit(run, 'fetching-quote')
      const quoted = await quote(run)
      reached = quoted
      const prepared = await prepare(run, quoted)
      reached = prepared
      const simulated = await simulate(run, prepared)
      reached = simulated
      sent = await send(run, simulated)
    } catch (error) {
      return await fail(run, error, reached)
    }
    return 'stopped' in sent ? sent : { swapped: await finish(run, sent) }
  } finally {
    run.recorder.release?.()
  }
}

/** A fresh quote, right before anything is signed, against the user's floor. */
async function quote(run: SwapRun): Promise<Quoted> {
  const { floor, acceptedAmount } = run.parameters
  // Its tokens, amount, recipient, slippage and deadline as the flow's.
  const swapInfo = await getSwapInfo(run.client, run.parameters)
  emit(run, 'fetching-quote', { swapInfo })
  if (swapInfo.estimateAmount < floor)
    throw acceptedAmount === undefined
      ? new QuoteBelowMinimumError({ estimateAmount: swapInfo.estimateAmount, minAmountOut: floor })
      : new QuoteChangedError({ acceptedAmount, newQuote: swapInfo, minAmountOut: floor })
  return { swapInfo }
}

/** The chain (every transaction pinned to it), the allowlist, what the chain and the wallet say, and the plan. */
async function prepare(run: SwapRun, { swapInfo }: Quoted): Promise<Prepared> {
  const p = run.parameters
  emit(run, 'checking-chain')
  const chain = await ensureChain(p, p.chainId, 'chain')
  const swap = { ...p, enforcement: run.enforcement, minAmountOut: p.floor, recipient: p.to, swapInfo }
  const call = planSwapCall(swap)
  checkAddresses(p, swapInfo, call.serviceSpender, chain.id)
  // Past the allowlist: the value, then what the chain and the wallet say.
  emit(run, 'checking-allowance')
  checkValue(p, swapInfo)
  const batchMode = p.batch ?? 'auto'
  const guarded = run.enforcement === 'onchain'
  const facts = await walletStep('approval', () =>
    // Its owner, token0, amount, resetAllowance and capabilitiesTimeoutMs as the flow's.
    readSwapFacts(p, {
      ...{ ...p, chainId: chain.id, approvalTarget: call.approvalTarget, batchMode },
      ...{
        pinnedNonce: run.pinnedNonce,
        guard: guarded,
        readPermit2: guarded && p.permit2 !== 'never' ? (p.permit2 ?? 'if-approved') : undefined,
      },
    }),
  )
  if (facts.guard === 'missing')
    throw new SwapGuardNotDeployedError({
      chainId: chain.id,
      address: swapGuardAddress,
      deployerAvailable: await hasCode(p.publicClient, deterministicDeployerAddress).catch(() => false),
    })
  const plan = planSwap({ ...facts, ...swap, batchMode, pinnedNonce: run.pinnedNonce }, chain.id)
  return { swapInfo, chain, plan, paymaster: facts.paymaster ? p.paymaster : undefined }
}

/** The exact calls the wallet will sign, simulated together on the current state. */
async function simulate(run: SwapRun, prepared: Prepared): Promise<Simulated> {
  const { plan } = prepared
  emit(run, 'simulating')
  const simulated = await walletStep('simulation', () =>
    simulateCalls(run, plan.simulation.spender, plan.simulation.calls),
  ).catch(async (error) => {
    // A revert through the guard: when the service's own calls would pass, the calldata cannot
    // run through the guard (it names the user as payer, say): said so, never downgraded.
    if (plan.enforcement === 'onchain' && error instanceof SwapSimulationError && error.stage === 'swap')
      await explainGuardRevert(run, prepared, error)
    throw error
  })
  emit(run, 'simulating', { simulated, mode: plan.mode })
  return { ...prepared, simulated }
}

/**
 * After the guarded calls reverted in simulation: the service's own calls
 * (approving its spender, calling its router). When they run, keeping the
 * user's bounds or breaking them only by a permission to the service's own
 * router or spender (calldata that pulls token0 from the user through the
 * user's Permit2 signature), it is the guard they cannot run through:
 * `SwapGuardIncompatibleError`.
 */
async function explainGuardRevert(run: SwapRun, { swapInfo }: Prepared, guarded: SwapSimulationError) {
  const p = run.parameters
  const direct = planSwapCall({
    ...p,
    enforcement: 'simulation',
    minAmountOut: p.floor,
    recipient: p.to,
    swapInfo,
  })
  const own = [swapInfo.transferAddress, direct.serviceSpender].filter(Boolean) as Address[]
  const approvals = direct.serviceSpender ? [approveCall(p.token0, direct.serviceSpender, p.amountIn)] : []
  const runs = await simulateCalls(run, direct.serviceSpender, [...approvals, direct.call]).then(
    () => true,
    (error: unknown) =>
      error instanceof UnsafeSwapOutcomeError &&
      error.violations.every(
        (violation) =>
          violation.type === 'approval' && own.some((address) => isAddressEqual(address, violation.spender)),
      ),
  )
  if (runs) throw new SwapGuardIncompatibleError({ reason: guarded.reason, cause: guarded })
}
