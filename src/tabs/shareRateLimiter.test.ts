import { afterEach, describe, expect, test, vi } from 'vitest'
import { createFakeBrowser, type FakeTab, sleep } from '../../test/fakeTabs.js'
import { getSwapRoute } from '../core/actions/getSwapRoute.js'
import { createSwapClient, type SwapClientConfig } from '../core/client.js'
import { RateLimitError } from '../core/errors/request.js'
import type { TabMessage } from './bus.js'
import { coordinateTabs, createTabCoordinator, type TabCoordinator } from './createTabCoordinator.js'
import { namePrefix } from './environment.js'

const baseUrl = 'https://swap.test'
const WETH = '0xC02aaA39b223FE8D0A0e5C4F27eAD9083C756Cc2'
const USDC = '0xA0b86991c6218b36c1d19D4a2e9Eb0cE3606eB48'

type Tab = { tab: FakeTab; client: ReturnType<typeof createSwapClient>; coordinator: TabCoordinator }
const opened: Tab[] = []

afterEach(() => {
  for (const { coordinator } of opened.splice(0)) coordinator.destroy()
})

/** A tab of the fake browser with its own client, coordinated. */
function openTab(browser: ReturnType<typeof createFakeBrowser>, config: Partial<SwapClientConfig> = {}): Tab {
  const tab = browser.tab()
  const client = createSwapClient({ baseUrl, ...config })
  const coordinator = coordinateTabs({ client }, tab.environment)
  const opening = { tab, client, coordinator }
  opened.push(opening)
  return opening
}

async function leaderOf(...tabs: Tab[]) {
  await vi.waitFor(() => expect(tabs.filter(({ coordinator }) => coordinator.isLeader())).toHaveLength(1))
  return tabs.find(({ coordinator }) => coordinator.isLeader()) as Tab
}

/** Takes `count` slots from each client at once; the milliseconds from the start at which each came. */
async function slots(clients: ReturnType<typeof createSwapClient>[], count: number) {
  const start = Date.now()
  const times: number[] = []
  await Promise.all(
    clients.flatMap((client) =>
      Array.from({ length: count }, () =>
        client.rateLimiter.acquire().then((release) => {
          times.push(Date.now() - start)
          release()
        }),
      ),
    ),
  )
  return times.sort((a, b) => a - b)
}

const pacing = { rateLimit: { requestsPerSecond: 20, burst: 2 } }

