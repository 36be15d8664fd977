// `npm run screenshots`: PNGs of the swap widget and of each hook's main story, taken in real
// Chromium (Debian's, or CHROMIUM_PATH) from a static Storybook build. Used in the README.
import { spawnSync } from 'node:child_process'
import { mkdir } from 'node:fs/promises'
import { chromium } from 'playwright-core'
import { chromiumArgs, chromiumPath, requireChromium } from './chromium.mjs'
import { serveStatic } from './static-server.mjs'

requireChromium()

const outDir = 'docs/screenshots'
const staticDir = 'storybook-static'
// [file name, story id, text that means the story has settled]
const targets = [
  ['swap-widget', 'examples-swapwidget--complete-swap', /Swap complete: received/],
  ['useSwapRoute', 'hooks-useswaproute--data', /You receive/],
  ['useSwapRoute-rate-limited', 'hooks-useswaproute--rate-limited', /Rate limited by the service/],
  ['useSwapInfo', 'hooks-useswapinfo--data', /status: success/],
  ['useTokens', 'hooks-usetokens--data', /status: success/],
  ['usePairs', 'hooks-usepairs--data', /status: success/],
  ['useTokenPrice', 'hooks-usetokenprice--data', /status: success/],
  ['useTokensData', 'hooks-usetokensdata--data', /status: success/],
  ['useLegacyPath', 'hooks-uselegacypath--data', /status: success/],
  ['useLegacyPairs', 'hooks-uselegacypairs--data', /status: success/],
  ['useLegacyTokens', 'hooks-uselegacytokens--data', /status: success/],
  ['useExecuteSwap', 'hooks-useexecuteswap--approve-then-swap', /status: success/],
]

if (!process.argv.includes('--no-build')) {
  const build = spawnSync('npx', ['storybook', 'build', '-o', staticDir, '--quiet'], { stdio: 'inherit' })
  if (build.status !== 0) process.exit(build.status ?? 1)
}

const server = await serveStatic(staticDir)

const browser = await chromium.launch({ executablePath: chromiumPath, args: chromiumArgs })
await mkdir(outDir, { recursive: true })
let failed = 0
try {
  const page = await browser.newPage({ viewport: { width: 720, height: 900 }, deviceScaleFactor: 1 })
  for (const [name, id, settled] of targets) {
    try {
      await page.goto(`${server.origin}/iframe.html?id=${id}&viewMode=story`)
      await page.getByText(settled).first().waitFor({ timeout: 20_000 })
      await page.waitForTimeout(300)
      const root = page.locator('#storybook-root > *').first()
      await root.screenshot({ path: `${outDir}/${name}.png` })
      console.log(`${outDir}/${name}.png`)
    } catch (error) {
      failed += 1
      console.error(`${name} (${id}): ${error.message.split('\n')[0]}`)
    }
  }
} finally {
  await browser.close()
  server.close()
}
process.exit(failed ? 1 : 0)
