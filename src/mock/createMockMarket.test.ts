import { type Address, formatUnits, getAddress, parseUnits } from 'viem'
import { describe, expect, test } from 'vitest'
import { nativeTokenAddress } from '../core/constants.js'
import { InvalidParameterError } from '../core/errors/parameter.js'
import { getAmountOut } from './amm.js'
import { createMockMarket } from './createMockMarket.js'
import { defaultMockPairs, defaultMockTokens, mockTokenAddresses } from './fixtures.js'

const { ETH, WETH, USDC, USDT, DAI, WBTC, LINK, UNI, SCAM, LONE, TAIL } = mockTokenAddresses

describe('the default fixture', () => {
  test('real mainnet addresses and decimals, the native sentinel, and three made-up tokens', () => {
    const market = createMockMarket()
    const summary = market.tokens.map((token) => [
      token.symbol,
      token.address,
      token.decimals,
      token.blacklisted,
    ])
    expect(summary).toEqual([
      ['ETH', nativeTokenAddress, 18, false],
      ['WETH', '0xC02aaA39b223FE8D0A0e5C4F27eAD9083C756Cc2', 18, false],
      ['USDC', '0xA0b86991c6218b36c1d19D4a2e9Eb0cE3606eB48', 6, false],
      ['USDT', '0xdAC17F958D2ee523a2206206994597C13D831ec7', 6, false],
      ['DAI', '0x6B175474E89094C44Da98b954EedeAC495271d0F', 18, false],
      ['WBTC', '0x2260FAC5E5542a773Aa44fBCfeDf7C193bc2C599', 8, false],
      ['LINK', '0x514910771AF9Ca656af840dff83E8264EcF986CA', 18, false],
      ['UNI', '0x1f9840a85d5aF5bf1D1762F925BDADdC4201F984', 18, false],
      ['SCAM', SCAM, 18, true],
      ['LONE', LONE, 18, false],
      ['TAIL', TAIL, 18, false],
    ])
    for (const token of market.tokens) expect(token.address).toBe(getAddress(token.address))
    for (const pair of market.pairs) expect(pair.address).toBe(getAddress(pair.address))
    expect(market.router).not.toBe(market.spender)
  })

  test('is deterministic and equal to the exported fixture', () => {
    const a = createMockMarket()
    const b = createMockMarket()
    expect(a.tokens).toEqual(b.tokens)
    expect(a.pairs).toEqual(b.pairs)
    expect(a.tokens).toEqual(defaultMockTokens)
    expect(a.pairs).toEqual(defaultMockPairs)
    const parameters = { token0: TAIL, token1: WBTC, amountIn: parseUnits('1000', 18) }
    expect(a.quote(parameters)).toEqual(b.quote(parameters))
  })

  test('every listed pool is priced within 1% of the tokens’ USD prices', () => {
    const market = createMockMarket()
    for (const pair of market.pairs) {
      if (market.isPairBlacklisted(pair)) continue
      const token0 = market.getToken(pair.token0)!
      const token1 = market.getToken(pair.token1)!
      const value0 = Number(formatUnits(pair.reserve0, token0.decimals)) * token0.priceUsd
      const value1 = Number(formatUnits(pair.reserve1, token1.decimals)) * token1.priceUsd
      expect(Math.abs(value0 / value1 - 1)).toBeLessThan(0.01)
      expect(value0).toBeGreaterThan(1_000_000)
    }
  })

  test('has pools with the native sentinel, two WETH/USDC pools, blacklisted pairs, LONE in no pair', () => {
    const market = createMockMarket()
    const joins = (a: Address, b: Address) =>
      market.pairs.filter(
        (pair) => (pair.token0 === a && pair.token1 === b) || (pair.token0 === b && pair.token1 === a),
      )
    expect(market.pairs.filter((pair) => pair.token0 === ETH || pair.token1 === ETH).length).toBeGreaterThan(
      1,
    )
    expect(joins(WETH, USDC)).toHaveLength(2)
    expect(market.pairs.filter((pair) => pair.blacklisted).length).toBeGreaterThan(0)
    expect(market.pairs.some((pair) => pair.token0 === LONE || pair.token1 === LONE)).toBe(false)
    expect(market.pairs.filter((pair) => pair.token0 === TAIL || pair.token1 === TAIL)).toEqual(
      joins(TAIL, LINK),
    )
  })

  test('derived figures: liquidity from the listed pools, market cap from the circulating supply', () => {
    const market = createMockMarket()
    const usdc = market.getToken('usdc')!
    // WETH/USDC 60M + 15M, USDC/USDT 50M, USDC/DAI 40M, WBTC/USDC 12M, LINK/USDC 6M, ETH/USDC 30M
    expect(usdc.liquidityUsd).toBe(213_000_000)
    expect(market.getToken(SCAM)!.liquidityUsd).toBe(0)
    expect(market.getToken(LONE)!.liquidityUsd).toBe(0)
    const link = market.getToken(LINK)!
    expect(link.marketCapUsd).toBe(587_000_000 * 15)
    expect(link.totalSupply).toBe(parseUnits('1000000000', 18))
  })
})

