// token-swap-hooks/tabs in real Chromium: pages of one browser context are the tabs of one origin,
// with the browser's own BroadcastChannel and Web Locks; the mock service on loopback counts what
// reaches it. (`npx vitest run --project chromium`, part of `npm run test:browser`.)
import type { Page } from 'playwright-core'
import { afterAll, afterEach, beforeAll, describe, expect, test } from 'vitest'
import { requireChromium } from '../../scripts/chromium.mjs'
import { buildTabsPage, startTabsHarness, type TabsHarness, tabs } from './tabsHarness.js'

let harness: TabsHarness
const pages: Page[] = []

beforeAll(async () => {
  requireChromium()
  harness = await startTabsHarness(await buildTabsPage('tabs-test-page'), { latency: 20 })
})
afterEach(async () => {
  for (const page of pages.splice(0)) if (!page.isClosed()) await page.close()
  harness.mock.service.reset()
})
afterAll(async () => {
  await harness?.close()
})

async function open(count: number, parameters: Record<string, string | number> = {}) {
  for (let index = 0; index < count; index += 1) pages.push(await harness.open(parameters))
  return [...pages]
}

/** Polls `check` until it passes (or throws its last failure after `timeout`). */
async function eventually(check: () => Promise<void> | void, timeout = 10_000) {
  const started = Date.now()
  for (;;) {
    try {
      return await check()
    } catch (error) {
      if (Date.now() - started > timeout) throw error
      await new Promise((resolve) => setTimeout(resolve, 100))
    }
  }
}

async function leaderAmong(all: Page[]) {
  let leader: Page | undefined
  await eventually(async () => {
    const leading = await Promise.all(all.map((page) => tabs(page, 'leads')))
    expect(leading.filter(Boolean)).toHaveLength(1)
    leader = all[leading.indexOf(true)]
  })
  return leader as Page
}

const routeRequests = () => harness.mock.service.count('/swap/route')

