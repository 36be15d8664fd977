import { defaultSlippage } from '../constants.js'
import { ensure } from '../errors/parameter.js'
import { assertSlippage } from '../utils/validate.js'

/** The parameters of `suggestSlippage`: the quotes seen, the price impact when known, and the bounds. */
export type SuggestSlippageParameters = {
  /**
   * Output amounts of successive quotes of the same swap (same tokens, same
   * `amountIn`), oldest first: `route.amountOut` or `info.estimateAmount` at
   * each refresh. The last 20 are used.
   */
  quotes: readonly bigint[]
  /** The swap's price impact (0.02 is 2 %), e.g. `preview.priceImpact?.value`, when known. */
  priceImpact?: number | undefined
  /** The most the user accepts (their maximum): the suggestion never exceeds it. Default 0.03. */
  max?: number | undefined
  /** The least suggested. Default 0.001 (0.1 %). */
  min?: number | undefined
}

/** What `suggestSlippage` answers: the slippage, what it rests on, and whether `max` cut it. */
export type SuggestSlippageReturnType = {
  /** The suggested slippage, a fraction (0.005 is 0.5 %), in steps of 0.0005, from `min` to `max`. */
  slippage: number
  /** `'quotes'`: measured from at least two quotes; `'default'`: fewer, `defaultSlippage` stands in for the measure. */
  basis: 'quotes' | 'default'
  /** The largest relative change between two successive quotes, `undefined` with fewer than two. */
  largestMove: number | undefined
  /** How many quotes were used. */
  samples: number
  /** True when the measure asked for more than `max`: the swap may fail its floor; say so to the user. */
  capped: boolean
}

/** How many of the latest quotes are measured. */
export const suggestSlippageWindow = 20
const step = 0.0005

/**
 * Suggests a slippage from how much the quotes of this very swap actually
 * moved, and from its price impact, capped by the user's maximum:
 *
 * `slippage = clamp(roundUp(2 × largestMove + priceImpact / 4, 0.0005), min, max)`
 *
 * where `largestMove` is the largest relative change between two successive
 * quotes (the last 20). Twice it covers the wait between the quote the user
 * accepts and the block the swap is mined in (one more refresh interval, with
 * a margin); a quarter of the price impact covers others' trades in a pool thin
 * enough that this swap moves it. With fewer than two quotes, `defaultSlippage`
 * (0.005) stands in for `2 × largestMove`.
 *
 * @example
 * import { suggestSlippage } from 'token-swap-hooks/core'
 *
 * suggestSlippage({ quotes: [1_000_000n, 998_000n, 1_001_000n], priceImpact: 0.004, max: 0.01 })
 * // { slippage: 0.0075, basis: 'quotes', largestMove: 0.003006…, samples: 3, capped: false }
 */
export function suggestSlippage(parameters: SuggestSlippageParameters): SuggestSlippageReturnType {
  const { priceImpact, max = 0.03, min = 0.001 } = parameters
  ensure(
    Array.isArray(parameters?.quotes),
    'quotes',
    'must be an array of bigint amounts',
    parameters?.quotes,
  )
  const quotes = parameters.quotes.slice(-suggestSlippageWindow)
  for (const [index, amount] of quotes.entries())
    ensure(
      typeof amount === 'bigint' && amount > 0n,
      `quotes[${index}]`,
      'must be a bigint greater than 0',
      amount,
    )
  assertSlippage('max', max)
  assertSlippage('min', min)
  ensure(min <= max, 'min', 'must not exceed max', min)
  if (priceImpact !== undefined)
    ensure(
      Number.isFinite(priceImpact) && priceImpact <= 1,
      'priceImpact',
      'must be a finite fraction up to 1',
      priceImpact,
    )

  let largestMove: number | undefined
  for (let index = 1; index < quotes.length; index++) {
    const before = quotes[index - 1] as bigint
    const change = quotes[index] as bigint
    // In parts per billion, in bigint: amounts of 18-decimal tokens overflow a float's precision.
    const move =
      Number(((change > before ? change - before : before - change) * 1_000_000_000n) / before) / 1e9
    largestMove = Math.max(largestMove ?? 0, move)
  }
  const measured =
    (largestMove === undefined ? defaultSlippage : 2 * largestMove) + Math.max(0, priceImpact ?? 0) / 4
  const rounded = Math.ceil(Number((measured / step).toFixed(9))) * step
  const slippage = Number(Math.min(max, Math.max(min, rounded)).toFixed(4))
  return {
    slippage,
    basis: largestMove === undefined ? 'default' : 'quotes',
    largestMove,
    samples: quotes.length,
    capped: rounded > max,
  }
}
