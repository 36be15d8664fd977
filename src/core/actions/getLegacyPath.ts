import type { Address } from 'viem'
import type { SwapClient } from '../client.js'
import type { InvalidParameterErrorType } from '../errors/parameter.js'
import { type NoRouteErrorType, type RequestErrorType, toNoRouteError } from '../errors/request.js'
import { type LegacyPath, legacyPathSchemaFor, type QuoteRequest } from '../schemas.js'
import type { RequestOptions } from '../types.js'
import { withQuotedFor } from '../utils/quotedFor.js'
import { assertRouteParameters } from '../utils/validate.js'
import { quoteWireNames, toWireQuery } from '../utils/wireQuery.js'

/** What `getLegacyPath` takes. */
export type GetLegacyPathParameters = {
  /** The input token. */
  token0: Address
  /** The output token. */
  token1: Address
  /** The input amount in token0's smallest unit; greater than 0. */
  amountIn: bigint
}

/** The legacy path, with the swap it was fetched for (`quotedFor`). */
export type GetLegacyPathReturnType = LegacyPath & { quotedFor: QuoteRequest }

/** Every error `getLegacyPath` may throw (narrow by `name`, or by `code`). */
export type GetLegacyPathErrorType = InvalidParameterErrorType | NoRouteErrorType | RequestErrorType

/**
 * The optimal path from the legacy group (`GET /get_path`). Its body is not
 * shown by the spec: a Route, or a bare array of addresses (then `amountOut`
 * is `undefined`). A 404 becomes `NoRouteError`, as on `/swap/route`.
 *
 * @example
 * const { path, amountOut } = await getLegacyPath(client, { token0, token1, amountIn: 10n ** 18n })
 */
export async function getLegacyPath(
  client: SwapClient,
  parameters: GetLegacyPathParameters,
  options: RequestOptions = {},
): Promise<GetLegacyPathReturnType> {
  assertRouteParameters(parameters)
  try {
    const quote = await client.request({
      endpoint: '/get_path',
      query: toWireQuery(quoteWireNames, parameters),
      signal: options.signal,
      schema: legacyPathSchemaFor(parameters),
    })
    return withQuotedFor(quote, parameters)
  } catch (error) {
    throw toNoRouteError(error, parameters.token0, parameters.token1)
  }
}
