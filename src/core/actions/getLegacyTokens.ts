import type { SwapClient } from '../client.js'
import type { InvalidParameterErrorType } from '../errors/parameter.js'
import type { RequestErrorType } from '../errors/request.js'
import { type Token, tokenListSchema } from '../schemas.js'
import type { RequestOptions } from '../types.js'
import { assertObject } from '../utils/validate.js'

/** The endpoint takes no parameters. */
export type GetLegacyTokensParameters = Record<never, never>

/** What `getLegacyTokens` resolves with. */
export type GetLegacyTokensReturnType = Token[]

/** Every error `getLegacyTokens` may throw (narrow by `name`, or by `code`). */
export type GetLegacyTokensErrorType = InvalidParameterErrorType | RequestErrorType

/**
 * Lists every tradable token from the legacy group (`GET /get_tokens`).
 *
 * @example
 * const tokens = await getLegacyTokens(client)
 */
export async function getLegacyTokens(
  client: SwapClient,
  parameters: GetLegacyTokensParameters = {},
  options: RequestOptions = {},
): Promise<GetLegacyTokensReturnType> {
  assertObject(parameters)
  return client.request({ endpoint: '/get_tokens', signal: options.signal, schema: tokenListSchema })
}
