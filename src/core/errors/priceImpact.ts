import { BaseError } from './base.js'

/** `PriceImpactTooHighError` narrowed by its `name`, as a function's `…ErrorType` union lists it. */
export type PriceImpactTooHighErrorType = PriceImpactTooHighError & { name: 'PriceImpactTooHighError' }

/**
 * The quote to execute (a first one, or a changed one the user accepts) loses
 * at least the `blocking` share of the input's value at the service's USD
 * prices: the same limit the preview blocks at. Nothing is signed; show
 * `value` and quote again (or raise `priceImpactThresholds` on purpose).
 *
 * @example
 * if (error instanceof PriceImpactTooHighError)
 *   return <p>Price impact {(error.value * 100).toFixed(2)}% is above {error.blocking * 100}%</p>
 */
export class PriceImpactTooHighError extends BaseError {
  override name = 'PriceImpactTooHighError' as const
  /** 1 − value out ÷ value in. */
  declare value: number
  /** The input's and the quoted output's value, in USD. */
  declare valueIn: number
  declare valueOut: number
  /** The limit it reached. */
  declare blocking: number
  /** The quoted amount out, in token1's smallest unit. */
  declare amountOut: bigint

  constructor(facts: {
    value: number
    valueIn: number
    valueOut: number
    blocking: number
    amountOut: bigint
  }) {
    const percent = (share: number) => `${Number((share * 100).toFixed(2))}%`
    super(`Price impact ${percent(facts.value)} is at or above the ${percent(facts.blocking)} limit.`, {
      metaMessages: [
        `Value in: $${facts.valueIn.toFixed(2)}, value out: $${facts.valueOut.toFixed(2)}.`,
        'Nothing was signed.',
      ],
    })
    Object.assign(this, facts)
  }
}
