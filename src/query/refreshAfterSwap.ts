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
const dropped = new Set(['swapPreview', 'swapInfo', 'swapRoute', 'legacyPath'])
/** Reads refetched after a swap: the library's balances, and wagmi's balance and contract reads. */
const refetched = new Set(['tokenBalances', 'balance', 'readContract', 'readContracts', 'token'])

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
  if (publicClient && blockNumber !== undefined) await waitForBlock(publicClient, blockNumber, timeoutMs)
  const same = (a: unknown, b: string | undefined) =>
    typeof a === 'string' && !!b && a.toLowerCase() === b.toLowerCase()
  const touched = (address: unknown) => same(address, token0) || same(address, token1)
  const fields = (query: Query) => (query.queryKey[1] ?? {}) as Record<string, unknown>
  const ofChain = (query: Query) => {
    const chain = fields(query).chainId
    return chainId === undefined || chain === undefined || chain === chainId
  }
  await Promise.all([
    queryClient.resetQueries({
      predicate: (query) => {
        const name = query.queryKey[0] as string
        const { account: reader, token0: from, token1: to } = fields(query)
        if (!dropped.has(name) || !ofChain(query)) return false
        return name === 'swapPreview'
          ? !account || !reader || same(reader, account)
          : touched(from) || touched(to)
      },
    }),
    queryClient.invalidateQueries({
      predicate: (query) => refetched.has(query.queryKey[0] as string) && ofChain(query),
    }),
  ]).catch(() => {
    // A refetch that fails shows its own error in its hook.
  })
}

/** Resolves once the node's latest block is `blockNumber` or later, or after `timeoutMs`. */
async function waitForBlock(
  publicClient: NonNullable<RefreshAfterSwapParameters['publicClient']>,
  blockNumber: bigint,
  timeoutMs: number,
): Promise<void> {
  const until = Date.now() + timeoutMs
  while (Date.now() < until) {
    const latest = await publicClient.getBlockNumber({ cacheTime: 0 }).catch(() => undefined)
    if (latest !== undefined && latest >= blockNumber) return
    await new Promise((resolve) => setTimeout(resolve, 250))
  }
}
