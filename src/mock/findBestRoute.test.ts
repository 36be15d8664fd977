import { setupServer } from 'msw/node'
import { type Address, getAddress } from 'viem'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { createMockMarket } from './createMockMarket.js'
import { createMockService } from './createMockService.js'
import { createSwapHandlers } from './createSwapHandlers.js'
import { findBestRoute } from './findBestRoute.js'
import type { MockPairParameters, MockTokenParameters } from './types.js'

/** A small seeded PRNG (mulberry32), so every run builds the same markets. */
function prng(seed: number) {
  let state = seed >>> 0
  return () => {
    state = (state + 0x6d2b79f5) >>> 0
    let t = state
    t = Math.imul(t ^ (t >>> 15), t | 1)
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61)
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296
  }
}

function randomMarket(seed: number) {
  const random = prng(seed)
  const int = (min: number, max: number) => min + Math.floor(random() * (max - min + 1))
  const pick = <item>(items: readonly item[]) => items[int(0, items.length - 1)] as item
  const address = () =>
    getAddress(`0x${Array.from({ length: 40 }, () => '0123456789abcdef'[int(0, 15)]).join('')}`)
  const tokens: MockTokenParameters[] = Array.from({ length: int(4, 7) }, (_, index) => ({
    address: address(),
    symbol: `T${index}`,
    decimals: pick([0, 6, 8, 18]),
    blacklisted: random() < 0.12,
  }))
  const pairs: MockPairParameters[] = []
  for (let i = 0; i < tokens.length; i++)
    for (let j = i + 1; j < tokens.length; j++) {
      const count = random() < 0.4 ? 0 : random() < 0.75 ? 1 : 2
      for (let k = 0; k < count; k++) {
        const [a, b] = random() < 0.5 ? [tokens[i]!, tokens[j]!] : [tokens[j]!, tokens[i]!]
        const reserve = (decimals: number) =>
          random() < 0.04 ? 0n : BigInt(int(1, 1_000_000)) * 10n ** BigInt(Math.max(0, decimals - int(0, 3)))
        pairs.push({
          address: address(),
          token0: a.address,
          token1: b.address,
          reserve0: reserve(a.decimals),
          reserve1: reserve(b.decimals),
          feeBps: pick([0, 1, 5, 30, 100, 300, 1000]),
          blacklisted: random() < 0.15,
        })
      }
    }
  const amounts = tokens.map(() => () => {
    const roll = random()
    if (roll < 0.1) return BigInt(int(1, 10))
    return BigInt(int(1, 1000)) * 10n ** BigInt(int(0, 20))
  })
  return { tokens, pairs, amountFor: (index: number) => amounts[index]!() }
}

/**
 * Written without the market's code: every simple token path of at most
 * `maxHops` swaps, every choice of pair per swap, the constant-product
 * formula inline. Returns the best output (0n when nothing positive).
 */
function bruteForceBest(
  tokens: MockTokenParameters[],
  pairs: MockPairParameters[],
  from: Address,
  to: Address,
  amountIn: bigint,
  maxHops: number,
  fixedPath?: Address[],
): bigint {
  const banned = new Set(tokens.filter((token) => token.blacklisted).map((token) => token.address))
  if (banned.has(from) || banned.has(to)) return 0n
  const usable = pairs.filter(
    (pair) => !pair.blacklisted && !banned.has(pair.token0) && !banned.has(pair.token1),
  )
  const swap = (amount: bigint, reserveIn: bigint, reserveOut: bigint, fee: number) => {
    if (amount <= 0n || reserveIn <= 0n || reserveOut <= 0n) return 0n
    const withFee = amount * BigInt(10_000 - fee)
    return (withFee * reserveOut) / (reserveIn * 10_000n + withFee)
  }
  let best = 0n
  const walk = (token: Address, amount: bigint, seen: Address[]) => {
    if (token === to) {
      if (!fixedPath || fixedPath.join() === seen.join()) best = amount > best ? amount : best
      return
    }
    if (seen.length - 1 >= maxHops) return
    for (const pair of usable) {
      const forward = pair.token0 === token
      if (!forward && pair.token1 !== token) continue
      const next = forward ? pair.token1 : pair.token0
      if (seen.includes(next)) continue
      const out = forward
        ? swap(amount, pair.reserve0, pair.reserve1, pair.feeBps ?? 30)
        : swap(amount, pair.reserve1, pair.reserve0, pair.feeBps ?? 30)
      walk(next, out, [...seen, next])
    }
  }
  walk(from, amountIn, [from])
  return best
}

const seeds = [1, 2, 3, 5, 8, 13, 21, 34, 55, 89]

