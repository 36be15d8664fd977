import fc from 'fast-check'
import { HttpResponse, http } from 'msw'
import { describe, expect, test } from 'vitest'
import { ALICE, baseUrl, USDC, WETH } from '../../test/constants.js'
import { setupMswServer } from '../../test/msw.js'
import { getLegacyPairs } from './actions/getLegacyPairs.js'
import { getLegacyPath } from './actions/getLegacyPath.js'
import { getLegacyTokens } from './actions/getLegacyTokens.js'
import { getPairs } from './actions/getPairs.js'
import { getSwapInfo } from './actions/getSwapInfo.js'
import { getSwapRoute } from './actions/getSwapRoute.js'
import { getTokenPrice } from './actions/getTokenPrice.js'
import { getTokens } from './actions/getTokens.js'
import { getTokensData } from './actions/getTokensData.js'
import { createSwapClient } from './client.js'
import { defaultSlippage } from './constants.js'
import { InvalidParameterError } from './errors/parameter.js'
import { ResponseValidationError } from './errors/response.js'
import type { Endpoint } from './types.js'

const { server, requests } = setupMswServer()
const client = createSwapClient({ baseUrl, rateLimit: false })

const address = fc.oneof(
  fc.constantFrom(WETH, USDC, ALICE, WETH.toLowerCase()),
  fc.stringMatching(/^0x[0-9a-fA-F]{40}$/),
)
// Values that are sometimes right and often wrong for any parameter.
const anyValue = fc.oneof(
  address,
  fc.bigInt({ min: -(2n ** 260n), max: 2n ** 260n }),
  fc.integer(),
  fc.double(),
  fc.string(),
  fc.boolean(),
  fc.constant(undefined),
  fc.constant(null),
  fc.array(fc.string(), { maxLength: 3 }),
)

type Case = {
  endpoint: Endpoint
  call: (parameters: never) => Promise<unknown>
  parameters: fc.Arbitrary<Record<string, unknown>>
  /** The query the action must have sent for these (valid) parameters. */
  expected: (parameters: Record<string, unknown>) => [string, string][]
}

const routeQuery = (p: Record<string, unknown>): [string, string][] => [
  ['token0', String(p.token0)],
  ['token1', String(p.token1)],
  ['amount_in', String(p.amountIn)],
]
const listQuery = (p: Record<string, unknown>): [string, string][] => [
  ...((p.filterByToken as string[] | undefined) ?? []).map((v): [string, string] => ['filter_by_token', v]),
  ...((p.filterByPair as string[] | undefined) ?? []).map((v): [string, string] => ['filter_by_pair', v]),
  ...(p.blacklist === undefined ? [] : [['blacklist', String(p.blacklist)] as [string, string]]),
]
const routeParameters = fc.record({
  token0: fc.oneof(address, anyValue),
  token1: fc.oneof(address, anyValue),
  amountIn: fc.oneof(fc.bigInt({ min: 1n, max: 2n ** 256n - 1n }), anyValue),
})

const cases: Case[] = [
  {
    endpoint: '/swap/route',
    call: (p) => getSwapRoute(client, p),
    parameters: routeParameters,
    expected: routeQuery,
  },
  {
    endpoint: '/get_path',
    call: (p) => getLegacyPath(client, p),
    parameters: routeParameters,
    expected: routeQuery,
  },
  {
    endpoint: '/swap/info',
    call: (p) => getSwapInfo(client, p),
    parameters: fc.record(
      {
        token0: fc.oneof(address, anyValue),
        token1: address,
        amountIn: fc.oneof(fc.bigInt({ min: 1n, max: 10n ** 30n }), anyValue),
        to: fc.oneof(address, anyValue),
        slippage: fc.oneof(fc.double({ min: 0, max: 1, noNaN: true }), anyValue),
        deadline: fc.oneof(fc.integer({ min: 1 }), anyValue),
      },
      { requiredKeys: ['token0', 'token1', 'amountIn', 'to'] },
    ),
    expected: (p) => [
      ...routeQuery(p),
      ['to', String(p.to)],
      ['slippage', String(p.slippage ?? defaultSlippage)],
      ...(p.deadline === undefined ? [] : [['deadline', String(p.deadline)] as [string, string]]),
    ],
  },
  {
    endpoint: '/overview/pairs',
    call: (p) => getPairs(client, p),
    parameters: fc.record(
      {
        filterByToken: fc.oneof(fc.array(fc.string({ minLength: 1 }), { maxLength: 3 }), anyValue),
        filterByPair: fc.oneof(fc.array(address, { maxLength: 3 }), anyValue),
        blacklist: fc.oneof(fc.boolean(), anyValue),
      },
      { requiredKeys: [] },
    ),
    expected: listQuery,
  },
  {
    endpoint: '/overview/tokens',
    call: (p) => getTokens(client, p),
    parameters: fc.record(
      {
        filterByToken: fc.oneof(fc.array(fc.string({ minLength: 1 }), { maxLength: 3 }), anyValue),
        blacklist: fc.oneof(fc.boolean(), anyValue),
      },
      { requiredKeys: [] },
    ),
    expected: listQuery,
  },
  {
    endpoint: '/overview/token/price',
    call: (p) => getTokenPrice(client, p),
    parameters: fc.record({ address: fc.oneof(address, anyValue) }),
    expected: (p) => [['address', String(p.address)]],
  },
]

