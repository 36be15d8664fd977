import type { SwapClient } from '../client.js'
import type { InvalidParameterErrorType } from '../errors/parameter.js'
import type { RequestErrorType } from '../errors/request.js'
import { type TokenData, tokenDataListSchema } from '../schemas.js'
import type { RequestOptions } from '../types.js'
import { assertObject } from '../utils/validate.js'

/** The endpoint takes no parameters. */
export type GetTokensDataParameters = Record<never, never>

/** What `getTokensData` resolves with. */
export type GetTokensDataReturnType = TokenData[]

/** Every error `getTokensData` may throw (narrow by `name`, or by `code`). */
export type GetTokensDataErrorType = InvalidParameterErrorType | RequestErrorType

/**
 * Detailed data per token: liquidity, volume and token economics (`GET /get_tokens_data`). Field names are not shown by the spec, so records are kept as sent.
 *
 * @example
 * const data = await getTokensData(client)
 */
export async function getTokensData(
  client: SwapClient,
  parameters: GetTokensDataParameters = {},
  options: RequestOptions = {},
): Promise<GetTokensDataReturnType> {
  assertObject(parameters)
  return client.request({ endpoint: '/get_tokens_data', signal: options.signal, schema: tokenDataListSchema })
}
