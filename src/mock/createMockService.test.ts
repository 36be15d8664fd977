import { type Address, decodeFunctionData, parseUnits } from 'viem'
import { describe, expect, test, vi } from 'vitest'
import { nativeTokenAddress } from '../core/constants.js'
import { InvalidParameterError } from '../core/errors/parameter.js'
import { getMinAmountOut } from '../core/utils/getMinAmountOut.js'
import { createMockMarket } from './createMockMarket.js'
import { createMockService } from './createMockService.js'
import { mockTokenAddresses } from './fixtures.js'
import { swapRouterAbi } from './routerAbi.js'
import type { MockService } from './types.js'

const { ETH, WETH, USDC, USDT, DAI, UNI, SCAM, LONE, TAIL } = mockTokenAddresses
const ALICE: Address = '0x70997970C51812dc3A010C7d01b50e0d17dc79C8'
const market = createMockMarket()

type Query = string | Record<string, string> | [string, string][]

async function call(service: MockService, path: string, query: Query = '', init: RequestInit = {}) {
  const search = typeof query === 'string' ? query : new URLSearchParams(query).toString()
  const response = await service.handle(
    new Request(`https://swap.test${path}${search ? `?${search}` : ''}`, init),
  )
  const text = await response.text()
  let body: unknown = text
  try {
    body = JSON.parse(text)
  } catch {}
  return { status: response.status, headers: response.headers, body: body as never, type: response.type }
}

const route = (token0: string, token1: string, amountIn: bigint) => ({
  token0,
  token1,
  amount_in: amountIn.toString(),
})

describe('/swap/route and /get_path', () => {
  const service = createMockService(market)

  test('answers the market’s best route, with amounts as strings and checksummed addresses', async () => {
    const amountIn = parseUnits('2', 18)
    const { status, body, headers } = await call(
      service,
      '/swap/route',
      route(WETH.toLowerCase(), USDC.toLowerCase(), amountIn),
    )
    const quote = market.quote({ token0: WETH, token1: USDC, amountIn })!
    expect(status).toBe(200)
    expect(headers.get('content-type')).toBe('application/json')
    expect(body).toEqual({ path: quote.path, amount_out: quote.amountOut.toString() })
    expect(quote.path).toEqual([WETH, USDC])
  })

  test('the default fixture has a best route of three swaps', async () => {
    const { body } = await call(service, '/swap/route', route(TAIL, USDT, parseUnits('1000', 18)))
    const { path } = body as { path: Address[] }
    expect(path).toHaveLength(4)
    expect(path[0]).toBe(TAIL)
    expect(path[3]).toBe(USDT)
  })

  test('/get_path answers the same body', async () => {
    for (const [a, b] of [
      [ETH, UNI],
      [TAIL, DAI],
    ] as const) {
      const query = route(a, b, parseUnits('3', 18))
      expect(await call(service, '/get_path', query)).toEqual(await call(service, '/swap/route', query))
    }
  })

  test('404 with a JSON body for the isolated token and to or from a blacklisted token', async () => {
    const notFound = { detail: 'No path found between token0 and token1' }
    for (const endpoint of ['/swap/route', '/get_path', '/swap/info'])
      for (const [a, b] of [
        [WETH, LONE],
        [LONE, USDC],
        [SCAM, WETH],
        [USDC, SCAM],
      ] as const) {
        const { status, body, headers } = await call(service, endpoint, {
          ...route(a, b, 10n ** 18n),
          to: ALICE,
        })
        expect({ endpoint, status, body }).toEqual({ endpoint, status: 404, body: notFound })
        expect(headers.get('content-type')).toBe('application/json')
      }
  })
})

