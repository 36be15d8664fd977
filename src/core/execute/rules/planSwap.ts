import { type Address, encodeFunctionData, erc20Abi, isAddressEqual, maxUint256, zeroAddress } from 'viem'
import { isNativeToken } from '../../constants.js'
import { BatchUnsupportedError } from '../../errors/execute.js'
import type { SwapInfo } from '../../schemas.js'
import { permit2Address, swapGuardAbi, swapGuardAddress } from '../guard/swapGuard.js'
import type { SwapPermitWitness } from '../guard/swapPermitTypedData.js'
import type { BatchMode, FloorEnforcement, Permit2Mode, SwapCall, SwapMode, SwapStepKind } from '../types.js'

export type { BatchMode, FloorEnforcement, Permit2Mode, SwapStepKind } from '../types.js'

/** The swap: its tokens, amount, floor (written into the guard's call) and recipient, and the quote's call. */
export type PlanSwapCallParameters = {
  enforcement: FloorEnforcement
  token0: Address
  token1: Address
  amountIn: bigint
  minAmountOut: bigint
  recipient: Address
  swapInfo: Pick<SwapInfo, 'approvalAddress' | 'transferAddress' | 'data' | 'transferValue'>
}

export type PlanSwapCallReturnType = {
  /** The transaction the user signs for the swap. */
  call: SwapCall
  /** Who the user approves token0 to: the guard (`'onchain'`), the service's spender, or nobody (native). */
  approvalTarget: Address | undefined
  /** The spender the service names (`approvalAddress`), whoever the user approves. */
  serviceSpender: Address | undefined
}

/**
 * The swap transaction the user signs and whom they approve: `SwapGuard.swap(...)` and the guard
 * (`'onchain'`), or the service's call as it is and its spender (`'simulation'`).
 * @example const { call, approvalTarget } = planSwapCall({ enforcement: 'onchain', ...swap, swapInfo })
 */
