import type { Address } from 'viem'
import type { SwapClient } from '../client.js'
import type { InvalidParameterErrorType } from '../errors/parameter.js'
import type { RequestErrorType } from '../errors/request.js'
import { priceSchema } from '../schemas.js'
import type { RequestOptions } from '../types.js'
import { assertAddress, assertObject } from '../utils/validate.js'
import { toWireQuery, type WireNames } from '../utils/wireQuery.js'

/** What `getTokenPrice` takes. */
export type GetTokenPriceParameters = {
  /** The token whose USD price to read. */
  address: Address
}

/** The spec's name of every parameter. */
export const getTokenPriceWireNames = {
  address: 'address',
} as const satisfies WireNames<GetTokenPriceParameters>

/** The price in USD. */
export type GetTokenPriceReturnType = number

/** Every error `getTokenPrice` may throw (narrow by `name`, or by `code`). */
export type GetTokenPriceErrorType = InvalidParameterErrorType | RequestErrorType

/**
 * Reads the USD price of a token (`GET /overview/token/price`). The body is
 * not shown by the spec: a number, a numeric string, or an object with one
 * numeric price field are all accepted.
 *
 * @example
 * const usd = await getTokenPrice(client, { address: '0xA0b86991c6218b36c1d19D4a2e9Eb0cE3606eB48' })
 */
export async function getTokenPrice(
  client: SwapClient,
  parameters: GetTokenPriceParameters,
  options: RequestOptions = {},
): Promise<GetTokenPriceReturnType> {
  assertTokenPriceParameters(parameters)
  return client.request({
    endpoint: '/overview/token/price',
    query: toWireQuery(getTokenPriceWireNames, parameters),
    signal: options.signal,
    schema: priceSchema,
  })
}

/** Throws `InvalidParameterError` unless the parameters of `getTokenPrice` are valid. */
function assertTokenPriceParameters(parameters: unknown): asserts parameters is GetTokenPriceParameters {
  assertObject(parameters)
  assertAddress('address', parameters.address)
}