describe('/swap/info', () => {
  const service = createMockService(market)

  test('calldata decodes to the route, amountIn, slippage-adjusted minimum, recipient and deadline', async () => {
    const amountIn = parseUnits('1500', 18)
    const quote = market.quote({ token0: TAIL, token1: USDT, amountIn })!
    const { status, body } = await call(service, '/swap/info', {
      ...route(TAIL, USDT, amountIn),
      to: ALICE.toLowerCase(),
      slippage: '0.01',
      deadline: '1900000000',
    })
    expect(status).toBe(200)
    const info = body as Record<string, unknown>
    const { functionName, args } = decodeFunctionData({
      abi: swapRouterAbi,
      data: info.data as `0x${string}`,
    })
    expect(functionName).toBe('swap')
    expect(quote.hops[0]!.feeBps).toBe(100)
    expect(args).toEqual([
      quote.path,
      amountIn,
      getMinAmountOut(quote.amountOut, 0.01),
      ALICE,
      1_900_000_000n,
    ])
    expect(info).toEqual({
      data: info.data,
      transferAddress: market.router,
      transferValue: '0',
      approvalAddress: market.spender,
      estimateTransferSeconds: 16,
      estimateAmount: quote.amountOut.toString(),
      hopsCount: 3,
      fee: {
        totalBps: quote.hops.reduce((total, hop) => total + hop.feeBps, 0),
        hops: quote.hops.map((hop) => ({
          pair: hop.pair,
          tokenIn: hop.tokenIn,
          tokenOut: hop.tokenOut,
          feeBps: hop.feeBps,
          feeAmount: ((hop.amountIn * BigInt(hop.feeBps)) / 10_000n).toString(),
        })),
        gasEstimate: '210000',
      },
    })
  })

  test('defaults: slippage 0.05 and a deadline 20 minutes from now', async () => {
    const amountIn = parseUnits('1', 18)
    const before = Math.floor(Date.now() / 1000)
    const { body } = await call(service, '/swap/info', { ...route(WETH, DAI, amountIn), to: ALICE })
    const after = Math.floor(Date.now() / 1000)
    const quote = market.quote({ token0: WETH, token1: DAI, amountIn })!
    const { args } = decodeFunctionData({ abi: swapRouterAbi, data: (body as { data: `0x${string}` }).data })
    expect(args[2]).toBe(getMinAmountOut(quote.amountOut, 0.05))
    expect(Number(args[4])).toBeGreaterThanOrEqual(before + 1200)
    expect(Number(args[4])).toBeLessThanOrEqual(after + 1200)
  })

  test('native input: no approval, the value is the input amount', async () => {
    const amountIn = parseUnits('0.5', 18)
    const { body } = await call(service, '/swap/info', {
      ...route(nativeTokenAddress.toLowerCase(), USDC, amountIn),
      to: ALICE,
    })
    const info = body as Record<string, unknown>
    expect(info.approvalAddress).toBeNull()
    expect(info.transferValue).toBe(amountIn.toString())
    expect(info.transferAddress).toBe(market.router)
    expect(info.hopsCount).toBe(1)
    const { args } = decodeFunctionData({ abi: swapRouterAbi, data: info.data as `0x${string}` })
    expect(args[0]).toEqual([ETH, USDC])
  })
})

