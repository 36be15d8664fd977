import { HttpResponse, http, type JsonBodyType } from 'msw'
import { describe, expect, test } from 'vitest'
import { baseUrl, DAI, USDC, WETH } from '../../../test/constants.js'
import { queryOf, setupMswServer } from '../../../test/msw.js'
import { createSwapClient } from '../client.js'
import { InvalidParameterError } from '../errors/parameter.js'
import { NoRouteError } from '../errors/request.js'
import { ResponseValidationError } from '../errors/response.js'
import { getLegacyPath } from './getLegacyPath.js'

const { server, requests } = setupMswServer()
const client = createSwapClient({ baseUrl, rateLimit: false })
const parameters = { token0: WETH, token1: USDC, amountIn: 5n }
const reply = (body: JsonBodyType, status = 200) =>
  server.use(http.get(`${baseUrl}/get_path`, () => HttpResponse.json(body, { status })))

describe('getLegacyPath', () => {
  test.each([
    [{ path: [DAI, USDC], amount_out: '99' }, '$.path[0]'],
    [[WETH, DAI], '$[1]'],
  ])('%o does not run from token0 to token1: a ResponseValidationError', async (body, at) => {
    reply(body)
    const error = await getLegacyPath(client, parameters).catch((e) => e)
    expect(error).toBeInstanceOf(ResponseValidationError)
    expect(error.path).toBe(at)
  })

  test.each([
    [{ path: [WETH, DAI, USDC], amount_out: '99' }, 99n],
    [{ path: [WETH, DAI, USDC], amountOut: 99 }, 99n],
    [[WETH, DAI, USDC], undefined],
  ])('reads %o', async (body, amountOut) => {
    reply(body)
    expect(await getLegacyPath(client, parameters)).toEqual({
      path: [WETH, DAI, USDC],
      amountOut,
      quotedFor: parameters,
    })
    expect(queryOf(requests[0] as Request)).toEqual([
      ['token0', WETH],
      ['token1', USDC],
      ['amount_in', '5'],
    ])
  })

  test('404 is a NoRouteError', async () => {
    reply({ detail: 'no path' }, 404)
    expect(await getLegacyPath(client, parameters).catch((e) => e)).toBeInstanceOf(NoRouteError)
  })

  test.each([
    [[WETH], '$.path'],
    [{ path: [WETH, 'x'] }, '$.path[1]'],
    [{ route: [WETH, USDC] }, '$.path'],
  ])('%o is a ResponseValidationError at %s', async (body, path) => {
    reply(body)
    const error = await getLegacyPath(client, parameters).catch((e) => e)
    expect(error).toBeInstanceOf(ResponseValidationError)
    expect(error.path).toBe(path)
  })

  test('invalid input is refused before any request', async () => {
    const error = await getLegacyPath(client, { ...parameters, amountIn: 0n }).catch((e) => e)
    expect(error).toBeInstanceOf(InvalidParameterError)
    expect(error.parameter).toBe('amountIn')
    expect(requests).toHaveLength(0)
  })
})
