import type { Address } from 'viem'
import type { SwapClient } from '../client.js'
import { isNativeToken } from '../constants.js'
import { ExactOutputNotReachedError, type ExactOutputNotReachedErrorType } from '../errors/exactOutput.js'
import { ensure, type InvalidParameterErrorType } from '../errors/parameter.js'
import type { NoRouteErrorType, RequestErrorType } from '../errors/request.js'
import type { ResponseValidationErrorType } from '../errors/response.js'
import type { RequestOptions } from '../types.js'
import { abortError } from '../utils/signal.js'
import { assertAddress, assertAmount, assertObject, isObject, maxUint256 } from '../utils/validate.js'
import { type GetSwapRouteReturnType, getSwapRoute } from './getSwapRoute.js'
import { getTokenPrice } from './getTokenPrice.js'
import { getTokens } from './getTokens.js'

/** A value per side of the swap. */
export type PerToken<value> = { token0?: value | undefined; token1?: value | undefined }

/** What `getSwapRouteForOutput` takes. */
export type GetSwapRouteForOutputParameters = {
  /** The input token. */
  token0: Address
  /** The output token. */
  token1: Address
  /** The output wanted, in token1's smallest unit; greater than 0. */
  amountOut: bigint
  /** At most this many `/swap/route` requests. Default 4, from 1 to 32. */
  maxProbes?: number | undefined
  /**
   * How much more than `amountOut` the route may deliver, as a fraction:
   * the answer delivers from `amountOut` to `amountOut × (1 + tolerance)`.
   * Default 0.005 (0.5%), from 0 to 1. With 0 it delivers exactly
   * `amountOut`, and its input is one of the inputs that deliver exactly
   * that: at least the least of them, and less than the least input that
   * delivers one unit more. Not necessarily the least one: where token0
   * has more decimals than token1, many inputs deliver the same output
   * (about 5·10^11 wei of an 18-decimal token per unit of a 6-decimal one
   * at a 2:1 price), and finding the least to the unit is a bisection of
   * that range, some 40 route requests more, which the search does not spend.
   */
  tolerance?: number | undefined
  /** USD prices you already have (not requested then). Default: `/overview/token/price`. */
  prices?: PerToken<number> | undefined
  /** Decimals you already have (not requested then). Default: `/overview/tokens`, filtered to the two tokens. */
  decimals?: PerToken<number> | undefined
  /**
   * A first input to try, instead of one seeded from prices (no price or
   * token list request then): the input of a previous answer for these
   * tokens, scaled to the new output, say.
   */
  initialAmountIn?: bigint | undefined
}

/** What `getSwapRouteForOutput` resolves with. */
export type GetSwapRouteForOutputReturnType = {
  /** The input to send, in token0's smallest unit. */
  amountIn: bigint
  /** The route for `amountIn`, as `/swap/route` answered it (with `quotedFor`). */
  route: GetSwapRouteReturnType
  /** What that route delivers: `route.amountOut`, at least the `amountOut` asked. */
  amountOutReached: bigint
  /**
   * `amountOutReached` is within `amountOut × (1 + tolerance)`. When false,
   * no probe within `maxProbes` landed in the window: the answer is the
   * smallest input found that delivers at least `amountOut`.
   */
  withinTolerance: boolean
  /** `/swap/route` requests sent. */
  probes: number
  /** Every request sent: the probes, plus the price and token list requests of the seed. */
  requests: number
}

/** Every error `getSwapRouteForOutput` may throw (narrow by `name`, or by `code`). */
export type GetSwapRouteForOutputErrorType =
  | InvalidParameterErrorType
  | ExactOutputNotReachedErrorType
  | NoRouteErrorType
  | RequestErrorType
  | ResponseValidationErrorType

/** The default number of `/swap/route` requests. */
export const defaultMaxProbes = 4
/** The default tolerance: the route may deliver up to 0.5% more than asked. */
export const defaultExactOutputTolerance = 0.005

const million = 1_000_000n

/**
 * The input that buys `amountOut` of token1, on a service that only quotes
 * exact inputs. The first input is seeded from the two tokens' USD prices
 * and decimals (when known: given, or read from `/overview/token/price` and
 * `/overview/tokens`), then refined with `/swap/route` probes: the secant
 * through the last two answers, taken on `1/out` against `1/in` (a route
 * through constant-product pools is a straight line there, so two answers of
 * one path give the input exactly; the first step is the straight line
 * through the origin), aimed at the middle of the window, with bisection of
 * the bracket found so far whenever the secant steps outside it. It ends at the first route that delivers at
 * least `amountOut` and at most `amountOut × (1 + tolerance)`, and never
 * sends more than `maxProbes` route requests; every request goes through the
 * client's rate limiter, and `signal` aborts the search between and during
 * requests.
 *
 * No route at all (404) is a `NoRouteError` at once. When no probe reaches
 * `amountOut`, an `ExactOutputNotReachedError` says how close the search got
 * and what it cost; when one reached it but none landed in the window, the
 * smallest input that reached it is returned with `withinTolerance: false`.
 *
 * @example
 * import { getSwapRouteForOutput } from 'token-swap-hooks/core'
 * import { parseUnits } from 'viem'
 *
 * // How much WETH buys 5 000 USDC?
 * const { amountIn, route, probes } = await getSwapRouteForOutput(client, {
 *   token0: '0xC02aaA39b223FE8D0A0e5C4F27eAD9083C756Cc2', // WETH
 *   token1: '0xA0b86991c6218b36c1d19D4a2e9Eb0cE3606eB48', // USDC
 *   amountOut: parseUnits('5000', 6),
 * })
 */
