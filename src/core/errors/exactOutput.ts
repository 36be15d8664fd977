import { BaseError } from './base.js'

/** `ExactOutputNotReachedError` narrowed by its `name`, as a function's `…ErrorType` union lists it. */
export type ExactOutputNotReachedErrorType = ExactOutputNotReachedError & {
  name: 'ExactOutputNotReachedError'
}

/**
 * No input amount tried within `maxProbes` route requests delivered the
 * output asked for: the pools cannot pay that much (more than they hold), or
 * the search ran out of probes. `bestAmountIn` is the input of the probe
 * that came closest and `bestAmountOut` what it delivers (`undefined` and
 * `0n` when no probe answered); `probes` and `requests` say what the search
 * cost.
 *
 * @example
 * if (error instanceof ExactOutputNotReachedError)
 *   return <p>At most {formatUnits(error.bestAmountOut, 6)} USDC can be bought</p>
 */
export class ExactOutputNotReachedError extends BaseError {
  override name = 'ExactOutputNotReachedError' as const
  /** The output asked for, in token1's smallest unit. */
  declare amountOut: bigint
  /** The input of the probe that delivered the most, in token0's smallest unit. */
  declare bestAmountIn: bigint | undefined
  /** What that probe delivers, in token1's smallest unit. */
  declare bestAmountOut: bigint
  /** `/swap/route` requests sent. */
  declare probes: number
  /** Every request sent: the probes, and the price and token list requests that seeded them. */
  declare requests: number

  constructor({
    amountOut,
    bestAmountIn,
    bestAmountOut,
    probes,
    requests,
  }: {
    amountOut: bigint
    bestAmountIn: bigint | undefined
    bestAmountOut: bigint
    probes: number
    requests: number
  }) {
    super(`No input found that delivers ${amountOut}: at most ${bestAmountOut} was reached.`, {
      metaMessages: [
        ...(bestAmountIn === undefined ? [] : [`Best input tried: ${bestAmountIn}.`]),
        `Cost: ${probes} route requests, ${requests} requests in all.`,
      ],
    })
    this.amountOut = amountOut
    this.bestAmountIn = bestAmountIn
    this.bestAmountOut = bestAmountOut
    this.probes = probes
    this.requests = requests
  }
}
