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

/**
 * The slippage the library sends and checks when none is given: 0.5 %, as
 * peers default (the service's own default, 5 %, is never relied on). A
 * provider's `slippage` (a number, or one per pair) or a call's `slippage`
 * overrides it; `suggestSlippage` proposes one from how quotes move.
 *
 * @example
 * getMinAmountOut(route.amountOut, defaultSlippage) // the floor of a swap with no slippage given
 */
export const defaultSlippage = 0.005