describe('/swap/route returns the best route of a brute-force enumeration', () => {
  for (const seed of seeds) {
    const maxHops = seed === 5 ? 2 : seed === 8 ? 4 : 3
    test(`random market, seed ${seed}, maxHops ${maxHops}`, async () => {
      const { tokens, pairs, amountFor } = randomMarket(seed)
      const service = createMockService(createMockMarket({ tokens, pairs, maxHops }))
      let found = 0
      let multiHop = 0
      for (const [i, a] of tokens.entries())
        for (const b of tokens) {
          if (a === b) continue
          const amountIn = amountFor(i)
          const url = `https://swap.test/swap/route?token0=${a.address.toLowerCase()}&token1=${b.address}&amount_in=${amountIn}`
          const response = await service.handle(new Request(url))
          const best = bruteForceBest(tokens, pairs, a.address, b.address, amountIn, maxHops)
          if (best === 0n) {
            expect(response.status).toBe(404)
            expect(await response.json()).toEqual({ detail: 'No path found between token0 and token1' })
            continue
          }
          expect(response.status).toBe(200)
          const body = (await response.json()) as { path: Address[]; amount_out: string }
          expect(BigInt(body.amount_out)).toBe(best)
          // The path is a simple path from a to b that really yields amount_out.
          expect(body.path[0]).toBe(a.address)
          expect(body.path.at(-1)).toBe(b.address)
          expect(new Set(body.path).size).toBe(body.path.length)
          expect(body.path.length - 1).toBeLessThanOrEqual(maxHops)
          expect(bruteForceBest(tokens, pairs, a.address, b.address, amountIn, maxHops, body.path)).toBe(best)
          found += 1
          if (body.path.length > 2) multiHop += 1
        }
      expect(found).toBeGreaterThan(0)
      if (seed === 1) expect(multiHop).toBeGreaterThan(0)
    })
  }

  test('across the seeds, some best routes take several swaps where a direct pair exists', () => {
    let beaten = 0
    for (const seed of seeds) {
      const { tokens, pairs } = randomMarket(seed)
      const market = createMockMarket({ tokens, pairs })
      for (const a of tokens)
        for (const b of tokens) {
          if (a === b) continue
          const amountIn = 10n ** BigInt(a.decimals + 2)
          const quote = market.quote({ token0: a.address, token1: b.address, amountIn })
          const direct = bruteForceBest(tokens, pairs, a.address, b.address, amountIn, 1)
          if (quote && quote.path.length > 2 && direct > 0n) {
            expect(quote.amountOut).toBeGreaterThan(direct)
            beaten += 1
          }
        }
    }
    expect(beaten).toBeGreaterThan(3)
  })
})

describe('findBestRoute', () => {
  test('prefers fewer swaps on a tie and ignores maxHops < 1', () => {
    const [A, B, C] = ['0xa', '0xb', '0xc'].map((prefix) => getAddress(prefix.padEnd(42, '0'))) as [
      Address,
      Address,
      Address,
    ]
    const pair = (n: number, token0: Address, token1: Address, reserve0: bigint, reserve1: bigint) => ({
      address: getAddress(`0x${String(n).padStart(40, '0')}`),
      token0,
      token1,
      reserve0,
      reserve1,
      feeBps: 0,
      blacklisted: false,
    })
    // 10 A: A→C gives 9 C, C→B gives 5 B; A→B directly gives 5 B as well.
    const pairs = [pair(1, A, C, 10n ** 30n, 10n ** 30n), pair(2, C, B, 9n, 10n), pair(3, A, B, 10n, 10n)]
    const quote = findBestRoute({ pairs, token0: A, token1: B, amountIn: 10n, maxHops: 3 })
    expect(quote).toEqual({
      path: [A, B],
      amountOut: 5n,
      hops: [{ pair: pairs[2]!.address, tokenIn: A, tokenOut: B, feeBps: 0, amountIn: 10n, amountOut: 5n }],
    })
    expect(findBestRoute({ pairs, token0: A, token1: B, amountIn: 10n, maxHops: 2 })?.path).toEqual([A, B])
    expect(findBestRoute({ pairs, token0: A, token1: B, amountIn: 10n, maxHops: 0 })).toBeUndefined()
  })
})

describe('through MSW', () => {
  const { tokens, pairs, amountFor } = randomMarket(144)
  const handlers = createSwapHandlers(createMockMarket({ tokens, pairs }), { baseUrl: 'https://swap.test' })
  const server = setupServer(...handlers)
  beforeAll(() => server.listen({ onUnhandledRequest: 'error' }))
  afterAll(() => server.close())

  test('real fetch gets the same best amounts', async () => {
    for (const [i, a] of tokens.entries())
      for (const b of tokens) {
        if (a === b) continue
        const amountIn = amountFor(i)
        const response = await fetch(
          `https://swap.test/swap/route?token0=${a.address}&token1=${b.address}&amount_in=${amountIn}`,
        )
        const best = bruteForceBest(tokens, pairs, a.address, b.address, amountIn, 3)
        expect(response.status).toBe(best === 0n ? 404 : 200)
        if (best > 0n)
          expect(((await response.json()) as { amount_out: string }).amount_out).toBe(best.toString())
      }
    expect(handlers.service.count('/swap/route')).toBe(tokens.length * (tokens.length - 1))
  })
})
