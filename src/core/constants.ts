import type { Address } from 'viem'

/**
 * The address the service (like most aggregators) uses for the chain's native
 * coin. A swap from it sends value instead of approving a token.
 */
export const nativeTokenAddress: Address = '0xEeeeeEeeeEeEeeEeEeEeeEEEeeeeEeeeeeeeEEeE'

/** True when `address` is the native-coin sentinel, in any letter case. */
export function isNativeToken(address: string): boolean {
  return address.toLowerCase() === nativeTokenAddress.toLowerCase()
}
