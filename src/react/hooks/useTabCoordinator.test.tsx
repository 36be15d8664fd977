import { waitFor } from '@testing-library/react'
import { useState } from 'react'
import { afterEach, expect, test, vi } from 'vitest'
import { createFakeBrowser, sleep } from '../../../test/fakeTabs.js'
import { createQueryClient, renderSwapHook } from '../../../test/react.js'
import { createSwapClient } from '../../core/client.js'
import { coordinateTabs } from '../../tabs/createTabCoordinator.js'
import { useRateLimitState } from './useRateLimitState.js'
import { useSwapClient } from './useSwapClient.js'
import { useTabCoordinator } from './useTabCoordinator.js'

const baseUrl = 'https://swap.test'

afterEach(() => {
  vi.unstubAllGlobals()
})

/** This page is a tab of a fake browser (its BroadcastChannel and navigator.locks); another tab runs beside it. */
function besideAnotherTab() {
  const browser = createFakeBrowser()
  const other = browser.tab()
  const otherClient = createSwapClient({ baseUrl })
  const otherCoordinator = coordinateTabs({ client: otherClient }, other.environment)
  const page = browser.tab()
  vi.stubGlobal('BroadcastChannel', page.environment.BroadcastChannel)
  vi.stubGlobal('navigator', { ...globalThis.navigator, locks: page.environment.locks })
  return { otherClient, otherCoordinator }
}

function usePage(enabled = true) {
  useTabCoordinator({ enabled })
  const client = useSwapClient()
  const [own] = useState(() => ({ ...client.rateLimiter }))
  return { client, own, state: useRateLimitState() }
}

test('useTabCoordinator coordinates the provider’s client with the other tabs while mounted', async () => {
  const { otherClient, otherCoordinator } = besideAnotherTab()
  const { result, unmount } = renderSwapHook(() => usePage(), {
    provider: { baseUrl, queryClient: createQueryClient() },
  })
  await waitFor(() => expect(result.current.client.rateLimiter.acquire).not.toBe(result.current.own.acquire))
  await waitFor(() => expect(otherCoordinator.isLeader()).toBe(true))
  await sleep(50)
  // A 429 in the other tab: this page shows the same pause.
  otherClient.rateLimiter.onRateLimited(2_000)
  await waitFor(() =>
    expect(result.current.state.rateLimitedUntil).toBe(otherClient.rateLimiter.getState().rateLimitedUntil),
  )
  const { client, own } = result.current
  unmount()
  expect(client.rateLimiter.acquire).toBe(own.acquire)
  expect(client.rateLimiter.getState).toBe(own.getState)
  otherCoordinator.destroy()
})

test('useTabCoordinator({ enabled: false }) leaves the client to itself', async () => {
  const { otherCoordinator } = besideAnotherTab()
  const { result } = renderSwapHook(() => usePage(false), {
    provider: { baseUrl, queryClient: createQueryClient() },
  })
  await sleep(50)
  expect(result.current.client.rateLimiter.acquire).toBe(result.current.own.acquire)
  otherCoordinator.destroy()
})
