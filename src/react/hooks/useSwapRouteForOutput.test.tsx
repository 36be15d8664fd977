import { act, waitFor } from '@testing-library/react'
import { delay } from 'msw'
import { type Address, parseEther, parseUnits } from 'viem'
import { describe, expect, test } from 'vitest'
import { USDC, WETH } from '../../../test/constants.js'
import { setupMockService, type Transport } from '../../../test/mockService.js'
import { renderSwapHook } from '../../../test/react.js'
import { ExactOutputNotReachedError } from '../../core/errors/exactOutput.js'
import { InvalidParameterError } from '../../core/errors/parameter.js'
import { NoRouteError } from '../../core/errors/request.js'
import { mockTokenAddresses } from '../../mock/fixtures.js'
import { getTokenPriceQueryKey } from '../../query/getTokenPrice.js'
import { type UseSwapRouteForOutputParameters, useSwapRouteForOutput } from './useSwapRouteForOutput.js'

const mock = setupMockService()

function renderForOutput(
  transport: Transport,
  initialProps: UseSwapRouteForOutputParameters,
  fetchSpy?: typeof fetch,
) {
  const { baseUrl, service } = mock.use(transport)
  const rendered = renderSwapHook(
    (parameters: UseSwapRouteForOutputParameters) => useSwapRouteForOutput(parameters),
    { provider: { baseUrl, rateLimit: false, fetch: fetchSpy }, initialProps },
  )
  return { ...rendered, service, baseUrl }
}

/** What the market's own quote gives for an input: the truth the hook's answer is checked against. */
const quote = (token0: Address, token1: Address, amountIn: bigint) =>
  mock.market.quote({ token0, token1, amountIn })?.amountOut ?? 0n

const inWindow = (reached: bigint | undefined, amountOut: bigint) =>
  reached !== undefined && reached >= amountOut && reached * 1000n <= amountOut * 1005n

