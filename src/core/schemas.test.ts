import { HttpResponse, http } from 'msw'
import { describe, expect, test } from 'vitest'
import { ALICE, baseUrl, USDC, WETH } from '../../test/constants.js'
import { setupMswServer } from '../../test/msw.js'
import { getSwapInfo } from './actions/getSwapInfo.js'
import { getSwapRoute } from './actions/getSwapRoute.js'
import { createSwapClient } from './client.js'
import { ResponseValidationError } from './errors/response.js'
import { routeSchemaFor } from './schemas.js'

const maxUint256 = 2n ** 256n - 1n
/** An amount as every body schema reads one: here a route's amount_out. */
const parseAmountOut = (value: unknown) =>
  routeSchemaFor({ token0: WETH, token1: USDC }).safeParse({ path: [WETH, USDC], amount_out: value })

describe('amounts are uint256 (issue 10, item 8)', () => {
  test.each([
    maxUint256.toString(),
    `0x${maxUint256.toString(16)}`,
    `0x000${maxUint256.toString(16)}`,
    `000${maxUint256}`,
    '0',
    Number.MAX_SAFE_INTEGER,
  ])('accepts %s', (value) => {
    expect(parseAmountOut(value).data?.amountOut).toBe(BigInt(value))
  })

  test.each([
    ['2^256', (2n ** 256n).toString()],
    ['0x1 and 64 zeros', `0x1${'0'.repeat(64)}`],
    ['65 hex digits', `0x${'f'.repeat(65)}`],
    ['100 000 nines', '9'.repeat(100_000)],
  ])('refuses %s', (_, value) => {
    const result = parseAmountOut(value)
    expect(result.success).toBe(false)
    expect(result.error?.issues[0]?.message).toBe('expected an amount of at most 2^256 - 1')
  })

  const { server } = setupMswServer()
  const client = createSwapClient({ baseUrl, rateLimit: false })

  test('a route whose amount_out is above 2^256 - 1 is a ResponseValidationError', async () => {
    server.use(
      http.get(`${baseUrl}/swap/route`, () =>
        HttpResponse.json({ path: [WETH, USDC], amount_out: (2n ** 256n).toString() }),
      ),
    )
    const error = await getSwapRoute(client, { token0: WETH, token1: USDC, amountIn: 1n }).catch((e) => e)
    expect(error).toBeInstanceOf(ResponseValidationError)
    expect(error.path).toBe('$.amount_out')
    expect(error.shortMessage).toBe(
      'Unexpected response from /swap/route at $.amount_out: expected an amount of at most 2^256 - 1, got the string "1157920892373161954235709850086879078532".',
    )
  })

  test.each(['transferValue', 'estimateAmount'])(
    'swap info with %s above 2^256 - 1 is refused',
    async (field) => {
      const info = {
        data: '0x',
        transferAddress: WETH,
        transferValue: '0',
        approvalAddress: null,
        estimateTransferSeconds: 1,
        estimateAmount: '1',
        hopsCount: 1,
        fee: {},
        [field]: `0x1${'0'.repeat(64)}`,
      }
      server.use(http.get(`${baseUrl}/swap/info`, () => HttpResponse.json(info)))
      const error = await getSwapInfo(client, { token0: WETH, token1: USDC, amountIn: 1n, to: ALICE }).catch(
        (e) => e,
      )
      expect(error).toBeInstanceOf(ResponseValidationError)
      expect(error.path).toBe(`$.${field}`)
    },
  )
})

describe('safeParse, as zod has it', () => {
  const schema = routeSchemaFor({ token0: WETH, token1: USDC })
  const bad = { path: [WETH, 'not an address'], amount_out: 'lots' }

  test('every issue with its path and message; the bad value only with reportInput', () => {
    const quiet = schema.safeParse(bad)
    expect(quiet.success).toBe(false)
    expect(quiet.error?.issues).toEqual([
      {
        path: ['path', 1],
        message: 'expected an address (0x and 40 hex digits)',
        params: { quotesInput: true },
      },
      {
        path: ['amount_out'],
        message: 'expected a non-negative integer amount',
        params: { quotesInput: true },
      },
    ])
    expect(quiet.error).toBeInstanceOf(Error)
    expect(schema.safeParse(bad, { reportInput: true }).error?.issues.map((issue) => issue.input)).toEqual([
      'not an address',
      'lots',
    ])
  })

  test('a good body: its typed output', () => {
    expect(schema.safeParse({ path: [WETH.toLowerCase(), USDC], amount_out: '0x10' })).toEqual({
      success: true,
      data: { path: [WETH, USDC], amountOut: 16n },
    })
  })
})
