/** Pool fees are in basis points: 30 is 0.3%. */
export const feeDenominator = 10_000n

export type GetAmountOutParameters = {
  amountIn: bigint
  reserveIn: bigint
  reserveOut: bigint
  /** The pool's fee in basis points (30 = 0.3%). */
  feeBps: number | bigint
}

/**
 * The constant-product (x·y = k) output of one hop, in integers, exactly as
 * the Solidity test router computes it:
 * `out = in·(10000 − fee)·R_out / (R_in·10000 + in·(10000 − fee))`.
 *
 * @example
 * getAmountOut({ amountIn: 10n ** 18n, reserveIn: 1000n * 10n ** 18n, reserveOut: 3_000_000n * 10n ** 6n, feeBps: 30 })
 */
export function getAmountOut({ amountIn, reserveIn, reserveOut, feeBps }: GetAmountOutParameters): bigint {
  if (amountIn <= 0n || reserveIn <= 0n || reserveOut <= 0n) return 0n
  const amountInWithFee = amountIn * (feeDenominator - BigInt(feeBps))
  return (amountInWithFee * reserveOut) / (reserveIn * feeDenominator + amountInWithFee)
}
