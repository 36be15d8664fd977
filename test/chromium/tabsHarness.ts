// What the tabs tests and the tabs bench share: the page of test/chromium/tabsPage built with Vite
// (from the library's source), served on a loopback origin, the mock service on another loopback
// port (it answers with CORS headers and logs every request), and a Chromium whose pages of one
// context are the tabs of one origin.
import { resolve } from 'node:path'
import react from '@vitejs/plugin-react'
import { type Browser, type BrowserContext, chromium, type Page } from 'playwright-core'
import { build } from 'vite'
import { chromiumArgs, chromiumPath } from '../../scripts/chromium.mjs'
import { serveStatic } from '../../scripts/static-server.mjs'
import { createMockMarket } from '../../src/mock/createMockMarket.js'
import { type MockServer, startMockServer } from '../../src/mock/startMockServer.js'
import type { MockServiceOptions } from '../../src/mock/types.js'
import type { TabsPage } from './tabsPage/main.js'

const root = resolve(import.meta.dirname, '../..')

/** Builds the page into `.cache/<name>` (outside git); its directory. */
export async function buildTabsPage(name: string): Promise<string> {
  const outDir = resolve(root, '.cache', name)
  await build({
    configFile: false,
    root: resolve(import.meta.dirname, 'tabsPage'),
    base: './',
    logLevel: 'warn',
    plugins: [react()],
    // One page with React, viem and the library unminified is a few MB: no chunk warning.
    build: { outDir, emptyOutDir: true, target: 'es2022', chunkSizeWarningLimit: 8_000 },
  })
  return outDir
}

export type TabsHarness = {
  mock: MockServer
  /** The browser's name and version, e.g. `Chromium 139.0.7258.154`. */
  browserVersion: string
  /** Opens a tab of the one context on the page, with `?service=` and these parameters. */
  open(parameters?: Record<string, string | number>): Promise<Page>
  /** A new browser context: another profile, whose tabs share nothing with the first one's. */
  context(): Promise<BrowserContext>
  close(): Promise<void>
}

export async function startTabsHarness(
  pageDir: string,
  mockOptions: MockServiceOptions = {},
): Promise<TabsHarness> {
  const server = await serveStatic(pageDir)
  const mock = await startMockServer({ market: createMockMarket(), ...mockOptions })
  const browser: Browser = await chromium.launch({ executablePath: chromiumPath, args: chromiumArgs })
  const context = await browser.newContext()
  return {
    mock,
    browserVersion: `Chromium ${browser.version()}`,
    async open(parameters = {}) {
      const page = await context.newPage()
      const query = new URLSearchParams({ service: mock.url })
      for (const [name, value] of Object.entries(parameters)) query.set(name, String(value))
      await page.goto(`${server.origin}/?${query}`)
      await page.waitForFunction(() => 'tabs' in window)
      return page
    },
    context: () => browser.newContext(),
    async close() {
      await browser.close()
      server.close()
      await mock.stop()
    },
  }
}

/** Calls `window.tabs[name](...args)` in the page. */
export function tabs<name extends keyof TabsPage>(
  page: Page,
  name: name,
  ...args: TabsPage[name] extends (...args: infer parameters) => unknown ? parameters : []
): Promise<TabsPage[name] extends (...args: never[]) => infer result ? Awaited<result> : TabsPage[name]> {
  return page.evaluate(
    ([name, args]) => {
      const value = (window as unknown as { tabs: Record<string, unknown> }).tabs[name]
      return typeof value === 'function' ? value(...args) : value
    },
    [name, args] as const,
  ) as never
}
