import type { Query, QueryClient } from '@tanstack/react-query'
import type { Address } from 'viem'

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

/** The library's reads a swap makes stale, dropped (no stale data shown): previews, and quotes of the pair. */
const dropped = ['swapPreview', 'swapInfo', 'swapRoute', 'legacyPath']
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
  queryClient: QueryClient,
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
  const of = (names: string[], test: (fields: Record<string, unknown>, name: string) => boolean) => ({
    predicate: ({ queryKey: [name, fields = {}] }: Query) => {
      const key = fields as Record<string, unknown>
      return (
        names.includes(name as string) &&
        (chainId === undefined || key.chainId === undefined || key.chainId === chainId) &&
        test(key, name as string)
      )
    },
  })
  await Promise.all([
    queryClient.resetQueries(
      of(dropped, ({ account: reader, token0: from, token1: to }, name) =>
        name === 'swapPreview'
          ? !account || !reader || same(reader, account)
          : [from, to].some((token) => same(token, token0) || same(token, token1)),
      ),
    ),
    queryClient.invalidateQueries(of(refetched, () => true)),
  ]).catch(() => {
    // A refetch that fails shows its own error in its hook.
  })
}