describe('market.quote', () => {
  const market = createMockMarket()

  test('quotes WETH → USDC through the better of the two pools, with getAmountOut exactly', () => {
    const amountIn = parseUnits('1', 18)
    const quote = market.quote({ token0: WETH, token1: USDC, amountIn })!
    const pools = market.pairs.filter((pair) => pair.token0 === WETH && pair.token1 === USDC)
    const outs = pools.map((pair) =>
      getAmountOut({ amountIn, reserveIn: pair.reserve0, reserveOut: pair.reserve1, feeBps: pair.feeBps }),
    )
    expect(quote.amountOut).toBeGreaterThanOrEqual(outs[0]!)
    expect(quote.amountOut).toBeGreaterThanOrEqual(outs[1]!)
    expect(quote.amountOut).toBeGreaterThan(2_990_000_000n)
    expect(quote.amountOut).toBeLessThan(3_000_000_000n)
  })

  test('the long-tail token needs three swaps to reach USDT, and none with maxHops 2', () => {
    const quote = market.quote({ token0: TAIL, token1: USDT, amountIn: parseUnits('1000', 18) })!
    expect(quote.path).toHaveLength(4)
    expect(quote.hops).toHaveLength(3)
    expect(quote.path[0]).toBe(TAIL)
    expect(quote.path[1]).toBe(LINK)
    expect(quote.path[3]).toBe(USDT)
    expect(quote.hops.map((hop) => hop.tokenOut)).toEqual(quote.path.slice(1))
    expect(quote.hops[2]!.amountOut).toBe(quote.amountOut)
    // ~ 1000 TAIL × 0.75 USD minus 1% + 0.3% + fees and price impact
    expect(Number(formatUnits(quote.amountOut, 6))).toBeGreaterThan(730)
    expect(market.quote({ token0: TAIL, token1: USDT, amountIn: 10n ** 21n, maxHops: 2 })).toBeUndefined()
    expect(createMockMarket({ maxHops: 2 }).quote({ token0: TAIL, token1: USDT, amountIn: 10n ** 21n })).toBe(
      undefined,
    )
  })

  test('never routes through a blacklisted pair, even a better-priced one', () => {
    const amountIn = parseUnits('10000', 18)
    const quote = market.quote({ token0: UNI, token1: USDC, amountIn })!
    const blacklisted = market.pairs.find((pair) => pair.blacklisted && pair.token0 === UNI)!
    const through = getAmountOut({
      amountIn,
      reserveIn: blacklisted.reserve0,
      reserveOut: blacklisted.reserve1,
      feeBps: blacklisted.feeBps,
    })
    expect(through).toBeGreaterThan(quote.amountOut)
    expect(quote.hops.map((hop) => hop.pair)).not.toContain(blacklisted.address)
  })

  test('no route to or from a blacklisted token, nor to the isolated token, nor for zero output', () => {
    expect(market.quote({ token0: SCAM, token1: WETH, amountIn: 10n ** 18n })).toBeUndefined()
    expect(market.quote({ token0: WETH, token1: SCAM, amountIn: 10n ** 18n })).toBeUndefined()
    expect(market.quote({ token0: WETH, token1: LONE, amountIn: 10n ** 18n })).toBeUndefined()
    expect(market.quote({ token0: LONE, token1: WETH, amountIn: 10n ** 18n })).toBeUndefined()
    expect(market.quote({ token0: DAI, token1: WBTC, amountIn: 1n })).toBeUndefined()
    expect(market.quote({ token0: WETH, token1: WETH, amountIn: 10n ** 18n })).toBeUndefined()
    expect(market.quote({ token0: WETH, token1: USDC, amountIn: 0n })).toBeUndefined()
  })

  test('matches addresses in any case and answers with checksummed ones', () => {
    const lower = market.quote({
      token0: ETH.toLowerCase() as Address,
      token1: UNI.toUpperCase().replace('0X', '0x') as Address,
      amountIn: 10n ** 18n,
    })!
    expect(lower).toEqual(market.quote({ token0: ETH, token1: UNI, amountIn: 10n ** 18n }))
    expect(lower.path[0]).toBe(ETH)
    expect(lower.path.at(-1)).toBe(UNI)
  })
})

