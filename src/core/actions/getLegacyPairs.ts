import type { SwapClient } from '../client.js'
import type { InvalidParameterErrorType } from '../errors/parameter.js'
import type { RequestErrorType } from '../errors/request.js'
import { type Pair, pairListSchema } from '../schemas.js'
import type { RequestOptions } from '../types.js'
import { assertObject } from '../utils/validate.js'

/** The endpoint takes no parameters. */
export type GetLegacyPairsParameters = Record<never, never>

/** What `getLegacyPairs` resolves with. */
export type GetLegacyPairsReturnType = Pair[]

/** Every error `getLegacyPairs` may throw (narrow by `name`, or by `code`). */
export type GetLegacyPairsErrorType = InvalidParameterErrorType | RequestErrorType

/**
 * Lists every supported pair from the legacy group (`GET /get_pairs`).
 *
 * @example
 * const pairs = await getLegacyPairs(client)
 */
export async function getLegacyPairs(
  client: SwapClient,
  parameters: GetLegacyPairsParameters = {},
  options: RequestOptions = {},
): Promise<GetLegacyPairsReturnType> {
  assertObject(parameters)
  return client.request({ endpoint: '/get_pairs', signal: options.signal, schema: pairListSchema })
}
