// @vitest-environment node
// `npm run bench -- bench/tabs.test.ts`: requests per minute at the service with 1, 2 and 4 tabs of
// one origin open on the same polled quote (useSwapRoute, refetchInterval 2 s), with
// token-swap-hooks/tabs (createTabCoordinator before the first render) and without it. The tabs are
// pages of one Chromium context (test/chromium/tabsPage, built with Vite); the service is the
// loopback mock, which logs every request. Prints a table and writes bench/tabs.json. Figures, not
// assertions (only that the pages show their quote is checked).
import { writeFileSync } from 'node:fs'
import { cpus, totalmem } from 'node:os'
import type { Page } from 'playwright-core'
import { afterAll, beforeAll, expect, test } from 'vitest'
import { requireChromium } from '../scripts/chromium.mjs'
import { buildTabsPage, startTabsHarness, type TabsHarness, tabs } from '../test/chromium/tabsHarness.js'

const intervalMs = 2_000
const windowMs = 30_000
const warmUpMs = 3_000

type Row = {
  tabs: number
  coordinator: 'on' | 'off'
  routeRequests: number
  requestsPerMinute: number
  /** The requests each page sent itself, in the order the pages opened. */
  perTab: string
  perMinuteVsOneTab: number
}
const rows: Row[] = []
let harness: TabsHarness

beforeAll(async () => {
  requireChromium()
  harness = await startTabsHarness(await buildTabsPage('tabs-bench-page'), { latency: { min: 20, max: 60 } })
}, 180_000)

afterAll(async () => {
  await harness?.close()
  const oneTab = (coordinator: Row['coordinator']) =>
    rows.find((row) => row.tabs === 1 && row.coordinator === coordinator)?.requestsPerMinute
  for (const row of rows) row.perMinuteVsOneTab = round(row.requestsPerMinute / (oneTab('off') ?? 1))
  console.table(rows)
  const report = {
    note:
      `/swap/route requests logged by the loopback mock service while N pages (tabs of one Chromium context, one origin) ` +
      `showed the same quote with useSwapRoute polled every ${intervalMs / 1000} s, counted over ${windowMs / 1000} s after a ` +
      `${warmUpMs / 1000}-s warm-up and given per minute; coordinator "on": createTabCoordinator({ client, queryClient }) ` +
      `before the first render; perTab: the requests each page sent itself in the window; perMinuteVsOneTab: against one ` +
      `tab without the coordinator. With the library's default 15-s polling every figure is 7.5 times smaller.`,
    machine: `${cpus()[0]?.model.trim()}, ${cpus().length} cores, ${Math.round(totalmem() / 2 ** 30)} GiB, Node ${process.version}, ${harness?.browserVersion}`,
    intervalMs,
    windowMs,
    rows,
  }
  writeFileSync(new URL('./tabs.json', import.meta.url), `${JSON.stringify(report, null, 2)}\n`)
})

const round = (value: number) => Math.round(value * 100) / 100

for (const coordinator of ['off', 'on'] as const)
  for (const count of [1, 2, 4])
    test(`${count} tab${count > 1 ? 's' : ''}, coordinator ${coordinator}`, async () => {
      const pages: Page[] = []
      try {
        for (let index = 0; index < count; index += 1)
          pages.push(
            await harness.open({ interval: intervalMs, ...(coordinator === 'off' && { coordinate: 0 }) }),
          )
        for (const page of pages)
          await expect.poll(() => tabs(page, 'quote'), { timeout: 20_000 }).toBeDefined()
        await new Promise((resolve) => setTimeout(resolve, warmUpMs))
        const before = harness.mock.service.count('/swap/route')
        const sentBefore = await Promise.all(pages.map((page) => tabs(page, 'requests')))
        await new Promise((resolve) => setTimeout(resolve, windowMs))
        const routeRequests = harness.mock.service.count('/swap/route') - before
        const sent = await Promise.all(pages.map((page) => tabs(page, 'requests')))
        rows.push({
          tabs: count,
          coordinator,
          routeRequests,
          requestsPerMinute: round((routeRequests * 60_000) / windowMs),
          perTab: sent.map((value, index) => value - (sentBefore[index] as number)).join(', '),
          perMinuteVsOneTab: 0,
        })
      } finally {
        for (const page of pages) await page.close()
      }
    }, 120_000)
