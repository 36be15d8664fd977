import { type Address, encodeFunctionData, maxUint256, zeroAddress } from 'viem'
import { isNativeToken } from '../../constants.js'
import { BatchUnsupportedError } from '../../errors/execute.js'
import type { SwapInfo } from '../../schemas.js'
import { permit2Address, swapGuardAbi, swapGuardAddress } from '../guard/swapGuard.js'
import type { SwapPermitWitness } from '../guard/swapPermitTypedData.js'
import type { BatchMode, FloorEnforcement, Permit2Mode, SwapCall, SwapMode, SwapStepKind } from '../types.js'
import { approvalSpender, approveCall } from './approvals.js'

export type { BatchMode, FloorEnforcement, Permit2Mode, SwapStepKind } from '../types.js'

export type PlanSwapCallParameters = {
  enforcement: FloorEnforcement
  token0: Address
  token1: Address
  amountIn: bigint
  /** The user's floor, written into the guard's call (`'onchain'`). */
  minAmountOut: bigint
  recipient: Address
  swapInfo: Pick<SwapInfo, 'approvalAddress' | 'transferAddress' | 'data' | 'transferValue'>
}

export type PlanSwapCallReturnType = {
  /** The transaction the user signs for the swap. */
  call: SwapCall
  /** Who the user approves token0 to, if anyone: the guard (`'onchain'`) or the service's spender. */
  approvalTarget: Address | undefined
  /** The spender the service names (`approvalAddress`), whoever the user approves. */
  serviceSpender: Address | undefined
}

/**
 * The swap transaction the user signs, and whom they approve for it. On
 * chain (`'onchain'`): `SwapGuard.swap(token0, amountIn, token1, minAmountOut,
 * recipient, spender, router, data)` with the service's value, the user
 * approving the guard (an ERC-20 token0); the guard pulls `amountIn` from the
 * user only, has its executor approve the service's spender and call its
 * router with its calldata, and reverts unless the user spent at most
 * `amountIn` and the recipient gained at least `minAmountOut`. Else
 * (`'simulation'`): the service's call as it is, the user approving the
 * service's spender. `executeSwap` and `getSwapPreview` both take their calls
 * from here.
 *
 * @example
 * const { call, approvalTarget } = planSwapCall({ enforcement: 'onchain', token0, token1, amountIn, minAmountOut, recipient, swapInfo })
 */
export function planSwapCall({
  enforcement,
  token0,
  token1,
  amountIn,
  minAmountOut,
  recipient,
  swapInfo,
}: PlanSwapCallParameters): PlanSwapCallReturnType {
  const serviceSpender = approvalSpender(token0, swapInfo)
  const value = swapInfo.transferValue
  if (enforcement === 'simulation')
    return {
      call: { to: swapInfo.transferAddress, data: swapInfo.data, value },
      approvalTarget: serviceSpender,
      serviceSpender,
    }
  return {
    call: {
      to: swapGuardAddress,
      data: encodeFunctionData({
        abi: swapGuardAbi,
        functionName: 'swap',
        args: [
          token0,
          amountIn,
          token1,
          minAmountOut,
          recipient,
          serviceSpender ?? zeroAddress,
          swapInfo.transferAddress,
          swapInfo.data,
        ],
      }),
      value,
    },
    approvalTarget: isNativeToken(token0) ? undefined : swapGuardAddress,
    serviceSpender,
  }
}

/** One transaction (or one EIP-5792 batch, or the Permit2 signature) the wallet is asked for. */
export type PlannedStep =
  | { kind: 'reset' | 'approve' | 'swap'; call: SwapCall; nonce?: number | undefined }
  | { kind: 'permit' }
  | { kind: 'batch'; calls: SwapCall[] /** What each call is, in order. */; kinds: SwapStepKind[] }

