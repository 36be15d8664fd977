import { dehydrate, HydrationBoundary, QueryClient, QueryClientProvider } from '@tanstack/react-query'
import { act, renderHook, waitFor } from '@testing-library/react'
import { delay, HttpResponse, http } from 'msw'
import type { ReactNode } from 'react'
import type { Address } from 'viem'
import { describe, expect, test } from 'vitest'
import { baseUrl, DAI, USDC, WETH } from '../../../test/constants.js'
import { setupMswServer } from '../../../test/msw.js'
import { createQueryClient, renderSwapHook } from '../../../test/react.js'
import { createSwapClient } from '../../core/client.js'
import { NoRouteError } from '../../core/errors/request.js'
import { getSwapRouteQueryOptions } from '../../query/getSwapRoute.js'
import { deserializeBigInts, serializeBigInts } from '../../query/utils.js'
import { SwapProvider } from '../context.js'
import { useSwapRoute } from './useSwapRoute.js'

const { server, requests } = setupMswServer()
const routeUrl = `${baseUrl}/swap/route`
const amountsSent = () => requests.map((r) => new URL(r.url).searchParams.get('amount_in'))

/** A route service that doubles the input, optionally slowly. */
function doubling(ms = 0) {
  server.use(
    http.get(routeUrl, async ({ request }) => {
      if (ms) await delay(ms)
      const amountIn = BigInt(new URL(request.url).searchParams.get('amount_in') as string)
      return HttpResponse.json({ path: [WETH, USDC], amount_out: String(amountIn * 2n) })
    }),
  )
}

type Props = { token0?: Address; token1?: Address; amountIn?: bigint; debounceMs?: number }
const provider = { baseUrl, rateLimit: false } as const

