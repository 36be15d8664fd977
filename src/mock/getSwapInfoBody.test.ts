import { decodeFunctionData, getAddress, parseUnits } from 'viem'
import { describe, expect, test } from 'vitest'
import { nativeTokenAddress } from '../core/constants.js'
import { getMinAmountOut } from '../core/utils/getMinAmountOut.js'
import { createMockMarket } from './createMockMarket.js'
import { createMockService } from './createMockService.js'
import { mockTokenAddresses } from './fixtures.js'
import { defaultSlippage, getSwapInfoBody } from './getSwapInfoBody.js'
import { swapRouterAbi } from './routerAbi.js'

const { USDC, WETH, LONE } = mockTokenAddresses
const ALICE = getAddress('0x70997970c51812dc3a010c7d01b50e0d17dc79c8')
const market = createMockMarket()

function decode(data: `0x${string}`) {
  const { functionName, args } = decodeFunctionData({ abi: swapRouterAbi, data })
  if (functionName !== 'swap') throw new Error(`not a swap: ${functionName}`)
  return args
}

describe('getSwapInfoBody', () => {
  test('is the body the mock service answers to /swap/info, field for field', async () => {
    const amountIn = parseUnits('1000', 6)
    const deadline = 2_000_000_000n
    const service = createMockService()
    const body = getSwapInfoBody({
      market: service.market,
      token0: USDC,
      token1: WETH,
      amountIn,
      to: ALICE,
      deadline,
    })
    const url = new URL('http://mock/swap/info')
    for (const [name, value] of Object.entries({
      token0: USDC,
      token1: WETH,
      amount_in: String(amountIn),
      to: ALICE,
      deadline: String(deadline),
    }))
      url.searchParams.set(name, value)
    const response = await service.handle(new Request(url))
    expect(response.status).toBe(200)
    expect(await response.json()).toEqual(body)
  })

  test('the calldata pays the recipient the quote less the slippage, before the deadline', () => {
    const amountIn = parseUnits('1000', 6)
    const quote = market.quote({ token0: USDC, token1: WETH, amountIn })
    const body = getSwapInfoBody({ market, token0: USDC, token1: WETH, amountIn, to: ALICE, deadline: 5n })
    expect(quote && body).toBeTruthy()
    if (!quote || !body) return
    const [path, sent, floor, recipient, deadline] = decode(body.data)
    expect(path).toEqual(quote.path)
    expect(sent).toBe(amountIn)
    expect(floor).toBe(getMinAmountOut(quote.amountOut, defaultSlippage))
    expect(floor).toBeLessThan(quote.amountOut)
    expect(recipient).toBe(ALICE)
    expect(deadline).toBe(5n)
    expect(body).toMatchObject({
      transferAddress: market.router,
      approvalAddress: market.spender,
      transferValue: '0',
      estimateAmount: String(quote.amountOut),
      hopsCount: quote.path.length - 1,
    })
    expect(body.fee.hops).toHaveLength(quote.hops.length)
  })

  test('a floor of its own (a hostile body), a native input, and no path', () => {
    const amountIn = 10n ** 18n
    const hostile = getSwapInfoBody({
      market,
      token0: USDC,
      token1: WETH,
      amountIn,
      to: ALICE,
      minAmountOut: 0n,
    })
    expect(hostile && decode(hostile.data)[2]).toBe(0n)
    const native = getSwapInfoBody({ market, token0: nativeTokenAddress, token1: USDC, amountIn, to: ALICE })
    expect(native).toMatchObject({ approvalAddress: null, transferValue: String(amountIn) })
    const strict = getSwapInfoBody({ market, token0: USDC, token1: WETH, amountIn, to: ALICE, slippage: 0 })
    expect(strict && decode(strict.data)[2]).toBe(BigInt(strict?.estimateAmount ?? -1))
    expect(getSwapInfoBody({ market, token0: USDC, token1: LONE, amountIn, to: ALICE })).toBeUndefined()
  })
})
