// The framework-free entries under "moduleResolution": "node16" (Node's own ESM resolution). This
// project skips library checks (viem's dependency ox has .d.ts that node16 rejects in some of the
// viem versions in range), so the assertions below make sure our types resolved to real types and
// not to `any`.
import {
  type checkSwapOutcome,
  createSwapClient,
  type executeSwap,
  getSwapRoute,
  type Route,
  type resumeSwap,
  type revokeAllowance,
  type SwapClient,
} from 'token-swap-hooks/core'
import type { deploySwapGuard } from 'token-swap-hooks/guard'
import type { getSwapRouteQueryKey, getSwapRouteQueryOptions } from 'token-swap-hooks/query'
import type { Address } from 'viem'

type IsAny<T> = 0 extends 1 & T ? true : false
type Equal<A, B> = (<T>() => T extends A ? 1 : 2) extends <T>() => T extends B ? 1 : 2 ? true : false
type Assert<T extends true> = T

export type Checks = [
  Assert<Equal<IsAny<Route>, false>>,
  Assert<Equal<Route['amountOut'], bigint>>,
  Assert<Equal<Route['path'], Address[]>>,
  Assert<Equal<IsAny<SwapClient>, false>>,
  Assert<Equal<IsAny<typeof executeSwap>, false>>,
  Assert<Equal<IsAny<typeof checkSwapOutcome>, false>>,
  Assert<Equal<IsAny<typeof revokeAllowance>, false>>,
  Assert<Equal<IsAny<typeof resumeSwap>, false>>,
  Assert<Equal<IsAny<typeof deploySwapGuard>, false>>,
  Assert<Equal<IsAny<ReturnType<typeof getSwapRouteQueryOptions>>, false>>,
  Assert<Equal<IsAny<ReturnType<typeof getSwapRouteQueryKey>>, false>>,
]

export async function quote(baseUrl: string): Promise<Route> {
  const client = createSwapClient({ baseUrl })
  return getSwapRoute(client, {
    token0: '0xC02aaA39b223FE8D0A0e5C4F27eAD9083C756Cc2',
    token1: '0xA0b86991c6218b36c1d19D4a2e9Eb0cE3606eB48',
    amountIn: 10n ** 18n,
  })
}
