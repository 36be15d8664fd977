// `npm run test:docs`: the built site (site/.vitepress/dist) served on loopback and opened in real
// Chromium (Debian's, or CHROMIUM_PATH), as a reader opens it: the home page, a guide and a
// reference page render (their titles, their compiled code with its type popups, no error in the
// console), and the local search finds useSwapRoute and leads to its page.
//
// Usage: node site/scripts/test-site.mjs
import { existsSync, mkdirSync } from 'node:fs'
import { join } from 'node:path'
import { chromium } from 'playwright-core'
import { chromiumArgs, chromiumPath, requireChromium } from '../../scripts/chromium.mjs'
import { serveStatic } from '../../scripts/static-server.mjs'
import { repository, siteRoot } from '../.vitepress/library.mjs'

requireChromium()
const dist = join(siteRoot, '.vitepress/dist')
if (!existsSync(join(dist, 'index.html'))) {
  console.error('test-site: no built site in site/.vitepress/dist: run `npm run docs:build` first')
  process.exit(1)
}
const shots = join(repository, '.cache/site-screenshots')
mkdirSync(shots, { recursive: true })

const started = Date.now()
const server = await serveStatic(dist, { cleanUrls: true })
const browser = await chromium.launch({ executablePath: chromiumPath, args: chromiumArgs })
/** @type {string[]} */
const failures = []

/**
 * @param {string} name
 * @param {(page: import('playwright-core').Page) => Promise<void>} run
 */
async function check(name, run) {
  const page = await browser.newPage({ viewport: { width: 1280, height: 900 } })
  /** @type {string[]} */
  const errors = []
  page.on('pageerror', (error) => errors.push(error.message))
  page.on('console', (message) => {
    if (message.type() === 'error') errors.push(message.text())
  })
  const begun = Date.now()
  try {
    await run(page)
    if (errors.length) throw new Error(`errors in the console: ${errors.join(' | ')}`)
    await page.screenshot({ path: join(shots, `${name.replace(/\W+/g, '-')}.png`) })
    console.log(`✓ ${name} (${Date.now() - begun} ms)`)
  } catch (error) {
    failures.push(name)
    console.error(`✗ ${name}: ${error instanceof Error ? error.message.split('\n')[0] : error}`)
  } finally {
    await page.close()
  }
}

/** Waits until the page's first code block is compiled code: twoslash's hover targets in it. */
async function expectCompiledCode(/** @type {import('playwright-core').Page} */ page) {
  await page.locator('pre.twoslash .twoslash-hover').first().waitFor({ timeout: 10_000 })
}

try {
  await check('the home page renders', async (page) => {
    await page.goto(`${server.origin}/`)
    await page
      .getByRole('heading', { level: 1 })
      .filter({ hasText: 'token-swap-hooks' })
      .waitFor({ timeout: 10_000 })
    await page.getByRole('link', { name: 'Get started' }).first().waitFor()
    await expectCompiledCode(page)
  })

  await check('a guide renders: How a swap is protected', async (page) => {
    await page.goto(`${server.origin}/guides/protection`)
    await page
      .getByRole('heading', { level: 1, name: 'How a swap is protected' })
      .waitFor({ timeout: 10_000 })
    await page
      .getByRole('heading', { name: /The swap guard/ })
      .first()
      .waitFor()
    await page.locator('.VPSidebar').getByRole('link', { name: 'Executing a swap' }).waitFor()
    await expectCompiledCode(page)
    // A type popup: hovering a name of the library shows its type.
    const hover = page.locator('pre.twoslash .twoslash-hover').filter({ hasText: 'verifySwapGuard' }).first()
    await hover.hover()
    await page
      .locator('.v-popper__popper--shown')
      .filter({ hasText: 'verifySwapGuard' })
      .first()
      .waitFor({ timeout: 5000 })
  })

  await check('a reference page renders: useSwapRoute', async (page) => {
    await page.goto(`${server.origin}/reference/main/useSwapRoute`)
    await page.getByRole('heading', { level: 1, name: 'useSwapRoute' }).waitFor({ timeout: 10_000 })
    // A heading's accessible name holds its anchor's label too: `Import Permalink to "Import"`.
    for (const section of ['Import', 'Declaration', 'Parameters', 'Returns', 'Errors', 'Example'])
      await page
        .getByRole('heading', { level: 2, name: new RegExp(`^${section} Permalink`) })
        .waitFor({ timeout: 10_000 })
    await page.getByRole('link', { name: 'NO_ROUTE' }).first().waitFor()
    await expectCompiledCode(page)
  })

  await check('the local search finds useSwapRoute', async (page) => {
    await page.goto(`${server.origin}/`)
    await page.locator('.VPNavBarSearch button').first().click()
    const input = page.locator('.VPLocalSearchBox input')
    await input.waitFor({ timeout: 10_000 })
    await input.fill('useSwapRoute')
    const result = page.locator('.VPLocalSearchBox .result').filter({ hasText: 'useSwapRoute' }).first()
    await result.waitFor({ timeout: 10_000 })
    await result.click()
    await page.waitForURL(/useSwapRoute/, { timeout: 10_000 })
    await page
      .getByRole('heading', { level: 1 })
      .filter({ hasText: 'useSwapRoute' })
      .waitFor({ timeout: 10_000 })
  })
} finally {
  await browser.close()
  server.close()
}

const seconds = ((Date.now() - started) / 1000).toFixed(1)
if (failures.length) {
  console.error(
    `test-site: ${failures.length} of 4 failed (${seconds} s); screenshots in .cache/site-screenshots`,
  )
  process.exit(1)
}
console.log(
  `test-site: the built site works in Chromium (${seconds} s); screenshots in .cache/site-screenshots`,
)
