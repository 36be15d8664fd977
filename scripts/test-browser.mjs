// `npm run test:browser`: every story as a test in real Chromium (Debian's, or CHROMIUM_PATH).
import { spawnSync } from 'node:child_process'
import { accessSync, constants } from 'node:fs'

const chromium = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium'
try {
  accessSync(chromium, constants.X_OK)
} catch {
  console.error(
    [
      `No Chromium at ${chromium}: the browser tests need a real Chromium, and npm does not download one here.`,
      'Install Debian’s:  sudo apt-get update && sudo apt-get install -y chromium',
      'or point CHROMIUM_PATH at another Chromium or Chrome binary, then run npm run test:browser again.',
    ].join('\n'),
  )
  process.exit(1)
}
const result = spawnSync('npx', ['vitest', 'run', '--project', 'storybook', ...process.argv.slice(2)], {
  stdio: 'inherit',
})
process.exit(result.status ?? 1)
