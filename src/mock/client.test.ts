import { setupServer } from 'msw/node'
import { decodeFunctionData, parseUnits } from 'viem'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { getLegacyPairs } from '../core/actions/getLegacyPairs.js'
import { getLegacyPath } from '../core/actions/getLegacyPath.js'
import { getLegacyTokens } from '../core/actions/getLegacyTokens.js'
import { getPairs } from '../core/actions/getPairs.js'
import { getSwapInfo } from '../core/actions/getSwapInfo.js'
import { getSwapRoute } from '../core/actions/getSwapRoute.js'
import { getTokenPrice } from '../core/actions/getTokenPrice.js'
import { getTokens } from '../core/actions/getTokens.js'
import { getTokensData } from '../core/actions/getTokensData.js'
import { createSwapClient, type SwapClient } from '../core/client.js'
import { nativeTokenAddress } from '../core/constants.js'
import { HttpError, NetworkError, NoRouteError, RateLimitError } from '../core/errors/request.js'
import { ResponseValidationError } from '../core/errors/response.js'
import { getMinAmountOut } from '../core/utils/getMinAmountOut.js'
import type { ArrayFormat } from '../core/utils/url.js'
import { createMockMarket } from './createMockMarket.js'
import { createMockService } from './createMockService.js'
import { createSwapHandlers } from './createSwapHandlers.js'
import { mockTokenAddresses } from './fixtures.js'
import { swapRouterAbi } from './routerAbi.js'
import { type MockServer, startMockServer } from './startMockServer.js'
import type { MockService } from './types.js'

const { WETH, USDC, USDT, DAI, SCAM, LONE, TAIL, LINK } = mockTokenAddresses
const ALICE = '0x70997970C51812dc3A010C7d01b50e0d17dc79C8'

const market = createMockMarket()
const mswService = createMockService(market, { basePath: '/api/v2' })
const server = setupServer(...createSwapHandlers(mswService, { baseUrl: 'https://swap.test/api/v2' }))
let loopback: MockServer

beforeAll(async () => {
  server.listen({ onUnhandledRequest: 'bypass' })
  loopback = await startMockServer({ market })
})
afterAll(async () => {
  server.close()
  await loopback.stop()
})

const transports: [string, () => { baseUrl: string; service: MockService }][] = [
  ['MSW', () => ({ baseUrl: 'https://swap.test/api/v2', service: mswService })],
  ['loopback', () => ({ baseUrl: loopback.url, service: loopback.service })],
]

