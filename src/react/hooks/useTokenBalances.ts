'use client'

import { hashKey, type Query, useQuery } from '@tanstack/react-query'
import { useMemo } from 'react'
import type { GetTokenBalancesErrorType } from '../../core/balances/getTokenBalances.js'
import {
  type GetTokenBalancesData,
  type GetTokenBalancesOptions,
  type GetTokenBalancesQueryFnData,
  type GetTokenBalancesQueryKey,
  getTokenBalancesQueryOptions,
} from '../../query/getTokenBalances.js'
import type { UseQueryParameters, UseQueryReturnType } from '../types.js'
import { useSwapContext } from './useSwapClient.js'
import { bothEnabled } from './useSwapQuery.js'

/** The parameters of `useTokenBalances`: `getTokenBalances`'s, each optional (it waits quietly until the required ones are given), and TanStack Query options. */
export type UseTokenBalancesParameters<selectData = GetTokenBalancesData> = GetTokenBalancesOptions & {
  /** TanStack Query options (`select`, `refetchInterval`, `enabled`…). */
  query?:
    | Partial<
        UseQueryParameters<
          GetTokenBalancesQueryFnData,
          GetTokenBalancesErrorType,
          selectData,
          GetTokenBalancesQueryKey
        >
      >
    | undefined
}

/** What `useTokenBalances` returns: TanStack Query's result, `data` being `getTokenBalances`'s answer (or `select`'s). */
export type UseTokenBalancesReturnType<selectData = GetTokenBalancesData> = UseQueryReturnType<
  selectData,
  GetTokenBalancesErrorType,
  GetTokenBalancesQueryKey
>

/**
 * An account's balance of every token of the service's list (or of `tokens`),
 * sorted as a token picker shows them: held first, by USD value where a price
 * is known, else by symbol (`getTokenBalances`). Read through the user's
 * public client (the `publicClient` parameter, else the provider's) in one
 * `eth_call` per 500 tokens (the library's reader, put there by a state
 * override, each token given at most 200,000 gas; Multicall3 or one call per
 * token on a node that refuses state overrides); prices from the
 * service for held tokens only (`maxPrices`, default 10), through the same
 * cache as `useTokenPrice`. Waits quietly until `account` and a public client
 * are there; a malformed parameter is an `InvalidParameterError`, and nothing
 * is sent.
 *
 * **After a swap.** Every balances key starts with `tokenBalancesQueryName`,
 * so `queryClient.invalidateQueries({ queryKey: [tokenBalancesQueryName] })`
 * re-reads every list. To be sure the list reflects the swap even on a
 * load-balanced RPC whose nodes lag, pass the receipt's block as
 * `blockNumber`: the list is then read at that block or a later one (a node
 * still behind is a `BlockNotReachedError`, asked again every 2 s, 10 times at most), and the previous list
 * stays on screen (`isPlaceholderData`) while the new one loads:
 *
 * ```tsx
 * const [settledAt, setSettledAt] = useState<bigint>()
 * const balances = useTokenBalances({ account, blockNumber: settledAt })
 * const { execute } = useExecuteSwap({
 *   mutation: { onSuccess: ({ receipt }) => setSettledAt(receipt.blockNumber) },
 * })
 * ```
 *
 * @example
 * import { useTokenBalances } from 'token-swap-hooks'
 *
 * const { data } = useTokenBalances({ account: address })
 * data?.balances.map((entry) =>
 *   entry.status === 'success'
 *     ? `${entry.token.symbol} ${formatUnits(entry.balance, entry.token.decimals ?? 18)}`
 *     : `${entry.token.symbol}: unreadable (${entry.reason})`,
 * )
 */
export function useTokenBalances<selectData = GetTokenBalancesData>(
  parameters: UseTokenBalancesParameters<selectData> = {},
): UseTokenBalancesReturnType<selectData> {
  const { client, queryClient, execution } = useSwapContext()
  const { query, account, tokens, prices, maxPrices, blockNumber, batchSize } = parameters
  const publicClient = parameters.publicClient ?? execution.publicClient
  // The provider's chainId only stands in for a public client that does not know its chain.
  const chainId = parameters.chainId ?? (publicClient?.chain ? undefined : execution.chainId)

  const options = useMemo(() => {
    const built = getTokenBalancesQueryOptions(
      client,
      { publicClient, account, tokens, chainId, prices, maxPrices, blockNumber, batchSize },
      { queryClient },
    )
    return { ...built, queryHash: hashKey(built.queryKey) }
  }, [client, queryClient, publicClient, account, tokens, chainId, prices, maxPrices, blockNumber, batchSize])

  const result = useQuery(
    {
      ...options,
      // A refresh at a later block keeps the list on screen while it loads.
      placeholderData: keepPreviousBalances(options.queryKey) as never,
      ...query,
      queryKey: options.queryKey,
      queryFn: options.queryFn,
      queryHash: options.queryHash,
      enabled: bothEnabled(options.enabled, query?.enabled),
    },
    queryClient,
  ) as UseTokenBalancesReturnType<selectData>
  result.queryKey = options.queryKey
  return result
}

/** The previous list, when its key differs from this one only in `blockNumber`. */
function keepPreviousBalances(queryKey: GetTokenBalancesQueryKey) {
  const sameList = (key: readonly unknown[]) =>
    hashKey([key[0], { ...(key[1] as object), blockNumber: undefined }])
  const current = sameList(queryKey)
  return (previousData: unknown, previousQuery: Query | undefined) =>
    previousData !== undefined && previousQuery && sameList(previousQuery.queryKey) === current
      ? previousData
      : undefined
}