describe('/overview/pairs and /overview/tokens', () => {
  const service = createMockService(market)
  const addressesOf = (body: unknown, key: 'pairs' | 'tokens') =>
    ((body as Record<string, { address: string }[]>)[key] ?? []).map((item) => item.address)
  const symbolsOf = (body: unknown) =>
    ((body as { pairs: { symbol0: string; symbol1: string }[] }).pairs ?? []).map(
      (pair) => `${pair.symbol0}/${pair.symbol1}`,
    )

  const encodings = (name: string, values: string[]): [string, string][] => [
    ['repeat', values.map((value) => `${name}=${encodeURIComponent(value)}`).join('&')],
    ['comma', `${name}=${values.map(encodeURIComponent).join(',')}`],
    ['brackets', values.map((value) => `${name}%5B%5D=${encodeURIComponent(value)}`).join('&')],
  ]

  test('a pair record', async () => {
    const pair = market.pairs[0]!
    const { body } = await call(service, '/overview/pairs', { filter_by_pair: pair.address })
    expect(body).toEqual({
      pairs: [
        {
          address: pair.address,
          token0: WETH,
          token1: USDC,
          symbol0: 'WETH',
          symbol1: 'USDC',
          reserve0: pair.reserve0.toString(),
          reserve1: pair.reserve1.toString(),
          feeBps: 5,
          fee: 0.0005,
          liquidityUsd: 120_000_000,
          blacklisted: false,
        },
      ],
    })
  })

  test('blacklisted pairs (or pairs of a blacklisted token) only with blacklist=true', async () => {
    const all = market.pairs.map((pair) => pair.address)
    const listed = market.pairs.filter((pair) => !market.isPairBlacklisted(pair)).map((pair) => pair.address)
    expect(listed.length).toBe(all.length - 3)
    expect(addressesOf((await call(service, '/overview/pairs')).body, 'pairs')).toEqual(listed)
    for (const value of ['false', '0', 'FALSE'])
      expect(
        addressesOf((await call(service, '/overview/pairs', { blacklist: value })).body, 'pairs'),
      ).toEqual(listed)
    for (const value of ['true', '1', 'True'])
      expect(
        addressesOf((await call(service, '/overview/pairs', { blacklist: value })).body, 'pairs'),
      ).toEqual(all)
    const { body } = await call(service, '/overview/pairs', 'filter_by_token=SCAM&blacklist=true')
    expect(symbolsOf(body)).toEqual(['SCAM/WETH', 'SCAM/USDC'])
    expect((body as { pairs: { blacklisted: boolean }[] }).pairs.every((pair) => pair.blacklisted)).toBe(true)
  })

  test('filter_by_token: a pair matches when either token matches any value (symbol or address), in every encoding', async () => {
    for (const [encoding, query] of encodings('filter_by_token', ['usdt', DAI.toLowerCase()])) {
      const { status, body } = await call(service, '/overview/pairs', query)
      expect({ encoding, status }).toEqual({ encoding, status: 200 })
      expect({ encoding, pairs: symbolsOf(body) }).toEqual({
        encoding,
        pairs: ['WETH/USDT', 'WETH/DAI', 'USDC/USDT', 'USDC/DAI', 'ETH/DAI'],
      })
    }
  })

  test('filter_by_pair in every encoding, AND-ed with filter_by_token', async () => {
    const [p0, p1, p2] = market.pairs as [
      (typeof market.pairs)[0],
      (typeof market.pairs)[0],
      (typeof market.pairs)[0],
    ]
    for (const [encoding, query] of encodings('filter_by_pair', [p0.address.toLowerCase(), p2.address])) {
      const { body } = await call(service, '/overview/pairs', query)
      expect({ encoding, pairs: addressesOf(body, 'pairs') }).toEqual({
        encoding,
        pairs: [p0.address, p2.address],
      })
      const both = await call(service, '/overview/pairs', `${query}&filter_by_token=USDT`)
      expect({ encoding, pairs: addressesOf(both.body, 'pairs') }).toEqual({ encoding, pairs: [p2.address] })
    }
    const none = await call(service, '/overview/pairs', {
      filter_by_pair: p1.address,
      filter_by_token: 'LINK',
    })
    expect(none.body).toEqual({ pairs: [] })
  })

  test('tokens: record shape, blacklisted only with blacklist=true, filters in every encoding', async () => {
    const { body } = await call(service, '/overview/tokens')
    const tokens = (body as { tokens: Record<string, unknown>[] }).tokens
    expect(tokens.map((token) => token.symbol)).toEqual([
      'ETH',
      'WETH',
      'USDC',
      'USDT',
      'DAI',
      'WBTC',
      'LINK',
      'UNI',
      'LONE',
      'TAIL',
    ])
    expect(tokens[2]).toEqual({
      address: USDC,
      symbol: 'USDC',
      name: 'USD Coin',
      decimals: 6,
      blacklisted: false,
    })
    const withBlacklisted = await call(service, '/overview/tokens', { blacklist: 'TRUE' })
    expect(addressesOf(withBlacklisted.body, 'tokens')).toContain(SCAM)
    expect(addressesOf(withBlacklisted.body, 'tokens')).toHaveLength(11)
    for (const [encoding, query] of encodings('filter_by_token', ['weth', USDC.toLowerCase(), 'scam'])) {
      const listed = await call(service, '/overview/tokens', query)
      expect({ encoding, tokens: addressesOf(listed.body, 'tokens') }).toEqual({
        encoding,
        tokens: [WETH, USDC],
      })
      const all = await call(service, '/overview/tokens', `${query}&blacklist=1`)
      expect({ encoding, tokens: addressesOf(all.body, 'tokens') }).toEqual({
        encoding,
        tokens: [WETH, USDC, SCAM],
      })
    }
  })
})

