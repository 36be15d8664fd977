import { HttpResponse, http, type JsonBodyType } from 'msw'
import { zeroAddress } from 'viem'
import { describe, expect, test } from 'vitest'
import { ALICE, baseUrl, USDC, WETH } from '../../../test/constants.js'
import { queryOf, setupMswServer } from '../../../test/msw.js'
import { createSwapClient } from '../client.js'
import { defaultSlippage } from '../constants.js'
import { InvalidParameterError } from '../errors/parameter.js'
import { NoRouteError } from '../errors/request.js'
import { ResponseValidationError } from '../errors/response.js'
import { getSwapInfo } from './getSwapInfo.js'

const { server, requests } = setupMswServer()
const client = createSwapClient({ baseUrl, rateLimit: false })
const parameters = { token0: WETH, token1: USDC, amountIn: 10n ** 18n, to: ALICE }
const ROUTER = '0x1111111254EEB25477B68fb85Ed929f73A960582'
const info = {
  data: '0x12345678abcd',
  transferAddress: ROUTER,
  transferValue: '0',
  approvalAddress: ROUTER,
  estimateTransferSeconds: 12,
  estimateAmount: '3000000000',
  hopsCount: 1,
  fee: { protocol: '0.003', gas: { units: 150000 } },
}
const reply = (body: JsonBodyType) =>
  server.use(http.get(`${baseUrl}/swap/info`, () => HttpResponse.json(body)))

describe('getSwapInfo', () => {
  test.each(['0x123', '0xzz', '12345678'])(
    'calldata %s (not whole bytes of hex) is a ResponseValidationError',
    async (data) => {
      reply({ ...info, data })
      const error = await getSwapInfo(client, parameters).catch((e) => e)
      expect(error).toBeInstanceOf(ResponseValidationError)
      expect(error.path).toBe('$.data')
    },
  )

  test('sends the library’s slippage (0.005) when none is given, never the service’s 0.05; leaves out a deadline not given', async () => {
    reply(info)
    const result = await getSwapInfo(client, parameters)
    expect(queryOf(requests[0] as Request)).toEqual([
      ['token0', WETH],
      ['token1', USDC],
      ['amount_in', '1000000000000000000'],
      ['to', ALICE],
      ['slippage', String(defaultSlippage)],
    ])
    expect(result).toEqual({
      data: '0x12345678abcd',
      transferAddress: ROUTER,
      transferValue: 0n,
      approvalAddress: ROUTER,
      estimateTransferSeconds: 12,
      estimateAmount: 3_000_000_000n,
      hopsCount: 1,
      fee: { protocol: '0.003', gas: { units: 150000 } },
      // Not sent by the service: the swap this info was fetched for.
      quotedFor: { token0: WETH, token1: USDC, amountIn: parameters.amountIn },
    })
  })

  test('404 is a NoRouteError, as on /swap/route', async () => {
    server.use(
      http.get(`${baseUrl}/swap/info`, () => HttpResponse.json({ detail: 'no path' }, { status: 404 })),
    )
    const error = await getSwapInfo(client, parameters).catch((e) => e)
    expect(error).toBeInstanceOf(NoRouteError)
    expect(error.status).toBe(404)
  })

  test('sends slippage and deadline when given', async () => {
    reply(info)
    await getSwapInfo(client, { ...parameters, slippage: 0.005, deadline: 1_900_000_000 })
    const query = new URL(requests[0]?.url as string).searchParams
    expect(query.get('slippage')).toBe('0.005')
    expect(query.get('deadline')).toBe('1900000000')
  })

  test.each([
    [null, null],
    ['', null],
    [undefined, null],
    [zeroAddress, zeroAddress],
  ])('approvalAddress %o becomes %o', async (approvalAddress, expected) => {
    reply({ ...info, approvalAddress })
    expect((await getSwapInfo(client, parameters)).approvalAddress).toBe(expected)
  })

  test('accepts amounts as hex strings or safe numbers, and numeric strings for numbers', async () => {
    reply({
      ...info,
      transferValue: '0xde0b6b3a7640000',
      estimateAmount: 77,
      hopsCount: '2',
      estimateTransferSeconds: '3.5',
    })
    const result = await getSwapInfo(client, parameters)
    expect(result.transferValue).toBe(10n ** 18n)
    expect(result.estimateAmount).toBe(77n)
    expect(result.hopsCount).toBe(2)
    expect(result.estimateTransferSeconds).toBe(3.5)
  })

  test.each([
    [{ ...info, data: 'abcd' }, '$.data'],
    [{ ...info, transferAddress: 'router' }, '$.transferAddress'],
    [{ ...info, transferValue: '1.5' }, '$.transferValue'],
    [{ ...info, estimateAmount: -1 }, '$.estimateAmount'],
    [{ ...info, hopsCount: 1.5 }, '$.hopsCount'],
    [{ ...info, fee: 'free' }, '$.fee'],
    [{ ...info, approvalAddress: 42 }, '$.approvalAddress'],
    [(({ data: _, ...rest }) => rest)(info), '$.data'],
  ])('a bad field is a ResponseValidationError with its path (%#)', async (body, path) => {
    reply(body)
    const error = await getSwapInfo(client, parameters).catch((e) => e)
    expect(error).toBeInstanceOf(ResponseValidationError)
    expect(error.endpoint).toBe('/swap/info')
    expect(error.path).toBe(path)
  })

  test.each([
    ['to', { ...parameters, to: undefined }],
    ['to', { ...parameters, to: 'alice.eth' }],
    ['slippage', { ...parameters, slippage: 5 }],
    ['slippage', { ...parameters, slippage: -0.1 }],
    ['slippage', { ...parameters, slippage: Number.NaN }],
    ['slippage', { ...parameters, slippage: '0.01' }],
    ['deadline', { ...parameters, deadline: 0 }],
    ['deadline', { ...parameters, deadline: 1.5 }],
    ['deadline', { ...parameters, deadline: '1700000000' }],
    ['amountIn', { ...parameters, amountIn: 0n }],
  ])('invalid %s is refused before any request', async (parameter, bad) => {
    const error = await getSwapInfo(client, bad as never).catch((e) => e)
    expect(error).toBeInstanceOf(InvalidParameterError)
    expect(error.parameter).toBe(parameter)
    expect(requests).toHaveLength(0)
  })
})