describe('random parameters give InvalidParameterError with zero requests, or a well-formed request', () => {
  test.each(cases.map((c) => [c.endpoint, c] as const))(
    '%s',
    async (endpoint, { call, parameters, expected }) => {
      server.use(http.get(`${baseUrl}${endpoint}`, () => HttpResponse.json({}, { status: 503 })))
      await fc.assert(
        fc.asyncProperty(parameters, async (p) => {
          requests.length = 0
          const error = await call(p as never).catch((e: unknown) => e)
          if (error instanceof InvalidParameterError) {
            expect(requests).toHaveLength(0)
            expect(Object.keys(p).concat('parameters')).toContain(error.parameter.split(/[[.]/)[0])
            return
          }
          expect(requests).toHaveLength(1)
          const url = new URL((requests[0] as Request).url)
          expect(url.pathname).toBe(endpoint)
          expect([...url.searchParams]).toEqual(expected(p))
        }),
        { numRuns: 150 },
      )
    },
  )
})

describe('random JSON bodies give typed data or ResponseValidationError, never another exception', () => {
  const route = { token0: WETH, token1: USDC, amountIn: 1n }
  const calls: [Endpoint, () => Promise<unknown>][] = [
    ['/swap/route', () => getSwapRoute(client, route)],
    ['/get_path', () => getLegacyPath(client, route)],
    ['/swap/info', () => getSwapInfo(client, { ...route, to: ALICE })],
    ['/overview/pairs', () => getPairs(client)],
    ['/overview/tokens', () => getTokens(client)],
    ['/overview/token/price', () => getTokenPrice(client, { address: USDC })],
    ['/get_pairs', () => getLegacyPairs(client)],
    ['/get_tokens', () => getLegacyTokens(client)],
    ['/get_tokens_data', () => getTokensData(client)],
  ]
  // Bodies near the right shapes as well as arbitrary JSON, so that both outcomes occur.
  const nearShapes = fc.oneof(
    fc.jsonValue(),
    fc.record({ path: fc.array(fc.oneof(address, fc.jsonValue())), amount_out: fc.jsonValue() }),
    fc.array(
      fc.record({ address: fc.oneof(address, fc.jsonValue()), symbol: fc.jsonValue() }, { requiredKeys: [] }),
    ),
    fc.dictionary(fc.string(), fc.oneof(fc.double(), fc.string())),
  )

  test.each(calls)('%s', async (endpoint, call) => {
    await fc.assert(
      fc.asyncProperty(nearShapes, async (body) => {
        server.use(http.get(`${baseUrl}${endpoint}`, () => HttpResponse.json(body)))
        try {
          const data = await call()
          expect(data).not.toBeUndefined()
        } catch (error) {
          expect(error).toBeInstanceOf(ResponseValidationError)
          expect((error as ResponseValidationError).endpoint).toBe(endpoint)
          expect((error as ResponseValidationError).path.startsWith('$')).toBe(true)
        }
      }),
      { numRuns: 150 },
    )
  })
})
