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
import type { CheckedParameters } from '../rules/checkSwapParameters.js'
import { checkAddresses, checkValue } from '../rules/checkSwapParameters.js'
import { approvalSpender, approveCall, planSwap } from '../rules/planSwap.js'
import type { SwapStorage } from '../types.js'
import { ensureChain } from './chain.js'
import { emit, type Prepared, type Quoted, type Simulated, type SwapRun, simulateCalls } from './context.js'
import { fail, type RunResult } from './failSwap.js'
import { finish } from './finishSwap.js'
import { hasCode, readSwapFacts } from './readSwapFacts.js'
import { send } from './sendSteps.js'
import { walletStep } from './walletErrors.js'

export type { RunResult } from './failSwap.js'

/**
 * A new execution of `parameters`, continuing `resumed` (its record, claimed by the resume), its first
 * transaction at `pinnedNonce`.
 * @example const run = createSwapRun(client, checkSwapParameters(parameters), storage)
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
 * Runs the execution's phases (quote, prepare, simulate, send, finish), each holding what the one before had;
 * a failure goes through the one verdict (`fail`).
 * @example const result = await runSwap(createSwapRun(client, checkSwapParameters(parameters), storage))
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
  checkAddresses(p, swapInfo, approvalSpender(p.token0, swapInfo), chain.id)
  // Past the allowlist: the value, then what the chain and the wallet say.
  emit(run, 'checking-allowance')
  checkValue(p, swapInfo)
  // Its owner, tokens, amount, approval, permit2, resetAllowance and capabilitiesTimeoutMs as the flow's.
  const swap = { ...p, enforcement: run.enforcement, minAmountOut: p.floor, recipient: p.to, swapInfo }
  const batchMode = p.batch ?? 'auto'
  const facts = await walletStep('approval', () =>
    readSwapFacts(p, { ...swap, chainId: chain.id, batchMode, pinnedNonce: run.pinnedNonce }),
  )
  if (facts.guard === 'missing')
    throw new SwapGuardNotDeployedError({
      chainId: chain.id,
      address: swapGuardAddress,
      deployerAvailable: await hasCode(p.publicClient, deterministicDeployerAddress).catch(() => false),
    })
  return {
    swapInfo,
    chain,
    plan: planSwap(facts, chain.id),
    paymaster: facts.paymaster ? p.paymaster : undefined,
  }
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
 * After the guarded calls reverted in simulation: when the service's own calls run (keeping the bounds, or
 * breaking them only by a permission to its own router or spender), it is the guard they cannot run through.
 */
async function explainGuardRevert(run: SwapRun, { swapInfo }: Prepared, guarded: SwapSimulationError) {
  const p = run.parameters
  const spender = approvalSpender(p.token0, swapInfo)
  const { transferAddress: router, data, transferValue: value } = swapInfo
  const approvals = spender ? [approveCall(p.token0, spender, p.amountIn)] : []
  const own = (address: Address) => [router, spender].some((item) => item && isAddressEqual(item, address))
  const runs = await simulateCalls(run, spender, [...approvals, { to: router, data, value }]).then(
    () => true,
    (error: unknown) =>
      error instanceof UnsafeSwapOutcomeError &&
      error.violations.every((violation) => violation.type === 'approval' && own(violation.spender)),
  )
  if (runs) throw new SwapGuardIncompatibleError({ reason: guarded.reason, cause: guarded })
}
