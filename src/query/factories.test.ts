import { QueryClient } from '@tanstack/react-query'
import { HttpResponse, http } from 'msw'
import { describe, expect, test } from 'vitest'
import { ALICE, baseUrl, USDC, WETH } from '../../test/constants.js'
import { setupMswServer } from '../../test/msw.js'
import type { GetLegacyPathParameters } from '../core/actions/getLegacyPath.js'
import type { GetPairsParameters } from '../core/actions/getPairs.js'
import type { GetSwapInfoParameters } from '../core/actions/getSwapInfo.js'
import type { GetSwapRouteParameters } from '../core/actions/getSwapRoute.js'
import type { GetTokenPriceParameters } from '../core/actions/getTokenPrice.js'
import type { GetTokensParameters } from '../core/actions/getTokens.js'
import { createSwapClient } from '../core/client.js'
import { InvalidParameterError } from '../core/errors/parameter.js'
import type { SwapQueryOptions } from './createQueryFactory.js'
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
const answerEverything = () =>
  server.use(
    http.get(`${baseUrl}/*`, ({ request }) =>
      HttpResponse.json(bodies[new URL(request.url).pathname] as never),
    ),
  )

/**
 * Every endpoint with every one of its parameters set (`Required<…>`: a new parameter that is not
 * added here is a type error), and the query string the spec says it must produce.
 */
const everyParameter = [
  {
    endpoint: '/swap/route',
    options: () => getSwapRouteQueryOptions(client, everyRoute),
    parameters: (): Required<GetSwapRouteParameters> => everyRoute,
    wire: { token0: [WETH], token1: [USDC], amount_in: ['1000000000000000000'] },
  },
  {
    endpoint: '/get_path',
    options: () => getLegacyPathQueryOptions(client, everyRoute),
    parameters: (): Required<GetLegacyPathParameters> => everyRoute,
    wire: { token0: [WETH], token1: [USDC], amount_in: ['1000000000000000000'] },
  },
  {
    endpoint: '/swap/info',
    options: () => getSwapInfoQueryOptions(client, everyInfo),
    parameters: (): Required<GetSwapInfoParameters> => everyInfo,
    wire: {
      token0: [WETH],
      token1: [USDC],
      amount_in: ['1000000000000000000'],
      to: [ALICE],
      slippage: ['0.01'],
      deadline: ['1900000000'],
    },
  },
  {
    endpoint: '/overview/pairs',
    options: () => getPairsQueryOptions(client, everyPairs),
    parameters: (): Required<GetPairsParameters> => everyPairs,
    wire: { filter_by_token: ['USDC', WETH], filter_by_pair: ['0xPair1', '0xPair2'], blacklist: ['true'] },
  },
  {
    endpoint: '/overview/tokens',
    options: () => getTokensQueryOptions(client, everyTokens),
    parameters: (): Required<GetTokensParameters> => everyTokens,
    wire: { filter_by_token: [USDC, WETH], blacklist: ['false'] },
  },
  {
    endpoint: '/overview/token/price',
    options: () => getTokenPriceQueryOptions(client, everyPrice),
    parameters: (): Required<GetTokenPriceParameters> => everyPrice,
    wire: { address: [USDC] },
  },
  {
    endpoint: '/get_pairs',
    options: () => getLegacyPairsQueryOptions(client),
    parameters: () => ({}),
    wire: {},
  },
  {
    endpoint: '/get_tokens',
    options: () => getLegacyTokensQueryOptions(client),
    parameters: () => ({}),
    wire: {},
  },
  {
    endpoint: '/get_tokens_data',
    options: () => getTokensDataQueryOptions(client),
    parameters: () => ({}),
    wire: {},
  },
] as const
const everyRoute = { token0: WETH, token1: USDC, amountIn: 10n ** 18n } as const
const everyInfo = { ...everyRoute, to: ALICE, slippage: 0.01, deadline: 1_900_000_000 } as const
const everyPairs = { filterByToken: ['USDC', WETH], filterByPair: ['0xPair1', '0xPair2'], blacklist: true }
const everyTokens = { filterByToken: [USDC, WETH], blacklist: false }
const everyPrice = { address: USDC }

describe('every parameter reaches both the cache key and the URL', () => {
  test.each(everyParameter)('$endpoint', async ({ endpoint, options: makeOptions, parameters, wire }) => {
    answerEverything()
    const options = makeOptions() as SwapQueryOptions<unknown, readonly [string, Record<string, unknown>]>
    const [, key] = options.queryKey
    // The key: the base URL and each parameter (amounts as decimal strings), nothing else.
    const expectedKey: Record<string, unknown> = { baseUrl }
    for (const [name, value] of Object.entries(parameters()))
      expectedKey[name] = typeof value === 'bigint' ? value.toString() : value
    expect(key).toEqual(expectedKey)

    // The URL: each parameter under the spec's name, nothing else.
    await new QueryClient().fetchQuery(options)
    expect(requests).toHaveLength(1)
    const url = new URL((requests[0] as Request).url)
    expect(url.pathname).toBe(endpoint)
    const sent: Record<string, string[]> = {}
    for (const name of new Set(url.searchParams.keys())) sent[name] = url.searchParams.getAll(name)
    expect(sent).toEqual(wire)
  })
})

