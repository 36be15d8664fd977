// @vitest-environment jsdom
// (TanStack Query polls only where there is a window.)
import { hashKey, QueryClient, QueryObserver } from '@tanstack/react-query'
import { afterEach, describe, expect, test, vi } from 'vitest'
import { createFakeBrowser, sleep } from '../../test/fakeTabs.js'
import { createSwapClient } from '../core/client.js'
import { HttpError } from '../core/errors/request.js'
import { createMockMarket } from '../mock/createMockMarket.js'
import { createMockService } from '../mock/createMockService.js'
import { getSwapRouteQueryKey, getSwapRouteQueryOptions } from '../query/getSwapRoute.js'
import { withRateLimitPause } from '../query/utils.js'
import type { TabMessage } from './bus.js'
import { coordinateTabs } from './createTabCoordinator.js'
import { holdLock, lifeLock, namePrefix } from './environment.js'

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

/** A frame of the origin on the tabs' channel that is no coordinated tab: it hears every message and sends its own. */
function hostileFrame(browser: ReturnType<typeof createFakeBrowser>) {
  const { environment } = browser.tab()
  const channel = new environment.BroadcastChannel(`${namePrefix}:${baseUrl}`)
  const heard: TabMessage[] = []
  channel.addEventListener('message', ({ data }) => heard.push(data as TabMessage))
  return {
    heard,
    post: (message: TabMessage) => channel.postMessage(message),
    /** Holds the Web Lock `name` (as a tab of the origin could) until the test ends. */
    hold: (name: string) =>
      holdLock(environment.locks, name).then((release) => cleanups.push(() => release?.())),
  }
}

const year = 365 * 24 * 3_600_000

/** Every `amountOut` the tab's quote holds from now on, in order. */
function amountsSeenBy({ queryClient }: Tab) {
  const amounts: unknown[] = []
  cleanups.push(
    queryClient.getQueryCache().subscribe((event) => {
      if (event.type === 'updated' && event.action.type === 'success')
        amounts.push((event.query.state.data as { amountOut?: unknown } | undefined)?.amountOut)
    }),
  )
  return amounts
}

/** A 'data' message: a quote as the service sends it (`path`, `amount_out`), as a leading tab shares it. */
function shared(hash: string, from: string, quote: { path: string[]; amountOut: bigint }, at: number) {
  return {
    type: 'data',
    from,
    hash,
    at,
    body: { path: quote.path, amount_out: quote.amountOut.toString() },
  }
}

describe('what comes over the channel is checked', () => {
  test('a forged route is refused: not in the cache, and the tab keeps taking the leader’s quotes', async () => {
    const browser = createFakeBrowser()
    const a = openTab(browser)
    const b = openTab(browser)
    a.poll(200)
    b.poll(200)
    const leader = await pollingLeaderOf(a, b)
    const follower = leader === a ? b : a
    const frame = hostileFrame(browser)
    await vi.waitFor(() => expect(frame.heard.some(({ type }) => type === 'data')).toBe(true))
    // The frame heard the leader's id, and names it as the sender: only the schema stands in the way.
    const leaderId = frame.heard.find(({ type }) => type === 'data')?.from as string
    const hash = hashKey(key)
    const amounts = amountsSeenBy(follower)
    const attacker = { path: ['attacker'], amountOut: 10n ** 24n }
    for (let count = 0; count < 5; count += 1) {
      frame.post(shared(hash, leaderId, attacker, Date.now() + year))
      await sleep(50)
    }
    expect(amounts).not.toContain(10n ** 24n)
    expect((follower.state()?.data as { path?: string[] } | undefined)?.path).not.toEqual(['attacker'])
    // Not kept fresh by its far-future timestamp either: the leader's next quotes still come.
    const before = follower.state()?.dataUpdatedAt as number
    expect(before).toBeLessThanOrEqual(Date.now())
    await vi.waitFor(() => expect(follower.state()?.dataUpdatedAt).toBeGreaterThan(before))
    expect(follower.requests()).toBe(0)
  })

  test('a quote from a tab that does not hold the query’s lock is ignored', async () => {
    const browser = createFakeBrowser()
    const a = openTab(browser)
    const b = openTab(browser)
    a.poll(200)
    b.poll(200)
    const leader = await pollingLeaderOf(a, b)
    const follower = leader === a ? b : a
    await vi.waitFor(() => expect(follower.state()?.data).toBeDefined())
    const amounts = amountsSeenBy(follower)
    // A tab of the origin (it holds its life lock, as every coordinated tab does) that leads nothing.
    const frame = hostileFrame(browser)
    await frame.hold(lifeLock('frame'))
    const inflated = { path: [route.token0, route.token1], amountOut: 10n ** 24n }
    frame.post(shared(hashKey(key), 'frame', inflated, Date.now()))
    await sleep(300)
    expect(amounts.length).toBeGreaterThan(0) // the leader's quotes came meanwhile
    expect(amounts).not.toContain(10n ** 24n)
  })

  test('a timestamp from the future is clamped to now', async () => {
    const browser = createFakeBrowser()
    // The frame holds the quote's poll lock (it leads it) before the tab polls it.
    const frame = hostileFrame(browser)
    await frame.hold(lifeLock('frame'))
    await frame.hold(`${namePrefix}:poll:${hashKey(key)}`)
    const b = openTab(browser)
    b.poll(200)
    await sleep(100)
    expect(b.coordinator.isLeader(key)).toBe(false)
    const quote = { path: [route.token0, route.token1], amountOut: 5n }
    frame.post(shared(hashKey(key), 'frame', quote, Date.now() + year))
    await vi.waitFor(() => expect((b.state()?.data as { amountOut?: bigint })?.amountOut).toBe(5n))
    expect(b.state()?.dataUpdatedAt).toBeLessThanOrEqual(Date.now())
  })
})
