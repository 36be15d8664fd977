import { HttpResponse, http, type JsonBodyType } from 'msw'
import { describe, expect, test } from 'vitest'
import { baseUrl, USDC, WETH } from '../../../test/constants.js'
import { queryOf, setupMswServer } from '../../../test/msw.js'
import { createSwapClient } from '../client.js'
import { InvalidParameterError } from '../errors/parameter.js'
import { ResponseValidationError } from '../errors/response.js'
import type { Token } from '../schemas.js'
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
  test('returns the records with unknown fields as sent, and decimals and name typed', async () => {
    reply(tokens)
    const [weth, usdc] = (await getTokens(client)) as [Token, Token]
    expect(weth).toEqual(tokens[0])
    // A decimals sent as an integer string becomes a number, so formatUnits(amount, token.decimals) works.
    expect(usdc).toEqual({ ...tokens[1], decimals: 6 })
  })

  test('addresses come back as sent, in any letter case (no checksum cost on long lists)', async () => {
    const wrong = '0xc02aaA39b223FE8D0A0e5C4F27eAD9083C756Cc2' // WETH with a broken checksum
    reply([
      { address: wrong, symbol: 'WETH' },
      { address: USDC.toLowerCase(), symbol: 'USDC' },
    ])
    const [weth, usdc] = (await getTokens(client)) as [Token, Token]
    expect([weth.address, usdc.address]).toEqual([wrong, USDC.toLowerCase()])
  })

  test('decimals and name that are not valid are left out, the record is kept', async () => {
    reply([
      { address: WETH, symbol: 'WETH', decimals: 18.5, name: 7 },
      { address: USDC, symbol: 'USDC', decimals: 'six', name: 'USD Coin' },
      { address: USDC, symbol: 'USDC', decimals: 256 },
    ])
    expect(await getTokens(client)).toEqual([
      { address: WETH, symbol: 'WETH' },
      { address: USDC, symbol: 'USDC', name: 'USD Coin' },
      { address: USDC, symbol: 'USDC' },
    ])
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