describe('query keys', () => {
  test('hold the base URL and the parameters, never headers, and are plain JSON', () => {
    const options = getSwapRouteQueryOptions(client, route)
    expect(options.queryKey).toEqual([
      'swapRoute',
      { baseUrl, token0: WETH, token1: USDC, amountIn: '1000000000000000000' },
    ])
    expect(JSON.stringify(options.queryKey)).not.toContain('secret-key-123')
    expect(getSwapRouteQueryKey({ baseUrl, ...route })).toEqual(options.queryKey)
    expect(getTokensQueryKey({ baseUrl })).toEqual(['tokens', { baseUrl }])
    expect(getPairsQueryKey({ baseUrl, filterByToken: ['USDC'], blacklist: true })).toEqual([
      'pairs',
      { baseUrl, filterByToken: ['USDC'], blacklist: true },
    ])
    expect(getLegacyPairsQueryKey({ baseUrl })).toEqual(['legacyPairs', { baseUrl }])
    expect(getSwapInfoQueryKey({ baseUrl, ...route, to: ALICE, slippage: 0.01, deadline: 10n })).toEqual([
      'swapInfo',
      {
        baseUrl,
        token0: WETH,
        token1: USDC,
        amountIn: '1000000000000000000',
        to: ALICE,
        slippage: 0.01,
        deadline: '10',
      },
    ])
  })

  test('two services never share a cache entry', () => {
    const other = createSwapClient({ baseUrl: 'https://other.test' })
    expect(getSwapRouteQueryOptions(client, route).queryKey).not.toEqual(
      getSwapRouteQueryOptions(other, route).queryKey,
    )
  })

  test('the exported keys work on a default QueryClient: getQueryData, setQueryData, invalidateQueries', async () => {
    answerEverything()
    const queryClient = new QueryClient()
    const data = await queryClient.fetchQuery(getSwapRouteQueryOptions(client, route))
    const key = getSwapRouteQueryKey({ baseUrl: client.baseUrl, ...route })
    expect(queryClient.getQueryData(key)).toEqual(data)
    queryClient.setQueryData(key, { path: [WETH, USDC], amountOut: 7n })
    expect(queryClient.getQueryData(key)).toEqual({ path: [WETH, USDC], amountOut: 7n })
    // A partial key (the service only) invalidates every route of that service.
    await queryClient.invalidateQueries({ queryKey: getSwapRouteQueryKey({ baseUrl: client.baseUrl }) })
    expect(queryClient.getQueryState(key)?.isInvalidated).toBe(true)
    expect(queryClient.getQueryCache().find({ queryKey: key })?.queryHash).toBe(
      JSON.stringify(['swapRoute', { amountIn: '1000000000000000000', baseUrl, token0: WETH, token1: USDC }]),
    )
  })
})

describe('enabled: missing input waits quietly, malformed input is an error before any request', () => {
  test.each([
    [{}, false],
    [{ token0: WETH }, false],
    [{ token0: WETH, token1: USDC }, false],
    [{ ...route, amountIn: 0n }, false],
    [{ ...route, token1: '' }, false],
    [{ ...route, token1: 'USDC' }, true],
    [route, true],
  ])('route %o → %s', (parameters, enabled) => {
    expect(getSwapRouteQueryOptions(client, parameters as never).enabled).toBe(enabled)
  })

  test('info needs a recipient; price needs an address; lists need nothing', () => {
    expect(getSwapInfoQueryOptions(client, route).enabled).toBe(false)
    expect(getSwapInfoQueryOptions(client, { ...route, to: ALICE }).enabled).toBe(true)
    expect(getTokensQueryOptions(client).enabled).toBe(true)
    expect(getTokenPriceQueryOptions(client).enabled).toBe(false)
    expect(getTokenPriceQueryOptions(client, { address: USDC }).enabled).toBe(true)
  })

  test.each([
    ['token1', { ...route, token1: '0x123' }],
    ['token0', { ...route, token0: '0xC02aaA39b223FE8D0A0e5C4F27eAD9083C756CC2' }], // bad checksum
    ['amountIn', { ...route, amountIn: -5n }],
    ['slippage', { ...route, to: ALICE, slippage: 2 }],
  ])(
    'a malformed %s rejects with InvalidParameterError naming it, and nothing is sent',
    async (parameter, parameters) => {
      const factory = parameter === 'slippage' ? getSwapInfoQueryOptions : getSwapRouteQueryOptions
      const options = factory(client, parameters as never)
      expect(options.enabled).toBe(true)
      const error = await new QueryClient().fetchQuery(options as never).catch((e: unknown) => e)
      expect(error).toBeInstanceOf(InvalidParameterError)
      expect(error).toMatchObject({ parameter })
      expect(requests).toHaveLength(0)
    },
  )
})

describe('outside React', () => {
  test('fetchQuery works with the factories, bigints and all; a second fetch is cached', async () => {
    server.use(
      http.get(`${baseUrl}/swap/route`, () => HttpResponse.json({ path: [WETH, USDC], amount_out: '42' })),
    )
    const queryClient = new QueryClient()
    const data = await queryClient.fetchQuery(getSwapRouteQueryOptions(client, route))
    expect(data).toEqual({ path: [WETH, USDC], amountOut: 42n, quotedFor: route })
    await queryClient.fetchQuery(getSwapRouteQueryOptions(client, route))
    expect(requests).toHaveLength(1)
  })

  test('carry the resource defaults', () => {
    expect(getSwapRouteQueryOptions(client, route)).toMatchObject(queryDefaults.swapRoute)
    expect(getTokensQueryOptions(client)).toMatchObject(queryDefaults.tokens)
    expect(getTokenPriceQueryOptions(client)).toMatchObject({ staleTime: 30_000 })
  })
})