export function planSwapCall(parameters: PlanSwapCallParameters): PlanSwapCallReturnType {
  const { token0, swapInfo } = parameters
  const serviceSpender = approvalSpender(token0, swapInfo)
  const { transferAddress: router, data, transferValue: value } = swapInfo
  if (parameters.enforcement === 'simulation')
    return { call: { to: router, data, value }, approvalTarget: serviceSpender, serviceSpender }
  const { amountIn, token1, minAmountOut, recipient } = parameters
  const args = [
    token0,
    amountIn,
    token1,
    minAmountOut,
    recipient,
    serviceSpender ?? zeroAddress,
    router,
    data,
  ] as const
  return {
    call: {
      to: swapGuardAddress,
      data: encodeFunctionData({ abi: swapGuardAbi, functionName: 'swap', args }),
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

/** What the flow read before planning (`readSwapFacts`), the swap and the app's choices. */
export type SwapFacts = PlanSwapCallParameters & {
  /** The approval target's allowance; `undefined` without a target (a native input). */
  allowance: bigint | undefined
  /** The token refuses to change a non-zero allowance (simulated), or `resetAllowance` asked for a reset. */
  refusesChange: boolean
  approval?: 'exact' | 'infinite' | undefined
  batchMode: BatchMode
  /** The wallet reports atomic EIP-5792 batches for the chain. */
  atomicBatch: boolean
  /** The account is a contract (a Safe): its wallet batches even a lone swap, where it can. */
  contractAccount?: boolean | undefined
  /** A resumed flow's first transaction goes at this nonce, the one its scan proved free. */
  pinnedNonce?: number | undefined
  permit2?: Permit2Mode | undefined
  /** The account's allowance of token0 for Permit2; unread where Permit2 cannot be used. */
  permit2Allowance?: bigint | undefined
}

export type SwapPlan = Pick<PlanSwapCallReturnType, 'approvalTarget' | 'serviceSpender'> & {
  enforcement: FloorEnforcement
  /** The approvals, in order (a reset first where needed). */
  approvals: SwapCall[]
  /** The swap's call; through Permit2, the guard's `swap` until the signature makes it `swapWithPermit2`. */
  swap: SwapCall
  mode: SwapMode
  /** What the wallet is asked for, in order. */
  steps: PlannedStep[]
  /** Through Permit2: what the signature's witness binds besides the swap's parameters. */
  permit?: Pick<SwapPermitWitness, 'spender' | 'router' | 'data'> | undefined
  /**
   * What is simulated before anything is signed, `spender` the only approval allowed; through Permit2, the
   * same swap paid by an exact approval of the guard.
   */
  simulation: { spender: Address | undefined; calls: SwapCall[] }
}

/**
 * The steps one transaction after the other: the approvals (a reset first when there are two), the Permit2
 * signature where there is one, the swap; a pinned nonce on the first transaction.
 * @example sequentialSteps([approve], swap) // [{ kind: 'approve', call: approve }, { kind: 'swap', call: swap }]
 */
export function sequentialSteps(
  approvals: SwapCall[],
  swap: SwapCall,
  pinnedNonce?: number | undefined,
  permit = false,
): PlannedStep[] {
  const steps: PlannedStep[] = [
    ...approvals.map(
      (call, index) => ({ kind: approvals.length === 2 && !index ? 'reset' : 'approve', call }) as const,
    ),
    { kind: 'swap', call: swap },
  ]
  if (pinnedNonce !== undefined)
    steps[0] = { ...(steps[0] as { kind: 'swap'; call: SwapCall }), nonce: pinnedNonce }
  if (permit) steps.splice(-1, 0, { kind: 'permit' })
  return steps
}

/**
 * Whether the guarded swap goes through Permit2: allowed, its allowance read and covering it, or asked for.
 * @example viaPermit2({ enforcement: 'onchain', permit2: 'if-approved', permit2Allowance: maxUint256, amountIn }) // true
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

/**
 * Whether the facts call for a batch: approvals to send with the swap, a wallet that batches atomically, no
 * nonce pin.
 */
export function wantsBatch(facts: Pick<SwapFacts, 'batchMode' | 'pinnedNonce'>, approvals: number): boolean {
  return approvals > 0 && facts.batchMode !== 'never' && facts.pinnedNonce === undefined
}

/**
 * The steps of a swap from the facts read, so that `executeSwap` sends, `getSwapPreview` shows and
 * `resumeSwap` continues the same ones: no approval when the allowance covers `amountIn`, else
 * approve(target, `amountIn` or 2^256 - 1), after approve(target, 0) where the token refuses a change; one
 * atomic batch with approvals, a wallet that batches and no pinned nonce (`'require'`: or refused).
 * @example planSwap({ ...facts, allowance: 0n, atomicBatch: true, batchMode: 'auto' }, 1).steps // [{ kind: 'batch', … }]
 */
export function planSwap(facts: SwapFacts, chainId: number): SwapPlan {
  const guarded = planSwapCall(facts)
  const { call: swap, serviceSpender } = guarded
  const { token0, amountIn, enforcement } = facts
  const permit = viaPermit2(facts)
  const approvalTarget = permit ? permit2Address : guarded.approvalTarget
  const allowance = permit ? facts.permit2Allowance : facts.allowance
  const approve = (target: Address | undefined, amount: bigint) =>
    approveCall(token0, target as Address, amount)
  const approvals: SwapCall[] = []
  if (approvalTarget && allowance !== undefined && allowance < amountIn) {
    // Permit2's approval is the one-time 2^256 - 1; a partial one is set to 0 first (USDT refuses otherwise).
    if (allowance > 0n && (permit || facts.refusesChange)) approvals.push(approve(approvalTarget, 0n))
    approvals.push(approve(approvalTarget, permit || facts.approval === 'infinite' ? maxUint256 : amountIn))
  }
  const batch = wantsBatch(facts, approvals.length || (facts.contractAccount ? 1 : 0)) && facts.atomicBatch
  if (facts.batchMode === 'require' && approvals.length && !batch)
    throw new BatchUnsupportedError({ chainId })
  // Signed as it is, the service's router may spend less than approved: in a batch (no extra
  // prompt), the approval is set back to 0 after the swap, so none survives it.
  const reset =
    approvals.length && enforcement === 'simulation' && facts.approval !== 'infinite'
      ? [approve(approvalTarget, 0n)]
      : []
  const sequential = sequentialSteps(approvals, swap, facts.pinnedNonce, permit)
  const kinds = [
    ...approvals.map((_, i) => sequential[i]?.kind as SwapStepKind),
    'swap' as const,
    ...reset.map(() => 'reset' as const),
  ]
  const { transferAddress: router, data } = facts.swapInfo
  return {
    ...{ enforcement, approvalTarget, serviceSpender, approvals, swap },
    mode: batch ? 'batch' : 'sequential',
    steps: batch
      ? [
          ...(permit ? [{ kind: 'permit' } as const] : []),
          { kind: 'batch', calls: [...approvals, swap, ...reset], kinds },
        ]
      : sequential,
    ...(permit && { permit: { spender: serviceSpender ?? zeroAddress, router, data } }),
    // Through Permit2, before any signature: the same guarded swap paid by an exact approval of the guard.
    simulation: permit
      ? { spender: guarded.approvalTarget, calls: [approve(guarded.approvalTarget, amountIn), swap] }
      : { spender: approvalTarget, calls: [...approvals, swap] },
  }
}

/**
 * The spender a swap needs an allowance for: the quote's `approvalAddress`, unless token0 is the native coin
 * or the quote names none (null, the zero address).
 * @example const spender = approvalSpender(token0, swapInfo) // Address | undefined
 */
export function approvalSpender(
  token0: Address,
  swapInfo: Pick<SwapInfo, 'approvalAddress'>,
): Address | undefined {
  const spender = swapInfo.approvalAddress
  if (isNativeToken(token0) || spender === null || isAddressEqual(spender, zeroAddress)) return undefined
  return spender
}

/**
 * `approve(spender, amount)` on `token`, as the wallet is asked to sign it.
 * @example const reset = approveCall(USDT, spender, 0n)
 */
export function approveCall(token: Address, spender: Address, amount: bigint): SwapCall {
  return {
    to: token,
    data: encodeFunctionData({ abi: erc20Abi, functionName: 'approve', args: [spender, amount] }),
  }
}
