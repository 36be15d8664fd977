import type { SwapClient } from '../core/client.js'
import { InvalidParameterError } from '../core/errors/parameter.js'
import { type GetTokenParameters, type GetTokenReturnType, getToken } from '../core/tokens/getToken.js'
import type { Prettify } from '../core/types.js'
import type { ExactPartial, SwapQueryOptions } from './createQueryFactory.js'
import { toJsonKey } from './toJsonKey.js'

/** The first element of every pasted-token key. */
export const tokenQueryName = 'token'

export type GetTokenOptions = ExactPartial<GetTokenParameters>

/** `['token', { baseUrl, chainId, address }]`: the public client stands in as its chain, or its `uid`. */
export type GetTokenQueryKey = readonly [
  typeof tokenQueryName,
  Prettify<{
    baseUrl: string
    chainId?: number | undefined
    publicClientUid?: string | undefined
    address?: string | undefined
  }>,
]

/**
 * The cache key of a pasted token.
 *
 * @example
 * queryClient.invalidateQueries({ queryKey: getTokenQueryKey({ baseUrl: client.baseUrl, address }) })
 */
export function getTokenQueryKey(parameters: GetTokenQueryKey[1]): GetTokenQueryKey {
  return toJsonKey(tokenQueryName, parameters) as GetTokenQueryKey
}

/**
 * Query options for a token pasted by its address (`getToken`): what it is on
 * chain and whether the service lists it. Waits (`enabled: false`) while the
 * text is empty or there is no public client; text that is not an address is
 * an `InvalidParameterError` (no retry) before any request. A token's name,
 * symbol and decimals do not change: fresh for 5 minutes.
 *
 * @example
 * import { getTokenQueryOptions } from 'token-swap-hooks/query'
 *
 * const token = await queryClient.fetchQuery(getTokenQueryOptions(client, { publicClient, address: pasted }))
 */
export function getTokenQueryOptions(
  client: SwapClient,
  parameters: GetTokenOptions = {},
): SwapQueryOptions<GetTokenReturnType, GetTokenQueryKey> {
  const { publicClient } = parameters
  const address = typeof parameters.address === 'string' ? parameters.address.trim() : parameters.address
  const chainId = publicClient?.chain?.id
  return {
    queryKey: getTokenQueryKey({
      baseUrl: client.baseUrl,
      chainId,
      publicClientUid: chainId === undefined ? publicClient?.uid : undefined,
      address,
    }),
    queryFn: () => getToken(client, parameters as GetTokenParameters),
    enabled: !!publicClient && address !== undefined && address !== '',
    staleTime: 5 * 60_000,
    gcTime: 10 * 60_000,
    retry: (failureCount, error) => failureCount < 2 && !(error instanceof InvalidParameterError),
    retryDelay: (failureCount) => 500 * 2 ** failureCount,
  }
}