/** What the flow read before planning: the swap, the chain's and the wallet's facts, the app's choices. */
export type SwapFacts = {
  enforcement: FloorEnforcement
  token0: Address
  token1: Address
  amountIn: bigint
  /** The user's floor, written into the guard's call. */
  minAmountOut: bigint
  recipient: Address
  swapInfo: Pick<SwapInfo, 'approvalAddress' | 'transferAddress' | 'data' | 'transferValue'>
  /** The approval target's allowance; unread (`undefined`) when there is no target (a native input). */
  allowance: bigint | undefined
  /** The token refuses to change a non-zero allowance (simulated), or the app asked for a reset (`resetAllowance`). */
  refusesChange: boolean
  /** `'infinite'` approves 2^256 - 1. Default `'exact'`. */
  approval?: 'exact' | 'infinite' | undefined
  batchMode: BatchMode
  /** The wallet reports atomic EIP-5792 batches for the chain (asked only when a batch could be planned). */
  atomicBatch: boolean
  /** The account is a contract (a Safe): its wallet batches even a lone swap, where it can. */
  contractAccount?: boolean | undefined
  /** A resumed flow's first transaction goes at this nonce, the one its chain scan proved free. */
  pinnedNonce?: number | undefined
  /** Whether the guarded swap takes token0 through a Permit2 signature (`ExecuteSwapParameters.permit2`). Default `'if-approved'`. */
  permit2?: Permit2Mode | undefined
  /** The account's allowance of token0 for Permit2; unread when Permit2 cannot be used (`'never'`, a native input, signed as it is). */
  permit2Allowance?: bigint | undefined
}

export type SwapPlan = {
  enforcement: FloorEnforcement
  /** Who the user approves: the guard (`'onchain'`), the service's spender, or nobody (native input). */
  approvalTarget: Address | undefined
  /** The spender the service names, whoever the user approves. */
  serviceSpender: Address | undefined
  /** The approvals, in order (a reset first where needed); none when the allowance covers `amountIn`. */
  approvals: SwapCall[]
  /** The swap's call; through Permit2, the guard's `swap` of the same swap, paid by an approval, until the signature makes it `swapWithPermit2`. */
  swap: SwapCall
  mode: SwapMode
  /** What the wallet is asked for, in order. */
  steps: PlannedStep[]
  /** Through Permit2: what the signature's witness binds (the swap's `spender`, `router` and `data`). */
  permit?: Pick<SwapPermitWitness, 'spender' | 'router' | 'data'> | undefined
  /**
   * What is simulated before anything is signed, held to the user's bounds,
   * `spender` the only approval allowed: the approvals and the swap; through
   * Permit2, the same swap paid by an exact approval of the guard (there is
   * no signature yet), the exact calls simulated again once signed.
   */
  simulation: { spender: Address | undefined; calls: SwapCall[] }
}

/**
 * The steps one transaction after the other: the approvals (a reset first
 * when there are two), the Permit2 signature where there is one, then the
 * swap; a pinned nonce on the first transaction.
 *
 * @example
 * sequentialSteps([approve], swap) // [{ kind: 'approve', call: approve }, { kind: 'swap', call: swap }]
 */
export function sequentialSteps(
  approvals: SwapCall[],
  swap: SwapCall,
  pinnedNonce?: number | undefined,
  permit = false,
): PlannedStep[] {
  const transactions = [
    // Two approvals: the reset to 0, then the approval.
    ...approvals.map(
      (call, index) => ({ kind: approvals.length === 2 && !index ? 'reset' : 'approve', call }) as const,
    ),
    { kind: 'swap', call: swap } as const,
  ].map((step, index) => (index === 0 && pinnedNonce !== undefined ? { ...step, nonce: pinnedNonce } : step))
  const swapStep = transactions.pop() as PlannedStep
  return [...transactions, ...(permit ? [{ kind: 'permit' } as const] : []), swapStep]
}

/**
 * Whether the guarded swap goes through Permit2: an ERC-20 input (its
 * Permit2 allowance read), Permit2 allowed, and its allowance there or asked for.
 *
 * @example
 * viaPermit2({ enforcement: 'onchain', permit2: 'if-approved', permit2Allowance: maxUint256, amountIn }) // true
 */
