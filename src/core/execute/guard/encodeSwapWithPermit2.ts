import { type Address, encodeFunctionData, type Hex } from 'viem'
import { swapGuardAbi } from './swapGuard.js'
import type { SwapPermitTypedDataParameters } from './swapPermitTypedData.js'

/**
 * The signed permit's values (as given to `swapPermitTypedData`, its chain aside), its signer and signature.
 */
export type EncodeSwapWithPermit2Parameters = Omit<SwapPermitTypedDataParameters, 'chainId'> & {
  /** The signer of the permit: the payer of token0. */
  owner: Address
  /** The owner's signature of `swapPermitTypedData(...)` with the same values. */
  signature: Hex
}

/** The calldata of `SwapGuard.swapWithPermit2`, to send to `swapGuardAddress`. */
export type EncodeSwapWithPermit2ReturnType = Hex

/**
 * The calldata of `SwapGuard.swapWithPermit2` for a signed permit (any value but the signed ones reverts).
 * Pure.
 * @example
 * import { encodeSwapWithPermit2, swapGuardAddress, swapPermitTypedData } from 'token-swap-hooks/core'
 *
 * const permit = { chainId, token0, amountIn, nonce, deadline, witness: { token1, minAmountOut, recipient, spender, router, data } }
 * const signature = await walletClient.signTypedData({ account, ...swapPermitTypedData(permit) })
 * const hash = await walletClient.sendTransaction({ to: swapGuardAddress, data: encodeSwapWithPermit2({ ...permit, owner: account, signature }) })
 */
export function encodeSwapWithPermit2(
  parameters: EncodeSwapWithPermit2Parameters,
): EncodeSwapWithPermit2ReturnType {
  const { token0, amountIn, nonce, deadline, witness, owner, signature } = parameters
  return encodeFunctionData({
    abi: swapGuardAbi,
    functionName: 'swapWithPermit2',
    args: [
      { permitted: { token: token0, amount: amountIn }, nonce, deadline },
      owner,
      witness.token1,
      witness.minAmountOut,
      witness.recipient,
      witness.spender,
      witness.router,
      witness.data,
      signature,
    ],
  })
}