describe('/overview/token/price and the legacy lists', () => {
  const service = createMockService(market)

  test('price by address in any case; 404 for an unknown token', async () => {
    expect((await call(service, '/overview/token/price', { address: WETH.toLowerCase() })).body).toEqual({
      address: WETH,
      price: 3000,
    })
    expect((await call(service, '/overview/token/price', { address: USDC })).body).toEqual({
      address: USDC,
      price: 1,
    })
    const unknown = await call(service, '/overview/token/price', {
      address: '0x0000000000000000000000000000000000000001',
    })
    expect(unknown.status).toBe(404)
    expect(unknown.body).toEqual({ detail: 'Token not found' })
  })

  test('/get_pairs and /get_tokens are bare arrays of the listed records', async () => {
    const pairs = await call(service, '/get_pairs')
    const overviewPairs = await call(service, '/overview/pairs')
    expect(pairs.body).toEqual((overviewPairs.body as { pairs: unknown[] }).pairs)
    const tokens = await call(service, '/get_tokens')
    const overviewTokens = await call(service, '/overview/tokens')
    expect(tokens.body).toEqual((overviewTokens.body as { tokens: unknown[] }).tokens)
  })

  test('/get_tokens_data: liquidity, volume and token economics per listed token', async () => {
    const { body } = await call(service, '/get_tokens_data')
    const data = body as Record<string, unknown>[]
    expect(data).toHaveLength(10)
    const link = market.getToken('LINK')!
    expect(data.find((item) => item.symbol === 'LINK')).toEqual({
      address: link.address,
      symbol: 'LINK',
      name: 'ChainLink Token',
      decimals: 18,
      price_usd: 15,
      liquidity_usd: link.liquidityUsd,
      volume_24h_usd: 400_000_000,
      total_supply: '1000000000000000000000000000',
      circulating_supply: '587000000000000000000000000',
      market_cap_usd: 8_805_000_000,
      holders: 780_000,
    })
  })
})