describe('useSwapRoute', () => {
  test('waits while input is incomplete: no request, idle, no error', async () => {
    doubling()
    const { result, rerender } = renderSwapHook((props: Props) => useSwapRoute(props), {
      provider,
      initialProps: {},
    })
    for (const props of [
      {},
      { token0: WETH },
      { token0: WETH, token1: USDC },
      { token0: WETH, token1: USDC, amountIn: 0n },
      { token0: WETH, token1: '' as Address, amountIn: 5n },
    ]) {
      rerender(props)
      await act(() => delay(20))
      expect(result.current.fetchStatus).toBe('idle')
      expect(result.current.status).toBe('pending')
      expect(result.current.error).toBeNull()
      expect(result.current.data).toBeUndefined()
    }
    expect(requests).toHaveLength(0)
    rerender({ token0: WETH, token1: USDC, amountIn: 5n })
    await waitFor(() => expect(result.current.data?.amountOut).toBe(10n))
    expect(amountsSent()).toEqual(['5'])
  })

  test('typing "1" → "12" → "125" → "1250" within the debounce window sends exactly one request', async () => {
    doubling()
    const { result, rerender } = renderSwapHook((props: Props) => useSwapRoute(props), {
      provider,
      initialProps: { token0: WETH, token1: USDC } as Props,
    })
    for (const typed of ['1', '12', '125', '1250']) {
      rerender({ token0: WETH, token1: USDC, amountIn: BigInt(typed) })
      await act(() => delay(40))
      expect(result.current.isDebouncing).toBe(true)
    }
    await waitFor(() => expect(result.current.data?.amountOut).toBe(2500n))
    expect(result.current.isDebouncing).toBe(false)
    expect(amountsSent()).toEqual(['1250'])
  })

  test('debounceMs: 0 requests every amount at once', async () => {
    doubling()
    const { result, rerender } = renderSwapHook((props: Props) => useSwapRoute(props), {
      provider,
      initialProps: { token0: WETH, token1: USDC, amountIn: 1n, debounceMs: 0 },
    })
    await waitFor(() => expect(result.current.data?.amountOut).toBe(2n))
    rerender({ token0: WETH, token1: USDC, amountIn: 2n, debounceMs: 0 })
    await waitFor(() => expect(result.current.data?.amountOut).toBe(4n))
    expect(amountsSent()).toEqual(['1', '2'])
  })

  test('the previous quote stays visible, flagged as placeholder and not fresh, while the next loads', async () => {
    doubling(60)
    const { result, rerender } = renderSwapHook((props: Props) => useSwapRoute(props), {
      provider,
      initialProps: { token0: WETH, token1: USDC, amountIn: 10n, debounceMs: 50 },
    })
    await waitFor(() => expect(result.current.isFresh).toBe(true))
    expect(result.current.quotedAt).toBe(result.current.dataUpdatedAt)

    rerender({ token0: WETH, token1: USDC, amountIn: 11n, debounceMs: 50 })
    expect(result.current.data?.amountOut).toBe(20n)
    expect(result.current.isPlaceholderData).toBe(true)
    expect(result.current.isDebouncing).toBe(true)
    expect(result.current.isFresh).toBe(false)
    expect(result.current.quotedAt).toBeUndefined()

    await waitFor(() => expect(result.current.isFetching).toBe(true))
    expect(result.current.isPlaceholderData).toBe(true)
    await waitFor(() => expect(result.current.data?.amountOut).toBe(22n))
    expect(result.current.isPlaceholderData).toBe(false)
    expect(result.current.isFresh).toBe(true)
  })

  test('a quote for other tokens is never shown as a placeholder', async () => {
    doubling(30)
    const { result, rerender } = renderSwapHook((props: Props) => useSwapRoute(props), {
      provider,
      initialProps: { token0: WETH, token1: USDC, amountIn: 10n },
    })
    await waitFor(() => expect(result.current.isSuccess).toBe(true))
    rerender({ token0: WETH, token1: DAI, amountIn: 10n })
    expect(result.current.data).toBeUndefined()
    expect(result.current.isPending).toBe(true)
    // Nor when the input becomes incomplete.
    rerender({ token0: WETH, token1: USDC, amountIn: 0n })
    expect(result.current.data).toBeUndefined()
  })

  test('a superseded request is aborted: the fetch got the query’s signal', async () => {
    doubling(300)
    const signals: AbortSignal[] = []
    const { result, rerender } = renderSwapHook((props: Props) => useSwapRoute(props), {
      provider: {
        ...provider,
        fetch: (input, init) => {
          signals.push(init?.signal as AbortSignal)
          return fetch(input, init)
        },
      },
      initialProps: { token0: WETH, token1: USDC, amountIn: 1n, debounceMs: 0 },
    })
    await waitFor(() => expect(signals).toHaveLength(1))
    rerender({ token0: WETH, token1: USDC, amountIn: 2n, debounceMs: 0 })
    await waitFor(() => expect(signals).toHaveLength(2))
    expect(signals[0]?.aborted).toBe(true)
    expect(signals[1]?.aborted).toBe(false)
    await waitFor(() => expect(result.current.data?.amountOut).toBe(4n))
  })

  test('after a failed refetch the old quote is kept but never fresh', async () => {
    doubling()
    const { result } = renderSwapHook(
      (props: Props) => useSwapRoute({ ...props, query: { retry: false, staleTime: 0 } }),
      { provider, initialProps: { token0: WETH, token1: USDC, amountIn: 3n } },
    )
    await waitFor(() => expect(result.current.data?.amountOut).toBe(6n))
    const quotedAt = result.current.quotedAt
    server.use(http.get(routeUrl, () => HttpResponse.json({ detail: 'maintenance' }, { status: 503 })))
    await act(async () => {
      await result.current.refetch()
    })
    await waitFor(() => expect(result.current.isRefetchError).toBe(true))
    expect(result.current.data?.amountOut).toBe(6n)
    expect(result.current.isRefetchError).toBe(true)
    expect(result.current.isFresh).toBe(false)
    expect(result.current.quotedAt).toBe(quotedAt)
  })

  test('404 is a NoRouteError, sent once and never retried', async () => {
    server.use(http.get(routeUrl, () => HttpResponse.json({ detail: 'no path' }, { status: 404 })))
    const { result } = renderSwapHook(() => useSwapRoute({ token0: WETH, token1: DAI, amountIn: 1n }), {
      provider,
    })
    await waitFor(() => expect(result.current.isError).toBe(true))
    expect(result.current.error).toBeInstanceOf(NoRouteError)
    expect(result.current.failureCount).toBe(1)
    await act(() => delay(700))
    expect(requests).toHaveLength(1)
  })

  test('polls, and polling waits while the client is paused by a 429', async () => {
    doubling()
    const client = createSwapClient({ baseUrl, rateLimit: false })
    const { result } = renderSwapHook(() => useSwapRoute({ token0: WETH, token1: USDC, amountIn: 1n }), {
      provider: { client, queryDefaults: { swapRoute: { refetchInterval: 40, staleTime: 0 } } },
    })
    await waitFor(() => expect(requests.length).toBeGreaterThanOrEqual(3))
    expect(result.current.isSuccess).toBe(true)
    act(() => {
      client.rateLimiter.onRateLimited(600)
    })
    await act(() => delay(100))
    const during = requests.length
    await act(() => delay(400))
    expect(requests.length).toBe(during)
    await waitFor(() => expect(requests.length).toBeGreaterThan(during), { timeout: 2000 })
  })

  test('SSR: prefetch with the factory on the server, hydrate in the browser, no request there', async () => {
    doubling()
    const serverClient = new QueryClient()
    const swapClient = createSwapClient({ baseUrl, rateLimit: false })
    await serverClient.prefetchQuery(
      getSwapRouteQueryOptions(swapClient, { token0: WETH, token1: USDC, amountIn: 7n }),
    )
    // Keys and data hold bigints: make the whole state JSON-safe, as a framework would send it.
    const html = JSON.stringify(serializeBigInts(dehydrate(serverClient)))
    expect(requests).toHaveLength(1)

    const browserClient = createQueryClient()
    const wrapper = ({ children }: { children: ReactNode }) => (
      <QueryClientProvider client={browserClient}>
        <HydrationBoundary state={deserializeBigInts(JSON.parse(html))}>
          <SwapProvider client={swapClient}>{children}</SwapProvider>
        </HydrationBoundary>
      </QueryClientProvider>
    )
    const { result } = renderHook(() => useSwapRoute({ token0: WETH, token1: USDC, amountIn: 7n }), {
      wrapper,
    })
    expect(result.current.data).toEqual({
      path: [WETH, USDC],
      amountOut: 14n,
      quotedFor: { token0: WETH, token1: USDC, amountIn: 7n },
    })
    expect(result.current.isFresh).toBe(true)
    await act(() => delay(50))
    expect(requests).toHaveLength(1)
  })
})
