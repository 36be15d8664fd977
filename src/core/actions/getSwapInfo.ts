import type { Address } from 'viem'
import type { SwapClient } from '../client.js'
import { defaultSlippage } from '../constants.js'
import type { InvalidParameterErrorType } from '../errors/parameter.js'
import { type NoRouteErrorType, type RequestErrorType, toNoRouteError } from '../errors/request.js'
import { type QuoteRequest, type SwapInfo, swapInfoSchema } from '../schemas.js'
import type { RequestOptions } from '../types.js'
import { withQuotedFor } from '../utils/quotedFor.js'
import { assertAddress, assertDeadline, assertRouteParameters, assertSlippage } from '../utils/validate.js'
import { quoteWireNames, toWireQuery, type WireNames } from '../utils/wireQuery.js'

/** What `getSwapInfo` takes. */
export type GetSwapInfoParameters = {
  /** The input token. */
  token0: Address
  /** The output token. */
  token1: Address
  /** The input amount in token0's smallest unit; greater than 0. */
  amountIn: bigint
  /** Who receives the output. */
  to: Address
  /**
   * Accepted slippage as a fraction from 0 to 1 (0.01 is 1%). Default
   * `defaultSlippage` (0.005), always sent: the service's own default (0.05) is never used.
   */
  slippage?: number | undefined
  /** Transaction deadline, passed through as the service expects it (see the README). Not sent when omitted. */
  deadline?: number | bigint | undefined
}

/** The spec's name of every parameter. */
const getSwapInfoWireNames = {
  ...quoteWireNames,
  to: 'to',
  slippage: 'slippage',
  deadline: 'deadline',
} as const satisfies WireNames<GetSwapInfoParameters>

/** The swap info, with the swap it was fetched for (`quotedFor`). */
export type GetSwapInfoReturnType = SwapInfo & { quotedFor: QuoteRequest }

/** Every error `getSwapInfo` may throw (narrow by `name`, or by `code`). */
export type GetSwapInfoErrorType = InvalidParameterErrorType | NoRouteErrorType | RequestErrorType

/**
 * Everything needed to execute a swap (`GET /swap/info`): calldata, the
 * contract to call, the spender to approve, and estimates.
 *
 * @example
 * const info = await getSwapInfo(client, {
 *   token0, token1, amountIn: 10n ** 18n, to: account, slippage: 0.01,
 * })
 * // info.approvalAddress, info.transferAddress, info.data, info.estimateAmount
 */
export async function getSwapInfo(
  client: SwapClient,
  parameters: GetSwapInfoParameters,
  options: RequestOptions = {},
): Promise<GetSwapInfoReturnType> {
  assertSwapInfoParameters(parameters)
  try {
    const quote = await client.request({
      endpoint: '/swap/info',
      query: toWireQuery(getSwapInfoWireNames, {
        ...parameters,
        slippage: parameters.slippage ?? defaultSlippage,
      }),
      signal: options.signal,
      schema: swapInfoSchema,
    })
    return withQuotedFor(quote, parameters)
  } catch (error) {
    // The spec shows no status codes here; a 404 is read as on /swap/route: no path.
    throw toNoRouteError(error, parameters.token0, parameters.token1)
  }
}

/** Throws `InvalidParameterError` unless the parameters of `getSwapInfo` are valid. */
function assertSwapInfoParameters(parameters: unknown): asserts parameters is GetSwapInfoParameters {
  assertRouteParameters(parameters)
  const { to, slippage, deadline } = parameters as Record<string, unknown>
  assertAddress('to', to)
  if (slippage !== undefined) assertSlippage('slippage', slippage)
  if (deadline !== undefined) assertDeadline('deadline', deadline)
}
