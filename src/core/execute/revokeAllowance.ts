import type { Address, Hex, TransactionReceipt } from 'viem'
import { assertAddress, assertObject } from '../utils/validate.js'
import { resolveClients } from './rules/checkSwapParameters.js'
import { revoke } from './run/chain.js'
import type { ExecutionClients } from './types.js'

/** The parameters of `revokeAllowance`: the clients, the token and spender, the chain, the confirmations. */
export type RevokeAllowanceParameters = ExecutionClients & {
  /** The ERC-20 token. */
  token: Address
  /** The spender whose allowance is set to 0. */
  spender: Address
  /** The chain the allowance is on. Default: the public client's chain. */
  chainId?: number | undefined
  /** Blocks to wait for. Default 1. */
  confirmations?: number | undefined
}

/** The revoking transaction's hash and its receipt. */
export type RevokeAllowanceReturnType = { hash: Hex; receipt: TransactionReceipt }

/**
 * Sets the wallet account's allowance for `spender` on `token` to 0 and waits
 * for the receipt: the one call that undoes an approval a failed swap left
 * (`error.leftoverAllowance`). Pinned to the chain like every transaction of
 * the library.
 *
 * @example
 * import { ExecuteSwapError, revokeAllowance } from 'token-swap-hooks/core'
 *
 * if (error instanceof ExecuteSwapError && error.leftoverAllowance?.amount)
 *   await revokeAllowance({ walletClient, publicClient, ...error.leftoverAllowance })
 */
export async function revokeAllowance(
  parameters: RevokeAllowanceParameters,
): Promise<RevokeAllowanceReturnType> {
  assertObject(parameters)
  const clients = resolveClients(parameters)
  assertAddress('token', parameters.token)
  assertAddress('spender', parameters.spender)
  return revoke(clients, parameters)
}
