import { formatUnits } from 'viem'
import type { MockPair } from './types.js'

export type GetTokenLiquidityUsdParameters = {
  /** The token whose liquidity to sum. */
  token: { address: string; decimals: number; priceUsd: number }
  /** The pairs to look in; leave blacklisted ones out. */
  pairs: readonly Pick<MockPair, 'token0' | 'token1' | 'reserve0' | 'reserve1'>[]
}

/**
 * The USD value of a token's reserves across the given pairs, to the cent.
 *
 * @example
 * getTokenLiquidityUsd({ token: usdc, pairs: defaultMockPairs }) // 238000000
 */
export function getTokenLiquidityUsd({ token, pairs }: GetTokenLiquidityUsdParameters): number {
  const address = token.address.toLowerCase()
  let reserve = 0n
  for (const pair of pairs) {
    if (pair.token0.toLowerCase() === address) reserve += pair.reserve0
    if (pair.token1.toLowerCase() === address) reserve += pair.reserve1
  }
  return toUsd(reserve, token.decimals, token.priceUsd)
}

/**
 * An amount in smallest units times a USD price, rounded to the cent.
 *
 * @example
 * toUsd(1_500_000n, 6, 1) // 1.5
 */
export function toUsd(amount: bigint, decimals: number, priceUsd: number): number {
  return Math.round(Number(formatUnits(amount, decimals)) * priceUsd * 100) / 100
}
