import { QueryClient, QueryClientProvider, useQuery, useQueryClient } from '@tanstack/react-query'
import { render, renderHook, screen, waitFor } from '@testing-library/react'
import { HttpResponse, http } from 'msw'
import { type ReactNode, useState } from 'react'
import { describe, expect, test } from 'vitest'
import { baseUrl, WETH } from '../../test/constants.js'
import { setupMswServer } from '../../test/msw.js'
import { createSwapClient } from '../core/client.js'
import { SwapProvider } from './context.js'
import { SwapProviderNotFoundError } from './errors.js'
import { useSwapClient, useSwapContext } from './hooks/useSwapClient.js'
import { useTokens } from './hooks/useTokens.js'

const { server, requests } = setupMswServer()
const tokens = [{ address: WETH, symbol: 'WETH', decimals: 18 }]

describe('SwapProvider', () => {
  test('a hook outside the provider throws SwapProviderNotFoundError saying what to do', () => {
    let caught: unknown
    try {
      renderHook(() => useTokens())
    } catch (error) {
      caught = error
    }
    expect(caught).toBeInstanceOf(SwapProviderNotFoundError)
    expect((caught as Error).message).toMatchInlineSnapshot(`
      "The hooks of token-swap-hooks must be used within <SwapProvider>.

      Wrap them in <SwapProvider baseUrl={url}> (or client={createSwapClient({ baseUrl })})."
    `)
    expect(() => renderHook(() => useSwapClient())).toThrow(SwapProviderNotFoundError)
  })

  test('builds a client from baseUrl and settings', () => {
    const { result } = renderHook(() => useSwapClient(), {
      wrapper: ({ children }) => (
        <SwapProvider baseUrl={`${baseUrl}/api/`} arrayFormat="comma" timeoutMs={5000}>
          {children}
        </SwapProvider>
      ),
    })
    expect(result.current.baseUrl).toBe(`${baseUrl}/api`)
    expect(result.current.arrayFormat).toBe('comma')
    expect(result.current.timeoutMs).toBe(5000)
  })

  test('uses a ready client as given', () => {
    const client = createSwapClient({ baseUrl })
    const { result } = renderHook(() => useSwapClient(), {
      wrapper: ({ children }) => <SwapProvider client={client}>{children}</SwapProvider>,
    })
    expect(result.current).toBe(client)
  })

  test('inline headers and fetch do not recreate the client (and its rate limiter) on every render', async () => {
    server.use(http.get(`${baseUrl}/overview/tokens`, () => HttpResponse.json(tokens)))
    const clients = new Set<unknown>()
    function Probe() {
      const client = useSwapClient()
      clients.add(client)
      const [n, setN] = useState(0)
      if (n < 3) setTimeout(() => setN(n + 1), 0)
      return <p>render {n}</p>
    }
    function App() {
      const [key, setKey] = useState(0)
      return (
        <SwapProvider
          baseUrl={baseUrl}
          headers={{ 'x-api-key': `key-${key}` }}
          rateLimit={{ requestsPerSecond: 10 }}
          fetch={(input, init) => fetch(input, init)}
        >
          <Probe />
          <button type="button" onClick={() => setKey(key + 1)}>
            rotate
          </button>
        </SwapProvider>
      )
    }
    render(<App />)
    await screen.findByText('render 3')
    screen.getByRole('button').click()
    await waitFor(() => expect(screen.getByText('render 3')).toBeTruthy())
    expect(clients.size).toBe(1)
  })

  test('the latest headers are used for each request', async () => {
    server.use(http.get(`${baseUrl}/overview/tokens`, () => HttpResponse.json(tokens)))
    let apiKey = 'first-key'
    const wrapper = ({ children }: { children: ReactNode }) => (
      <SwapProvider baseUrl={baseUrl} headers={() => ({ 'x-api-key': apiKey })}>
        {children}
      </SwapProvider>
    )
    const { result } = renderHook(() => useTokens({ query: { staleTime: 0 } }), { wrapper })
    await waitFor(() => expect(result.current.isSuccess).toBe(true))
    apiKey = 'second-key'
    await result.current.refetch()
    expect(requests.map((r) => r.headers.get('x-api-key'))).toEqual(['first-key', 'second-key'])
  })

  test('inside an app’s QueryClientProvider it uses that client and leaves its defaults alone', async () => {
    server.use(http.get(`${baseUrl}/overview/tokens`, () => HttpResponse.json(tokens)))
    const appClient = new QueryClient({ defaultOptions: { queries: { staleTime: 1234, retry: 7 } } })
    const before = JSON.stringify(appClient.getDefaultOptions())
    const { result } = renderHook(
      () => ({ tokens: useTokens(), queryClient: useSwapContext().queryClient, app: useQueryClient() }),
      {
        wrapper: ({ children }) => (
          <QueryClientProvider client={appClient}>
            <SwapProvider baseUrl={baseUrl} queryDefaults={{ tokens: { staleTime: 99 } }}>
              {children}
            </SwapProvider>
          </QueryClientProvider>
        ),
      },
    )
    await waitFor(() => expect(result.current.tokens.isSuccess).toBe(true))
    expect(result.current.queryClient).toBe(appClient)
    expect(result.current.app).toBe(appClient)
    expect(appClient.getQueryData(['tokens', { baseUrl }])).toEqual(tokens)
    expect(JSON.stringify(appClient.getDefaultOptions())).toBe(before)
    expect(appClient.getQueryDefaults(['tokens'])).toEqual({})
    // The provider's override applies to the swap query only.
    const query = appClient.getQueryCache().find({ queryKey: ['tokens', { baseUrl }] })
    expect((query?.options as { staleTime?: number } | undefined)?.staleTime).toBe(99)
  })

  test('alone, it creates its own QueryClient', async () => {
    server.use(http.get(`${baseUrl}/overview/tokens`, () => HttpResponse.json(tokens)))
    const { result } = renderHook(
      () => ({ tokens: useTokens(), queryClient: useSwapContext().queryClient }),
      {
        wrapper: ({ children }) => <SwapProvider baseUrl={baseUrl}>{children}</SwapProvider>,
      },
    )
    await waitFor(() => expect(result.current.tokens.data).toEqual(tokens))
    expect(result.current.queryClient).toBeInstanceOf(QueryClient)
  })

  test('alone, it provides its QueryClient: useQuery and useQueryClient work below it', async () => {
    server.use(http.get(`${baseUrl}/overview/tokens`, () => HttpResponse.json(tokens)))
    const { result } = renderHook(
      () => ({
        swap: useSwapContext().queryClient,
        app: useQueryClient(),
        own: useQuery({ queryKey: ['app', 'own'], queryFn: () => 'app data' }),
      }),
      { wrapper: ({ children }) => <SwapProvider baseUrl={baseUrl}>{children}</SwapProvider> },
    )
    await waitFor(() => expect(result.current.own.data).toBe('app data'))
    expect(result.current.app).toBe(result.current.swap)
    expect(result.current.app.getQueryData(['app', 'own'])).toBe('app data')
  })

  test('an explicit queryClient wins over the enclosing one', () => {
    const appClient = new QueryClient()
    const swapClient = new QueryClient()
    const { result } = renderHook(() => useSwapContext().queryClient, {
      wrapper: ({ children }) => (
        <QueryClientProvider client={appClient}>
          <SwapProvider baseUrl={baseUrl} queryClient={swapClient}>
            {children}
          </SwapProvider>
        </QueryClientProvider>
      ),
    })
    expect(result.current).toBe(swapClient)
  })

  test('refuses an insecure base URL with InvalidParameterError', () => {
    expect(() =>
      renderHook(() => useSwapClient(), {
        wrapper: ({ children }) => <SwapProvider baseUrl="http://swap.example.com">{children}</SwapProvider>,
      }),
    ).toThrow(/must use https/)
  })
})