describe('custom markets', () => {
  const A = getAddress('0x00000000000000000000000000000000000000aa')
  const B = getAddress('0x00000000000000000000000000000000000000bb')
  const C = getAddress('0x00000000000000000000000000000000000000cc')
  const pairAddress = (n: number) => getAddress(`0x${n.toString(16).padStart(40, '0')}`)

  test('fills token defaults, checksums addresses, and uses its own router and spender', () => {
    const router = '0x1111111111111111111111111111111111111111'
    const market = createMockMarket({
      tokens: [
        {
          address: A.toLowerCase() as Address,
          symbol: 'AAA',
          decimals: 18,
          priceUsd: 2,
          totalSupply: 10n ** 24n,
        },
        { address: B, symbol: 'BBB', decimals: 6, priceUsd: 1 },
      ],
      pairs: [
        { address: pairAddress(1), token0: A, token1: B, reserve0: 10n ** 21n, reserve1: 2000n * 10n ** 6n },
      ],
      router,
      spender: router,
      estimateTransferSeconds: 30,
    })
    expect(market.tokens[0]).toEqual({
      address: A,
      symbol: 'AAA',
      name: 'AAA',
      decimals: 18,
      priceUsd: 2,
      blacklisted: false,
      liquidityUsd: 2000,
      volume24hUsd: 0,
      totalSupply: 10n ** 24n,
      circulatingSupply: 10n ** 24n,
      marketCapUsd: 2_000_000,
      holders: 0,
    })
    expect(market.pairs[0]).toMatchObject({ feeBps: 30, blacklisted: false })
    expect(market.router).toBe(router)
    expect(market.spender).toBe(router)
    const quote = market.quote({ token0: A, token1: B, amountIn: 10n ** 18n })!
    expect(quote.amountOut).toBe(
      getAmountOut({
        amountIn: 10n ** 18n,
        reserveIn: 10n ** 21n,
        reserveOut: 2000n * 10n ** 6n,
        feeBps: 30,
      }),
    )
    expect(market.estimateTransferSeconds(quote)).toBe(30)
  })

  test('a multi-hop route beats a shallow direct pair', () => {
    const market = createMockMarket({
      tokens: [
        { address: A, symbol: 'A', decimals: 0 },
        { address: B, symbol: 'B', decimals: 0 },
        { address: C, symbol: 'C', decimals: 0 },
      ],
      pairs: [
        { address: pairAddress(1), token0: A, token1: B, reserve0: 1_000n, reserve1: 1_000n },
        { address: pairAddress(2), token0: A, token1: C, reserve0: 1_000_000n, reserve1: 1_000_000n },
        { address: pairAddress(3), token0: C, token1: B, reserve0: 1_000_000n, reserve1: 1_000_000n },
      ],
    })
    const direct = getAmountOut({ amountIn: 100n, reserveIn: 1_000n, reserveOut: 1_000n, feeBps: 30 })
    const quote = market.quote({ token0: A, token1: B, amountIn: 100n })!
    expect(quote.path).toEqual([A, C, B])
    expect(quote.amountOut).toBeGreaterThan(direct)
    expect(quote.hops.map((hop) => hop.pair)).toEqual([pairAddress(2), pairAddress(3)])
  })

  test('custom tokens without pairs keep the default pairs between them', () => {
    const market = createMockMarket({ tokens: defaultMockTokens.filter((token) => token.symbol !== 'LINK') })
    expect(market.pairs.some((pair) => pair.token0 === LINK || pair.token1 === LINK)).toBe(false)
    expect(market.pairs.length).toBe(defaultMockPairs.length - 3)
    expect(market.quote({ token0: WETH, token1: USDC, amountIn: 10n ** 18n })).toBeDefined()
  })

  test('rejects malformed options with InvalidParameterError naming the field', () => {
    const token = { address: A, symbol: 'A', decimals: 18 }
    const cases: [() => unknown, string][] = [
      [() => createMockMarket({ maxHops: 0 }), 'maxHops'],
      [() => createMockMarket({ router: '0x123' as Address }), 'router'],
      [() => createMockMarket({ tokens: [token, { ...token }] }), 'tokens[1].address'],
      [() => createMockMarket({ tokens: [{ ...token, decimals: 1.5 }] }), 'tokens[0].decimals'],
      [
        () =>
          createMockMarket({
            tokens: [token],
            pairs: [{ address: A, token0: A, token1: B, reserve0: 1n, reserve1: 1n }],
          }),
        'pairs[0].token1',
      ],
      [
        () =>
          createMockMarket({
            tokens: [token, { address: B, symbol: 'B', decimals: 18 }],
            pairs: [{ address: C, token0: A, token1: B, reserve0: -1n, reserve1: 1n }],
          }),
        'pairs[0].reserve0',
      ],
      [
        () =>
          createMockMarket({
            tokens: [token, { address: B, symbol: 'B', decimals: 18 }],
            pairs: [{ address: C, token0: A, token1: B, reserve0: 1n, reserve1: 1n, feeBps: 10_000 }],
          }),
        'pairs[0].feeBps',
      ],
    ]
    for (const [create, parameter] of cases) {
      const error = (() => {
        try {
          create()
        } catch (error) {
          return error
        }
      })()
      expect(error).toBeInstanceOf(InvalidParameterError)
      expect((error as InvalidParameterError).parameter).toBe(parameter)
    }
  })
})
