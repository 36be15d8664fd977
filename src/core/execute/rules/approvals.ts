import { type Address, encodeFunctionData, erc20Abi, isAddressEqual, zeroAddress } from 'viem'
import { isNativeToken } from '../../constants.js'
import type { SwapInfo } from '../../schemas.js'
import type { SwapCall } from '../types.js'

/**
 * The spender a swap needs an allowance for: the quote's `approvalAddress`,
 * unless token0 is the native coin or the quote names none (null, the zero
 * address).
 *
 * @example
 * const spender = approvalSpender(token0, swapInfo) // Address | undefined
 */
export function approvalSpender(
  token0: Address,
  swapInfo: Pick<SwapInfo, 'approvalAddress'>,
): Address | undefined {
  const spender = swapInfo.approvalAddress
  if (isNativeToken(token0) || spender === null || isAddressEqual(spender, zeroAddress)) return undefined
  return spender
}

/**
 * `approve(spender, amount)` on `token`, as the wallet is asked to sign it.
 *
 * @example
 * const reset = approveCall(USDT, spender, 0n)
 */
export function approveCall(token: Address, spender: Address, amount: bigint): SwapCall {
  return {
    to: token,
    data: encodeFunctionData({ abi: erc20Abi, functionName: 'approve', args: [spender, amount] }),
  }
}
