import { QueryClient } from '@tanstack/react-query'
import { type RenderHookOptions, renderHook } from '@testing-library/react'
import type { ReactNode } from 'react'
import { SwapProvider, type SwapProviderProps } from '../src/react/context.js'

/** A fresh QueryClient per test, as TanStack's own tests do. */
export function createQueryClient() {
  return new QueryClient({ defaultOptions: { queries: { gcTime: Number.POSITIVE_INFINITY } } })
}

/**
 * renderHook inside a SwapProvider. Returns the QueryClient too so a test can
 * inspect the cache.
 */
export function renderSwapHook<result, props>(
  hook: (props: props) => result,
  { provider, ...options }: { provider: SwapProviderProps } & Omit<RenderHookOptions<props>, 'wrapper'>,
) {
  const queryClient = provider.queryClient ?? createQueryClient()
  const wrapper = ({ children }: { children: ReactNode }) => (
    <SwapProvider {...provider} queryClient={queryClient}>
      {children}
    </SwapProvider>
  )
  return { ...renderHook(hook, { wrapper, ...options }), queryClient }
}
