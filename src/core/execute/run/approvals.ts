import type { Address, Chain, PublicClient, Transport } from 'viem'
import { erc20Abi } from 'viem'

/**
 * `owner`'s allowance for `spender` on `token`, read on chain.
 *
 * @example
 * const allowance = await readAllowance(publicClient, token0, owner, swapGuardAddress)
 */
export const readAllowance = (
  publicClient: PublicClient<Transport, Chain | undefined>,
  token: Address,
  owner: Address,
  spender: Address,
): Promise<bigint> =>
  publicClient.readContract({
    address: token,
    abi: erc20Abi,
    functionName: 'allowance',
    args: [owner, spender],
  })