describe('422 names every bad parameter', () => {
  const service = createMockService(market)
  const base = { ...route(WETH, USDC, 10n ** 18n), to: ALICE }
  const cases: [string, Record<string, string> | string, [string, string][]][] = [
    [
      '/swap/route',
      {},
      [
        ['token0', 'missing'],
        ['token1', 'missing'],
        ['amount_in', 'missing'],
      ],
    ],
    ['/swap/route', { ...base, token0: 'WETH' }, [['token0', 'value_error']]],
    ['/swap/route', { ...base, token1: '0x1234' }, [['token1', 'value_error']]],
    ['/swap/route', { ...base, amount_in: '0' }, [['amount_in', 'greater_than']]],
    ['/swap/route', { ...base, amount_in: '-5' }, [['amount_in', 'greater_than']]],
    ['/swap/route', { ...base, amount_in: '1.5' }, [['amount_in', 'int_parsing']]],
    ['/swap/route', { ...base, amount_in: '1e18' }, [['amount_in', 'int_parsing']]],
    ['/swap/route', { ...base, amount_in: (2n ** 256n).toString() }, [['amount_in', 'less_than_equal']]],
    ['/swap/route', { ...base, token1: WETH.toLowerCase() }, [['token1', 'value_error']]],
    [
      '/get_path',
      { token0: WETH, amount_in: 'ten' },
      [
        ['token1', 'missing'],
        ['amount_in', 'int_parsing'],
      ],
    ],
    ['/swap/info', route(WETH, USDC, 1n), [['to', 'missing']]],
    ['/swap/info', { ...base, to: 'alice' }, [['to', 'value_error']]],
    ['/swap/info', { ...base, slippage: '1.5' }, [['slippage', 'less_than_equal']]],
    ['/swap/info', { ...base, slippage: '-0.1' }, [['slippage', 'greater_than_equal']]],
    ['/swap/info', { ...base, slippage: 'five' }, [['slippage', 'float_parsing']]],
    ['/swap/info', { ...base, deadline: '0' }, [['deadline', 'greater_than']]],
    ['/swap/info', { ...base, deadline: 'tomorrow' }, [['deadline', 'int_parsing']]],
    ['/swap/info', { ...base, deadline: (2n ** 256n).toString() }, [['deadline', 'less_than_equal']]],
    ['/overview/pairs', { blacklist: 'yes please' }, [['blacklist', 'bool_parsing']]],
    ['/overview/tokens', { blacklist: '' }, [['blacklist', 'bool_parsing']]],
    ['/overview/token/price', {}, [['address', 'missing']]],
    ['/overview/token/price', { address: 'USDC' }, [['address', 'value_error']]],
  ]

  for (const [endpoint, query, expected] of cases)
    test(`${endpoint} ${JSON.stringify(query).slice(0, 80)}`, async () => {
      const { status, body, headers } = await call(service, endpoint, query)
      expect(status).toBe(422)
      expect(headers.get('content-type')).toBe('application/json')
      const detail = (body as { detail: { loc: string[]; msg: string; type: string }[] }).detail
      expect(detail.map((item) => [item.loc[1], item.type])).toEqual(expected)
      for (const item of detail) {
        expect(item.loc[0]).toBe('query')
        expect(item.msg.length).toBeGreaterThan(5)
      }
    })

  test('amount_in may be 2^256 - 1 exactly: the largest uint256 the calldata can carry', async () => {
    const amount_in = (2n ** 256n - 1n).toString()
    expect((await call(service, '/swap/route', { ...base, amount_in })).status).toBe(200)
    expect((await call(service, '/swap/info', { ...base, amount_in })).status).toBe(200)
  })

  test('slippage bounds 0 and 1 and big deadlines are accepted', async () => {
    for (const slippage of ['0', '1', '0.005', '5e-3'])
      expect((await call(service, '/swap/info', { ...base, slippage })).status).toBe(200)
    expect((await call(service, '/swap/info', { ...base, deadline: (2n ** 255n).toString() })).status).toBe(
      200,
    )
  })
})

