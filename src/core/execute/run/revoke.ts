import type { Address, Hex, TransactionReceipt } from 'viem'
import { approveCall } from '../rules/approvals.js'
import type { ExecutionClients } from '../types.js'
import { ensureChain, sendPinned, waitForSuccess } from './chain.js'

/**
 * Sets the account's allowance for `spender` on `token` to 0, pinned to the chain, and waits for it.
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
  }: { token: Address; spender: Address; chainId?: number; confirmations?: number },
): Promise<{ hash: Hex; receipt: TransactionReceipt }> {
  const stage = 'revoke'
  const chain = await ensureChain(clients, chainId, stage)
  const hash = await sendPinned(clients, chain, stage, approveCall(token, spender, 0n))
  const receipt = await waitForSuccess(clients, { hash, stage, confirmations })
  return { hash: receipt.transactionHash, receipt }
}
