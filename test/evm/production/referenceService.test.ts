import {
  type Address,
  decodeFunctionData,
  encodePacked,
  getAddress,
  type Hex,
  parseEther,
  parseUnits,
} from 'viem'
import { describe, expect, test } from 'vitest'
import {
  createSwapClient,
  getLegacyPairs,
  getLegacyPath,
  getLegacyTokens,
  getPairs,
  getSwapInfo,
  getSwapRoute,
  getTokenPrice,
  getTokens,
  getTokensData,
  NoRouteError,
  nativeTokenAddress,
} from '../../../src/exports/core.js'
import { quoterV2Abi, swapRouter02Abi, uniswapV2Router02Abi } from './abis.js'
import { setupProduction } from './setup.js'
import type { UniswapDeployment } from './uniswap.js'

const evm = setupProduction({ guard: false })

/** A client as an app makes one; `protocols` rides on the base URL (sent with every request). */
const clientFor = (protocols?: 'v2' | 'v3', arrayFormat?: 'repeat' | 'comma' | 'brackets') =>
  createSwapClient({
    baseUrl: protocols ? `${evm.service.url}?protocols=${protocols}` : evm.service.url,
    arrayFormat,
  })

/** Quotes read straight from the pools, independently of the service. */
const pools = (uniswap: UniswapDeployment) => ({
  v2: async (amountIn: bigint, path: Address[]) =>
    (
      await uniswap.publicClient.readContract({
        address: uniswap.contracts.v2Router,
        abi: uniswapV2Router02Abi,
        functionName: 'getAmountsOut',
        args: [amountIn, path],
      })
    ).at(-1) as bigint,
  v3: async (amountIn: bigint, tokenIn: Address, fee: number, tokenOut: Address) =>
    (
      await uniswap.publicClient.simulateContract({
        address: uniswap.contracts.quoterV2,
        abi: quoterV2Abi,
        functionName: 'quoteExactInputSingle',
        args: [{ tokenIn, tokenOut, amountIn, fee, sqrtPriceLimitX96: 0n }],
      })
    ).result[0],
  v3Path: async (amountIn: bigint, path: Hex) =>
    (
      await uniswap.publicClient.simulateContract({
        address: uniswap.contracts.quoterV2,
        abi: quoterV2Abi,
        functionName: 'quoteExactInput',
        args: [path, amountIn],
      })
    ).result[0],
})

/** A raw GET, for what the library never sends (a missing slippage, a bad amount). */
const get = async (path: string) => {
  const response = await fetch(`${evm.service.url}${path}`)
  return { status: response.status, body: (await response.json()) as Record<string, unknown> }
}

