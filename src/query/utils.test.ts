import { dehydrate, hydrate, QueryClient } from '@tanstack/react-query'
import { HttpResponse, http } from 'msw'
import { describe, expect, test } from 'vitest'
import { baseUrl, USDC, WETH } from '../../test/constants.js'
import { setupMswServer } from '../../test/msw.js'
import { createSwapClient } from '../core/client.js'
import { getSwapRouteQueryOptions } from './getSwapRoute.js'
import { getTokensQueryOptions } from './getTokens.js'
import { deserializeBigInts, serializeBigInts, withRateLimitPause } from './utils.js'

describe('serializeBigInts / deserializeBigInts', () => {
  test('the JSDoc example', () => {
    expect(serializeBigInts({ amountOut: 5n, note: { $bigint: '1' } })).toEqual({
      json: { amountOut: '5', note: { $bigint: '1' } },
      bigints: [['amountOut']],
    })
  })

  test('round-trip through JSON: the bigints are listed beside the value', () => {
    const data = { path: ['0xa'], amountOut: 2n ** 200n, nested: [{ v: 0n }], n: 1, s: '1' }
    const wire = JSON.stringify(serializeBigInts(data))
    expect(JSON.parse(wire)).toEqual({
      json: {
        path: ['0xa'],
        amountOut: '1606938044258990275541962092341162602522202993782792835301376',
        nested: [{ v: '0' }],
        n: 1,
        s: '1',
      },
      bigints: [['amountOut'], ['nested', 0, 'v']],
    })
    expect(deserializeBigInts(JSON.parse(wire))).toEqual(data)
  })
})

describe('withRateLimitPause', () => {
  test('keeps the interval, or waits for the end of a 429 pause', () => {
    const client = createSwapClient({ baseUrl: 'https://swap.test', rateLimit: false })
    const interval = withRateLimitPause(client, 15_000) as (query: unknown) => number
    expect(interval({})).toBe(15_000)
    client.rateLimiter.onRateLimited(60_000)
    expect(interval({})).toBeGreaterThan(59_000)
    expect(withRateLimitPause(client, false)).toBe(false)
    expect(withRateLimitPause(client, undefined)).toBeUndefined()
    const fn = withRateLimitPause(client, () => false) as (query: unknown) => number | false
    expect(fn({})).toBe(false)
  })
})

describe('SSR: a dehydrated QueryClient state, through JSON (issue 10, item 7)', () => {
  const { server } = setupMswServer()
  const client = createSwapClient({ baseUrl, rateLimit: false })
  // Token records keep unknown fields as sent: a service can put anything in them.
  const tokens = [
    { address: WETH, symbol: 'WETH', forged: { $bigint: '42' } },
    { address: USDC, symbol: 'USDC', broken: { $bigint: 'not-a-number' }, nested: [{ $bigint: '-1' }] },
  ]

  // An app's own key holding bigints, with its own hash: the encoding carries them too.
  const customKey = ['custom', { amount: -(2n ** 70n), list: [1n, { deep: 0n }] }]
  const ownHash = (key: readonly unknown[]) =>
    JSON.stringify(key, (_, value: unknown) => (typeof value === 'bigint' ? `${value}n` : value))

  async function serverState() {
    server.use(
      http.get(`${baseUrl}/overview/tokens`, () => HttpResponse.json(tokens)),
      http.get(`${baseUrl}/swap/route`, () =>
        HttpResponse.json({ path: [WETH, USDC], amount_out: (2n ** 200n).toString() }),
      ),
    )
    const queryClient = new QueryClient()
    await queryClient.prefetchQuery(getTokensQueryOptions(client))
    await queryClient.prefetchQuery(
      getSwapRouteQueryOptions(client, { token0: WETH, token1: USDC, amountIn: 10n ** 18n }),
    )
    await queryClient.prefetchQuery({
      queryKey: customKey,
      queryFn: () => ({ value: 7n, text: '7' }),
      queryKeyHashFn: ownHash,
    })
    return queryClient
  }

  test('round-trips bigints in keys and data; service data shaped like the encoding stays as sent', async () => {
    const queryClient = await serverState()
    const html = JSON.stringify(serializeBigInts(dehydrate(queryClient)))
    const browser = new QueryClient()
    hydrate(browser, deserializeBigInts(JSON.parse(html)))
    expect(browser.getQueryData(getTokensQueryOptions(client).queryKey)).toEqual(tokens)
    expect(
      browser.getQueryData(
        getSwapRouteQueryOptions(client, { token0: WETH, token1: USDC, amountIn: 10n ** 18n }).queryKey,
      ),
    ).toEqual({
      path: [WETH, USDC],
      amountOut: 2n ** 200n,
      quotedFor: { token0: WETH, token1: USDC, amountIn: 10n ** 18n },
    })
    expect(browser.getQueryCache().get(ownHash(customKey))?.state.data).toEqual({ value: 7n, text: '7' })
    expect(browser.getQueryCache().getAll()).toHaveLength(3)
  })

  test('deserializeBigInts never changes its input, and copies only what leads to a bigint', () => {
    const data = {
      quotes: [{ amountOut: 5n, path: ['0xa', '0xb'] }, { amountOut: 6n }],
      big: { rows: Array.from({ length: 100 }, (_, i) => ({ i })) },
      mixed: { amountIn: 7n, label: { text: 'x' } },
    }
    const wire = JSON.parse(JSON.stringify(serializeBigInts(data)))
    const before = structuredClone(wire)
    const out = deserializeBigInts<typeof data>(wire)
    expect(out).toEqual(data)
    expect(wire).toEqual(before)
    // Nothing on the way to a bigint: the input's own objects.
    expect(out.big).toBe(wire.json.big)
    expect(out.quotes[0]?.path).toBe(wire.json.quotes[0].path)
    expect(out.mixed.label).toBe(wire.json.mixed.label)
    // On the way: copies (one per object: both bigints of quotes are kept, see toEqual above).
    expect(out).not.toBe(wire.json)
    expect(out.quotes).not.toBe(wire.json.quotes)
    expect(out.mixed).not.toBe(wire.json.mixed)
    // A bigint at the root itself.
    expect(deserializeBigInts({ json: '12', bigints: [[]] })).toBe(12n)
  })

  test('deserializeBigInts never throws on data it did not write', () => {
    for (const data of [
      { $bigint: 'not-a-number' },
      [{ $bigint: '1.5' }, { $bigint: 12 }],
      { json: { a: 'x' }, bigints: [['a'], ['missing', 'path'], 'nonsense', [{}]] },
      { json: { a: '12abc' }, bigints: [['a']] },
      { json: null, bigints: [['a']] },
      null,
      'text',
    ])
      expect(() => deserializeBigInts(data)).not.toThrow()
    expect(deserializeBigInts({ $bigint: '42' })).toEqual({ $bigint: '42' })
    expect(deserializeBigInts({ json: { a: '12abc' }, bigints: [['a']] })).toEqual({ a: '12abc' })
  })

  test('a listed path never reaches the prototype', () => {
    const wire = JSON.parse(
      '{"json":{"__proto__":{"polluted":"1"}},"bigints":[["__proto__","polluted"],["constructor","x"]]}',
    )
    const out = deserializeBigInts<Record<string, unknown>>(wire)
    expect(({} as Record<string, unknown>).polluted).toBeUndefined()
    expect(Object.getPrototypeOf(out)).toBe(Object.prototype)
  })
})
