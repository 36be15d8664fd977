import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { mockTokenAddresses } from '../../mock/fixtures.js'
import { type MockServer, startMockServer } from '../../mock/startMockServer.js'
import { getTokenPrice } from '../actions/getTokenPrice.js'
import { createSwapClient } from '../client.js'
import { PriceImpactTooHighError } from '../errors/priceImpact.js'
import { checkPriceImpact } from './checkPriceImpact.js'

// The loopback mock service prices its tokens (USDC $1, WETH about $3,000); decimals come from the
// parameter's public client: a reader of our own type that answers as the tokens would.
let server: MockServer
beforeAll(async () => {
  server = await startMockServer()
})
afterAll(() => server.stop())

const { USDC, WETH } = mockTokenAddresses
const decimals: Record<string, number> = { [USDC.toLowerCase()]: 6, [WETH.toLowerCase()]: 18 }
const publicClient = {
  readContract: (async ({ address }: { address: string }) => decimals[address.toLowerCase()]) as never,
}
const swap = { publicClient, token0: WETH, token1: USDC, amountIn: 10n ** 18n }
const priceRequests = () => server.service.count('/overview/token/price')

describe('checkPriceImpact: the preview’s limit at the click, at the prices it is given or fetches once', () => {
  test('without prices it fetches both once; a fair quote passes with its impact, a quote 20 % short is refused', async () => {
    const client = createSwapClient({ baseUrl: server.url, rateLimit: false })
    const usd = await getTokenPrice(client, { address: WETH })
    const fair = BigInt(Math.round(usd * 1e6))
    const before = priceRequests()
    const impact = await checkPriceImpact(client, { ...swap, quote: { amountOut: fair } })
    expect(priceRequests() - before).toBe(2)
    expect(impact?.warning).toBe('none')
    const refused = await checkPriceImpact(client, {
      ...swap,
      quote: { estimateAmount: (fair * 8n) / 10n },
    }).catch((error: unknown) => error)
    expect(refused).toBeInstanceOf(PriceImpactTooHighError)
    expect(refused).toMatchObject({ code: 'PRICE_IMPACT_TOO_HIGH', blocking: 0.15 })
    expect((refused as PriceImpactTooHighError).value).toBeCloseTo(0.2)
  })

  test('prices given are not fetched again, even a key given as undefined (a price the cache could not get): unknown, the swap passes', async () => {
    const client = createSwapClient({ baseUrl: server.url, rateLimit: false })
    const before = priceRequests()
    const known = await checkPriceImpact(client, {
      ...swap,
      quote: { amountOut: 1_000_000n },
      prices: { token0: 3000, token1: 1 },
      thresholds: { high: 0.5, blocking: 1 },
    })
    expect(known?.value).toBeCloseTo(1 - 1 / 3000)
    const unknown = await checkPriceImpact(client, {
      ...swap,
      quote: { amountOut: 1n },
      prices: { token0: undefined, token1: undefined },
    })
    expect(unknown).toBeUndefined()
    expect(priceRequests()).toBe(before)
  })

  test('a token whose decimals cannot be read: unknown (executeSwap reports the token itself), nothing thrown', async () => {
    const client = createSwapClient({ baseUrl: server.url, rateLimit: false })
    const failing = {
      readContract: (async () => {
        throw new Error('no contract')
      }) as never,
    }
    await expect(
      checkPriceImpact(client, { ...swap, publicClient: failing, quote: { amountOut: 1n } }),
    ).resolves.toBeUndefined()
  })
})
