// @vitest-environment jsdom
// (TanStack Query polls only where there is a window.)
import { QueryClient, QueryObserver } from '@tanstack/react-query'
import { afterEach, describe, expect, test, vi } from 'vitest'
import { createFakeBrowser, sleep } from '../../test/fakeTabs.js'
import { createSwapClient } from '../core/client.js'
import { HttpError } from '../core/errors/request.js'
import { createMockMarket } from '../mock/createMockMarket.js'
import { createMockService } from '../mock/createMockService.js'
import { getSwapRouteQueryKey, getSwapRouteQueryOptions } from '../query/getSwapRoute.js'
import { withRateLimitPause } from '../query/utils.js'
import { coordinateTabs } from './createTabCoordinator.js'

const baseUrl = 'https://swap.test'
const route = {
  token0: '0xC02aaA39b223FE8D0A0e5C4F27eAD9083C756Cc2',
  token1: '0xA0b86991c6218b36c1d19D4a2e9Eb0cE3606eB48',
  amountIn: 10n ** 18n,
} as const
const key = getSwapRouteQueryKey({ baseUrl, ...route })

const service = createMockService(createMockMarket(), { latency: 10 })
const cleanups: (() => void)[] = []
afterEach(() => {
  for (const cleanup of cleanups.splice(0).reverse()) cleanup()
  service.reset()
})

type Tab = ReturnType<typeof openTab>

/** A tab: its own client (its requests counted), QueryClient and coordinator. */
function openTab(browser: ReturnType<typeof createFakeBrowser>) {
  const tab = browser.tab()
  let requests = 0
  const client = createSwapClient({
    baseUrl,
    fetch: (input, init) => {
      requests += 1
      return service.handle(new Request(input, init))
    },
  })
  const queryClient = new QueryClient()
  const coordinator = coordinateTabs({ client, queryClient }, tab.environment)
  const unsubscribes: (() => void)[] = []
  const stop = () => {
    for (const unsubscribe of unsubscribes.splice(0)) unsubscribe()
    queryClient.clear()
  }
  cleanups.push(() => {
    stop()
    coordinator.destroy()
  })
  return {
    tab,
    client,
    queryClient,
    coordinator,
    requests: () => requests,
    /** What useSwapRoute does: the route, polled every `intervalMs` (paused while rate limited). */
    poll(intervalMs: number, options: Record<string, unknown> = {}) {
      const observer = new QueryObserver(queryClient, {
        ...getSwapRouteQueryOptions(client, route),
        refetchInterval: withRateLimitPause(client, intervalMs),
        ...options,
      } as never)
      unsubscribes.push(observer.subscribe(() => {}))
      return observer
    },
    state: () => queryClient.getQueryState(key),
    /** The tab is closed: its page stops, the browser releases its locks (no goodbye). */
    crash() {
      stop()
      tab.close()
    },
  }
}

async function pollingLeaderOf(...tabs: Tab[]) {
  await vi.waitFor(() => expect(tabs.filter(({ coordinator }) => coordinator.isLeader(key))).toHaveLength(1))
  return tabs.find(({ coordinator }) => coordinator.isLeader(key)) as Tab
}

describe('one tab polls a quote for every tab', () => {
  test('the leader fetches; the other gets its data, bigints and dataUpdatedAt included', async () => {
    const browser = createFakeBrowser()
    const a = openTab(browser)
    const b = openTab(browser)
    a.poll(200)
    b.poll(200)
    const leader = await pollingLeaderOf(a, b)
    const follower = leader === a ? b : a
    await sleep(1_100)
    // About one request per 200 ms, all of them the leader's.
    expect(leader.requests()).toBeGreaterThanOrEqual(4)
    expect(follower.requests()).toBe(0)
    await vi.waitFor(() =>
      expect(follower.state()?.dataUpdatedAt).toBe(leader.state()?.dataUpdatedAt as number),
    )
    const shared = follower.state()?.data as { amountOut: unknown; quotedFor: { amountIn: unknown } }
    expect(shared).toEqual(leader.state()?.data)
    expect(typeof shared.amountOut).toBe('bigint')
    expect(shared.quotedFor.amountIn).toBe(route.amountIn)
    // Its own fetches, held for the leader's answer, ended with it: back to idle, never an error.
    expect(follower.state()?.status).toBe('success')
    await vi.waitFor(() => expect(follower.state()?.fetchStatus).toBe('idle'))
    expect(follower.state()?.errorUpdateCount).toBe(0)
  })

  test('uncoordinated, each tab polls for itself', async () => {
    const browser = createFakeBrowser()
    const a = openTab(browser)
    const b = openTab(browser)
    a.coordinator.destroy()
    b.coordinator.destroy()
    a.poll(200)
    b.poll(200)
    await sleep(1_100)
    expect(a.requests()).toBeGreaterThanOrEqual(4)
    expect(b.requests()).toBeGreaterThanOrEqual(4)
  })

  test('when the leading tab closes, the other takes over the polling', async () => {
    const browser = createFakeBrowser()
    const a = openTab(browser)
    const b = openTab(browser)
    a.poll(200)
    b.poll(200)
    const leader = await pollingLeaderOf(a, b)
    const follower = leader === a ? b : a
    await sleep(300)
    expect(follower.requests()).toBe(0)
    leader.crash()
    await vi.waitFor(() => expect(follower.coordinator.isLeader(key)).toBe(true))
    const before = follower.state()?.dataUpdatedAt as number
    await sleep(700)
    expect(follower.requests()).toBeGreaterThanOrEqual(2)
    expect(follower.state()?.dataUpdatedAt).toBeGreaterThan(before)
  })

  test('a tab that stops polling (hidden) hands the lead to one that polls', async () => {
    const browser = createFakeBrowser()
    const a = openTab(browser)
    const b = openTab(browser)
    a.poll(200)
    b.poll(200)
    const leader = await pollingLeaderOf(a, b)
    const follower = leader === a ? b : a
    leader.tab.setVisible(false)
    await vi.waitFor(() => expect(follower.coordinator.isLeader(key)).toBe(true))
    expect(leader.coordinator.isLeader(key)).toBe(false)
  })

  test('when the leader’s fetch fails, the other asks the service itself and gets its own typed error', async () => {
    const browser = createFakeBrowser()
    const a = openTab(browser)
    const b = openTab(browser)
    a.poll(200, { retry: false })
    const leader = await pollingLeaderOf(a)
    await vi.waitFor(() => expect(leader.state()?.status).toBe('success'))
    service.fail({ status: 503, endpoint: '/swap/route' })
    const observer = b.poll(200, { retry: false })
    await vi.waitFor(() => expect(observer.getCurrentResult().error).toBeInstanceOf(HttpError), {
      timeout: 3_000,
    })
    expect(b.requests()).toBeGreaterThanOrEqual(1)
  })

  test('only data that came through the client’s validated request is shared', async () => {
    const browser = createFakeBrowser()
    const a = openTab(browser)
    const b = openTab(browser)
    // The leader's query sits under the library's key but answers on its own (nothing validated).
    const forged = { path: [], amountOut: 'not an amount', quotedFor: {} }
    a.poll(100, { queryFn: async () => forged })
    await pollingLeaderOf(a)
    await vi.waitFor(() => expect(a.state()?.data).toEqual(forged))
    b.poll(100)
    await sleep(600)
    expect(b.state()?.data).not.toEqual(forged)
    expect(b.requests()).toBe(0) // still waiting for a validated answer (or its own fetch, later)
  })
})
