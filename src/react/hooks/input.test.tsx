import { waitFor } from '@testing-library/react'
import { HttpResponse, http } from 'msw'
import { describe, expect, test } from 'vitest'
import { ALICE, baseUrl, USDC, WETH } from '../../../test/constants.js'
import { setupMswServer } from '../../../test/msw.js'
import { renderSwapHook } from '../../../test/react.js'
import { InvalidParameterError } from '../../core/errors/parameter.js'
import { useLegacyPairs } from './useLegacyPairs.js'
import { useLegacyPath } from './useLegacyPath.js'
import { useLegacyTokens } from './useLegacyTokens.js'
import { usePairs } from './usePairs.js'
import { useSwapInfo } from './useSwapInfo.js'
import { useSwapPreview } from './useSwapPreview.js'
import { useSwapRoute } from './useSwapRoute.js'
import { useTokenPrice } from './useTokenPrice.js'
import { useTokens } from './useTokens.js'
import { useTokensData } from './useTokensData.js'

const { server, requests } = setupMswServer()
const render = <result,>(hook: () => result) =>
  renderSwapHook(hook, { provider: { baseUrl, rateLimit: false } })
const route = { token0: WETH, token1: USDC, amountIn: 10n ** 18n, debounceMs: 0 }
const badChecksum = '0xC02aaA39b223FE8D0A0e5C4F27eAD9083C756CC2' // WETH with the last letter's case flipped
type HookResult = { status: string; fetchStatus: string; error: unknown; failureCount: number }

/** Gives a disabled query time to (not) fire: a few event-loop turns, past a zero debounce. */
const settle = () => new Promise((resolve) => setTimeout(resolve, 30))

describe('missing input waits quietly: idle, no error, no request', () => {
  test.each<[string, () => HookResult]>([
    ['useSwapRoute with no amount', () => useSwapRoute({ ...route, amountIn: undefined })],
    ['useSwapRoute with a 0n amount', () => useSwapRoute({ ...route, amountIn: 0n })],
    ['useSwapRoute with an empty token', () => useSwapRoute({ ...route, token1: '' as never })],
    ['useSwapInfo without a recipient', () => useSwapInfo({ ...route, to: undefined })],
    ['useLegacyPath without token0', () => useLegacyPath({ ...route, token0: undefined })],
    ['useTokenPrice without an address', () => useTokenPrice({ address: undefined })],
  ])('%s', async (_, hook) => {
    const { result } = render(hook)
    await settle()
    expect(result.current).toMatchObject({ status: 'pending', fetchStatus: 'idle', error: null })
    expect(requests).toHaveLength(0)
  })
})

describe('present but malformed input is an InvalidParameterError naming it, with no request', () => {
  test.each<[string, string, () => HookResult]>([
    ['useSwapRoute', 'token1', () => useSwapRoute({ ...route, token1: '0x123' as never })],
    ['useSwapRoute', 'token0', () => useSwapRoute({ ...route, token0: badChecksum })],
    ['useSwapRoute', 'amountIn', () => useSwapRoute({ ...route, amountIn: -1n })],
    ['useSwapInfo', 'to', () => useSwapInfo({ ...route, to: '0xabc' as never })],
    ['useSwapInfo', 'slippage', () => useSwapInfo({ ...route, to: ALICE, slippage: 5 })],
    ['useLegacyPath', 'token0', () => useLegacyPath({ ...route, token0: badChecksum })],
    ['useTokenPrice', 'address', () => useTokenPrice({ address: 'USDC' as never })],
    ['usePairs', 'filterByToken[0]', () => usePairs({ filterByToken: [''] })],
    ['usePairs', 'blacklist', () => usePairs({ blacklist: 'yes' as never })],
    ['useTokens', 'filterByToken', () => useTokens({ filterByToken: USDC as never })],
  ])('%s: %s', async (_, parameter, hook) => {
    const { result } = render(hook)
    await waitFor(() => expect(result.current.status).toBe('error'))
    expect(result.current.error).toBeInstanceOf(InvalidParameterError)
    expect(result.current.error).toMatchObject({ parameter })
    // TanStack reports 'error' only once it stops retrying: one failure means no retry.
    expect(result.current.failureCount).toBe(1)
    expect(requests).toHaveLength(0)
  })

  test('the legacy lists and tokens data take no input: they run at once', async () => {
    server.use(http.get(`${baseUrl}/*`, () => HttpResponse.json([])))
    const { result } = render(() => [useLegacyPairs(), useLegacyTokens(), useTokensData()])
    await waitFor(() =>
      expect(result.current.every((query) => query.fetchStatus === 'fetching' || query.isFetched)).toBe(true),
    )
    expect(requests.map((request) => new URL(request.url).pathname).sort()).toEqual([
      '/get_pairs',
      '/get_tokens',
      '/get_tokens_data',
    ])
  })
})

describe('a caller can hold a query back, never run it without its input', () => {
  test.each<[string, () => HookResult]>([
    [
      'useSwapRoute with no amount and query.enabled: true',
      () => useSwapRoute({ ...route, amountIn: undefined, query: { enabled: true } }),
    ],
    [
      'useSwapRoute with no amount and query.enabled: () => true',
      () => useSwapRoute({ ...route, amountIn: undefined, query: { enabled: () => true } }),
    ],
  ])('%s', async (_, hook) => {
    const { result } = render(hook)
    await settle()
    expect(result.current).toMatchObject({ status: 'pending', fetchStatus: 'idle', error: null })
    expect(requests).toHaveLength(0)
  })

  test('useSwapPreview with no wallet or public client and query.enabled: true', async () => {
    server.use(http.get(`${baseUrl}/overview/token/price`, () => HttpResponse.json(1)))
    const { result } = render(() => useSwapPreview({ ...route, query: { enabled: true } }))
    await settle()
    expect(result.current).toMatchObject({ status: 'pending', fetchStatus: 'idle', error: null })
    // The prices it shares with useTokenPrice may load; no quote is asked without a recipient.
    expect(requests.map((request) => new URL(request.url).pathname)).not.toContain('/swap/info')
  })
})

test('a cleared amount field is not debouncing: the quote waits quietly at once', async () => {
  server.use(
    http.get(`${baseUrl}/swap/route`, () => HttpResponse.json({ path: [WETH, USDC], amount_out: '5' })),
  )
  const { result, rerender } = renderSwapHook(
    ({ amountIn }: { amountIn: bigint | undefined }) => useSwapRoute({ ...route, amountIn, debounceMs: 300 }),
    {
      provider: { baseUrl, rateLimit: false },
      initialProps: { amountIn: (10n ** 18n) as bigint | undefined },
    },
  )
  await waitFor(() => expect(result.current.isSuccess).toBe(true))
  rerender({ amountIn: 2n * 10n ** 18n })
  expect(result.current.isDebouncing).toBe(true) // a new amount settles first
  rerender({ amountIn: undefined })
  expect(result.current.isDebouncing).toBe(false)
})