describe.each(['msw', 'loopback'] as const)('useSwapRouteForOutput over %s', (transport) => {
  test('waits quietly while a token or the amount is missing: no request', async () => {
    const { result, rerender, service } = renderForOutput(transport, {})
    for (const props of [
      { token0: WETH },
      { token0: WETH, token1: USDC },
      { token0: WETH, token1: USDC, amountOut: 0n },
    ]) {
      rerender(props)
      await act(() => delay(50))
      expect(result.current.fetchStatus).toBe('idle')
      expect(result.current.isDebouncing).toBe(false)
      expect(result.current.error).toBeNull()
    }
    await act(() => delay(350))
    expect(service.count()).toBe(0)
  })

  test('"I want 5 000 USDC": the WETH to send, within 0.5%, in at most 4 route requests', async () => {
    const amountOut = parseUnits('5000', 6)
    const { result, service, queryClient, baseUrl } = renderForOutput(transport, {
      token0: WETH,
      token1: USDC,
      amountOut,
    })
    await waitFor(() => expect(result.current.isSuccess).toBe(true))
    const data = result.current.data
    expect(inWindow(data?.amountOutReached, amountOut)).toBe(true)
    expect(quote(WETH, USDC, data?.amountIn ?? 0n)).toBe(data?.amountOutReached)
    expect(data?.probes).toBeLessThanOrEqual(4)
    expect(service.count('/swap/route')).toBe(data?.probes)
    // The prices and decimals were read through the shared caches (useTokenPrice's, useTokens').
    expect(service.count('/overview/token/price')).toBe(2)
    expect(service.count('/overview/tokens')).toBe(1)
    expect(queryClient.getQueryData(getTokenPriceQueryKey({ baseUrl, address: WETH }))).toBe(3000)
    expect(result.current.isFresh).toBe(true)
    expect(result.current.queryKey).toEqual([
      'swapRouteForOutput',
      { baseUrl, token0: WETH, token1: USDC, amountOut: amountOut.toString() },
    ])
  })

  test('typing a new amount: one search after the debounce, seeded from the last answer (one probe, no price)', async () => {
    const { result, rerender, service } = renderForOutput(transport, {
      token0: WETH,
      token1: USDC,
      amountOut: parseUnits('5000', 6),
    })
    await waitFor(() => expect(result.current.isSuccess).toBe(true))
    const first = result.current.data
    service.clearLog()
    for (const typed of ['6', '60', '600', '6000']) {
      rerender({ token0: WETH, token1: USDC, amountOut: parseUnits(typed, 6) })
      await act(() => delay(40))
      expect(result.current.isDebouncing).toBe(true)
      expect(result.current.isFresh).toBe(false)
      // The previous answer stands in while the amount settles.
      expect(result.current.data).toBe(first)
      expect(result.current.isPlaceholderData).toBe(true)
    }
    await waitFor(() => expect(result.current.isPlaceholderData).toBe(false))
    expect(result.current.isDebouncing).toBe(false)
    expect(inWindow(result.current.data?.amountOutReached, parseUnits('6000', 6))).toBe(true)
    expect(service.log.map((entry) => entry.path)).toEqual(['/swap/route'])
    expect(result.current.data?.requests).toBe(1)
  })

  test('a new amount while probing aborts the old probes', async () => {
    const signals: { amountIn: string | null; signal: AbortSignal | null | undefined }[] = []
    const spy: typeof fetch = (input, init) => {
      const url = new URL(String(input))
      if (url.pathname.endsWith('/swap/route'))
        signals.push({ amountIn: url.searchParams.get('amount_in'), signal: init?.signal })
      return fetch(input, init)
    }
    const { result, rerender, service } = renderForOutput(
      transport,
      { token0: WETH, token1: USDC, amountOut: parseUnits('5000', 6), debounceMs: 0 },
      spy,
    )
    service.setLatency(300)
    await waitFor(() => expect(signals).toHaveLength(1))
    rerender({ token0: WETH, token1: USDC, amountOut: parseUnits('7000', 6), debounceMs: 0 })
    await waitFor(() => expect(signals[0]?.signal?.aborted).toBe(true))
    await waitFor(() => expect(result.current.isSuccess).toBe(true), { timeout: 5000 })
    expect(inWindow(result.current.data?.amountOutReached, parseUnits('7000', 6))).toBe(true)
    // Only the first search's first probe was sent for 5 000, and it was aborted.
    expect(signals.filter(({ signal }) => signal?.aborted)).toHaveLength(1)
  })

  test('more than the pools hold: ExactOutputNotReachedError, never retried', async () => {
    const { result, service } = renderForOutput(transport, {
      token0: USDC,
      token1: WETH,
      amountOut: parseEther('1000000'),
    })
    await waitFor(() => expect(result.current.isError).toBe(true))
    const error = result.current.error as ExactOutputNotReachedError
    expect(error).toBeInstanceOf(ExactOutputNotReachedError)
    expect(error.probes).toBe(4)
    expect(error.bestAmountOut).toBeLessThan(parseEther('1000000'))
    expect(result.current.failureCount).toBe(1)
    expect(service.count('/swap/route')).toBe(4)
  })

  test('no route: NoRouteError after one route request', async () => {
    const { result, service } = renderForOutput(transport, {
      token0: USDC,
      token1: mockTokenAddresses.LONE,
      amountOut: parseEther('5'),
    })
    await waitFor(() => expect(result.current.error).toBeInstanceOf(NoRouteError))
    expect(service.count('/swap/route')).toBe(1)
  })

  test('malformed input is an InvalidParameterError naming it; nothing is sent', async () => {
    const { result, rerender, service } = renderForOutput(transport, {
      token0: WETH,
      token1: USDC,
      amountOut: -1n,
    })
    await waitFor(() => expect(result.current.error).toBeInstanceOf(InvalidParameterError))
    expect((result.current.error as InvalidParameterError).parameter).toBe('amountOut')
    rerender({ token0: '0x12' as Address, token1: USDC, amountOut: 5n })
    await waitFor(() => expect((result.current.error as InvalidParameterError)?.parameter).toBe('token0'))
    rerender({ token0: WETH, token1: USDC, amountOut: 5n, tolerance: 2 })
    await waitFor(() => expect((result.current.error as InvalidParameterError)?.parameter).toBe('tolerance'))
    expect(service.count()).toBe(0)
  })
})
