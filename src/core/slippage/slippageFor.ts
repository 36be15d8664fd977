import type { Address } from 'viem'

/**
 * A slippage setting: one number for every pair, or a function that gives a
 * pair its own (`undefined`: the library's `defaultSlippage`).
 */
export type SlippageSetting = number | ((pair: { token0: Address; token1: Address }) => number | undefined)

/**
 * The slippage a setting gives a pair; `undefined` when it gives none (the
 * caller then uses `defaultSlippage`).
 *
 * @example
 * const stable = new Set([USDC, USDT].map((token) => token.toLowerCase()))
 * const setting: SlippageSetting = ({ token0, token1 }) =>
 *   stable.has(token0.toLowerCase()) && stable.has(token1.toLowerCase()) ? 0.001 : undefined
 * slippageFor(setting, { token0: USDC, token1: USDT }) // 0.001
 */
export function slippageFor(
  setting: SlippageSetting | undefined,
  pair: { token0?: Address | undefined; token1?: Address | undefined },
): number | undefined {
  if (typeof setting !== 'function') return setting
  const { token0, token1 } = pair
  return token0 && token1 ? setting({ token0, token1 }) : undefined
}
