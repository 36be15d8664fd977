import {
  type Address,
  erc20Abi,
  type Hex,
  isAddressEqual,
  type PublicClient,
  parseEventLogs,
  type TransactionReceipt,
} from 'viem'
import { isNativeToken } from '../../constants.js'
import { swapGuardAbi, swapGuardAddress } from '../guard/swapGuard.js'

export type RealizedOutcomeParameters = {
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
export type RealizedOutcomeReturnType = {
  amountIn: bigint
  amountOut: bigint | undefined
  amountOutError?: unknown
}

/**
 * What a mined swap moved: through the guard, its own `GuardedSwap` event;
 * else ERC-20 amounts from the Transfer logs, native output from the
 * recipient's balance before and after, net of the fees it paid (tried
 * `attempts` times; still failing, `amountOut` is `undefined` and
 * `amountOutError` says why).
 *
 * @example
 * const { amountIn, amountOut } = await realizedOutcome(publicClient, { receipt, owner, token0, token1, recipient, value })
 */
export async function realizedOutcome(
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