describe('one budget for the tabs of an origin', () => {
  test('two tabs draw from one token bucket; uncoordinated, each has its own', async () => {
    const browser = createFakeBrowser()
    const a = openTab(browser, pacing)
    const b = openTab(browser, pacing)
    await leaderOf(a, b)
    // 8 slots of one bucket of 2 refilled at 20/s: the last comes 6 × 50 ms after the first.
    expect((await slots([a.client, b.client], 4)).at(-1)).toBeGreaterThanOrEqual(250)
    // Two clients on their own: 4 slots each from a bucket of 2, the last after 2 × 50 ms.
    const alone = [createSwapClient({ baseUrl, ...pacing }), createSwapClient({ baseUrl, ...pacing })]
    expect((await slots(alone, 4)).at(-1)).toBeLessThan(200)
  })

  test('a 429 in one tab pauses the other, with the same end, the server’s ask and the cap', async () => {
    const browser = createFakeBrowser()
    const tooMany = () =>
      Promise.resolve(new Response('slow down', { status: 429, headers: { 'retry-after': '5' } }))
    const a = openTab(browser, { fetch: tooMany, maxRateLimitPauseMs: 400 })
    const b = openTab(browser, { fetch: tooMany, maxRateLimitPauseMs: 400 })
    const leader = await leaderOf(a, b)
    const follower = leader === a ? b : a
    // The follower meets the 429: the whole origin pauses.
    const error = await getSwapRoute(follower.client, { token0: WETH, token1: USDC, amountIn: 1n }).catch(
      (caught: unknown) => caught,
    )
    expect(error).toBeInstanceOf(RateLimitError)
    await vi.waitFor(() =>
      expect(leader.client.rateLimiter.getState().rateLimitedUntil).toBeGreaterThan(Date.now()),
    )
    await vi.waitFor(() =>
      expect(follower.client.rateLimiter.getState()).toEqual(leader.client.rateLimiter.getState()),
    )
    const state = leader.client.rateLimiter.getState()
    expect(state.capped).toBe(true)
    // Asked 5 s, paused 400 ms: what the server asked is kept beside the pause taken.
    expect((state.requestedUntil as number) - (state.rateLimitedUntil as number)).toBeGreaterThan(4_000)
    // A request of either tab waits for the end of that pause.
    for (const { client } of [leader, follower]) {
      const release = await client.rateLimiter.acquire()
      expect(Date.now()).toBeGreaterThanOrEqual(state.rateLimitedUntil as number)
      release()
    }
  })

  test('when the leading tab closes, another leads, with the pause it announced', async () => {
    const browser = createFakeBrowser()
    const a = openTab(browser, pacing)
    const b = openTab(browser, pacing)
    const leader = await leaderOf(a, b)
    const follower = leader === a ? b : a
    leader.client.rateLimiter.onRateLimited(500)
    await vi.waitFor(() => expect(follower.client.rateLimiter.getState().rateLimitedUntil).toBeDefined())
    const until = follower.client.rateLimiter.getState().rateLimitedUntil as number
    // The tab crashes: no goodbye, the browser releases its locks.
    leader.tab.close()
    await vi.waitFor(() => expect(follower.coordinator.isLeader()).toBe(true))
    expect(follower.client.rateLimiter.getState().rateLimitedUntil).toBe(until)
    const release = await follower.client.rateLimiter.acquire()
    expect(Date.now()).toBeGreaterThanOrEqual(until)
    release()
  })

  test('a slot held by a tab that closed comes back', async () => {
    const browser = createFakeBrowser()
    const a = openTab(browser, pacing)
    const b = openTab(browser, pacing)
    const leader = await leaderOf(a, b)
    const follower = leader === a ? b : a
    // After a 429 the budget is careful: one request in flight at a time, for every tab.
    leader.client.rateLimiter.onRateLimited(0)
    await follower.client.rateLimiter.acquire() // never released: the tab dies with it
    let granted = false
    const waiting = leader.client.rateLimiter.acquire().then((release) => {
      granted = true
      release()
    })
    await sleep(200)
    expect(granted).toBe(false)
    follower.tab.close()
    await waiting
    expect(granted).toBe(true)
  })

  test('a hidden leader hands the lead to a tab that waits for it', async () => {
    const browser = createFakeBrowser()
    const a = openTab(browser)
    const b = openTab(browser)
    const leader = await leaderOf(a, b)
    const follower = leader === a ? b : a
    leader.tab.setVisible(false)
    await vi.waitFor(() => expect(follower.coordinator.isLeader()).toBe(true))
    expect(leader.coordinator.isLeader()).toBe(false)
    // And it still takes its slots from the new leader.
    const release = await leader.client.rateLimiter.acquire()
    release()
  })

  test('destroy() gives the client its own limiter back; a request waiting for a remote slot gets one here', async () => {
    const browser = createFakeBrowser()
    const slow = { rateLimit: { requestsPerSecond: 0.1, burst: 1 } }
    const tab = browser.tab()
    const client = createSwapClient({ baseUrl, ...slow })
    const own = { ...client.rateLimiter }
    const coordinator = coordinateTabs({ client }, tab.environment)
    const other = openTab(browser, slow)
    await vi.waitFor(() => expect(coordinator.isLeader() || other.coordinator.isLeader()).toBe(true))
    const [leader, follower] = coordinator.isLeader()
      ? [{ client, coordinator }, other]
      : [other, { client, coordinator }]
    // The leader's budget has one slot per 10 s and takes it; the follower waits for the next.
    await leader.client.rateLimiter.acquire()
    let granted = false
    const waiting = follower.client.rateLimiter.acquire().then((release) => {
      granted = true
      release()
    })
    await sleep(100)
    expect(granted).toBe(false)
    follower.coordinator.destroy()
    // Its own bucket is full: the slot comes at once.
    await waiting
    expect(follower.coordinator.isLeader()).toBe(false)
    coordinator.destroy()
    expect(client.rateLimiter.acquire).toBe(own.acquire)
    expect(client.rateLimiter.getState).toBe(own.getState)
    expect({ ...client.rateLimiter }).toEqual(own)
  })
})

describe('where BroadcastChannel or Web Locks are missing', () => {
  test('nothing is coordinated and the client is left as it is', () => {
    const client = createSwapClient({ baseUrl })
    const own = { ...client.rateLimiter }
    const request = client.request
    const coordinator = coordinateTabs({ client }, undefined)
    expect(coordinator.enabled).toBe(false)
    expect(coordinator.isLeader()).toBe(false)
    expect({ ...client.rateLimiter }).toEqual(own)
    expect(client.request).toBe(request)
    coordinator.destroy()
  })

  test('in Node (no page), createTabCoordinator does nothing', () => {
    const client = createSwapClient({ baseUrl })
    const acquire = client.rateLimiter.acquire
    const coordinator = createTabCoordinator({ client })
    expect(coordinator.enabled).toBe(false)
    expect(client.rateLimiter.acquire).toBe(acquire)
  })

  test('a client that is not one is an InvalidParameterError', () => {
    expect(() => coordinateTabs({ client: {} as never }, undefined)).toThrowErrorMatchingInlineSnapshot(`
      [InvalidParameterError: Invalid parameter "client": must be a client from createSwapClient.

      Received: object]
    `)
  })
})

