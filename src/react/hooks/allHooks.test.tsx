import { waitFor } from '@testing-library/react'
import { type Address, decodeFunctionData, isAddressEqual, parseEther, parseUnits } from 'viem'
import { describe, expect, test } from 'vitest'
import { ALICE } from '../../../test/constants.js'
import { setupMockService, type Transport } from '../../../test/mockService.js'
import { renderSwapHook } from '../../../test/react.js'
import { NoRouteError } from '../../core/errors/request.js'
import { mockTokenAddresses as T } from '../../mock/fixtures.js'
import { swapRouterAbi } from '../../mock/routerAbi.js'
import { useLegacyPairs } from './useLegacyPairs.js'
import { useLegacyPath } from './useLegacyPath.js'
import { useLegacyTokens } from './useLegacyTokens.js'
import { usePairs } from './usePairs.js'
import { useSwapInfo } from './useSwapInfo.js'
import { useSwapRoute } from './useSwapRoute.js'
import { useTokenPrice } from './useTokenPrice.js'
import { useTokens } from './useTokens.js'
import { useTokensData } from './useTokensData.js'

const mock = setupMockService()
const listed = mock.market.tokens.filter((token) => !token.blacklisted)

describe.each(['msw', 'loopback'] as Transport[])(
  'every hook against the mock market over %s',
  (transport) => {
    const render = <result,>(hook: () => result) => {
      const { baseUrl, service } = mock.use(transport)
      return { ...renderSwapHook(hook, { provider: { baseUrl, rateLimit: false } }), service }
    }

    test('useSwapRoute: the market’s best route, a three-hop one included', async () => {
      const amountIn = parseUnits('1000', 6)
      const expected = mock.market.quote({ token0: T.USDT, token1: T.TAIL, amountIn })
      const { result, service } = render(() => useSwapRoute({ token0: T.USDT, token1: T.TAIL, amountIn }))
      await waitFor(() => expect(result.current.isSuccess).toBe(true))
      expect(result.current.data).toEqual({
        path: expected?.path,
        amountOut: expected?.amountOut,
        quotedFor: { token0: T.USDT, token1: T.TAIL, amountIn },
      })
      expect(result.current.data?.path).toHaveLength(4)
      expect(service.count('/swap/route')).toBe(1)
    })

    test('useSwapRoute: no route to the isolated token is a NoRouteError', async () => {
      const { result } = render(() => useSwapRoute({ token0: T.USDC, token1: T.LONE, amountIn: 1_000_000n }))
      await waitFor(() => expect(result.current.isError).toBe(true))
      expect(result.current.error).toBeInstanceOf(NoRouteError)
    })

    test('useSwapInfo: calldata for the router, the spender to approve, bigint estimates', async () => {
      const amountIn = parseEther('2')
      const { result } = render(() =>
        useSwapInfo({ token0: T.WETH, token1: T.DAI, amountIn, to: ALICE, slippage: 0.01 }),
      )
      await waitFor(() => expect(result.current.isSuccess).toBe(true))
      const info = result.current.data
      const quote = mock.market.quote({ token0: T.WETH, token1: T.DAI, amountIn })
      expect(info?.estimateAmount).toBe(quote?.amountOut)
      expect(info?.transferAddress).toBe(mock.market.router)
      expect(info?.approvalAddress).toBe(mock.market.spender)
      expect(info?.transferValue).toBe(0n)
      expect(info?.hopsCount).toBe((quote?.path.length ?? 0) - 1)
      const { args } = decodeFunctionData({ abi: swapRouterAbi, data: info?.data ?? '0x' })
      expect(args[0]).toEqual(quote?.path)
      expect(args[3]).toBe(ALICE)
    })

    test('useLegacyPath: the same best path from /get_path', async () => {
      const amountIn = parseUnits('500', 18)
      const { result } = render(() => useLegacyPath({ token0: T.DAI, token1: T.LINK, amountIn }))
      await waitFor(() => expect(result.current.isSuccess).toBe(true))
      const quote = mock.market.quote({ token0: T.DAI, token1: T.LINK, amountIn })
      expect(result.current.data).toEqual({
        path: quote?.path,
        amountOut: quote?.amountOut,
        quotedFor: { token0: T.DAI, token1: T.LINK, amountIn },
      })
    })

    test('useTokens: every listed token, and select narrows the type and the data', async () => {
      const { result } = render(() =>
        useTokens({ query: { select: (tokens) => tokens.map((token) => token.symbol) } }),
      )
      await waitFor(() => expect(result.current.isSuccess).toBe(true))
      expect(result.current.data).toEqual(listed.map((token) => token.symbol))
    })

    test('useTokens with blacklist: true includes the blacklisted token', async () => {
      const { result } = render(() => useTokens({ blacklist: true }))
      await waitFor(() => expect(result.current.isSuccess).toBe(true))
      expect(result.current.data?.map((token) => token.symbol)).toContain('SCAM')
    })

    test('usePairs: filtered by symbol, every pair touches USDC', async () => {
      const { result } = render(() => usePairs({ filterByToken: ['usdc'] }))
      await waitFor(() => expect(result.current.isSuccess).toBe(true))
      const pairs = result.current.data ?? []
      expect(pairs.length).toBeGreaterThan(1)
      for (const pair of pairs)
        expect([pair.token0, pair.token1].some((token) => isAddressEqual(token as Address, T.USDC))).toBe(
          true,
        )
    })

    test('useTokenPrice: the market’s USD price as a number', async () => {
      const { result } = render(() => useTokenPrice({ address: T.WBTC }))
      await waitFor(() => expect(result.current.isSuccess).toBe(true))
      expect(result.current.data).toBe(mock.market.getToken('WBTC')?.priceUsd)
    })

    test('useTokensData: one record per listed token', async () => {
      const { result } = render(() => useTokensData())
      await waitFor(() => expect(result.current.isSuccess).toBe(true))
      expect(result.current.data?.map((record) => record.symbol)).toEqual(listed.map((token) => token.symbol))
      expect(result.current.data?.[0]).toHaveProperty('liquidity_usd')
    })

    test('useLegacyPairs and useLegacyTokens: bare lists from the legacy group', async () => {
      const { result } = render(() => ({ pairs: useLegacyPairs(), tokens: useLegacyTokens() }))
      await waitFor(() =>
        expect(result.current.pairs.isSuccess && result.current.tokens.isSuccess).toBe(true),
      )
      expect(result.current.tokens.data).toHaveLength(listed.length)
      expect(result.current.pairs.data?.length).toBeGreaterThan(5)
      expect(result.current.pairs.data?.every((pair) => pair.blacklisted !== true)).toBe(true)
    })
  },
)
