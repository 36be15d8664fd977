import { assertAmount, assertSlippage } from './validate.js'

const partsPerMillion = 1_000_000n

/**
 * The least output accepted at a slippage (a fraction from 0 to 1), rounded
 * down to the token's smallest unit: `amountOut × (1 − slippage)`, computed in
 * integers (slippage is taken to a millionth).
 *
 * @example
 * getMinAmountOut(1_000_000n, 0.005) // 995_000n
 */
export function getMinAmountOut(amountOut: bigint, slippage: number): bigint {
  if (amountOut !== 0n) assertAmount('amountOut', amountOut)
  assertSlippage('slippage', slippage)
  const kept = partsPerMillion - BigInt(Math.round(slippage * 1_000_000))
  return (amountOut * kept) / partsPerMillion
}
