// `npm run test:browser`: every story as a test in real Chromium (Debian's, or CHROMIUM_PATH).
import { spawnSync } from 'node:child_process'
import { requireChromium } from './chromium.mjs'

requireChromium()
const result = spawnSync('npx', ['vitest', 'run', '--project', 'storybook', ...process.argv.slice(2)], {
  stdio: 'inherit',
})
process.exit(result.status ?? 1)
