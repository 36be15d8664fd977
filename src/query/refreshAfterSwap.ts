import type { Address } from 'viem'

/** Filters by predicate, as TanStack's `QueryClient` takes them. */
type QueryFilters = { predicate: (query: { queryKey: readonly unknown[] }) => boolean }

/**
 * What `refreshAfterSwap` uses of a TanStack `QueryClient` (a structural type:
 * the query entry stays free of React).
 */
export type RefreshableQueryClient = {
  getQueryCache(): { findAll(filters: QueryFilters): { reset(): void }[] }
  resetQueries(filters: QueryFilters): Promise<void>
  invalidateQueries(filters: QueryFilters): Promise<void>
}

/** The swap that settled: its tokens, account and chain, and its block with the client to wait for it. */
export type RefreshAfterSwapParameters = {
  /** The swapped tokens: their quotes are dropped (the swap moved the pool). */
  token0: Address
  token1: Address
  /** Whose balances and allowance changed. */
  account?: Address | undefined
  /** The chain the swap ran on: wagmi's reads of other chains are left alone. */
  chainId?: number | undefined
  /** The block of the swap's receipt: the reads wait until `publicClient` has reached it. */
  blockNumber?: bigint | undefined
  /** The client the app reads with; without it (or a block), nothing is awaited. */
  publicClient?: { getBlockNumber(options?: { cacheTime?: number }): Promise<bigint> } | undefined
  /** The longest wait for the block, in ms (a node that lags more is read all the same). Default 10 000. */
  timeoutMs?: number | undefined
}

/** The quotes a swap of their tokens makes stale: dropped (no stale data shown) and fetched again. */
const quotes = ['swapInfo', 'swapRoute', 'legacyPath']
/** Reads refetched after a swap: the library's balances, and wagmi's balance and contract reads. */
const refetched = ['tokenBalances', 'balance', 'readContract', 'readContracts', 'token']

/**
 * After a settled swap (mined, reverted, or settled from a pending record),
 * makes what it changed read again, at or after its block: waits (bounded)
 * until `publicClient` has reached `blockNumber`, so a lagging node cannot
 * answer with the pre-swap state, then drops the account's previews and the
 * pair's quotes (`resetQueries`: their data is gone, not shown stale, so the
 * same swap cannot be offered again on the old preview) and refetches the
 * balances: the library's `tokenBalances` and wagmi's `balance`,
 * `readContract`, `readContracts` and `token` reads of that chain, where a
 * wagmi cache shares this QueryClient. `useExecuteSwap` and `usePendingSwaps`
 * call it; call it yourself after `executeSwap` outside them.
 *
 * @example
 * import { refreshAfterSwap } from 'token-swap-hooks/query'
 *
 * const result = await executeSwap(client, parameters)
 * await refreshAfterSwap(queryClient, {
 *   token0, token1, account: result.receipt.from, chainId: result.chainId,
 *   blockNumber: result.receipt.blockNumber, publicClient,
 * })
 */
export async function refreshAfterSwap(
  queryClient: RefreshableQueryClient,
  parameters: RefreshAfterSwapParameters,
): Promise<void> {
  const { token0, token1, account, chainId, blockNumber, publicClient, timeoutMs = 10_000 } = parameters
  // The node has the receipt's block, or the wait ran out: a node that lags more is read all the same.
  for (
    const until = Date.now() + timeoutMs;
    publicClient && blockNumber !== undefined && Date.now() < until;
  ) {
    if ((await publicClient.getBlockNumber({ cacheTime: 0 }).catch(() => -1n)) >= blockNumber) break
    await new Promise((resolve) => setTimeout(resolve, 250))
  }
  const same = (address: unknown, other: string | undefined = '') =>
    typeof address === 'string' && address.toLowerCase() === other.toLowerCase()
  const of = (names: string[], test: (fields: Record<string, unknown>) => boolean) => ({
    predicate: ({ queryKey: [name, fields = {}] }: { queryKey: readonly unknown[] }) => {
      const key = fields as Record<string, unknown>
      return (
        names.includes(name as string) &&
        (chainId === undefined || key.chainId === undefined || key.chainId === chainId) &&
        test(key)
      )
    },
  })
  // The account's previews are emptied and not run again: a preview is only ever made again for a
  // fresh quote (its key holds the quote's time), never from the quote the swap spent.
  for (const preview of queryClient
    .getQueryCache()
    .findAll(of(['swapPreview'], ({ account: reader }) => !account || !reader || same(reader, account))))
    preview.reset()
  await Promise.all([
    queryClient.resetQueries(
      of(quotes, ({ token0: from, token1: to }) =>
        [from, to].some((token) => same(token, token0) || same(token, token1)),
      ),
    ),
    queryClient.invalidateQueries(of(refetched, () => true)),
  ]).catch(() => {
    // A refetch that fails shows its own error in its hook.
  })
}
