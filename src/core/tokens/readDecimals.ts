import { type Address, erc20Abi, type PublicClient } from 'viem'
import { isNativeToken } from '../constants.js'

/** What `readDecimals` reads through: a public client (its chain gives the native coin's decimals). */
export type ReadDecimalsClient = Pick<PublicClient, 'readContract'> & {
  chain?: { nativeCurrency: { decimals: number } } | undefined
}

/**
 * A token's decimals: the chain's native currency's for the native sentinel (18 without a chain),
 * else its `decimals()` read on chain (rejecting as viem does when the read fails). The preview and
 * the click-time price check read them alike.
 *
 * @example
 * const decimals = await readDecimals(publicClient, token0)
 */
export async function readDecimals(publicClient: ReadDecimalsClient, token: Address): Promise<number> {
  if (isNativeToken(token)) return publicClient.chain?.nativeCurrency.decimals ?? 18
  return Number(await publicClient.readContract({ address: token, abi: erc20Abi, functionName: 'decimals' }))
}
