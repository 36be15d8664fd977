import { render, screen, waitFor } from '@testing-library/react'
import { describe, expect, test } from 'vitest'
import { setupMockService } from '../../../test/mockService.js'
import { createQueryClient, renderSwapHook } from '../../../test/react.js'
import { HttpError, NetworkError, RateLimitError, TimeoutError } from '../../core/errors/request.js'
import { ResponseValidationError } from '../../core/errors/response.js'
import { SwapProvider } from '../context.js'
import { useTokens } from './useTokens.js'

const mock = setupMockService()
// Keep the default retry policy, but without its backoff, so the tests stay fast.
const fastRetries = { tokens: { retryDelay: 5 } }

describe('useTokens', () => {
  test('a thousand components reading one key send one request', async () => {
    const { baseUrl, service } = mock.use('msw')
    function Symbols({ index }: { index: number }) {
      const { data } = useTokens()
      return data ? <li data-testid={`row-${index}`}>{data.length}</li> : null
    }
    render(
      <SwapProvider baseUrl={baseUrl} queryClient={createQueryClient()}>
        <ul>
          {Array.from({ length: 1000 }, (_, index) => (
            // biome-ignore lint/suspicious/noArrayIndexKey: a fixed list
            <Symbols key={index} index={index} />
          ))}
        </ul>
      </SwapProvider>,
    )
    await waitFor(() => expect(screen.getAllByRole('listitem')).toHaveLength(1000))
    expect(service.count('/overview/tokens')).toBe(1)
  })

  test.each([
    ['a 500', { status: 500 }, HttpError, 3],
    ['a 503 HTML page', { status: 503, body: '<html><h1>Service Unavailable</h1></html>' }, HttpError, 3],
    ['a dropped connection', { network: true }, NetworkError, 3],
    ['a 429', { status: 429, headers: { 'retry-after': '0' } }, RateLimitError, 3],
    ['a 422', { status: 422 }, HttpError, 1],
    ['a 404', { status: 404 }, HttpError, 1],
    [
      'a 200 HTML page',
      { status: 200, body: '<!doctype html><p>Please log in</p>' },
      ResponseValidationError,
      1,
    ],
  ] as const)('%s ends as %s after %i tries', async (_, failure, ErrorClass, tries) => {
    const { baseUrl, service } = mock.use('msw')
    service.fail({ ...failure, endpoint: '/overview/tokens' })
    const { result } = renderSwapHook(() => useTokens(), {
      provider: { baseUrl, rateLimit: false, queryDefaults: fastRetries },
    })
    await waitFor(() => expect(result.current.isError).toBe(true), { timeout: 5000 })
    expect(result.current.error).toBeInstanceOf(ErrorClass)
    expect(result.current.failureCount).toBe(tries)
    expect(service.count('/overview/tokens')).toBe(tries)
  })

  test('a slow service ends as TimeoutError after three tries', async () => {
    const { baseUrl, service } = mock.use('msw')
    service.setLatency(500)
    const { result } = renderSwapHook(() => useTokens(), {
      provider: { baseUrl, rateLimit: false, timeoutMs: 30, queryDefaults: fastRetries },
    })
    await waitFor(() => expect(result.current.isError).toBe(true), { timeout: 5000 })
    expect(result.current.error).toBeInstanceOf(TimeoutError)
    expect(result.current.failureCount).toBe(3)
  })

  test('recovers when a retry succeeds', async () => {
    const { baseUrl, service } = mock.use('msw')
    service.fail({ status: 502, times: 2 })
    const { result } = renderSwapHook(() => useTokens(), {
      provider: { baseUrl, rateLimit: false, queryDefaults: fastRetries },
    })
    await waitFor(() => expect(result.current.isSuccess).toBe(true), { timeout: 5000 })
    expect(service.count('/overview/tokens')).toBe(3)
  })

  test('per-hook options win over the provider’s, which win over the defaults', async () => {
    const { baseUrl } = mock.use('msw')
    const { result, queryClient } = renderSwapHook(() => useTokens({ query: { gcTime: 1234 } }), {
      provider: { baseUrl, queryDefaults: { tokens: { staleTime: 42, gcTime: 99 } } },
    })
    await waitFor(() => expect(result.current.isSuccess).toBe(true))
    const options = queryClient.getQueryCache().find({ queryKey: result.current.queryKey })?.options as {
      staleTime: number
      gcTime: number
    }
    expect(options.staleTime).toBe(42)
    expect(options.gcTime).toBe(1234)
  })

  test('enabled: false from the caller keeps it idle', async () => {
    const { baseUrl, service } = mock.use('msw')
    const { result } = renderSwapHook(() => useTokens({ query: { enabled: false } }), {
      provider: { baseUrl },
    })
    await new Promise((resolve) => setTimeout(resolve, 50))
    expect(result.current.fetchStatus).toBe('idle')
    expect(service.count()).toBe(0)
  })
})
