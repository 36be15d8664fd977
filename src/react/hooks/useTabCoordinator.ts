'use client'

import { useEffect } from 'react'
import { createTabCoordinator } from '../../tabs/createTabCoordinator.js'
import { useSwapContext } from './useSwapClient.js'

/** The parameters of `useTabCoordinator`. */
export type UseTabCoordinatorParameters = {
  /** Default true; false leaves the provider's client to itself. */
  enabled?: boolean | undefined
}

/**
 * Coordinates the provider's client and QueryClient with the origin's other
 * tabs (see `createTabCoordinator`) while the component is mounted: one
 * rate-limit budget, one tab polling each quote, one tab resuming a swap.
 * It starts after the first render (an effect): each tab's first requests are
 * its own. Call `createTabCoordinator` before rendering to coordinate those
 * too. Does nothing where the browser lacks `BroadcastChannel` or Web Locks.
 *
 * @example
 * import { useTabCoordinator } from 'token-swap-hooks/tabs'
 *
 * function TabCoordination() {
 *   useTabCoordinator()
 *   return null
 * }
 * <SwapProvider baseUrl="https://swap.example.com"><TabCoordination /><SwapWidget /></SwapProvider>
 */
export function useTabCoordinator({ enabled = true }: UseTabCoordinatorParameters = {}): void {
  const { client, queryClient } = useSwapContext()
  useEffect(() => {
    if (!enabled) return
    const coordinator = createTabCoordinator({ client, queryClient })
    return () => coordinator.destroy()
  }, [client, queryClient, enabled])
}
