import type { SwapClient } from '../client.js'
import type { InvalidParameterErrorType } from '../errors/parameter.js'
import type { RequestErrorType } from '../errors/request.js'
import { type Pair, pairListSchema } from '../schemas.js'
import type { RequestOptions } from '../types.js'
import { assertListParameters } from '../utils/validate.js'
import { toWireQuery, type WireNames } from '../utils/wireQuery.js'

/** What `getPairs` takes. */
export type GetPairsParameters = {
  /** Only pairs with one of these tokens (address or symbol). */
  filterByToken?: readonly string[] | undefined
  /** Only these pairs (pair addresses). */
  filterByPair?: readonly string[] | undefined
  /** Include blacklisted pairs. The service's default is `false`. */
  blacklist?: boolean | undefined
}

/** The spec's name of every parameter. */
export const getPairsWireNames = {
  filterByToken: 'filter_by_token',
  filterByPair: 'filter_by_pair',
  blacklist: 'blacklist',
} as const satisfies WireNames<GetPairsParameters>

/** What `getPairs` resolves with. */
export type GetPairsReturnType = Pair[]

/** Every error `getPairs` may throw (narrow by `name`, or by `code`). */
export type GetPairsErrorType = InvalidParameterErrorType | RequestErrorType

/**
 * Lists liquidity pairs (`GET /overview/pairs`), narrowed by the filters given.
 *
 * @example
 * const pairs = await getPairs(client, { filterByToken: ['USDC'] })
 */
export async function getPairs(
  client: SwapClient,
  parameters: GetPairsParameters = {},
  options: RequestOptions = {},
): Promise<GetPairsReturnType> {
  assertListParameters<GetPairsParameters>(parameters, client.arrayFormat, ['filterByToken', 'filterByPair'])
  return client.request({
    endpoint: '/overview/pairs',
    query: toWireQuery(getPairsWireNames, parameters),
    signal: options.signal,
    schema: pairListSchema,
  })
}
