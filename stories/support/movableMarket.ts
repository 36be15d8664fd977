import { type Address, isAddressEqual } from 'viem'
import { createMockMarket } from '../../src/mock/createMockMarket.js'
import type { MockMarket } from '../../src/mock/types.js'

/** A mock market whose pools can move while a story runs: the service quotes and the wallet's chain swaps at the moved reserves. */
export type MovableMarket = MockMarket & {
  /**
   * Multiplies every pool's reserve of `token` by `factor` (0.99: 1% scarcer, so 1% dearer), as
   * others' trades would move them between two quotes.
   */
  shiftReserves(token: Address, factor: number): void
}

/**
 * `base`, with pools that move: the mock market is immutable, so each move builds the market
 * again from the moved pairs (same tokens, router, spender, hops), and this object reads through
 * to the latest one.
 */
export function createMovableMarket(base: MockMarket): MovableMarket {
  let current = base
  return {
    get tokens() {
      return current.tokens
    },
    get pairs() {
      return current.pairs
    },
    router: base.router,
    spender: base.spender,
    maxHops: base.maxHops,
    estimateTransferSeconds: (quote) => current.estimateTransferSeconds(quote),
    getToken: (addressOrSymbol) => current.getToken(addressOrSymbol),
    getPair: (address) => current.getPair(address),
    isPairBlacklisted: (pair) => current.isPairBlacklisted(pair),
    quote: (parameters) => current.quote(parameters),
    shiftReserves(token, factor) {
      const scale = (reserve: bigint) => (reserve * BigInt(Math.round(factor * 1_000_000))) / 1_000_000n
      current = createMockMarket({
        tokens: current.tokens,
        pairs: current.pairs.map((pair) => ({
          ...pair,
          reserve0: isAddressEqual(pair.token0, token) ? scale(pair.reserve0) : pair.reserve0,
          reserve1: isAddressEqual(pair.token1, token) ? scale(pair.reserve1) : pair.reserve1,
        })),
        router: base.router,
        spender: base.spender,
        maxHops: base.maxHops,
        estimateTransferSeconds: base.estimateTransferSeconds,
      })
    },
  }
}