/** A frame of the origin on the tabs' channel that is no coordinated tab: it hears every message and sends its own. */
function hostileFrame(browser: ReturnType<typeof createFakeBrowser>) {
  const { environment } = browser.tab()
  const channel = new environment.BroadcastChannel(`${namePrefix}:${baseUrl}`)
  const heard: TabMessage[] = []
  channel.addEventListener('message', ({ data }) => heard.push(data as TabMessage))
  return { heard, post: (message: TabMessage) => channel.postMessage(message) }
}

/**
 * Two coordinated tabs whose service answers 429 with `Retry-After: 1`, a frame on their channel,
 * and one real 429: every tab pauses for 1 s. Returns when that was, and the frame's flood: every
 * 50 ms, what `messages` makes of the current time.
 */
async function pausedBy429(messages: (now: number, heard: TabMessage[], leaderId: string) => TabMessage[]) {
  const browser = createFakeBrowser()
  const tooMany = () =>
    Promise.resolve(new Response('slow down', { status: 429, headers: { 'retry-after': '1' } }))
  const config = { fetch: tooMany, rateLimit: false as const, maxRateLimitPauseMs: 60_000 }
  const a = openTab(browser, config)
  const b = openTab(browser, config)
  const leader = await leaderOf(a, b)
  const follower = leader === a ? b : a
  const frame = hostileFrame(browser)
  frame.post({ type: 'hello', from: 'frame' }) // the leader announces itself: the frame learns its id
  await vi.waitFor(() => expect(frame.heard.some(({ type }) => type === 'leader')).toBe(true))
  const leaderId = frame.heard.find(({ type }) => type === 'leader')?.from as string
  const asked = Date.now()
  await getSwapRoute(follower.client, { token0: WETH, token1: USDC, amountIn: 1n }).catch(() => {})
  await vi.waitFor(() => expect(leader.client.rateLimiter.getState().rateLimitedUntil).toBeDefined())
  const flood = setInterval(() => {
    for (const message of messages(Date.now(), frame.heard, leaderId)) frame.post(message)
  }, 50)
  cleanupFlood = () => clearInterval(flood)
  /** The milliseconds from the 429 until a slot comes to `tab` (Infinity: none within 3 s). */
  const slotAfter = ({ client }: Tab) =>
    client.rateLimiter.acquire(AbortSignal.timeout(3_000)).then(
      (release) => {
        release()
        return Date.now() - asked
      },
      () => Number.POSITIVE_INFINITY,
    )
  return { leader, follower, asked, slotAfter }
}

let cleanupFlood = () => {}
afterEach(() => cleanupFlood())

// What the service asked (1 s), and the time the news takes from tab to tab.
const boundMs = 1_000 + 100

describe('pause messages', () => {
  test('429 reports with no slot of the leader behind them are ignored: the pause ends when the service said', async () => {
    const { leader, follower, slotAfter } = await pausedBy429((now, heard) => [
      { type: 'rateLimited', from: 'frame', retryAfterMs: 1_000, at: now },
      // With the ids of the slots the follower asked for, as the frame heard them.
      ...heard
        .filter(({ type }) => type === 'acquire')
        .map(({ id, from }) => ({ type: 'rateLimited', from, id, retryAfterMs: 1_000, at: now })),
    ])
    expect(await slotAfter(leader)).toBeLessThanOrEqual(boundMs)
    expect(await slotAfter(follower)).toBeLessThanOrEqual(boundMs)
  })

  test('pauses declared in the leader’s name that the leader never took are ignored', async () => {
    const { leader, follower, asked } = await pausedBy429((now, _heard, leaderId) => [
      {
        type: 'state',
        from: leaderId,
        state: { rateLimitedUntil: now + 1_000, requestedUntil: now + 1_000, capped: false },
      },
    ])
    await sleep(asked + boundMs + 200 - Date.now())
    for (const { client } of [leader, follower])
      expect(client.rateLimiter.getState().rateLimitedUntil ?? 0).toBeLessThanOrEqual(asked + boundMs)
  })
})