export function viaPermit2({
  enforcement,
  permit2 = 'if-approved',
  permit2Allowance,
  amountIn,
}: Pick<SwapFacts, 'enforcement' | 'permit2' | 'permit2Allowance' | 'amountIn'>): boolean {
  if (enforcement !== 'onchain' || permit2 === 'never' || permit2Allowance === undefined) return false
  return permit2Allowance >= amountIn || permit2 === 'approve'
}

/** Whether the facts call for a batch: approvals to send with the swap, a wallet that batches atomically, no nonce pin. */
export function wantsBatch(facts: Pick<SwapFacts, 'batchMode' | 'pinnedNonce'>, approvals: number): boolean {
  return approvals > 0 && facts.batchMode !== 'never' && facts.pinnedNonce === undefined
}

/**
 * The steps of a swap, from the facts the flow read: a pure function, so that
 * `executeSwap` sends, `getSwapPreview` shows and `resumeSwap` continues the
 * same steps. The approvals: none when the allowance covers `amountIn`, else
 * approve(target, `amountIn` or 2^256 - 1), after approve(target, 0) when the
 * allowance is not zero and the token refuses to change it. One atomic batch
 * of approvals and swap when there are approvals, the wallet batches
 * atomically, the app allows it and no nonce is pinned; `batch: 'require'`
 * without it is a `BatchUnsupportedError`. A pinned nonce goes to the first
 * transaction sent.
 *
 * @example
 * const { steps } = planSwap({ ...facts, allowance: 0n, refusesChange: false, atomicBatch: true, batchMode: 'auto' })
 * // [{ kind: 'batch', calls: [approve, swap] }]
 */
export function planSwap(facts: SwapFacts, chainId: number): SwapPlan {
  const guarded = planSwapCall(facts)
  const { call: swap, serviceSpender } = guarded
  const { token0, amountIn } = facts
  const permit = viaPermit2(facts)
  const approvalTarget = permit ? permit2Address : guarded.approvalTarget
  const allowance = permit ? facts.permit2Allowance : facts.allowance
  const approvals: SwapCall[] = []
  if (approvalTarget && allowance !== undefined && allowance < amountIn) {
    // Permit2's approval is the one-time 2^256 - 1; a partial one is set to 0 first (USDT refuses otherwise).
    if (allowance > 0n && (permit || facts.refusesChange))
      approvals.push(approveCall(token0, approvalTarget, 0n))
    const infinite = permit || facts.approval === 'infinite'
    approvals.push(approveCall(token0, approvalTarget, infinite ? maxUint256 : amountIn))
  }
  const batch = wantsBatch(facts, approvals.length || (facts.contractAccount ? 1 : 0)) && facts.atomicBatch
  if (facts.batchMode === 'require' && approvals.length > 0 && !batch)
    throw new BatchUnsupportedError({ chainId })
  // Signed as it is, the service's router may spend less than approved: in a batch (no extra
  // prompt), the approval is set back to 0 after the swap, so none survives it.
  const reset =
    approvalTarget && approvals.length && facts.enforcement === 'simulation' && facts.approval !== 'infinite'
      ? [approveCall(token0, approvalTarget, 0n)]
      : []
  const sequential = sequentialSteps(approvals, swap, facts.pinnedNonce, permit)
  const kinds = [
    ...sequential.flatMap((step) => (step.kind === 'permit' ? [] : [step.kind])),
    ...reset.map(() => 'reset' as const),
  ]
  const steps: PlannedStep[] = batch
    ? [
        ...(permit ? [{ kind: 'permit' } as const] : []),
        { kind: 'batch', calls: [...approvals, swap, ...reset], kinds },
      ]
    : sequential
  const { transferAddress: router, data } = facts.swapInfo
  return {
    ...{ enforcement: facts.enforcement, approvalTarget, serviceSpender, approvals, swap },
    ...{ mode: batch ? 'batch' : 'sequential', steps },
    ...(permit ? { permit: { spender: serviceSpender ?? zeroAddress, router, data } } : {}),
    simulation: permit
      ? {
          spender: guarded.approvalTarget,
          calls: [approveCall(token0, guarded.approvalTarget as Address, amountIn), swap],
        }
      : { spender: approvalTarget, calls: [...approvals, swap] },
  }
}