export async function getSwapRouteForOutput(
  client: SwapClient,
  parameters: GetSwapRouteForOutputParameters,
  options: RequestOptions = {},
): Promise<GetSwapRouteForOutputReturnType> {
  assertSwapRouteForOutputParameters(parameters)
  const {
    token0,
    token1,
    amountOut,
    maxProbes = defaultMaxProbes,
    tolerance = defaultExactOutputTolerance,
  } = parameters
  const { signal } = options
  let requests = 0
  let probes = 0

  // The window the answer must land in, and the point inside it the secant aims at.
  const upper = amountOut + (amountOut * BigInt(Math.round(tolerance * 1e6))) / million
  const aim = amountOut + (upper - amountOut) / 2n

  let next = parameters.initialAmountIn
  if (next === undefined) {
    const seeded = await seed(client, parameters, options, () => requests++)
    // Without prices, a first guess: one token0 per token1 (in whole tokens when the decimals are known).
    next = seeded.amountIn ?? scale(amountOut, seeded.decimals1, seeded.decimals0)
  }

  // Every answer so far, the origin first: an input of 0 buys nothing.
  const points: Point[] = [{ amountIn: 0n, amountOut: 0n }]
  let below = 0n // the largest input known to deliver less than amountOut
  let above: bigint | undefined // the smallest input known to deliver at least amountOut
  let reached: GetSwapRouteReturnType | undefined // its route
  let closest: Point | undefined // the best answer below amountOut

  while (probes < maxProbes) {
    if (signal?.aborted) throw abortError(signal)
    const amountIn = clamp(next)
    probes++
    requests++
    const route = await getSwapRoute(client, { token0, token1, amountIn }, { signal })
    const out = route.amountOut
    if (out >= amountOut) {
      if (out <= upper)
        return { amountIn, route, amountOutReached: out, withinTolerance: true, probes, requests }
      if (above === undefined || amountIn < above) {
        above = amountIn
        reached = route
      }
    } else {
      if (amountIn > below) below = amountIn
      if (!closest || out > closest.amountOut) closest = { amountIn, amountOut: out }
    }
    points.push({ amountIn, amountOut: out })

    const [previous, last] = points.slice(-2) as [(typeof points)[0], (typeof points)[0]]
    let candidate = secant(previous, last, aim)
    // A secant that leaves the bracket (flat answers, a route that changed path): bisect it, or double
    // the input while nothing has reached amountOut yet.
    if (candidate === undefined || candidate <= below || (above !== undefined && candidate >= above))
      candidate =
        above === undefined ? (below > 0n ? below * 2n : amountIn * 2n) : below + (above - below) / 2n
    candidate = clamp(candidate)
    // No input left between the bracket's ends, or nothing larger to try: the search is over.
    if (candidate <= below || (above !== undefined && candidate >= above) || candidate === amountIn) break
    next = candidate
  }

  if (above !== undefined && reached)
    return {
      amountIn: above,
      route: reached,
      amountOutReached: reached.amountOut,
      withinTolerance: false,
      probes,
      requests,
    }
  throw new ExactOutputNotReachedError({
    amountOut,
    bestAmountIn: closest?.amountIn,
    bestAmountOut: closest?.amountOut ?? 0n,
    probes,
    requests,
  })
}

type Point = { amountIn: bigint; amountOut: bigint }

/**
 * The next input to try, aimed at `aim`, from the last two answers. A route
 * through constant-product pools delivers `a·x / (b + x)` for an input `x`
 * (one pool is of that form, and so is a chain of them), so `1/out` is a
 * straight line in `1/x`: the secant is taken there, where two answers of
 * the same path give the input exactly. From the origin (the first answer
 * alone), the straight line through it. Undefined when the answers give no
 * direction (flat, or an output of 0).
 */
function secant(previous: Point, last: Point, aim: bigint): bigint | undefined {
  const { amountIn: x1, amountOut: y1 } = previous
  const { amountIn: x2, amountOut: y2 } = last
  if (y1 === y2 || y2 === 0n) return undefined
  if (x1 === 0n) return (x2 * aim) / y2
  // 1/x = 1/x1 + (1/aim − 1/y1)·(1/x2 − 1/x1) / (1/y2 − 1/y1), in integers.
  const numerator = aim * x1 * x2 * (y1 - y2)
  const denominator = aim * x2 * (y1 - y2) + (y1 - aim) * (x1 - x2) * y2
  if (denominator === 0n) return undefined
  const next = numerator / denominator
  return next > 0n ? next : undefined
}

