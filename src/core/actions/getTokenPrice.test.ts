import { HttpResponse, http, type JsonBodyType } from 'msw'
import { describe, expect, test } from 'vitest'
import { baseUrl, USDC } from '../../../test/constants.js'
import { queryOf, setupMswServer } from '../../../test/msw.js'
import { createSwapClient } from '../client.js'
import { InvalidParameterError } from '../errors/parameter.js'
import { ResponseValidationError } from '../errors/response.js'
import { getTokenPrice } from './getTokenPrice.js'

const { server, requests } = setupMswServer()
const client = createSwapClient({ baseUrl, rateLimit: false })
const reply = (body: JsonBodyType) =>
  server.use(http.get(`${baseUrl}/overview/token/price`, () => HttpResponse.json(body)))

describe('getTokenPrice', () => {
  test.each([
    [1.0001, 1.0001],
    ['0.9998', 0.9998],
    [{ price: 3012.5 }, 3012.5],
    [{ usd: '3012.5' }, 3012.5],
    [{ address: USDC, priceUsd: 1, updatedAt: 1700000000 }, 1],
    [{ data: { price_usd: '2.5' } }, 2.5],
    [{ data: 7 }, 7],
    [0, 0],
    // Envelopes: the price inside, never the envelope's own numbers.
    [{ code: 0, msg: 'ok', data: { price: 1.23 } }, 1.23],
    [{ status: 200, data: { price: 1.23 } }, 1.23],
    [{ data: { price: 1.23 }, timestamp: 1700000000 }, 1.23],
    [{ symbol: 'USDC', value: '1.0001' }, 1.0001],
    [{ [USDC]: 0.9999 }, 0.9999],
  ])('reads %o as %d', async (body, expected) => {
    reply(body)
    expect(await getTokenPrice(client, { address: USDC })).toBe(expected)
    expect(queryOf(requests.at(-1) as Request)).toEqual([['address', USDC]])
  })

  test.each([
    [{ price: 1, usd: 2 }, /one price field .*, found price, usd;/],
    [{ a: 1, b: 2 }, /one price field/],
    // A number that is not a price is never taken for one.
    [
      { address: USDC, decimals: 6 },
      /one price field \(price, usd, value or rate in its name\), found address, decimals/,
    ],
    [{ price: null, volume: 1000 }, /got null/],
    [{ status: 200, timestamp: 1700000000 }, /one price field/],
    [{ price: 1, priceChange24h: -3 }, /found price, priceChange24h/],
    [{ price: 'n/a' }, /got the string "n\/a"/],
    ['abc', /got the string "abc"/],
    [-1, /at least 0/],
    [[1], /got an array/],
    [null, /got null/],
  ])('%o is a ResponseValidationError', async (body, message) => {
    reply(body)
    const error = await getTokenPrice(client, { address: USDC }).catch((e) => e)
    expect(error).toBeInstanceOf(ResponseValidationError)
    expect(error.shortMessage).toMatch(message)
  })

  test('an invalid address is refused before any request', async () => {
    const error = await getTokenPrice(client, { address: 'USDC' as never }).catch((e) => e)
    expect(error).toBeInstanceOf(InvalidParameterError)
    expect(error.parameter).toBe('address')
    expect(requests).toHaveLength(0)
  })
})