describe.each(transports)('the real client against the mock (%s)', (_, setup) => {
  const clientFor = (arrayFormat: ArrayFormat = 'repeat'): SwapClient =>
    createSwapClient({ baseUrl: setup().baseUrl, rateLimit: false, arrayFormat })

  test('getSwapRoute: the market’s quote, amountOut as a bigint', async () => {
    const amountIn = parseUnits('250', 18)
    const route = await getSwapRoute(clientFor(), { token0: TAIL, token1: USDT, amountIn })
    const quote = market.quote({ token0: TAIL, token1: USDT, amountIn })!
    expect(route).toEqual({
      path: quote.path,
      amountOut: quote.amountOut,
      quotedFor: { token0: TAIL, token1: USDT, amountIn },
    })
    expect(typeof route.amountOut).toBe('bigint')
    expect(route.path).toHaveLength(4)
  })

  test('getSwapRoute and getLegacyPath: NoRouteError for the isolated and the blacklisted token', async () => {
    for (const [token0, token1] of [
      [WETH, LONE],
      [SCAM, USDC],
    ] as const) {
      await expect(
        getSwapRoute(clientFor(), { token0, token1, amountIn: 10n ** 18n }),
      ).rejects.toBeInstanceOf(NoRouteError)
      await expect(
        getLegacyPath(clientFor(), { token0, token1, amountIn: 10n ** 18n }),
      ).rejects.toBeInstanceOf(NoRouteError)
    }
  })

  test('getSwapInfo: typed info whose calldata executes the quoted route', async () => {
    const amountIn = parseUnits('3', 18)
    const info = await getSwapInfo(clientFor(), {
      token0: LINK,
      token1: DAI,
      amountIn,
      to: ALICE,
      slippage: 0.01,
      deadline: 1_900_000_000n,
    })
    const quote = market.quote({ token0: LINK, token1: DAI, amountIn })!
    expect(info).toMatchObject({
      transferAddress: market.router,
      transferValue: 0n,
      approvalAddress: market.spender,
      estimateAmount: quote.amountOut,
      hopsCount: quote.path.length - 1,
    })
    expect(typeof info.estimateTransferSeconds).toBe('number')
    const { args } = decodeFunctionData({ abi: swapRouterAbi, data: info.data })
    expect(args).toEqual([
      quote.path,
      amountIn,
      getMinAmountOut(quote.amountOut, 0.01),
      ALICE,
      1_900_000_000n,
    ])

    const native = await getSwapInfo(clientFor(), {
      token0: nativeTokenAddress,
      token1: USDC,
      amountIn,
      to: ALICE,
    })
    expect(native.approvalAddress).toBeNull()
    expect(native.transferValue).toBe(amountIn)
  })

  test('getPairs in every array format, getTokens, getTokenPrice', async () => {
    for (const arrayFormat of ['repeat', 'comma', 'brackets'] as const) {
      const pairs = await getPairs(clientFor(arrayFormat), { filterByToken: ['USDT', 'dai'] })
      expect({ arrayFormat, count: pairs.length }).toEqual({ arrayFormat, count: 5 })
      for (const pair of pairs)
        expect([pair.symbol0, pair.symbol1].some((s) => s === 'USDT' || s === 'DAI')).toBe(true)
      const tokens = await getTokens(clientFor(arrayFormat), { filterByToken: [WETH, SCAM], blacklist: true })
      expect(tokens.map((token) => token.symbol)).toEqual(['WETH', 'SCAM'])
    }
    const listed = await getPairs(clientFor())
    const all = await getPairs(clientFor(), { blacklist: true })
    expect(all.length - listed.length).toBe(3)
    expect(all.filter((pair) => pair.blacklisted).length).toBe(3)
    const tokens = await getTokens(clientFor())
    expect(tokens.map((token) => token.address)).not.toContain(SCAM)
    expect(tokens.find((token) => token.symbol === 'USDC')).toMatchObject({ address: USDC, decimals: 6 })
    expect(await getTokenPrice(clientFor(), { address: WETH })).toBe(3000)
    expect(await getTokenPrice(clientFor(), { address: TAIL })).toBe(0.75)
  })

  test('the legacy group: getLegacyPath, getLegacyPairs, getLegacyTokens, getTokensData', async () => {
    const amountIn = parseUnits('1', 8)
    const path = await getLegacyPath(clientFor(), { token0: mockTokenAddresses.WBTC, token1: TAIL, amountIn })
    const quote = market.quote({ token0: mockTokenAddresses.WBTC, token1: TAIL, amountIn })!
    expect(path).toEqual({
      path: quote.path,
      amountOut: quote.amountOut,
      quotedFor: { token0: mockTokenAddresses.WBTC, token1: TAIL, amountIn },
    })
    const pairs = await getLegacyPairs(clientFor())
    expect(pairs.map((pair) => pair.address)).toEqual(
      market.pairs.filter((pair) => !market.isPairBlacklisted(pair)).map((pair) => pair.address),
    )
    const tokens = await getLegacyTokens(clientFor())
    expect(tokens).toHaveLength(10)
    const data = await getTokensData(clientFor())
    expect(data.find((item) => item.symbol === 'WBTC')).toMatchObject({
      address: mockTokenAddresses.WBTC,
      price_usd: 60_000,
      total_supply: '15000000000000',
    })
  })

  test('service knobs reach the client as typed errors', async () => {
    const { service } = setup()
    try {
      service.setRateLimit({ requestsPerSecond: 1 })
      await getTokens(clientFor())
      const limited = await getTokens(clientFor()).catch((error: unknown) => error)
      expect(limited).toBeInstanceOf(RateLimitError)
      expect((limited as RateLimitError).retryAfterMs).toBe(1000)
      service.setRateLimit(false)

      service.fail({ status: 503, endpoint: '/overview/tokens', times: 1 })
      const unavailable = await getTokens(clientFor()).catch((error: unknown) => error)
      expect(unavailable).toBeInstanceOf(HttpError)
      expect((unavailable as HttpError).status).toBe(503)

      service.fail({ status: 200, endpoint: '/get_tokens', times: 1, body: '<html>maintenance</html>' })
      await expect(getLegacyTokens(clientFor())).rejects.toBeInstanceOf(ResponseValidationError)

      service.fail({ network: true })
      await expect(getTokens(clientFor())).rejects.toBeInstanceOf(NetworkError)
      expect((await getTokens(clientFor())).length).toBe(10)
    } finally {
      service.reset()
    }
  })
})
