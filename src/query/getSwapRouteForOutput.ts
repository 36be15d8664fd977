import type { QueryClient } from '@tanstack/react-query'
import type { Address } from 'viem'
import {
  assertSwapRouteForOutputParameters,
  defaultExactOutputTolerance,
  type GetSwapRouteForOutputParameters,
  type GetSwapRouteForOutputReturnType,
  getSwapRouteForOutput,
  type PerToken,
} from '../core/actions/getSwapRouteForOutput.js'
import type { SwapClient } from '../core/client.js'
import type { Token } from '../core/schemas.js'
import type { Prettify } from '../core/types.js'
import { getRetryDelay, isRetryableError, maxAttempts } from '../core/utils/retry.js'
import { isMissing } from '../core/utils/validate.js'
import type { ExactPartial, SwapQueryOptions } from './createQueryFactory.js'
import { getTokenPriceQueryOptions } from './getTokenPrice.js'
import { getTokensQueryKey, getTokensQueryOptions } from './getTokens.js'
import { toJsonKey } from './toJsonKey.js'

/** The first element of every exact-output key. */
export const swapRouteForOutputQueryName = 'swapRouteForOutput'

/** The parameters of `getSwapRouteForOutputQueryOptions`: `getSwapRouteForOutput`'s, each optional (the query waits while a required one is missing). */
export type GetSwapRouteForOutputOptions = ExactPartial<GetSwapRouteForOutputParameters>
export type GetSwapRouteForOutputQueryFnData = GetSwapRouteForOutputReturnType
/** What an exact-output query holds: `getSwapRouteForOutput`'s answer (`select` may turn it into something else). */
export type GetSwapRouteForOutputData = GetSwapRouteForOutputQueryFnData

/**
 * `['swapRouteForOutput', { baseUrl, token0, token1, amountOut, maxProbes, tolerance, prices, decimals, initialAmountIn }]`:
 * every parameter given, amounts as decimal strings.
 */
export type GetSwapRouteForOutputQueryKey = readonly [
  typeof swapRouteForOutputQueryName,
  Prettify<{
    baseUrl: string
    token0?: Address | undefined
    token1?: Address | undefined
    amountOut?: string | undefined
    maxProbes?: number | undefined
    tolerance?: number | undefined
    prices?: PerToken<number> | undefined
    decimals?: PerToken<number> | undefined
    initialAmountIn?: string | undefined
  }>,
]

export type GetSwapRouteForOutputQueryOptionsConfig = {
  /**
   * The QueryClient the query runs in. With it, the search starts from the
   * last answer for the same tokens (scaled to the new output: no price
   * request), else from prices and decimals read through the caches
   * `useTokenPrice` and `useTokens` share; without it, every run requests
   * its prices and decimals.
   */
  queryClient?: QueryClient | undefined
}

/**
 * The cache key of an exact-output quote; a partial key matches all those it is part of.
 *
 * @example
 * queryClient.invalidateQueries({ queryKey: getSwapRouteForOutputQueryKey({ baseUrl: client.baseUrl }) })
 */
export function getSwapRouteForOutputQueryKey(
  parameters: GetSwapRouteForOutputOptions & { baseUrl: string },
): GetSwapRouteForOutputQueryKey {
  return toJsonKey(swapRouteForOutputQueryName, parameters) as GetSwapRouteForOutputQueryKey
}

/**
 * Query options for the input that buys `amountOut` (`getSwapRouteForOutput`):
 * key, function, retry policy and cache times (as a quote: fresh for 10 s,
 * polled every 15 s; a poll usually costs one route request, the last answer
 * being its seed). Waits (`enabled: false`) until token0, token1 and
 * `amountOut` are given; a malformed parameter is an `InvalidParameterError`
 * before any request.
 *
 * @example
 * import { getSwapRouteForOutputQueryOptions } from 'token-swap-hooks/query'
 *
 * const { amountIn } = await queryClient.fetchQuery(
 *   getSwapRouteForOutputQueryOptions(client, { token0, token1, amountOut }, { queryClient }),
 * )
 */
