import type { Address } from 'viem'
import type { SwapClient } from '../core/client.js'
import { InvalidParameterError } from '../core/errors/parameter.js'
import { type GetMaxAmountParameters, getMaxAmount, type MaxAmount } from '../core/execute/getMaxAmount.js'
import type { Prettify } from '../core/types.js'
import { isMissing } from '../core/utils/validate.js'
import type { ExactPartial, SwapQueryOptions } from './createQueryFactory.js'
import { toJsonKey } from './toJsonKey.js'

/** The first element of every "Max" key. */
export const maxAmountQueryName = 'maxAmount'

/** `getMaxAmount`'s parameters, each optional: the query waits for `publicClient`, `account`, `token0` and `token1`. */
export type GetMaxAmountOptions = ExactPartial<GetMaxAmountParameters>

/** How often "Max" is read again when the chain does not say its block time (`chain.blockTime`): 12 s. */
export const defaultBlockTimeMs = 12_000

/**
 * `['maxAmount', { baseUrl, chainId, account, token0, token1, … }]`: every parameter given but the
 * clients, JSON-safe; the public client stands in as its chain (or its `uid`), the wallet as its `uid`.
 */
export type GetMaxAmountQueryKey = readonly [
  typeof maxAmountQueryName,
  Prettify<
    { baseUrl: string; chainId?: number | undefined; publicClientUid?: string | undefined } & {
      walletClientUid?: string | undefined
      account?: Address | undefined
      token0?: Address | undefined
      token1?: Address | undefined
    } & Record<string, unknown>
  >,
]

/**
 * The cache key of a "Max". A partial key matches every one it is part of.
 *
 * @example
 * queryClient.invalidateQueries({ queryKey: getMaxAmountQueryKey({ baseUrl: client.baseUrl, account }) })
 */
export function getMaxAmountQueryKey(
  parameters: Omit<GetMaxAmountOptions, 'publicClient' | 'walletClient'> & {
    baseUrl: string
    chainId?: number | undefined
    publicClientUid?: string | undefined
    walletClientUid?: string | undefined
  },
): GetMaxAmountQueryKey {
  return toJsonKey(maxAmountQueryName, parameters) as GetMaxAmountQueryKey
}

/**
 * Query options for what a "Max" button fills in (`getMaxAmount`): the
 * balance, less the fee of the swap's calls for the chain's coin. Read again
 * every block (`refetchInterval`: the chain's `blockTime`, else 12 s), since
 * the fee follows the base fee; fresh for as long. Waits (`enabled: false`)
 * until `publicClient`, `account`, `token0` and `token1` are given; a
 * malformed one is an `InvalidParameterError` (no retry) before any request.
 *
 * @example
 * import { getMaxAmountQueryOptions } from 'token-swap-hooks/query'
 *
 * const { amount } = await queryClient.fetchQuery(
 *   getMaxAmountQueryOptions(client, { publicClient, walletClient, account, token0, token1 }),
 * )
 */
export function getMaxAmountQueryOptions(
  client: SwapClient,
  parameters: GetMaxAmountOptions = {},
): SwapQueryOptions<MaxAmount, GetMaxAmountQueryKey> {
  const { publicClient, walletClient, ...rest } = parameters
  const chainId = publicClient?.chain?.id
  const blockTime = publicClient?.chain?.blockTime ?? defaultBlockTimeMs
  return {
    queryKey: getMaxAmountQueryKey({
      ...rest,
      baseUrl: client.baseUrl,
      chainId,
      publicClientUid: chainId === undefined ? publicClient?.uid : undefined,
      walletClientUid: walletClient?.uid,
    }),
    queryFn: () => getMaxAmount(client, parameters as GetMaxAmountParameters),
    enabled:
      !!publicClient &&
      !isMissing(parameters.account) &&
      !isMissing(parameters.token0) &&
      !isMissing(parameters.token1),
    staleTime: blockTime,
    refetchInterval: blockTime,
    gcTime: 5 * 60_000,
    retry: (failureCount, error) => failureCount < 2 && !(error instanceof InvalidParameterError),
    retryDelay: (failureCount) => 500 * 2 ** failureCount,
  }
}
