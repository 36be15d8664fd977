import { HttpResponse, http } from 'msw'
import { describe, expect, test } from 'vitest'
import { baseUrl, USDC, WETH } from '../../../test/constants.js'
import { queryOf, setupMswServer } from '../../../test/msw.js'
import { createSwapClient } from '../client.js'
import { ResponseValidationError } from '../errors/response.js'
import { getLegacyPairs } from './getLegacyPairs.js'
import { getLegacyTokens } from './getLegacyTokens.js'
import { getTokensData } from './getTokensData.js'

// The three legacy list endpoints take no parameters and share the list rules.
const { server, requests } = setupMswServer()
const client = createSwapClient({ baseUrl, rateLimit: false })
const PAIR = '0xB4e16d0168e52d35CaCD2c6185b44281Ec28C9Dc'

describe.each([
  ['/get_pairs', getLegacyPairs, [{ address: PAIR, tokens: [WETH, USDC], tvlUsd: 1e6 }], [{ tokens: [] }]],
  ['/get_tokens', getLegacyTokens, [{ address: WETH, symbol: 'WETH', decimals: 18 }], [{ address: WETH }]],
  [
    '/get_tokens_data',
    getTokensData,
    [
      { address: WETH, symbol: 'WETH', liquidityUsd: 1.2e9, volume24hUsd: 3e8, totalSupply: '3000000' },
      { name: 'no address or symbol', circulating: 1 },
    ],
    [{ address: 'WETH' }],
  ],
] as const)('%s', (endpoint, action, records, badRecords) => {
  test('sends no parameters and returns the records as sent', async () => {
    server.use(http.get(`${baseUrl}${endpoint}`, () => HttpResponse.json(records)))
    expect(await action(client)).toEqual(records)
    expect(new URL(requests[0]?.url as string).pathname).toBe(endpoint)
    expect(queryOf(requests[0] as Request)).toEqual([])
  })

  test('accepts an envelope', async () => {
    server.use(http.get(`${baseUrl}${endpoint}`, () => HttpResponse.json({ result: records })))
    expect(await action(client)).toEqual(records)
  })

  test('a bad record is a ResponseValidationError naming the endpoint', async () => {
    server.use(http.get(`${baseUrl}${endpoint}`, () => HttpResponse.json(badRecords)))
    const error = await action(client).catch((e) => e)
    expect(error).toBeInstanceOf(ResponseValidationError)
    expect(error.endpoint).toBe(endpoint)
    expect(error.path).toMatch(/^\$\[0\]\.(address|symbol)$/)
  })
})
