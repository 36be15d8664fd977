import type { Address } from 'viem'
import { getTokenPrice } from '../actions/getTokenPrice.js'
import type { SwapClient } from '../client.js'
import { PriceImpactTooHighError, type PriceImpactTooHighErrorType } from '../errors/priceImpact.js'
import { type ReadDecimalsClient, readDecimals } from '../tokens/readDecimals.js'
import {
  defaultPriceImpactThresholds,
  type PriceImpact,
  type PriceImpactThresholds,
  priceImpactOf,
} from './priceImpact.js'

/** What `checkPriceImpact` takes: the swap, the quote to execute, and the limits. */
export type CheckPriceImpactParameters = {
  /** Reads the tokens' decimals (the native coin's from its chain). */
  publicClient: ReadDecimalsClient
  token0: Address
  token1: Address
  amountIn: bigint
  /** The quote about to be executed: a SwapInfo (`estimateAmount`) or a Route (`amountOut`). */
  quote: { estimateAmount: bigint } | { amountOut: bigint }
  /** Default `defaultPriceImpactThresholds` (block from 15%), as the preview's. */
  thresholds?: PriceImpactThresholds | undefined
  /**
   * USD prices already known (the preview's): a key given, even as `undefined` (a price the cache
   * could not get), is not fetched again, as in `getSwapPreview`.
   */
  prices?: { token0?: number | undefined; token1?: number | undefined } | undefined
}

/** The quote's price impact, or `undefined` when a price or a decimals read is missing (unknown, as the preview shows it). */
export type CheckPriceImpactReturnType = PriceImpact | undefined

/** The errors `checkPriceImpact` throws. */
export type CheckPriceImpactErrorType = PriceImpactTooHighErrorType

/**
 * Applies the preview's price-impact limit to the quote about to be executed:
 * the same rule (`priceImpactOf`) at the same USD prices
 * (`/overview/token/price`), so a changed quote the user accepts is held to
 * the limit the first one was. Throws `PriceImpactTooHighError` at or above
 * `blocking`; an unknown impact (a price missing) passes, as in the preview.
 *
 * @example
 * import { checkPriceImpact } from 'token-swap-hooks/core'
 *
 * await checkPriceImpact(client, { publicClient, token0, token1, amountIn, quote: error.newQuote })
 */
export async function checkPriceImpact(
  client: SwapClient,
  parameters: CheckPriceImpactParameters,
): Promise<CheckPriceImpactReturnType> {
  const { publicClient, token0, token1, amountIn, quote, prices } = parameters
  const thresholds = parameters.thresholds ?? defaultPriceImpactThresholds
  const amountOut = 'estimateAmount' in quote ? quote.estimateAmount : quote.amountOut
  const given = prices ?? {}
  const priceOf = (token: Address, key: keyof typeof given) =>
    key in given ? given[key] : getTokenPrice(client, { address: token }).catch(() => undefined)
  const decimalsOf = (token: Address) => readDecimals(publicClient, token).catch(() => undefined)
  const [decimals0, decimals1, price0, price1] = await Promise.all([
    decimalsOf(token0),
    decimalsOf(token1),
    priceOf(token0, 'token0'),
    priceOf(token1, 'token1'),
  ])
  if (decimals0 === undefined || decimals1 === undefined) return undefined
  const impact = priceImpactOf({
    amountIn,
    amountOut,
    decimals: [decimals0, decimals1],
    prices: [price0, price1],
    thresholds,
  })
  if (impact?.warning === 'blocking')
    throw new PriceImpactTooHighError({
      ...impact,
      blocking: thresholds.blocking,
      amountOut,
    })
  return impact
}
