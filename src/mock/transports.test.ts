import { setupServer } from 'msw/node'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { nativeTokenAddress } from '../core/constants.js'
import { createMockMarket } from './createMockMarket.js'
import { createMockService } from './createMockService.js'
import { createSwapHandlers } from './createSwapHandlers.js'
import { mockTokenAddresses } from './fixtures.js'
import { type MockServer, startMockServer } from './startMockServer.js'

const { WETH, USDC, DAI, SCAM, LONE, TAIL, UNI } = mockTokenAddresses
const ALICE = '0x70997970C51812dc3A010C7d01b50e0d17dc79C8'
const mswBase = 'https://swap.test/api'

const market = createMockMarket()
const mswService = createMockService(market)
const loopbackService = createMockService(market)
const server = setupServer(...createSwapHandlers(mswService, { baseUrl: mswBase }))
let loopback: MockServer

beforeAll(async () => {
  // Requests to the loopback server are not ours to mock: let them through.
  server.listen({ onUnhandledRequest: 'bypass' })
  loopback = await startMockServer({ service: loopbackService })
})
afterAll(async () => {
  server.close()
  await loopback.stop()
})

type Step = [method: string, path: string, headers?: Record<string, string>]

const comparedHeaders = [
  'content-type',
  'access-control-allow-origin',
  'access-control-expose-headers',
  'access-control-allow-methods',
  'access-control-allow-headers',
  'access-control-max-age',
  'retry-after',
  'allow',
  'x-trace',
]

async function send(base: string, [method, path, headers = {}]: Step) {
  try {
    const response = await fetch(`${base}${path}`, { method, headers })
    return {
      status: response.status,
      headers: Object.fromEntries(comparedHeaders.map((name) => [name, response.headers.get(name)])),
      body: await response.text(),
    }
  } catch (error) {
    return { error: (error as Error).name }
  }
}

async function both(steps: Step[]) {
  const viaMsw = []
  const viaLoopback = []
  for (const step of steps) {
    viaMsw.push(await send(mswBase, step))
    viaLoopback.push(await send(`${loopback.url}`, step))
  }
  return { viaMsw, viaLoopback }
}

const route = (a: string, b: string, amount = '1000000000000000000') =>
  `token0=${a}&token1=${b}&amount_in=${amount}`

describe('MSW and the loopback server answer alike', () => {
  test('every endpoint, successes and errors', async () => {
    const steps: Step[] = [
      ['GET', `/swap/route?${route(WETH, USDC)}`],
      ['GET', `/swap/route?${route(TAIL.toLowerCase(), DAI, '5000000000000000000000')}`],
      ['GET', `/swap/route?${route(WETH, LONE)}`],
      ['GET', `/swap/route?${route(SCAM, WETH)}`],
      ['GET', `/swap/info?${route(UNI, USDC)}&to=${ALICE}&slippage=0.003&deadline=1900000000`],
      ['GET', `/swap/info?${route(nativeTokenAddress, DAI)}&to=${ALICE}&deadline=1900000000`],
      ['GET', '/overview/pairs?filter_by_token=usdc&filter_by_token=DAI'],
      ['GET', '/overview/pairs?filter_by_token%5B%5D=SCAM&blacklist=true'],
      ['GET', `/overview/pairs?filter_by_pair=${market.pairs[3]!.address},${market.pairs[4]!.address}`],
      ['GET', '/overview/tokens?filter_by_token=WETH,usdc&blacklist=0'],
      ['GET', '/overview/tokens?blacklist=true'],
      ['GET', `/overview/token/price?address=${WETH.toLowerCase()}`],
      ['GET', '/overview/token/price?address=0x0000000000000000000000000000000000000001'],
      ['GET', `/get_path?${route(TAIL, UNI, '123456789000000000000')}`],
      ['GET', '/get_pairs'],
      ['GET', '/get_tokens'],
      ['GET', '/get_tokens_data'],
      ['GET', '/swap/route?token0=WETH&amount_in=0'],
      ['GET', `/swap/info?${route(WETH, USDC)}&to=nobody&slippage=2&deadline=-1`],
      ['GET', '/overview/pairs?blacklist=maybe'],
      ['POST', '/swap/route'],
      ['DELETE', '/get_tokens'],
      ['GET', '/no/such/endpoint'],
      ['OPTIONS', '/swap/info', { origin: 'http://localhost:6006', 'access-control-request-method': 'GET' }],
    ]
    const { viaMsw, viaLoopback } = await both(steps)
    expect(viaLoopback).toEqual(viaMsw)
    expect(viaMsw.map((answer) => ('status' in answer ? answer.status : answer.error))).toEqual([
      200, 200, 404, 404, 200, 200, 200, 200, 200, 200, 200, 200, 404, 200, 200, 200, 200, 422, 422, 422, 405,
      405, 404, 204,
    ])
  })

  test('rate limiting: 429 with the same Retry-After', async () => {
    for (const service of [mswService, loopbackService]) service.setRateLimit({ requestsPerSecond: 2 })
    try {
      const { viaMsw, viaLoopback } = await both(
        Array.from({ length: 4 }, (): Step => ['GET', '/get_tokens']).concat([['OPTIONS', '/get_tokens']]),
      )
      expect(viaLoopback).toEqual(viaMsw)
      expect(viaMsw.map((answer) => ('status' in answer ? answer.status : 0))).toEqual([
        200, 200, 429, 429, 204,
      ])
      expect(viaMsw[2]).toMatchObject({ headers: { 'retry-after': '1' } })
    } finally {
      for (const service of [mswService, loopbackService]) service.reset()
    }
  })

  test('injected failures: statuses, an HTML page, one endpoint, a network error', async () => {
    const inject = () => {
      for (const service of [mswService, loopbackService]) {
        service.fail({ status: 503, times: 2 })
        service.fail({ status: 502, endpoint: '/swap/route', body: '<html><h1>Bad gateway</h1></html>' })
        service.fail({
          status: 500,
          endpoint: '/get_pairs',
          times: 1,
          body: { oops: true },
          headers: { 'x-trace': 't1' },
        })
      }
    }
    // Run the sequence against one transport, then the other, so each sees the failures in the same order.
    const steps: Step[] = [
      ['GET', '/get_tokens'],
      ['GET', '/get_tokens'],
      ['GET', `/swap/route?${route(WETH, USDC)}`],
      ['GET', `/swap/route?${route(WETH, USDC)}`],
      ['GET', '/get_pairs'],
      ['GET', '/get_pairs'],
      ['GET', '/get_tokens'],
    ]
    inject()
    const viaMsw = []
    for (const step of steps) viaMsw.push(await send(mswBase, step))
    const viaLoopback = []
    for (const step of steps) viaLoopback.push(await send(loopback.url, step))
    expect(viaLoopback).toEqual(viaMsw)
    expect(viaMsw.map((answer) => ('status' in answer ? answer.status : 0))).toEqual([
      503, 503, 502, 502, 500, 200, 200,
    ])
    for (const service of [mswService, loopbackService]) {
      service.clearFailures()
      service.fail({ network: true })
    }
    const network = await both([['GET', '/get_tokens']])
    expect(network.viaMsw).toEqual([{ error: 'TypeError' }])
    expect(network.viaLoopback).toEqual([{ error: 'TypeError' }])
    expect(mswService.log.at(-1)?.status).toBe(0)
    expect(loopbackService.log.at(-1)?.status).toBe(0)
  })
})
