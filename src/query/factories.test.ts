import { QueryClient } from '@tanstack/react-query'
import { HttpResponse, http } from 'msw'
import { describe, expect, test } from 'vitest'
import { ALICE, baseUrl, USDC, WETH } from '../../test/constants.js'
import { setupMswServer } from '../../test/msw.js'
import { createSwapClient } from '../core/client.js'
import { InvalidParameterError } from '../core/errors/parameter.js'
import { queryDefaults } from './defaults.js'
import { getLegacyPairsQueryKey, getLegacyPairsQueryOptions } from './getLegacyPairs.js'
import { getLegacyPathQueryOptions } from './getLegacyPath.js'
import { getLegacyTokensQueryOptions } from './getLegacyTokens.js'
import { getPairsQueryKey, getPairsQueryOptions } from './getPairs.js'
import { getSwapInfoQueryKey, getSwapInfoQueryOptions } from './getSwapInfo.js'
import { getSwapRouteQueryKey, getSwapRouteQueryOptions } from './getSwapRoute.js'
import { getTokenPriceQueryOptions } from './getTokenPrice.js'
import { getTokensQueryKey, getTokensQueryOptions } from './getTokens.js'
import { getTokensDataQueryOptions } from './getTokensData.js'

const { server, requests } = setupMswServer()
const client = createSwapClient({ baseUrl, rateLimit: false, headers: { 'x-api-key': 'secret-key-123' } })
const route = { token0: WETH, token1: USDC, amountIn: 10n ** 18n }

describe('query keys', () => {
  test('hold the base URL and the parameters, never headers, and nothing else', () => {
    const options = getSwapRouteQueryOptions(client, { ...route, debounceMs: 5 } as never)
    expect(options.queryKey).toEqual(['swapRoute', { baseUrl, ...route }])
    expect(JSON.stringify(options.queryKey, (_, v) => (typeof v === 'bigint' ? `${v}` : v))).not.toContain(
      'secret-key-123',
    )
    expect(getSwapRouteQueryKey({ baseUrl, ...route })).toEqual(options.queryKey)
    expect(getTokensQueryKey({ baseUrl })).toEqual(['tokens', { baseUrl }])
    expect(getPairsQueryKey({ baseUrl, filterByToken: ['USDC'], blacklist: true })).toEqual([
      'pairs',
      { baseUrl, filterByToken: ['USDC'], blacklist: true },
    ])
    expect(getLegacyPairsQueryKey({ baseUrl })).toEqual(['legacyPairs', { baseUrl }])
    expect(getSwapInfoQueryKey({ baseUrl, ...route, to: ALICE, slippage: 0.01 })).toEqual([
      'swapInfo',
      { baseUrl, ...route, to: ALICE, slippage: 0.01 },
    ])
  })

  test('two services never share a cache entry', () => {
    const other = createSwapClient({ baseUrl: 'https://other.test' })
    const a = getSwapRouteQueryOptions(client, route)
    const b = getSwapRouteQueryOptions(other, route)
    expect(a.queryKeyHashFn(a.queryKey)).not.toBe(b.queryKeyHashFn(b.queryKey))
  })
})

describe('enabled', () => {
  test.each([
    [{}, false],
    [{ token0: WETH }, false],
    [{ token0: WETH, token1: USDC }, false],
    [{ ...route, amountIn: 0n }, false],
    [{ ...route, token1: 'USDC' }, false],
    [route, true],
  ])('route %o → %s', (parameters, enabled) => {
    expect(getSwapRouteQueryOptions(client, parameters as never).enabled).toBe(enabled)
  })

  test('info needs a recipient and a valid slippage', () => {
    expect(getSwapInfoQueryOptions(client, route).enabled).toBe(false)
    expect(getSwapInfoQueryOptions(client, { ...route, to: ALICE }).enabled).toBe(true)
    expect(getSwapInfoQueryOptions(client, { ...route, to: ALICE, slippage: 2 }).enabled).toBe(false)
  })

  test('lists are enabled without parameters, price needs an address', () => {
    expect(getTokensQueryOptions(client).enabled).toBe(true)
    expect(getPairsQueryOptions(client, { filterByToken: [''] }).enabled).toBe(false)
    expect(getTokenPriceQueryOptions(client).enabled).toBe(false)
    expect(getTokenPriceQueryOptions(client, { address: USDC }).enabled).toBe(true)
  })
})

describe('outside React', () => {
  test('fetchQuery works with the factories, bigints and all', async () => {
    server.use(
      http.get(`${baseUrl}/swap/route`, () => HttpResponse.json({ path: [WETH, USDC], amount_out: '42' })),
    )
    const queryClient = new QueryClient()
    const data = await queryClient.fetchQuery(getSwapRouteQueryOptions(client, route))
    expect(data).toEqual({ path: [WETH, USDC], amountOut: 42n })
    // Cached under the same key: no second request.
    await queryClient.fetchQuery(getSwapRouteQueryOptions(client, route))
    expect(requests).toHaveLength(1)
  })

  test('fetchQuery with incomplete input rejects with InvalidParameterError and sends nothing', async () => {
    const queryClient = new QueryClient()
    const error = await queryClient
      .fetchQuery(getSwapRouteQueryOptions(client, { token0: WETH }))
      .catch((e: unknown) => e)
    expect(error).toBeInstanceOf(InvalidParameterError)
    expect(requests).toHaveLength(0)
  })

  test('every factory reaches its endpoint', async () => {
    const bodies: Record<string, unknown> = {
      '/swap/route': { path: [WETH, USDC], amount_out: '1' },
      '/get_path': { path: [WETH, USDC], amount_out: '1' },
      '/swap/info': {
        data: '0x',
        transferAddress: WETH,
        transferValue: '0',
        approvalAddress: null,
        estimateTransferSeconds: 1,
        estimateAmount: '1',
        hopsCount: 1,
        fee: {},
      },
      '/overview/pairs': [],
      '/overview/tokens': [],
      '/overview/token/price': 1,
      '/get_pairs': [],
      '/get_tokens': [],
      '/get_tokens_data': [],
    }
    server.use(
      http.get(`${baseUrl}/*`, ({ request }) =>
        HttpResponse.json(bodies[new URL(request.url).pathname] as never),
      ),
    )
    const queryClient = new QueryClient()
    const all = [
      getSwapRouteQueryOptions(client, route),
      getLegacyPathQueryOptions(client, route),
      getSwapInfoQueryOptions(client, { ...route, to: ALICE }),
      getPairsQueryOptions(client),
      getTokensQueryOptions(client),
      getTokenPriceQueryOptions(client, { address: USDC }),
      getLegacyPairsQueryOptions(client),
      getLegacyTokensQueryOptions(client),
      getTokensDataQueryOptions(client),
    ]
    for (const options of all) await queryClient.fetchQuery(options as never)
    expect(requests.map((r) => new URL(r.url).pathname).sort()).toEqual(Object.keys(bodies).sort())
  })

  test('carry the resource defaults', () => {
    expect(getSwapRouteQueryOptions(client, route)).toMatchObject(queryDefaults.swapRoute)
    expect(getTokensQueryOptions(client)).toMatchObject(queryDefaults.tokens)
    expect(getTokenPriceQueryOptions(client)).toMatchObject({ staleTime: 30_000 })
  })
})
