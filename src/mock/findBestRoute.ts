import type { Address } from 'viem'
import { getAmountOut } from './amm.js'
import type { MockPair, QuoteHop, QuoteReturnType } from './types.js'

export type FindBestRouteParameters = {
  /** The pairs that may be routed through (blacklisted ones already left out). */
  pairs: readonly MockPair[]
  /** The input token, in any letter case. */
  token0: Address
  /** The output token, in any letter case. */
  token1: Address
  /** The input amount in token0's smallest unit. */
  amountIn: bigint
  /** At most this many swaps. */
  maxHops: number
}

export type FindBestRouteReturnType = QuoteReturnType

type Edge = { pair: MockPair; tokenIn: Address; tokenOut: Address; reserveIn: bigint; reserveOut: bigint }

/**
 * The route with the highest output over every simple path (no token twice)
 * of at most `maxHops` swaps, each swap priced with the constant-product
 * `getAmountOut` and the pool's fee, sequentially in integers. When several
 * pairs join the same two tokens, the best one for the amount at that hop is
 * used (outputs grow with inputs, so this is optimal). Ties go to the route
 * with fewer swaps, then to the first found. `undefined` when no route gives
 * a positive output.
 *
 * @example
 * const quote = findBestRoute({ pairs, token0: WETH, token1: USDC, amountIn: 10n ** 18n, maxHops: 3 })
 * // quote?.path, quote?.amountOut
 */
export function findBestRoute({
  pairs,
  token0,
  token1,
  amountIn,
  maxHops,
}: FindBestRouteParameters): FindBestRouteReturnType {
  const start = token0.toLowerCase()
  const target = token1.toLowerCase()
  if (start === target || amountIn <= 0n || maxHops < 1) return undefined

  // token (lower case) → neighbour (lower case) → the pairs joining them
  const graph = new Map<string, Map<string, Edge[]>>()
  const addEdge = (edge: Edge) => {
    const from = edge.tokenIn.toLowerCase()
    const to = edge.tokenOut.toLowerCase()
    const neighbours = graph.get(from) ?? new Map<string, Edge[]>()
    graph.set(from, neighbours)
    const edges = neighbours.get(to) ?? []
    neighbours.set(to, edges)
    edges.push(edge)
  }
  for (const pair of pairs) {
    const { token0: a, token1: b, reserve0, reserve1 } = pair
    addEdge({ pair, tokenIn: a, tokenOut: b, reserveIn: reserve0, reserveOut: reserve1 })
    addEdge({ pair, tokenIn: b, tokenOut: a, reserveIn: reserve1, reserveOut: reserve0 })
  }

  let best: { hops: QuoteHop[]; amountOut: bigint } | undefined
  const visited = new Set<string>([start])
  const hops: QuoteHop[] = []

  const visit = (token: string, amount: bigint) => {
    const neighbours = graph.get(token)
    if (!neighbours) return
    for (const [next, edges] of neighbours) {
      if (visited.has(next)) continue
      let hop: QuoteHop | undefined
      for (const edge of edges) {
        const amountOut = getAmountOut({
          amountIn: amount,
          reserveIn: edge.reserveIn,
          reserveOut: edge.reserveOut,
          feeBps: edge.pair.feeBps,
        })
        if (amountOut > 0n && (!hop || amountOut > hop.amountOut))
          hop = {
            pair: edge.pair.address,
            tokenIn: edge.tokenIn,
            tokenOut: edge.tokenOut,
            feeBps: edge.pair.feeBps,
            amountIn: amount,
            amountOut,
          }
      }
      if (!hop) continue
      hops.push(hop)
      if (next === target) {
        if (
          !best ||
          hop.amountOut > best.amountOut ||
          (hop.amountOut === best.amountOut && hops.length < best.hops.length)
        )
          best = { hops: [...hops], amountOut: hop.amountOut }
      } else if (hops.length < maxHops) {
        visited.add(next)
        visit(next, hop.amountOut)
        visited.delete(next)
      }
      hops.pop()
    }
  }
  visit(start, amountIn)

  if (!best) return undefined
  const first = best.hops[0] as QuoteHop
  return {
    path: [first.tokenIn, ...best.hops.map((hop) => hop.tokenOut)],
    amountOut: best.amountOut,
    hops: best.hops,
  }
}