describe('HTTP details', () => {
  test('unknown path → 404 JSON; other methods → 405 JSON; OPTIONS preflight → 204 with CORS', async () => {
    const service = createMockService(market)
    const unknown = await call(service, '/swap/quote')
    expect(unknown.status).toBe(404)
    expect(unknown.body).toEqual({ detail: 'Not Found' })
    const post = await call(service, '/swap/route', '', { method: 'POST', body: '{}' })
    expect(post.status).toBe(405)
    expect(post.body).toEqual({ detail: 'Method Not Allowed' })
    expect(post.headers.get('allow')).toBe('GET, OPTIONS')
    for (const response of [unknown, post]) {
      expect(response.headers.get('access-control-allow-origin')).toBe('*')
      expect(response.headers.get('access-control-expose-headers')).toContain('retry-after')
    }
    const preflight = await service.handle(
      new Request('https://swap.test/swap/route', {
        method: 'OPTIONS',
        headers: { origin: 'http://localhost:6006', 'access-control-request-method': 'GET' },
      }),
    )
    expect(preflight.status).toBe(204)
    expect(preflight.headers.get('access-control-allow-origin')).toBe('*')
    expect(preflight.headers.get('access-control-allow-methods')).toBe('GET, OPTIONS')
    expect(preflight.headers.get('access-control-allow-headers')).toBe('*')
    expect(await preflight.text()).toBe('')
  })

  test('basePath: endpoints under the prefix only', async () => {
    const service = createMockService(market, { basePath: '/api/v2/' })
    expect(service.basePath).toBe('/api/v2')
    expect((await call(service, '/api/v2/swap/route', route(WETH, USDC, 10n ** 18n))).status).toBe(200)
    expect((await call(service, '/api/v2/get_tokens')).status).toBe(200)
    expect((await call(service, '/swap/route', route(WETH, USDC, 10n ** 18n))).status).toBe(404)
    expect(service.log.map((entry) => [entry.path, entry.status])).toEqual([
      ['/swap/route', 200],
      ['/get_tokens', 200],
      ['/swap/route', 404],
    ])
    expect(() => createMockService(market, { basePath: 'api' })).toThrow(InvalidParameterError)
  })

  test('the request log: method, relative path, raw query pairs, status, client id; count, clearLog, reset', async () => {
    const service = createMockService(market)
    await call(service, '/overview/tokens', 'filter_by_token=USDC&filter_by_token%5B%5D=dai,weth')
    await call(service, '/swap/route', { token0: 'x' }, { headers: { 'x-client-id': 'story-1' } })
    await service.handle(new Request('https://swap.test/get_pairs', { method: 'OPTIONS' }))
    await service.handle(new Request('https://swap.test/get_pairs'), { clientAddress: '10.0.0.7' })
    expect(service.log).toEqual([
      {
        method: 'GET',
        path: '/overview/tokens',
        query: [
          ['filter_by_token', 'USDC'],
          ['filter_by_token[]', 'dai,weth'],
        ],
        status: 200,
        clientId: 'anonymous',
        time: expect.any(Number),
      },
      {
        method: 'GET',
        path: '/swap/route',
        query: [['token0', 'x']],
        status: 422,
        clientId: 'story-1',
        time: expect.any(Number),
      },
      {
        method: 'OPTIONS',
        path: '/get_pairs',
        query: [],
        status: 204,
        clientId: 'anonymous',
        time: expect.any(Number),
      },
      {
        method: 'GET',
        path: '/get_pairs',
        query: [],
        status: 200,
        clientId: '10.0.0.7',
        time: expect.any(Number),
      },
    ])
    expect(Math.abs(service.log[0]!.time - Date.now())).toBeLessThan(5_000)
    expect(service.count()).toBe(3)
    expect(service.count('/get_pairs')).toBe(1)
    expect(service.count('/swap/info')).toBe(0)
    service.clearLog()
    expect(service.log).toEqual([])
    await call(service, '/get_tokens')
    service.fail({ status: 500, endpoint: '/get_tokens' })
    service.setLatency(5)
    service.setRateLimit({ requestsPerSecond: 1, burst: 1 })
    service.reset()
    expect(service.log).toEqual([])
    const responses = await Promise.all([1, 2, 3].map(() => call(service, '/get_tokens')))
    expect(responses.map((response) => response.status)).toEqual([200, 200, 200])
  })
})

