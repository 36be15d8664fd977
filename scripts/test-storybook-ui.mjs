// `npm run test:storybook-ui`: every story opened in the Storybook UI as a user opens it (the
// manager with the Interactions panel showing; the first story by its link, the next ones by a
// click in the sidebar), from a static build, in real Chromium (Debian's, or CHROMIUM_PATH).
// A story fails when
//   - the Interactions panel shows "This addon has errors" or logs a render error: the panel
//     renders every argument of the play function's calls (`expect(x)`, `.toBe(y)`, …), and one
//     holding a bigint in an array or object breaks it ("Do not know how to serialize a BigInt");
//   - its play function does not pass in the panel ("Story status: Pass").
// `--cpu-throttle=N` slows the page's CPU N times (a cold first visit, a slow laptop): a play
// function that reads the page before the answer it waits for has rendered fails then.
//
//   node scripts/test-storybook-ui.mjs [--no-build] [--static-dir=storybook-static]
//     [--cpu-throttle=1] [--workers=4] [story-id-part …]
import { spawnSync } from 'node:child_process'
import { readFile } from 'node:fs/promises'
import { join } from 'node:path'
import { chromium } from 'playwright-core'
import { chromiumArgs, chromiumPath, requireChromium } from './chromium.mjs'
import { serveStatic } from './static-server.mjs'

requireChromium()

const flags = process.argv.slice(2)
const option = (name, fallback) => {
  const flag = flags.find((arg) => arg.startsWith(`--${name}=`))
  return flag ? flag.slice(name.length + 3) : fallback
}
const staticDir = option('static-dir', 'storybook-static')
const cpuThrottle = Number(option('cpu-throttle', 1))
const workers = Number(option('workers', 4))
const filters = flags.filter((arg) => !arg.startsWith('--'))
// The longest play waits 10 s for a swap; slowed down, it may take a few times that.
const storyTimeout = 90_000

if (!flags.includes('--no-build')) {
  const build = spawnSync('npx', ['storybook', 'build', '-o', staticDir, '--quiet'], { stdio: 'inherit' })
  if (build.status !== 0) process.exit(build.status ?? 1)
}

const index = JSON.parse(await readFile(join(staticDir, 'index.json'), 'utf8'))
const ids = Object.values(index.entries)
  .filter((entry) => entry.type === 'story')
  .map((entry) => entry.id)
  .filter((id) => filters.length === 0 || filters.some((part) => id.includes(part)))
if (ids.length === 0) {
  console.error(`No story matches ${filters.join(', ')}.`)
  process.exit(1)
}

const server = await serveStatic(staticDir)
const browser = await chromium.launch({ executablePath: chromiumPath, args: chromiumArgs })
const started = Date.now()
/** @type {{ id: string, problems: string[] }[]} */
const failures = []

// In the manager: every storyFinished the preview reports, in order, on window.__storiesFinished.
const recordFinishedStories = () => {
  const finished = []
  Object.assign(window, { __storiesFinished: finished })
  const attach = setInterval(() => {
    const channel = /** @type {any} */ (window).__STORYBOOK_ADDONS_CHANNEL__
    if (!channel) return
    clearInterval(attach)
    channel.on('storyFinished', (/** @type {{ storyId: string }} */ event) => finished.push(event.storyId))
  }, 5)
}

/**
 * Opens one story as a user does: the first by its link (a fresh page), the next ones by a click
 * in the sidebar. Returns what is wrong with it (nothing: it passed) and whether the page is
 * still fit for the next story (a crashed panel stays crashed).
 */
async function check(page, id, { fresh, consoleErrors }) {
  consoleErrors.length = 0
  const before = fresh ? 0 : await page.evaluate(() => window.__storiesFinished.length)
  if (fresh) {
    await page.goto(`${server.origin}/?path=/story/${id}&addonPanel=storybook/interactions/panel`)
  } else {
    const item = page.locator(`[data-item-id="${id}"]`)
    if ((await item.count()) === 0) await page.locator(`[data-item-id="${id.split('--')[0]}"]`).click()
    await item.click()
  }
  const panel = page.locator('#storybook-panel-root')
  const status = panel.getByLabel(/^Story status: /)
  const addonError = panel.getByText('This addon has errors')
  const problems = []
  try {
    await page.waitForFunction(
      ([id, before]) => window.__storiesFinished.slice(before).includes(id),
      [id, before],
      { timeout: storyTimeout, polling: 100 },
    )
    await panel
      .getByLabel(/^Story status: (Pass|Fail|Bail)$/)
      .or(addonError)
      .first()
      .waitFor({ timeout: 10_000 })
  } catch {
    problems.push(`the play function did not finish in ${storyTimeout / 1000} s`)
  }
  // Whatever the panel still had to render after the last call.
  await page.waitForTimeout(100)
  const crashed = (await addonError.count()) > 0
  if (crashed) problems.push('the Interactions panel shows "This addon has errors"')
  problems.push(...new Set(consoleErrors))
  const shown = (await status.count()) > 0 ? await status.getAttribute('aria-label') : undefined
  if (shown && shown !== 'Story status: Pass') {
    const steps = await panel.innerText()
    const from = Math.max(0, steps.indexOf('Interaction steps'))
    problems.push(`${shown}\n${steps.slice(from, from + 2000)}`)
  }
  return { problems, reusable: problems.length === 0 }
}

async function worker(queue) {
  const context = await browser.newContext({ viewport: { width: 1400, height: 1000 } })
  await context.addInitScript(recordFinishedStories)
  const page = await context.newPage()
  /** @type {string[]} */
  const consoleErrors = []
  page.on('console', (message) => {
    const text = message.text()
    if (message.type() === 'error' && /serialize a BigInt|Error rendering addon panel/.test(text))
      consoleErrors.push(`console: ${text.split('\n')[0]}`)
  })
  page.on('pageerror', (error) => consoleErrors.push(`page error: ${error.message}`))
  if (cpuThrottle > 1) {
    const cdp = await context.newCDPSession(page)
    await cdp.send('Emulation.setCPUThrottlingRate', { rate: cpuThrottle })
  }
  let fresh = true
  for (let id = queue.shift(); id !== undefined; id = queue.shift()) {
    const started = Date.now()
    const { problems, reusable } = await check(page, id, { fresh, consoleErrors }).catch((error) => ({
      problems: [`could not open it: ${error.message.split('\n')[0]}`],
      reusable: false,
    }))
    fresh = !reusable
    console.log(`${problems.length ? '✗' : '✓'} ${id} (${((Date.now() - started) / 1000).toFixed(1)} s)`)
    if (problems.length) failures.push({ id, problems })
  }
  await context.close()
}

try {
  const queue = [...ids]
  await Promise.all(Array.from({ length: Math.min(workers, ids.length) }, () => worker(queue)))
} finally {
  await browser.close()
  server.close()
}

const seconds = Math.round((Date.now() - started) / 1000)
for (const { id, problems } of failures) console.error(`\n✗ ${id}\n  ${problems.join('\n  ')}`)
console.log(
  `\n${ids.length - failures.length} of ${ids.length} stories pass in the Storybook UI ` +
    `(CPU ×${cpuThrottle}, ${workers} at a time, ${seconds} s).`,
)
process.exit(failures.length ? 1 : 0)
