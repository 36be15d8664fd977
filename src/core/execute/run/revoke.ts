import type { Address, Hex, TransactionReceipt } from 'viem'
import { approveCall } from '../rules/approvals.js'
import type { ExecutionClients } from '../types.js'
import { ensureChain, sendPinned, waitForSuccess } from './chain.js'

/**
 * Sets the account's allowance for `spender` on `token` to 0, pinned to the
 * chain, and waits for it (`revokeAllowance` checks its parameters first).
 *
 * @example
 * const { hash } = await revoke(clients, { token, spender, chainId })
 */
export async function revoke(
  clients: ExecutionClients,
  {
    token,
    spender,
    chainId,
    confirmations,
  }: {
    token: Address
    spender: Address
    chainId?: number | undefined
    confirmations?: number | undefined
  },
): Promise<{ hash: Hex; receipt: TransactionReceipt }> {
  const chain = await ensureChain(clients, chainId, 'revoke')
  const hash = await sendPinned(clients, chain, 'revoke', approveCall(token, spender, 0n))
  const receipt = await waitForSuccess(clients, { hash, stage: 'revoke', confirmations })
  return { hash: receipt.transactionHash, receipt }
}