describe('rate limit', () => {
  test('429 with Retry-After over the limit, per client, and recovery after waiting', async () => {
    const service = createMockService(market, { rateLimit: { requestsPerSecond: 20, burst: 2 } })
    const statuses = []
    for (let index = 0; index < 3; index++) statuses.push((await call(service, '/get_tokens')).status)
    expect(statuses).toEqual([200, 200, 429])
    const limited = await call(service, '/get_tokens')
    expect(limited.status).toBe(429)
    expect(limited.headers.get('retry-after')).toBe('1')
    expect(limited.headers.get('content-type')).toBe('application/json')
    expect(limited.headers.get('access-control-allow-origin')).toBe('*')
    expect(limited.body).toEqual({ detail: expect.stringContaining('Rate limit') })
    // another client has its own bucket; preflights are never limited
    expect((await call(service, '/get_tokens', '', { headers: { 'x-client-id': 'other' } })).status).toBe(200)
    expect((await call(service, '/get_tokens', '', { method: 'OPTIONS' })).status).toBe(204)
    await new Promise((resolve) => setTimeout(resolve, 60))
    expect((await call(service, '/get_tokens')).status).toBe(200)
    expect(service.log.filter((entry) => entry.status === 429)).toHaveLength(2)
  })

  test('Retry-After is the whole seconds until a token is back; the limit can change at runtime', async () => {
    const service = createMockService(market, { rateLimit: { requestsPerSecond: 0.25 } })
    expect((await call(service, '/get_pairs')).status).toBe(200)
    const limited = await call(service, '/get_pairs')
    expect(limited.status).toBe(429)
    expect(limited.headers.get('retry-after')).toBe('4')
    service.setRateLimit(false)
    expect((await call(service, '/get_pairs')).status).toBe(200)
    service.setRateLimit({ requestsPerSecond: 1 })
    expect((await call(service, '/get_pairs')).status).toBe(200)
    expect((await call(service, '/get_pairs')).status).toBe(429)
    expect(() => service.setRateLimit({ requestsPerSecond: 0 })).toThrow(InvalidParameterError)
  })
})

describe('injected failures', () => {
  test('a status for N requests, then normal answers', async () => {
    const service = createMockService(market)
    service.fail({ status: 503, times: 2 })
    const statuses = []
    for (let index = 0; index < 3; index++) statuses.push((await call(service, '/get_tokens')).status)
    expect(statuses).toEqual([503, 503, 200])
    service.fail()
    const failed = await call(service, '/get_pairs')
    expect(failed.status).toBe(500)
    expect(failed.body).toEqual({ detail: 'Injected failure' })
    expect((await call(service, '/get_pairs')).status).toBe(200)
  })

  test('a network error is Response.error() and is logged with status 0', async () => {
    const service = createMockService(market)
    service.fail({ network: true })
    const response = await service.handle(new Request('https://swap.test/get_tokens'))
    expect(response.type).toBe('error')
    expect(response.status).toBe(0)
    expect((await call(service, '/get_tokens')).status).toBe(200)
    expect(service.log.map((entry) => entry.status)).toEqual([0, 200])
  })

  test('one endpoint only, until cleared; an HTML body', async () => {
    const service = createMockService(market)
    const html = '<!doctype html><html><body><h1>502 Bad Gateway</h1></body></html>'
    service.fail({ status: 502, endpoint: '/swap/route', body: html })
    const query = route(WETH, USDC, 10n ** 18n)
    for (let index = 0; index < 3; index++) {
      const failed = await call(service, '/swap/route', query)
      expect(failed.status).toBe(502)
      expect(failed.body).toBe(html)
      expect(failed.headers.get('content-type')).toBe('text/html; charset=utf-8')
    }
    expect((await call(service, '/get_path', query)).status).toBe(200)
    service.fail({
      status: 500,
      endpoint: '/get_path',
      times: 1,
      body: { error: 'boom' },
      headers: { 'x-trace': '1' },
    })
    const once = await call(service, '/get_path', query)
    expect(once.body).toEqual({ error: 'boom' })
    expect(once.headers.get('x-trace')).toBe('1')
    expect((await call(service, '/get_path', query)).status).toBe(200)
    service.clearFailures()
    expect((await call(service, '/swap/route', query)).status).toBe(200)
    expect(() => service.fail({ status: 42 })).toThrow(InvalidParameterError)
  })
})

