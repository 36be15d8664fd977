import { HttpResponse, http, type JsonBodyType } from 'msw'
import { describe, expect, test } from 'vitest'
import { baseUrl, USDC, WETH } from '../../../test/constants.js'
import { queryOf, setupMswServer } from '../../../test/msw.js'
import { createSwapClient } from '../client.js'
import { InvalidParameterError } from '../errors/parameter.js'
import { ResponseValidationError } from '../errors/response.js'
import { getTokens } from './getTokens.js'

const { server, requests } = setupMswServer()
const client = createSwapClient({ baseUrl, rateLimit: false })
const tokens = [
  { address: WETH, symbol: 'WETH', decimals: 18, name: 'Wrapped Ether', logoURI: 'https://x/weth.png' },
  { address: USDC, symbol: 'USDC', decimals: '6', blacklisted: false },
]
const reply = (body: JsonBodyType) =>
  server.use(http.get(`${baseUrl}/overview/tokens`, () => HttpResponse.json(body)))

describe('getTokens', () => {
  test('returns the records unchanged, unknown fields included', async () => {
    reply(tokens)
    expect(await getTokens(client)).toEqual(tokens)
  })

  test('sends the filter and the blacklist flag', async () => {
    reply({ tokens })
    await getTokens(client, { filterByToken: [WETH, USDC], blacklist: true })
    expect(queryOf(requests[0] as Request)).toEqual([
      ['filter_by_token', WETH],
      ['filter_by_token', USDC],
      ['blacklist', 'true'],
    ])
  })

  test.each([
    [[{ address: WETH }], '$[0].symbol'],
    [[{ symbol: 'X' }], '$[0].address'],
    [{ tokens: [{ address: WETH, symbol: 7 }] }, '$.tokens[0].symbol'],
  ])('%o is a ResponseValidationError at %s', async (body, path) => {
    reply(body)
    const error = await getTokens(client).catch((e) => e)
    expect(error).toBeInstanceOf(ResponseValidationError)
    expect(error.path).toBe(path)
    expect(error.shortMessage).toContain('/overview/tokens')
  })

  test('invalid filters are refused before any request', async () => {
    const error = await getTokens(client, { filterByToken: [' '] }).catch((e) => e)
    expect(error).toBeInstanceOf(InvalidParameterError)
    expect(error.parameter).toBe('filterByToken[0]')
    expect(requests).toHaveLength(0)
  })
})