describe('the tabs of one origin, coordinated', () => {
  test('one tab fetches the polled quote; the others get its data (bigints, dataUpdatedAt) and send nothing', async () => {
    const all = await open(3, { interval: 500 })
    expect(await tabs(all[0] as Page, 'enabled')).toBe(true)
    const leader = await leaderAmong(all)
    const followers = all.filter((page) => page !== leader)
    const before = routeRequests()
    await new Promise((resolve) => setTimeout(resolve, 3_000))
    // One request per 500 ms at the service, the leader's, whatever the number of tabs.
    const sent = routeRequests() - before
    expect(sent).toBeGreaterThanOrEqual(4)
    expect(sent).toBeLessThanOrEqual(8)
    for (const page of followers) expect(await tabs(page, 'requests')).toBe(0)
    await eventually(async () => {
      const quote = await tabs(leader, 'quote')
      expect(quote?.amountOut).toMatch(/^\d+n$/)
      expect(quote?.amountIn).toBe(`${10n ** 18n}n`)
      for (const page of followers) expect(await tabs(page, 'quote')).toEqual(quote)
    })
  })

  test('uncoordinated, each tab polls the quote itself', async () => {
    const all = await open(3, { interval: 500, coordinate: 0 })
    expect(await tabs(all[0] as Page, 'enabled')).toBe(false)
    await new Promise((resolve) => setTimeout(resolve, 1_500))
    for (const page of all) expect(await tabs(page, 'requests')).toBeGreaterThanOrEqual(2)
  })

  test('a 429 in one tab pauses the other, with the same end; polling waits for it', async () => {
    const all = await open(2, { interval: 300, maxPause: 3_000 })
    // The tab that does not poll meets the 429, on a request of its own; the polling tab must wait.
    const other = await leaderAmong(all)
    const limited = all.find((page) => page !== other) as Page
    await eventually(async () => {
      const runs = await Promise.all(all.map((page) => tabs(page, 'runsBudget')))
      expect(runs.filter(Boolean)).toHaveLength(1)
    })
    harness.mock.service.fail({
      status: 429,
      times: 1,
      endpoint: '/overview/token/price',
      headers: { 'retry-after': '2' },
    })
    expect(await tabs(limited, 'price')).toBe('RateLimitError')
    const refused = [...harness.mock.service.log].reverse().find((entry) => entry.status === 429)
    expect(refused).toBeDefined()
    let until = 0
    await eventually(async () => {
      const [state, otherState] = [await tabs(limited, 'rateLimit'), await tabs(other, 'rateLimit')]
      expect(state.rateLimitedUntil).toBeGreaterThan(Date.now())
      expect(otherState).toEqual(state)
      until = state.rateLimitedUntil as number
    })
    // Nothing reaches the service from either tab until the pause ends; then polling goes on. A
    // poll that left the other tab before the pause reached it (a BroadcastChannel message is
    // asynchronous) may still arrive just after the 429: that is what `inFlightMs` allows, not more.
    await eventually(() => {
      expect(harness.mock.service.log.some((entry) => entry.time >= until)).toBe(true)
    })
    const inFlightMs = 100
    const during = harness.mock.service.log.filter(
      (entry) => entry.time > (refused?.time as number) + inFlightMs && entry.time < until - 5,
    )
    expect(
      during.map((entry) => `${entry.path} ${entry.time - (refused?.time as number)} ms after the 429`),
    ).toEqual([])
  })

  test('when the leading tab closes, another takes over the polling', async () => {
    const all = await open(2, { interval: 300 })
    const leader = await leaderAmong(all)
    const follower = all.find((page) => page !== leader) as Page
    await eventually(async () => expect(await tabs(follower, 'quote')).toBeDefined())
    expect(await tabs(follower, 'requests')).toBe(0)
    await leader.close()
    await eventually(async () => expect(await tabs(follower, 'leads')).toBe(true))
    const before = (await tabs(follower, 'quote'))?.dataUpdatedAt as number
    await eventually(async () => {
      expect(await tabs(follower, 'requests')).toBeGreaterThanOrEqual(2)
      expect((await tabs(follower, 'quote'))?.dataUpdatedAt).toBeGreaterThan(before)
    })
  })

  test('two tabs resuming the same record: the second is refused, nothing sent; free again when the first ends', async () => {
    const [first, second] = (await open(2)) as [Page, Page]
    await tabs(first, 'startResume', 'record-1')
    // The first resume holds the record (it waits at the node, past its claim).
    await eventually(async () => expect(await tabs(first, 'asked')).toContain('eth_chainId'))
    await tabs(second, 'startResume', 'record-1')
    expect(await tabs(second, 'resumeOutcome')).toBe('SwapInProgressError')
    expect(await tabs(second, 'asked')).toEqual([])
    // The first one ends (the node fails it): the record is free for the second tab.
    await tabs(first, 'unblock')
    expect(await tabs(first, 'resumeOutcome')).not.toBe('SwapInProgressError')
    await eventually(async () => {
      await tabs(second, 'startResume', 'record-1')
      await eventually(async () => expect(await tabs(second, 'asked')).toContain('eth_chainId'), 2_000)
    })
    await tabs(second, 'unblock')
    expect(await tabs(second, 'resumeOutcome')).not.toBe('SwapInProgressError')
    for (const page of [first, second])
      expect((await tabs(page, 'asked')).filter((method) => method.startsWith('eth_send'))).toEqual([])
  })

  test('a tab that closes in the middle of a resume lets another tab resume the record', async () => {
    const [first, second] = (await open(2)) as [Page, Page]
    await tabs(first, 'startResume', 'record-2')
    await eventually(async () => expect(await tabs(first, 'asked')).toContain('eth_chainId'))
    await tabs(second, 'startResume', 'record-2')
    expect(await tabs(second, 'resumeOutcome')).toBe('SwapInProgressError')
    await first.close()
    await eventually(async () => {
      await tabs(second, 'startResume', 'record-2')
      await eventually(async () => expect(await tabs(second, 'asked')).toContain('eth_chainId'), 2_000)
    })
    await tabs(second, 'unblock')
  })
})