/** An amount the route endpoint accepts: from 1 to 2^256 − 1. */
function clamp(amount: bigint): bigint {
  return amount < 1n ? 1n : amount > maxUint256 ? maxUint256 : amount
}

/** `amount` moved from `from` decimals to `to` decimals (unchanged when either is unknown). */
function scale(amount: bigint, from: number | undefined, to: number | undefined): bigint {
  if (from === undefined || to === undefined) return amount
  return to >= from ? amount * 10n ** BigInt(to - from) : amount / 10n ** BigInt(from - to)
}

/** A price as an integer of 18 decimals, or undefined when it is unknown or 0. */
function scaledPrice(price: number | undefined): bigint | undefined {
  if (price === undefined || !(price > 0)) return undefined
  const scaled = BigInt(Math.round(price * 1e18))
  return scaled > 0n ? scaled : undefined
}

/**
 * The input worth `amountOut` at the two tokens' USD prices (undefined when
 * a price or a decimals figure is unknown), and the decimals found. Missing prices and decimals
 * are requested (counted through `count`); a failed price or list request
 * only leaves them unknown, an abort ends the search.
 */
async function seed(
  client: SwapClient,
  { token0, token1, amountOut, prices = {}, decimals = {} }: GetSwapRouteForOutputParameters,
  options: RequestOptions,
  count: () => void,
): Promise<{ amountIn: bigint | undefined; decimals0: number | undefined; decimals1: number | undefined }> {
  const unknownSoft = <value>(promise: Promise<value>): Promise<value | undefined> =>
    promise.catch((error: unknown) => {
      if (options.signal?.aborted) throw abortError(options.signal)
      if ((error as { name?: unknown })?.name === 'AbortError') throw error
      return undefined
    })
  const price = (address: Address, given: number | undefined) => {
    if (given !== undefined) return given
    count()
    return unknownSoft(getTokenPrice(client, { address }, options))
  }
  const list = () => {
    count()
    return unknownSoft(getTokens(client, { filterByToken: [token0, token1] }, options))
  }
  const native = (address: Address, given: number | undefined) =>
    given ?? (isNativeToken(address) ? 18 : undefined)
  let decimals0 = native(token0, decimals.token0)
  let decimals1 = native(token1, decimals.token1)
  const [price0, price1, listed] = await Promise.all([
    price(token0, prices.token0),
    price(token1, prices.token1),
    decimals0 === undefined || decimals1 === undefined ? list() : undefined,
  ])
  const decimalsIn = (address: Address) =>
    listed?.find((token) => token.address.toLowerCase() === address.toLowerCase())?.decimals
  decimals0 ??= decimalsIn(token0)
  decimals1 ??= decimalsIn(token1)
  const usd0 = scaledPrice(price0)
  const usd1 = scaledPrice(price1)
  if (usd0 === undefined || usd1 === undefined || decimals0 === undefined || decimals1 === undefined)
    return { amountIn: undefined, decimals0, decimals1 }
  // amountOut / 10^d1 × p1 / p0 × 10^d0, in integers.
  const amountIn = (amountOut * usd1 * 10n ** BigInt(decimals0)) / (usd0 * 10n ** BigInt(decimals1))
  return { amountIn, decimals0, decimals1 }
}

/** Throws `InvalidParameterError` unless the parameters of `getSwapRouteForOutput` are valid. */
export function assertSwapRouteForOutputParameters(
  parameters: unknown,
): asserts parameters is GetSwapRouteForOutputParameters {
  assertObject(parameters)
  const { maxProbes, tolerance, prices, decimals, initialAmountIn } = parameters
  assertAddress('token0', parameters.token0)
  assertAddress('token1', parameters.token1)
  assertAmount('amountOut', parameters.amountOut)
  if (maxProbes !== undefined)
    ensure(
      Number.isSafeInteger(maxProbes) && (maxProbes as number) >= 1 && (maxProbes as number) <= 32,
      'maxProbes',
      'must be an integer from 1 to 32',
      maxProbes,
    )
  if (tolerance !== undefined)
    ensure(
      typeof tolerance === 'number' && tolerance >= 0 && tolerance <= 1,
      'tolerance',
      'must be a finite number from 0 to 1 (0.05 is 5%)',
      tolerance,
    )
  for (const [name, value, valid, rule] of [
    [
      'prices',
      prices,
      (price: unknown) => typeof price === 'number' && Number.isFinite(price) && price >= 0,
      'must be a finite USD price of at least 0',
    ],
    [
      'decimals',
      decimals,
      (figure: unknown) => Number.isInteger(figure) && (figure as number) >= 0 && (figure as number) <= 255,
      'must be an integer from 0 to 255',
    ],
  ] as const) {
    if (value === undefined) continue
    ensure(isObject(value), name, 'must be an object with token0 and token1', value)
    for (const side of ['token0', 'token1'] as const)
      if (value[side] !== undefined) ensure(valid(value[side]), `${name}.${side}`, rule, value[side])
  }
  if (initialAmountIn !== undefined) assertAmount('initialAmountIn', initialAmountIn)
}
