import type { Address, Hex, PublicClient, TransactionReceipt } from 'viem'
import { erc20Abi, isAddressEqual, parseEventLogs } from 'viem'
import { isNativeToken } from '../../constants.js'
import { type LeftoverAllowance, type SwapOutcome, UnsafeSwapOutcomeError } from '../../errors/execute.js'
import { swapGuardAbi, swapGuardAddress } from '../guard/swapGuard.js'
import { viewOf } from '../records/journal.js'
import { forget } from '../records/recorder.js'
import type { ExecuteSwapReturnType, SwapShortfall } from '../types.js'
import { readAllowance } from './chain.js'
import { findViolations } from './checkSwapOutcome.js'
import { boundsOf, emit, ownEntries, type Sent, type SwapRun, tell } from './context.js'

/**
 * The swap was mined and succeeded: the record is forgotten, what it moved measured (through the guard, its
 * own event), and nothing may report it failed from here (the user would swap again) but the floor broken on
 * chain.
 * @example return { swapped: await finish(run, sent) }
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

/** How far below the service's estimate the recipient was paid, in basis points. */
function shortfallOf(estimate: bigint, received: bigint): SwapShortfall {
  const bps = estimate > received ? Number(((estimate - received) * 10_000n) / estimate) : 0
  return { estimate, received, bps }
}

/**
 * The user's allowance of token0 for `target`, read on chain.
 * @example const amount = await allowanceOf(run, swapGuardAddress)
 */
export const allowanceOf = ({ parameters: p }: SwapRun, target: Address): Promise<bigint> =>
  readAllowance(p.publicClient, p.token0, p.owner, target)

/**
 * An allowance of this flow's token0, from its owner to `spender`, on `chainId`.
 * @example noteLeftoverAllowance(error, leftoverOf(run, chainId, spender, amount))
 */
export function leftoverOf(
  { parameters: p }: SwapRun,
  chainId: number,
  spender: Address,
  amount: bigint,
): LeftoverAllowance {
  return { chainId, token: p.token0, owner: p.owner, spender, amount }
}

type RealizedOutcomeParameters = {
  /** The swap's own receipt: its logs say what moved. */
  receipt: TransactionReceipt
  /** The flow's transactions (a batch's): their fees are not what the swap gave. Default: `[receipt]`. */
  receipts?: readonly TransactionReceipt[] | undefined
  owner: Address
  token0: Address
  token1: Address
  recipient: Address
  /** The native value the swap transaction carried. */
  value: bigint
  /** How many times the balance reads are tried. Default 3. */
  attempts?: number | undefined
  /** The swap went through the guard: its `GuardedSwap` event says what it measured on chain. */
  guard?: boolean | undefined
}

/** What a mined swap moved; `amountOut` is `undefined` when it could not be read (`amountOutError` says why). */
type RealizedOutcomeReturnType = { amountIn: bigint; amountOut: bigint | undefined; amountOutError?: unknown }

/**
 * What a mined swap moved: through the guard, its own `GuardedSwap` event; else ERC-20 amounts from the
 * Transfer logs, native output from the recipient's balance before and after, net of the fees it paid (tried
 * `attempts` times; still failing, `amountOut` is `undefined` and `amountOutError` says why).
 */
async function realizedOutcome(
  publicClient: PublicClient,
  {
    receipt,
    receipts = [receipt],
    owner,
    token0,
    token1,
    recipient,
    value,
    attempts = 3,
    guard,
  }: RealizedOutcomeParameters,
): Promise<RealizedOutcomeReturnType> {
  const { logs } = receipt
  // The guard's own measure, emitted by the guard only (any contract can emit a look-alike event).
  const guarded = guard
    ? parseEventLogs({ abi: swapGuardAbi, eventName: 'GuardedSwap', logs, strict: true }).find(
        (log) =>
          isAddressEqual(log.address, swapGuardAddress) &&
          isAddressEqual(log.args.payer, owner) &&
          isAddressEqual(log.args.recipient, recipient),
      )
    : undefined
  if (guarded) return { amountIn: guarded.args.amountIn, amountOut: guarded.args.amountOut }
  const transfers = parseEventLogs({ abi: erc20Abi, eventName: 'Transfer', logs, strict: false })
  const sum = (token: Address, match: (args: { from?: Address; to?: Address }) => boolean) =>
    transfers
      .filter((log) => isAddressEqual(log.address, token) && match(log.args))
      .reduce((total, log) => total + (log.args.value ?? 0n), 0n)
  const amountIn = isNativeToken(token0)
    ? value
    : sum(token0, (args) => !!args.from && isAddressEqual(args.from, owner))
  if (!isNativeToken(token1))
    return { amountIn, amountOut: sum(token1, (args) => !!args.to && isAddressEqual(args.to, recipient)) }
  let amountOutError: unknown
  for (let attempt = 0; attempt < attempts; attempt++) {
    if (attempt) await new Promise((resolve) => setTimeout(resolve, 250 * attempt))
    try {
      return { amountIn, amountOut: await nativeReceived(publicClient, receipts, recipient) }
    } catch (error) {
      amountOutError = error
    }
  }
  return { amountIn, amountOut: undefined, amountOutError }
}
/** The native coin `holder` gained over the receipts' blocks, its own fees in them added back. */
async function nativeReceived(
  publicClient: PublicClient,
  receipts: readonly TransactionReceipt[],
  holder: Address,
) {
  const blocks = receipts.map((receipt) => BigInt(receipt.blockNumber))
  const balanceAt = (blockNumber: bigint) => publicClient.getBalance({ address: holder, blockNumber })
  const [before, after] = await Promise.all([
    balanceAt(blocks.reduce((a, b) => (b < a ? b : a)) - 1n),
    balanceAt(blocks.reduce((a, b) => (b > a ? b : a))),
  ])
  let fees = 0n
  for (const receipt of receipts)
    if (receipt.from && isAddressEqual(receipt.from, holder))
      fees +=
        BigInt(receipt.gasUsed) * BigInt(receipt.effectiveGasPrice ?? 0) +
        BigInt((receipt as { l1Fee?: bigint | Hex | null }).l1Fee ?? 0)
  return after - before + fees
}