describe('the reference service, read through the library', () => {
  test('/swap/route picks the best of V2 and both V3 tiers, quoted by the pools themselves', async () => {
    const { uniswap } = evm
    const [WETH, USDC] = [uniswap.address('WETH'), uniswap.address('USDC')]
    const quotes = pools(uniswap)
    for (const amountIn of [parseEther('0.5'), parseEther('40')]) {
      const v2 = await quotes.v2(amountIn, [WETH, USDC])
      const v3Low = await quotes.v3(amountIn, WETH, 500, USDC)
      const v3High = await quotes.v3(amountIn, WETH, 3000, USDC)
      const best = [v2, v3Low, v3High].reduce((a, b) => (a > b ? a : b))
      const route = await getSwapRoute(clientFor(), { token0: nativeTokenAddress, token1: USDC, amountIn })
      expect(route.amountOut).toBe(best)
      // The native side is WETH9 in the path, as the pools see it: the library accepts it.
      expect(route.path).toEqual([WETH, USDC])
      // Narrowed to one protocol (a non-spec filter on the base URL), each protocol's best.
      const v2Only = await getSwapRoute(clientFor('v2'), {
        token0: nativeTokenAddress,
        token1: USDC,
        amountIn,
      })
      expect(v2Only.amountOut).toBe(v2)
      const v3Only = await getSwapRoute(clientFor('v3'), {
        token0: nativeTokenAddress,
        token1: USDC,
        amountIn,
      })
      expect(v3Only.amountOut).toBe(v3Low > v3High ? v3Low : v3High)
    }
  })

  test('two hops: V3 TKB → USDC → USDT and V2 TKA → WETH → USDT, each what its quoter pays', async () => {
    const { uniswap } = evm
    const [TKA, TKB, USDC, USDT, WETH] = (['TKA', 'TKB', 'USDC', 'USDT', 'WETH'] as const).map(
      uniswap.address,
    )
    const quotes = pools(uniswap)
    const v3AmountIn = parseEther('2000')
    const v3 = await getSwapRoute(clientFor(), {
      token0: TKB as Address,
      token1: USDT as Address,
      amountIn: v3AmountIn,
    })
    expect(v3.path).toEqual([TKB, USDC, USDT])
    expect(v3.amountOut).toBe(
      await quotes.v3Path(
        v3AmountIn,
        encodePacked(
          ['address', 'uint24', 'address', 'uint24', 'address'],
          [TKB as Address, 3000, USDC as Address, 500, USDT as Address],
        ),
      ),
    )
    const v2AmountIn = parseEther('300')
    const v2 = await getSwapRoute(clientFor('v2'), {
      token0: TKA as Address,
      token1: USDT as Address,
      amountIn: v2AmountIn,
    })
    expect(v2.path).toEqual([TKA, WETH, USDT])
    expect(v2.amountOut).toBe(await quotes.v2(v2AmountIn, [TKA, WETH, USDT] as Address[]))
  })

  test('no path: 404, NoRouteError, for a token without pools, a blacklisted one and ETH ↔ WETH', async () => {
    const { uniswap } = evm
    const client = clientFor()
    for (const [token0, token1] of [
      [uniswap.address('LONE'), uniswap.address('USDC')],
      [nativeTokenAddress, uniswap.address('SCAM')],
      [nativeTokenAddress, uniswap.address('WETH')],
    ] as const) {
      const error = await getSwapRoute(client, { token0, token1, amountIn: 10n ** 18n }).catch(
        (e: unknown) => e,
      )
      expect(error).toBeInstanceOf(NoRouteError)
      expect((error as NoRouteError).status).toBe(404)
    }
    // The route exists over V3 only: narrowed to V2, none.
    const error = await getSwapRoute(clientFor('v2'), {
      token0: uniswap.address('TKB'),
      token1: uniswap.address('USDC'),
      amountIn: 10n ** 18n,
    }).catch((e: unknown) => e)
    expect(error).toBeInstanceOf(NoRouteError)
  })

  test('/swap/info: SwapRouter02 calldata to the recipient, its floor the estimate less the slippage, the router to approve', async () => {
    const { uniswap } = evm
    const [TKB, USDC] = [uniswap.address('TKB'), uniswap.address('USDC')]
    const to = uniswap.accounts.recipient.address
    const amountIn = parseEther('100')
    const info = await getSwapInfo(clientFor(), { token0: TKB, token1: USDC, amountIn, to, slippage: 0.02 })
    expect(info).toMatchObject({
      transferAddress: uniswap.contracts.swapRouter02,
      approvalAddress: uniswap.contracts.swapRouter02,
      transferValue: 0n,
      estimateTransferSeconds: 12,
      hopsCount: 1,
    })
    expect(info.estimateAmount).toBe(await pools(uniswap).v3(amountIn, TKB, 3000, USDC))
    expect(info.fee).toMatchObject({ percent: 0.003, token: TKB.toLowerCase() })
    const multicall = decodeFunctionData({ abi: swapRouter02Abi, data: info.data })
    expect(multicall.functionName).toBe('multicall')
    const [deadline, calls] = multicall.args as [bigint, Hex[]]
    const now = (await uniswap.publicClient.getBlock()).timestamp
    expect(deadline).toBe(now + 1200n) // the service's default: 20 minutes
    const swap = decodeFunctionData({ abi: swapRouter02Abi, data: calls[0] as Hex })
    expect(swap.functionName).toBe('exactInputSingle')
    expect(swap.args[0]).toMatchObject({
      tokenIn: TKB,
      tokenOut: USDC,
      fee: 3000,
      recipient: to,
      amountIn,
      amountOutMinimum: (info.estimateAmount * 98n) / 100n,
    })
  })

  test('/swap/info for native in and out: V2 swapExactETHForTokens with the value, no approval; SwapRouter02 unwrapping to the recipient', async () => {
    const { uniswap } = evm
    const [TKA, USDC, WETH] = [uniswap.address('TKA'), uniswap.address('USDC'), uniswap.address('WETH')]
    const to = uniswap.accounts.recipient.address
    const amountIn = parseEther('1')
    const ethIn = await getSwapInfo(clientFor('v2'), {
      token0: nativeTokenAddress,
      token1: TKA,
      amountIn,
      to,
      slippage: 0.01,
      deadline: 4_000_000_000,
    })
    expect(ethIn).toMatchObject({
      transferAddress: uniswap.contracts.v2Router,
      approvalAddress: null,
      transferValue: amountIn,
    })
    const v2 = decodeFunctionData({ abi: uniswapV2Router02Abi, data: ethIn.data })
    expect(v2.functionName).toBe('swapExactETHForTokens')
    expect(v2.args).toEqual([(ethIn.estimateAmount * 99n) / 100n, [WETH, TKA], to, 4_000_000_000n])

    const usdcIn = parseUnits('3000', 6)
    const ethOut = await getSwapInfo(clientFor('v3'), {
      token0: USDC,
      token1: nativeTokenAddress,
      amountIn: usdcIn,
      to,
      slippage: 0.01,
    })
    expect(ethOut).toMatchObject({ transferAddress: uniswap.contracts.swapRouter02, transferValue: 0n })
    const [, calls] = decodeFunctionData({ abi: swapRouter02Abi, data: ethOut.data }).args as [bigint, Hex[]]
    const [swap, unwrap] = (calls as Hex[]).map((call) =>
      decodeFunctionData({ abi: swapRouter02Abi, data: call }),
    )
    // The router keeps the WETH9 (recipient ADDRESS_THIS, 0x…02), then unwraps at least the floor to `to`.
    expect(swap?.args[0]).toMatchObject({
      tokenIn: USDC,
      tokenOut: WETH,
      recipient: getAddress('0x0000000000000000000000000000000000000002'),
    })
    expect(unwrap?.functionName).toBe('unwrapWETH9')
    expect(unwrap?.args).toEqual([(ethOut.estimateAmount * 99n) / 100n, to])
  })

  test('the spec’s default slippage (0.05) when none is sent, and 400s for what the spec forbids', async () => {
    const { uniswap } = evm
    const [TKA, TKB] = [uniswap.address('TKA'), uniswap.address('TKB')]
    const to = uniswap.accounts.recipient.address
    const base = `token0=${TKA}&token1=${TKB}&to=${to}`
    const { status, body } = await get(`/swap/info?${base}&amount_in=${parseEther('10')}`)
    expect(status).toBe(200)
    const { args } = decodeFunctionData({ abi: uniswapV2Router02Abi, data: body.data as Hex })
    expect(args[1]).toBe((BigInt(body.estimateAmount as string) * 95n) / 100n)

    for (const query of [
      `${base}&amount_in=0`,
      `${base}&amount_in=-5`,
      `${base}&amount_in=1.5`,
      `${base}&amount_in=10&slippage=1.5`,
      `${base}&amount_in=10&slippage=abc`,
      `token0=${TKA}&token1=${TKB}&amount_in=10`,
      `token0=${TKA}&token1=${TKA}&amount_in=10&to=${to}`,
    ])
      expect((await get(`/swap/info?${query}`)).status, query).toBe(400)
    expect((await get(`/swap/route?token0=${TKA}&amount_in=1`)).body).toEqual({
      error: { code: 'missing_parameter', message: 'token1 is required', parameter: 'token1' },
    })
  })

  test('/overview/tokens and /overview/pairs: blacklisted ones only on request; filters by address, symbol or pair, in every array form', async () => {
    const { uniswap } = evm
    const tokens = await getTokens(clientFor())
    expect(tokens.map((token) => token.symbol).sort()).toEqual([
      'ETH',
      'LONE',
      'TKA',
      'TKB',
      'USDC',
      'USDT',
      'WETH',
    ])
    expect(tokens.find((token) => token.symbol === 'USDC')).toMatchObject({ decimals: 6, blacklisted: false })
    const all = await getTokens(clientFor(), { blacklist: true })
    expect(all.find((token) => token.symbol === 'SCAM')?.blacklisted).toBe(true)
    for (const format of ['repeat', 'comma', 'brackets'] as const) {
      const some = await getTokens(clientFor(undefined, format), {
        filterByToken: [uniswap.address('TKA'), uniswap.address('USDT')],
      })
      expect(some.map((token) => token.symbol).sort(), format).toEqual(['TKA', 'USDT'])
      const pairs = await getPairs(clientFor(undefined, format), { filterByToken: ['USDT', 'TKB'] })
      expect(pairs.map((pair) => pair.address).sort(), format).toEqual(
        uniswap.pools
          .filter((pool) => pool.symbols.includes('USDT') || pool.symbols.includes('TKB'))
          .map((pool) => pool.address.toLowerCase())
          .sort(),
      )
    }
    const [v3Pool] = uniswap.pools.filter((pool) => pool.protocol === 'v3')
    const byPair = await getPairs(clientFor(), { filterByPair: [v3Pool?.address as Address] })
    expect(byPair).toEqual([
      expect.objectContaining({
        address: v3Pool?.address.toLowerCase(),
        protocol: 'uniswap-v3',
        fee_tier: 500,
      }),
    ])
    expect((await getPairs(clientFor())).some((pair) => pair.blacklisted)).toBe(false)
    expect(
      (await getPairs(clientFor(), { blacklist: true })).filter((pair) => pair.blacklisted),
    ).toHaveLength(1)
  })

  test('/overview/token/price: USD from the pools (what one token fetches in USDC), parsed by the library from an object with other numeric fields', async () => {
    const { uniswap } = evm
    const price = (symbol: 'TKA' | 'ETH' | 'USDC' | 'USDT') =>
      getTokenPrice(clientFor(), { address: uniswap.address(symbol) })
    expect(await price('USDC')).toBe(1)
    const eth = await price('ETH')
    expect(eth).toBeGreaterThan(2985)
    expect(eth).toBeLessThan(3000)
    const tka = await price('TKA')
    expect(tka).toBeGreaterThan(1.48)
    expect(tka).toBeLessThan(1.5)
    expect(await price('USDT')).toBeCloseTo(1, 2)
  })

  test('the second group: /get_path, /get_tokens, /get_pairs, /get_tokens_data', async () => {
    const { uniswap } = evm
    const client = clientFor()
    const path = await getLegacyPath(client, {
      token0: uniswap.address('TKA'),
      token1: uniswap.address('TKB'),
      amountIn: parseEther('1'),
    })
    expect(path.path).toEqual([uniswap.address('TKA'), uniswap.address('TKB')])
    expect(path.amountOut).toBe(
      await pools(uniswap).v2(parseEther('1'), [uniswap.address('TKA'), uniswap.address('TKB')]),
    )
    expect((await getLegacyTokens(client)).length).toBe(7)
    expect((await getLegacyPairs(client)).length).toBe(uniswap.pools.length - 1)
    const data = await getTokensData(client)
    expect(data.find((token) => token.symbol === 'USDC')).toMatchObject({ decimals: 6, price_usd: 1 })
  })
})
