import { type Address, encodeFunctionData, getAddress, type Hex } from 'viem'
import { isNativeToken } from '../core/constants.js'
import { getMinAmountOut } from '../core/utils/getMinAmountOut.js'
import { swapRouterAbi } from './routerAbi.js'
import type { MockMarket, Quote } from './types.js'

/** Seconds added to the current time when `/swap/info` gets no `deadline`. */
export const defaultDeadlineSeconds = 1200

/** The slippage `/swap/info` uses when none is sent. */
export const defaultSlippage = 0.05

/** The parameters of `getSwapInfoBody`: the market, the swap, the recipient, and the slippage or floor and deadline. */
export type GetSwapInfoBodyParameters = {
  /** The market that quotes the swap (its router, spender and pools). */
  market: MockMarket
  token0: Address
  token1: Address
  /** In token0's smallest unit. */
  amountIn: bigint
  /** The recipient the calldata pays; `/swap/info`'s `to`. */
  to: Address
  /** 0..1; the calldata's floor is the quote less this. Default {@link defaultSlippage}. */
  slippage?: number | undefined
  /** The calldata's floor, instead of the one `slippage` gives (e.g. `0n` for a hostile body). */
  minAmountOut?: bigint | undefined
  /** Unix seconds. Default: now plus {@link defaultDeadlineSeconds}. */
  deadline?: bigint | undefined
}

/** The JSON body of `/swap/info`, as the mock service sends it (amounts as decimal strings). */
export type GetSwapInfoBodyReturnType = {
  data: Hex
  transferAddress: Address
  transferValue: string
  approvalAddress: Address | null
  estimateTransferSeconds: number
  estimateAmount: string
  hopsCount: number
  fee: {
    totalBps: number
    hops: { pair: Address; tokenIn: Address; tokenOut: Address; feeBps: number; feeAmount: string }[]
    gasEstimate: string
  }
}

/**
 * The body the mock service answers to `/swap/info` for a swap: the router's
 * `swap` calldata, the spender, the estimate and the fees; `undefined` when the
 * market has no path. Spread it and change a field to build the answer of
 * another (or a hostile) service in your own tests, with `service.fail`.
 *
 * @example
 * const body = getSwapInfoBody({ market, token0: USDC, token1: WETH, amountIn: 1_000_000n, to: account })
 * // A service that promises 10% less than it routes:
 * service.fail({ endpoint: '/swap/info', status: 200, body: { ...body, estimateAmount: '1' } })
 */
export function getSwapInfoBody(
  parameters: GetSwapInfoBodyParameters,
): GetSwapInfoBodyReturnType | undefined {
  const { market, token0, token1, amountIn, to, slippage, minAmountOut, deadline } = parameters
  const quote = market.quote({ token0, token1, amountIn })
  if (!quote) return undefined
  const native = isNativeToken(token0)
  const data = encodeFunctionData({
    abi: swapRouterAbi,
    functionName: 'swap',
    args: [
      quote.path,
      amountIn,
      minAmountOut ?? getMinAmountOut(quote.amountOut, slippage ?? defaultSlippage),
      getAddress(to.toLowerCase()),
      deadline ?? BigInt(Math.floor(Date.now() / 1000) + defaultDeadlineSeconds),
    ],
  })
  return {
    data,
    transferAddress: market.router,
    transferValue: native ? amountIn.toString() : '0',
    approvalAddress: native ? null : market.spender,
    estimateTransferSeconds: market.estimateTransferSeconds(quote),
    estimateAmount: quote.amountOut.toString(),
    hopsCount: quote.path.length - 1,
    fee: feeOf(quote),
  }
}

/** The `fee` object of `/swap/info`: per-swap fees and a gas estimate. */
function feeOf(quote: Quote): GetSwapInfoBodyReturnType['fee'] {
  return {
    totalBps: quote.hops.reduce((total, hop) => total + hop.feeBps, 0),
    hops: quote.hops.map((hop) => ({
      pair: hop.pair,
      tokenIn: hop.tokenIn,
      tokenOut: hop.tokenOut,
      feeBps: hop.feeBps,
      feeAmount: ((hop.amountIn * BigInt(hop.feeBps)) / 10_000n).toString(),
    })),
    gasEstimate: (60_000 + 50_000 * quote.hops.length).toString(),
  }
}