describe('latency', () => {
  test('delays answers; changeable at runtime; a range is honoured', async () => {
    const service = createMockService(market, { latency: 60 })
    let started = performance.now()
    await call(service, '/get_tokens')
    expect(performance.now() - started).toBeGreaterThanOrEqual(55)
    service.setLatency({ min: 20, max: 30 })
    started = performance.now()
    await call(service, '/get_tokens')
    const elapsed = performance.now() - started
    expect(elapsed).toBeGreaterThanOrEqual(18)
    expect(elapsed).toBeLessThan(200)
    service.setLatency(undefined)
    started = performance.now()
    await call(service, '/get_tokens')
    expect(performance.now() - started).toBeLessThan(50)
    expect(() => service.setLatency({ min: 10, max: 5 })).toThrow(InvalidParameterError)
  })

  test('an aborted request stops waiting', async () => {
    const service = createMockService(market, { latency: 10_000 })
    const controller = new AbortController()
    const started = performance.now()
    const pending = service.handle(new Request('https://swap.test/get_tokens', { signal: controller.signal }))
    setTimeout(() => controller.abort(), 20)
    await pending
    expect(performance.now() - started).toBeLessThan(1_000)
  })
})

describe('bounded memory (issue 10, item 10)', () => {
  test('the request log keeps the newest maxLogEntries, oldest dropped', async () => {
    const service = createMockService(market, { maxLogEntries: 3 })
    for (const path of ['/a', '/b', '/c', '/d', '/e'])
      await service.handle(new Request(`https://swap.test${path}`))
    expect(service.log.map((entry) => entry.path)).toEqual(['/c', '/d', '/e'])
    expect(service.count()).toBe(3)
  })

  test('by default the log keeps 10 000 entries', async () => {
    const service = createMockService(market)
    for (let i = 0; i < 10_005; i++) await service.handle(new Request(`https://swap.test/missing/${i}`))
    expect(service.log).toHaveLength(10_000)
    expect(service.log[0]?.path).toBe('/missing/5')
  })

  test('a full log is not moved entry by entry on each request: a few copies in all', async () => {
    const service = createMockService(market, { maxLogEntries: 100 })
    const isLog = (array: unknown) =>
      Array.isArray(array) &&
      array.length >= 100 &&
      (array[0] as { clientId?: unknown })?.clientId !== undefined
    const splice = vi.spyOn(Array.prototype, 'splice')
    const slice = vi.spyOn(Array.prototype, 'slice')
    try {
      for (let i = 0; i < 10_000; i++) await service.handle(new Request(`https://swap.test/missing/${i}`))
      const copies = [...splice.mock.contexts, ...slice.mock.contexts].filter(isLog).length
      // One copy per 1 024 dropped entries; before, one splice of the whole log per request.
      expect(copies).toBeLessThanOrEqual(10)
    } finally {
      splice.mockRestore()
      slice.mockRestore()
    }
    expect(service.log.map((entry) => entry.path)).toEqual(
      Array.from({ length: 100 }, (_, i) => `/missing/${9_900 + i}`),
    )
  })

  test('the newest maxLogEntries, in order, whenever the log is read; 0 keeps nothing; clearLog empties it', async () => {
    const service = createMockService(market, { maxLogEntries: 3 })
    for (let i = 0; i < 3_000; i++) {
      await service.handle(new Request(`https://swap.test/missing/${i}`))
      if (i % 700 === 0 || i > 2_995)
        expect(service.log.map((entry) => entry.path)).toEqual(
          [i - 2, i - 1, i].filter((n) => n >= 0).map((n) => `/missing/${n}`),
        )
    }
    expect(service.count()).toBe(3)
    service.clearLog()
    expect(service.log).toEqual([])
    await service.handle(new Request('https://swap.test/after'))
    expect(service.log.map((entry) => entry.path)).toEqual(['/after'])

    const none = createMockService(market, { maxLogEntries: 0 })
    for (let i = 0; i < 2_000; i++) await none.handle(new Request(`https://swap.test/missing/${i}`))
    expect(none.log).toEqual([])
    expect(none.count()).toBe(0)
  })

  test.each([-1, 1.5, Number.NaN, '10'])('maxLogEntries %s is refused', (maxLogEntries) => {
    expect(() => createMockService(market, { maxLogEntries } as never)).toThrow(
      expect.objectContaining({ name: 'InvalidParameterError', parameter: 'maxLogEntries' }),
    )
  })
})
