import { type Address, decodeFunctionData, erc20Abi, type Hex, isAddressEqual, parseEventLogs } from 'viem'
import type { ScannedTransaction } from './standing.js'

/** What a recorded execution is about, as its transactions are told apart by. */
export type TransactionSubject = {
  account: Address
  token0: Address
  /** Who the record approves: the guard, the service's spender, Permit2. */
  spender?: Address | undefined
  /** The router its swap calls (the swap transaction's `to`). */
  router?: Address | undefined
}

/**
 * What a mined transaction of the account is to a record: `'approve'`,
 * token0's `approve` of the record's spender; `'swap'`, token0 left the
 * account in it, or it called the record's router, its spender or a trusted
 * address (only a successful call counts: a reverted one settles nothing);
 * `'unclear'`, a call to something else from a record that does not know its
 * router, so it cannot be told apart; else `'other'`.
 *
 * @example
 * classifyTransaction({ to: tx.to, input: tx.input }, receipt, record, trusted) // 'swap'
 */
export function classifyTransaction(
  transaction: { to?: Address | null | undefined; input?: Hex | undefined },
  receipt: ScannedTransaction['receipt'],
  subject: TransactionSubject,
  trusted: readonly Address[],
): ScannedTransaction['kind'] {
  const { to, input } = transaction
  const named = [subject.router, subject.spender, ...trusted].some(
    (address) => !!address && !!to && isAddressEqual(address, to),
  )
  if (to && subject.spender && isAddressEqual(to, subject.token0) && approves(input, subject.spender))
    return 'approve'
  if (spendsToken0(receipt, subject) || (receipt.status === 'success' && named)) return 'swap'
  return named || subject.router ? 'other' : 'unclear'
}

function approves(input: Hex | undefined, spender: Address): boolean {
  try {
    const { functionName, args } = decodeFunctionData({ abi: erc20Abi, data: input ?? '0x' })
    return functionName === 'approve' && isAddressEqual(args[0] as Address, spender)
  } catch {
    return false
  }
}

/** Whether token0 left the account in it (an ERC-20 Transfer from it). */
function spendsToken0(receipt: ScannedTransaction['receipt'], { account, token0 }: TransactionSubject) {
  return parseEventLogs({ abi: erc20Abi, eventName: 'Transfer', logs: receipt.logs, strict: false }).some(
    (log) => isAddressEqual(log.address, token0) && !!log.args.from && isAddressEqual(log.args.from, account),
  )
}
