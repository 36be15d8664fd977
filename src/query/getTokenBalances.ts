import type { QueryClient } from '@tanstack/react-query'
import type { Address } from 'viem'
import {
  type BalanceToken,
  type GetTokenBalancesParameters,
  type GetTokenBalancesReturnType,
  getTokenBalances,
  type TokenBalancesPrices,
} from '../core/balances/getTokenBalances.js'
import type { SwapClient } from '../core/client.js'
import { BlockNotReachedError } from '../core/errors/balances.js'
import { BaseError } from '../core/errors/base.js'
import { InvalidParameterError } from '../core/errors/parameter.js'
import type { Prettify } from '../core/types.js'
import { getRetryDelay, isRetryableError, maxAttempts } from '../core/utils/retry.js'
import { isMissing } from '../core/utils/validate.js'
import type { ExactPartial, SwapQueryOptions } from './createQueryFactory.js'
import { getTokenPriceQueryOptions } from './getTokenPrice.js'
import { toJsonKey } from './toJsonKey.js'

/**
 * The first element of every balances key. Invalidate it to re-read every
 * balance list, e.g. once a swap is mined:
 * `queryClient.invalidateQueries({ queryKey: [tokenBalancesQueryName] })`.
 */
export const tokenBalancesQueryName = 'tokenBalances'

/** Tries, and the wait between them, while the node has not reached `blockNumber`: about 18 s in all. */
const maxBlockTries = 10
const blockRetryDelayMs = 2000

/** The parameters of `getTokenBalancesQueryOptions`: `getTokenBalances`'s, each optional (the query waits for `publicClient` and `account`). */
export type GetTokenBalancesOptions = ExactPartial<GetTokenBalancesParameters>
export type GetTokenBalancesQueryFnData = GetTokenBalancesReturnType
/** What a balances query holds: `getTokenBalances`'s answer (`select` may turn it into something else). */
export type GetTokenBalancesData = GetTokenBalancesQueryFnData

/**
 * `['tokenBalances', { baseUrl, chainId, account, tokens, prices, maxPrices, blockNumber, batchSize }]`:
 * every parameter given, JSON-safe (bigints as decimal strings). The public
 * client stands in the key as its chain (`chainId`), or as its `uid` when its
 * chain is unknown (`publicClientUid`).
 */
export type GetTokenBalancesQueryKey = readonly [
  typeof tokenBalancesQueryName,
  Prettify<{
    baseUrl: string
    chainId?: number | undefined
    publicClientUid?: string | undefined
    account?: Address | undefined
    tokens?: readonly (Record<string, unknown> | string)[] | undefined
    prices?: Readonly<Record<string, number>> | false | undefined
    maxPrices?: number | undefined
    blockNumber?: string | undefined
    batchSize?: number | undefined
  }>,
]

export type GetTokenBalancesQueryKeyParameters = Omit<GetTokenBalancesOptions, 'publicClient' | 'prices'> & {
  baseUrl: string
  /** Stands for a public client whose chain is unknown. */
  publicClientUid?: string | undefined
  /** Only a record or `false` is part of a key (a function is not). */
  prices?: Exclude<TokenBalancesPrices, (...args: never[]) => unknown> | undefined
}

export type GetTokenBalancesQueryOptionsConfig = {
  /**
   * The QueryClient the query runs in. With it, prices are read through the
   * `tokenPrice` cache `useTokenPrice` shares (a refresh within 30 s sends
   * no price request); without it, every run requests them.
   */
  queryClient?: QueryClient | undefined
}

/**
 * The cache key of a balance list. A partial key matches every list it is
 * part of: `getTokenBalancesQueryKey({ baseUrl: client.baseUrl })` matches
 * every list of that service.
 *
 * @example
 * queryClient.invalidateQueries({ queryKey: getTokenBalancesQueryKey({ baseUrl: client.baseUrl, account }) })
 */
export function getTokenBalancesQueryKey(
  parameters: GetTokenBalancesQueryKeyParameters,
): GetTokenBalancesQueryKey {
  return toJsonKey(tokenBalancesQueryName, parameters) as GetTokenBalancesQueryKey
}

/**
 * Query options for an account's token balances (`getTokenBalances`): key,
 * function, retry policy and cache times (fresh for 10 s, no polling: set
 * `refetchInterval` to poll). Waits (`enabled: false`) until `account` and
 * `publicClient` are given; a malformed parameter is an
 * `InvalidParameterError` before any request. Chain reads are retried (two
 * more tries), as are the service's retryable failures; a node behind
 * `blockNumber` is asked again every 2 s, 10 times at most.
 *
 * @example
 * import { getTokenBalancesQueryOptions } from 'token-swap-hooks/query'
 *
 * const { balances } = await queryClient.fetchQuery(
 *   getTokenBalancesQueryOptions(client, { publicClient, account }, { queryClient }),
 * )
 */
export function getTokenBalancesQueryOptions(
  client: SwapClient,
  parameters: GetTokenBalancesOptions = {},
  { queryClient }: GetTokenBalancesQueryOptionsConfig = {},
): SwapQueryOptions<GetTokenBalancesReturnType, GetTokenBalancesQueryKey> {
  const { publicClient, prices, ...rest } = parameters
  const chainId = parameters.chainId ?? publicClient?.chain?.id
  const queryKey = getTokenBalancesQueryKey({
    ...rest,
    baseUrl: client.baseUrl,
    chainId,
    publicClientUid: chainId === undefined ? publicClient?.uid : undefined,
    prices: typeof prices === 'function' ? undefined : prices,
  })
  const cachedPrice =
    prices === undefined && queryClient
      ? (token: BalanceToken) =>
          queryClient.fetchQuery({
            ...getTokenPriceQueryOptions(client, { address: token.address }),
            // One try: a token without a price stays unvalued rather than holding the list back.
            retry: false,
          })
      : undefined
  return {
    staleTime: 10_000,
    gcTime: 5 * 60_000,
    retry: (failureCount, error) =>
      // A node behind the swap's block catches up within a block or two (12 s on mainnet).
      error instanceof BlockNotReachedError
        ? failureCount < maxBlockTries - 1
        : failureCount < maxAttempts - 1 &&
          !(error instanceof InvalidParameterError) &&
          // The chain's errors (viem's) are worth another try; the service's, when they are retryable.
          (!(error instanceof BaseError) || isRetryableError(error)),
    retryDelay: (failureCount, error) =>
      error instanceof BlockNotReachedError
        ? blockRetryDelayMs
        : getRetryDelay(failureCount, error, client.rateLimiter.getState().rateLimitedUntil),
    queryKey,
    queryFn: ({ signal }) =>
      getTokenBalances(
        client,
        { ...(parameters as GetTokenBalancesParameters), prices: prices ?? cachedPrice },
        { signal },
      ),
    enabled: !!publicClient && !isMissing(parameters.account),
  }
}
