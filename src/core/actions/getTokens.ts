import type { SwapClient } from '../client.js'
import type { InvalidParameterErrorType } from '../errors/parameter.js'
import type { RequestErrorType } from '../errors/request.js'
import { type Token, tokenListSchema } from '../schemas.js'
import type { RequestOptions } from '../types.js'
import { assertListParameters } from '../utils/validate.js'
import { toWireQuery, type WireNames } from '../utils/wireQuery.js'

/** What `getTokens` takes. */
export type GetTokensParameters = {
  /** Only these tokens (addresses). */
  filterByToken?: readonly string[] | undefined
  /** Include blacklisted tokens. The service's default is `false`. */
  blacklist?: boolean | undefined
}

/** The spec's name of every parameter. */
export const getTokensWireNames = {
  filterByToken: 'filter_by_token',
  blacklist: 'blacklist',
} as const satisfies WireNames<GetTokensParameters>

/** What `getTokens` resolves with. */
export type GetTokensReturnType = Token[]

/** Every error `getTokens` may throw (narrow by `name`, or by `code`). */
export type GetTokensErrorType = InvalidParameterErrorType | RequestErrorType

/**
 * Lists the available tokens (`GET /overview/tokens`).
 *
 * @example
 * const tokens = await getTokens(client)
 * const usdc = tokens.find((token) => token.symbol === 'USDC')
 */
export async function getTokens(
  client: SwapClient,
  parameters: GetTokensParameters = {},
  options: RequestOptions = {},
): Promise<GetTokensReturnType> {
  assertListParameters<GetTokensParameters>(parameters, client.arrayFormat, ['filterByToken'])
  return client.request({
    endpoint: '/overview/tokens',
    query: toWireQuery(getTokensWireNames, parameters),
    signal: options.signal,
    schema: tokenListSchema,
  })
}
