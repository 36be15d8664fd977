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
 * What a mined transaction of the account is to a record: `'approve'` (token0's approve of its spender),
 * `'swap'` (token0 left the account, or a successful call to its router, spender or a trusted address),
 * `'unclear'` (a call elsewhere from a record that does not know its router), else `'other'`.
 * @example classifyTransaction({ to: tx.to, input: tx.input }, receipt, record, trusted) // 'swap'
 */
export function classifyTransaction(
  { to, input }: { to?: Address | null | undefined; input?: Hex | undefined },
  receipt: ScannedTransaction['receipt'],
  { account, token0, spender, router }: TransactionSubject,
  trusted: readonly Address[],
): ScannedTransaction['kind'] {
  const isTo = (address: Address | undefined) => !!address && !!to && isAddressEqual(address, to)
  const named = [router, spender, ...trusted].some(isTo)
  if (spender && isTo(token0) && approves(input, spender)) return 'approve'
  // token0 left the account (an ERC-20 Transfer from it), or a successful call to a named address.
  const spent = parseEventLogs({
    abi: erc20Abi,
    eventName: 'Transfer',
    logs: receipt.logs,
    strict: false,
  }).some(
    ({ address, args }) =>
      isAddressEqual(address, token0) && !!args.from && isAddressEqual(args.from, account),
  )
  if (spent || (receipt.status === 'success' && named)) return 'swap'
  return named || router ? 'other' : 'unclear'
}

function approves(input: Hex | undefined, spender: Address): boolean {
  try {
    const { functionName, args } = decodeFunctionData({ abi: erc20Abi, data: input ?? '0x' })
    return functionName === 'approve' && isAddressEqual(args[0] as Address, spender)
  } catch {
    return false
  }
}
