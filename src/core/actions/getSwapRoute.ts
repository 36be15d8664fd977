import type { Address } from 'viem'
import type { SwapClient } from '../client.js'
import type { InvalidParameterErrorType } from '../errors/parameter.js'
import { type NoRouteErrorType, type RequestErrorType, toNoRouteError } from '../errors/request.js'
import { type QuoteRequest, type Route, routeSchemaFor } from '../schemas.js'
import type { RequestOptions } from '../types.js'
import { withQuotedFor } from '../utils/quotedFor.js'
import { assertRouteParameters } from '../utils/validate.js'
import { quoteWireNames, toWireQuery } from '../utils/wireQuery.js'

/** What `getSwapRoute` takes. */
export type GetSwapRouteParameters = {
  /** The input token. */
  token0: Address
  /** The output token. */
  token1: Address
  /** The input amount in token0's smallest unit; greater than 0. */
  amountIn: bigint
}

/** The route, with the swap it was fetched for (`quotedFor`). */
export type GetSwapRouteReturnType = Route & { quotedFor: QuoteRequest }

/** Every error `getSwapRoute` may throw (narrow by `name`, or by `code`). */
export type GetSwapRouteErrorType = InvalidParameterErrorType | NoRouteErrorType | RequestErrorType

/**
 * Computes the best route from token0 to token1 (`GET /swap/route`).
 * Throws `NoRouteError` when the service finds no path (404).
 *
 * @example
 * import { createSwapClient, getSwapRoute } from 'token-swap-hooks/core'
 * import { parseEther } from 'viem'
 *
 * const client = createSwapClient({ baseUrl: 'https://swap.example.com' })
 * const { path, amountOut } = await getSwapRoute(client, {
 *   token0: '0xC02aaA39b223FE8D0A0e5C4F27eAD9083C756Cc2', // WETH
 *   token1: '0xA0b86991c6218b36c1d19D4a2e9Eb0cE3606eB48', // USDC
 *   amountIn: parseEther('1'),
 * })
 */
export async function getSwapRoute(
  client: SwapClient,
  parameters: GetSwapRouteParameters,
  options: RequestOptions = {},
): Promise<GetSwapRouteReturnType> {
  assertRouteParameters(parameters)
  try {
    const quote = await client.request({
      endpoint: '/swap/route',
      query: toWireQuery(quoteWireNames, parameters),
      signal: options.signal,
      schema: routeSchemaFor(parameters),
    })
    return withQuotedFor(quote, parameters)
  } catch (error) {
    throw toNoRouteError(error, parameters.token0, parameters.token1)
  }
}