export function getSwapRouteForOutputQueryOptions(
  client: SwapClient,
  parameters: GetSwapRouteForOutputOptions = {},
  { queryClient }: GetSwapRouteForOutputQueryOptionsConfig = {},
): SwapQueryOptions<GetSwapRouteForOutputReturnType, GetSwapRouteForOutputQueryKey> {
  const queryKey = getSwapRouteForOutputQueryKey({ ...parameters, baseUrl: client.baseUrl })
  return {
    staleTime: 10_000,
    gcTime: 60_000,
    refetchInterval: 15_000,
    retry: (failureCount, error) => failureCount < maxAttempts - 1 && isRetryableError(error),
    retryDelay: (failureCount, error) =>
      getRetryDelay(failureCount, error, client.rateLimiter.getState().rateLimitedUntil),
    queryKey,
    queryFn: async ({ signal }) =>
      getSwapRouteForOutput(
        client,
        queryClient
          ? await fromCaches(client, queryClient, parameters as GetSwapRouteForOutputParameters)
          : (parameters as GetSwapRouteForOutputParameters),
        { signal },
      ),
    enabled:
      !isMissing(parameters.token0) && !isMissing(parameters.token1) && !isMissing(parameters.amountOut),
  }
}

/**
 * The parameters, completed from what the QueryClient already knows: a
 * first input from the newest answer for the same tokens, else the prices
 * (the `tokenPrice` cache) and decimals (the `tokens` list the page loaded,
 * else the two tokens' records, cached too).
 */
async function fromCaches(
  client: SwapClient,
  queryClient: QueryClient,
  parameters: GetSwapRouteForOutputParameters,
): Promise<GetSwapRouteForOutputParameters> {
  // Malformed parameters fail here, before any request: nothing is looked up for them.
  assertSwapRouteForOutputParameters(parameters)
  const { token0, token1, amountOut, initialAmountIn } = parameters
  if (initialAmountIn !== undefined) return parameters
  const last = queryClient
    .getQueryCache()
    .findAll({ queryKey: [swapRouteForOutputQueryName, { baseUrl: client.baseUrl, token0, token1 }] })
    .filter((query) => query.state.data !== undefined)
    .sort((a, b) => b.state.dataUpdatedAt - a.state.dataUpdatedAt)[0]?.state.data as
    | GetSwapRouteForOutputReturnType
    | undefined
  if (last && last.amountOutReached > 0n) {
    // Scaled to the middle of the window, where the search aims: a small change lands there at once.
    const tolerance = BigInt(Math.round((parameters.tolerance ?? defaultExactOutputTolerance) * 1e6))
    const aim = amountOut + (amountOut * tolerance) / 2_000_000n
    return { ...parameters, initialAmountIn: (last.amountIn * aim) / last.amountOutReached || 1n }
  }

  const quietly = <value>(promise: Promise<value>) => promise.catch(() => undefined)
  const price = (address: Address, given: number | undefined) =>
    given ??
    quietly(queryClient.fetchQuery({ ...getTokenPriceQueryOptions(client, { address }), retry: false }))
  const loaded = queryClient.getQueryData<Token[]>(getTokensQueryKey({ baseUrl: client.baseUrl }))
  const needsDecimals = parameters.decimals?.token0 === undefined || parameters.decimals?.token1 === undefined
  const [price0, price1, listed] = await Promise.all([
    price(token0, parameters.prices?.token0),
    price(token1, parameters.prices?.token1),
    loaded ??
      (needsDecimals
        ? quietly(
            queryClient.fetchQuery({
              ...getTokensQueryOptions(client, { filterByToken: [token0, token1] }),
              retry: false,
            }),
          )
        : undefined),
  ])
  const decimalsOf = (address: Address) =>
    listed?.find((token) => token.address.toLowerCase() === address.toLowerCase())?.decimals
  return {
    ...parameters,
    prices: { token0: price0, token1: price1 },
    decimals: {
      token0: parameters.decimals?.token0 ?? decimalsOf(token0),
      token1: parameters.decimals?.token1 ?? decimalsOf(token1),
    },
  }
}
