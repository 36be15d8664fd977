import { HttpResponse, http, type JsonBodyType } from 'msw'
import { describe, expect, test } from 'vitest'
import { baseUrl, DAI, USDC, WETH } from '../../../test/constants.js'
import { queryOf, setupMswServer } from '../../../test/msw.js'
import { createSwapClient } from '../client.js'
import { InvalidParameterError } from '../errors/parameter.js'
import { ResponseValidationError } from '../errors/response.js'
import { getPairs } from './getPairs.js'

const { server, requests } = setupMswServer()
const PAIR_A = '0xB4e16d0168e52d35CaCD2c6185b44281Ec28C9Dc'
const PAIR_B = '0xA478c2975Ab1Ea89e8196811F51A7B7Ade33eB11'
const pairs = [
  { address: PAIR_A, token0: USDC, token1: WETH, reserve0: '1000', fee: 0.003 },
  { address: PAIR_B, token0: DAI, token1: WETH, blacklisted: true },
]
const reply = (body: JsonBodyType) =>
  server.use(http.get(`${baseUrl}/overview/pairs`, () => HttpResponse.json(body)))

describe('getPairs', () => {
  test('sends nothing optional by default and keeps every field of each record', async () => {
    reply(pairs)
    const result = await getPairs(createSwapClient({ baseUrl, rateLimit: false }))
    expect(queryOf(requests[0] as Request)).toEqual([])
    expect(result).toEqual(pairs)
  })

  test.each([
    [
      'repeat',
      [
        ['filter_by_token', 'USDC'],
        ['filter_by_token', WETH],
        ['filter_by_pair', PAIR_A],
        ['blacklist', 'true'],
      ],
    ],
    [
      'comma',
      [
        ['filter_by_token', `USDC,${WETH}`],
        ['filter_by_pair', PAIR_A],
        ['blacklist', 'true'],
      ],
    ],
    [
      'brackets',
      [
        ['filter_by_token[]', 'USDC'],
        ['filter_by_token[]', WETH],
        ['filter_by_pair[]', PAIR_A],
        ['blacklist', 'true'],
      ],
    ],
  ] as const)('arrayFormat %s', async (arrayFormat, expected) => {
    reply(pairs)
    const client = createSwapClient({ baseUrl, arrayFormat, rateLimit: false })
    await getPairs(client, { filterByToken: ['USDC', WETH], filterByPair: [PAIR_A], blacklist: true })
    expect(queryOf(requests[0] as Request)).toEqual(expected)
  })

  test('empty filter arrays and blacklist: false', async () => {
    reply(pairs)
    await getPairs(createSwapClient({ baseUrl, rateLimit: false }), { filterByToken: [], blacklist: false })
    expect(queryOf(requests[0] as Request)).toEqual([['blacklist', 'false']])
  })

  test.each([{ pairs }, { data: pairs, total: 2, page: 1 }])(
    'unwraps an envelope with one list: %o',
    async (body) => {
      reply(body)
      expect(await getPairs(createSwapClient({ baseUrl, rateLimit: false }))).toEqual(pairs)
    },
  )

  test('a blacklisted flag spelled as a string or 0/1 is read as the boolean it means', async () => {
    reply([
      { address: PAIR_A, blacklisted: 'true' },
      { address: PAIR_B, blacklisted: 0 },
      { address: PAIR_A, blacklisted: ' FALSE ' },
      { address: PAIR_B, blacklisted: '1' },
    ])
    const read = await getPairs(createSwapClient({ baseUrl, rateLimit: false }))
    expect(read.map((pair) => pair.blacklisted)).toEqual([true, false, false, true])
  })

  test.each([
    [{ pairs: [pairs[0], { ...pairs[1], address: 'nope' }] }, '$.pairs[1].address'],
    [[{ token0: USDC }], '$[0].address'],
    [[{ address: PAIR_A, blacklisted: 'yes' }], '$[0].blacklisted'],
    [{ pairs, tokens: [] }, '$'],
    [{ count: 3 }, '$'],
    ['pairs', '$'],
    [null, '$'],
  ])('%o is a ResponseValidationError at %s', async (body, path) => {
    reply(body)
    const error = await getPairs(createSwapClient({ baseUrl, rateLimit: false })).catch((e) => e)
    expect(error).toBeInstanceOf(ResponseValidationError)
    expect(error.endpoint).toBe('/overview/pairs')
    expect(error.path).toBe(path)
  })

  test.each([
    ['filterByToken', { filterByToken: 'USDC' }, 'repeat'],
    ['filterByToken[1]', { filterByToken: ['USDC', ''] }, 'repeat'],
    ['filterByPair[0]', { filterByPair: [42] }, 'repeat'],
    ['filterByToken[0]', { filterByToken: ['A,B'] }, 'comma'],
    ['blacklist', { blacklist: 'true' }, 'repeat'],
  ] as const)('invalid %s is refused before any request', async (parameter, parameters, arrayFormat) => {
    const client = createSwapClient({ baseUrl, arrayFormat })
    const error = await getPairs(client, parameters as never).catch((e) => e)
    expect(error).toBeInstanceOf(InvalidParameterError)
    expect(error.parameter).toBe(parameter)
    expect(requests).toHaveLength(0)
  })
})
