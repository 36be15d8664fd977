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
  /** Every transaction of the swap's flow that moved the holder's native balance (a batch's): their fees are not what the swap gave. Default: `[receipt]`. */
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
 * What a mined swap moved: ERC-20 amounts from its Transfer logs; native
 * output from the recipient's balance at the block before and at the last
 * block, net of the fees it paid in those receipts (native input leaves only
 * as the transaction's value). The balance reads are tried `attempts` times
 * (a load-balanced node may lag a block); when they still fail, `amountOut`
 * is `undefined` and `amountOutError` holds the node's error. `amountIn`
 * needs no read: it is always measured.
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
async function nativeReceived(
  publicClient: PublicClient,
  receipts: readonly TransactionReceipt[],
  holder: Address,
) {
  const blocks = receipts.map((receipt) => BigInt(receipt.blockNumber))
  const first = blocks.reduce((a, b) => (b < a ? b : a))
  const last = blocks.reduce((a, b) => (b > a ? b : a))
  const [before, after] = await Promise.all([
    publicClient.getBalance({ address: holder, blockNumber: first - 1n }),
    publicClient.getBalance({ address: holder, blockNumber: last }),
  ])
  // The fees the holder paid for these transactions are not what the swap gave.
  const fees = receipts
    .filter((receipt) => receipt.from && isAddressEqual(receipt.from, holder))
    .reduce(
      (total, receipt) =>
        total +
        BigInt(receipt.gasUsed) * BigInt(receipt.effectiveGasPrice ?? 0) +
        BigInt((receipt as { l1Fee?: bigint | Hex | null }).l1Fee ?? 0),
      0n,
    )
  return after - before + fees
}
