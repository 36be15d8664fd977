import { formatUnits } from 'viem'

/** Price impact at or above `high` warns; at or above `blocking` the UI should not let the user swap. */
export type PriceImpactThresholds = { high: number; blocking: number }

/** Uniswap's interface levels: warn from 5%, block from 15%. */
export const defaultPriceImpactThresholds: PriceImpactThresholds = { high: 0.05, blocking: 0.15 }

/**
 * 1 − (value out ÷ value in) at the service's USD prices, with its warning
 * level against the thresholds; `valueIn` and `valueOut` in USD.
 */
export type PriceImpact = {
  value: number
  valueIn: number
  valueOut: number
  warning: 'none' | 'high' | 'blocking'
}

/**
 * The quote's USD value against the input's, stated either way: `'known'` with the price impact
 * (`priceImpactOf`'s value, values and warning: the same rule and thresholds, not a second one), or
 * `'unknown'` with the prices `priceImpactOf` lacked (none, or not above 0, for token0; none for token1).
 */
export type ValueGap =
  | ({ status: 'known' } & PriceImpact)
  | { status: 'unknown'; missing: ('token0' | 'token1')[] }

/**
 * Whether a USD price counts: a finite number above 0. A service answers 0 (or nothing) for a
 * token it cannot price; the preview, the value gap and the click treat that alike, as unknown.
 *
 * @example
 * isKnownPrice(0) // false
 */
export function isKnownPrice(price: number | undefined): price is number {
  // undefined (and NaN) compare false.
  return (price as number) > 0 && (price as number) < Infinity
}

/** What `priceImpactOf` weighs: the amounts, their tokens' decimals and USD prices, and the thresholds. */
export type PriceImpactOfParameters = {
  amountIn: bigint
  amountOut: bigint
  decimals: readonly [number, number]
  prices: readonly (number | undefined)[]
  thresholds?: PriceImpactThresholds | undefined
}

/**
 * The price impact of a quote: the one rule the preview shows and the
 * execution enforces (a first quote and an accepted new one alike);
 * `undefined` unless both prices are known (`isKnownPrice`), or for an input worth nothing.
 *
 * @example
 * priceImpactOf({ amountIn: 10n ** 18n, amountOut: 5n * 10n ** 17n, decimals: [18, 18], prices: [1, 1] })
 * // { value: 0.5, valueIn: 1, valueOut: 0.5, warning: 'blocking' }
 */
export function priceImpactOf({
  amountIn,
  amountOut,
  decimals: [decimals0, decimals1],
  prices: [price0, price1],
  thresholds = defaultPriceImpactThresholds,
}: PriceImpactOfParameters): PriceImpact | undefined {
  if (!isKnownPrice(price0) || !isKnownPrice(price1)) return undefined
  const valueIn = Number(formatUnits(amountIn, decimals0)) * price0
  const valueOut = Number(formatUnits(amountOut, decimals1)) * price1
  if (!(valueIn > 0)) return undefined
  const value = 1 - valueOut / valueIn
  const warning = value >= thresholds.blocking ? 'blocking' : value >= thresholds.high ? 'high' : 'none'
  return { value, valueIn, valueOut, warning }
}
