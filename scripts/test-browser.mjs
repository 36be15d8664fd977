// `npm run test:browser`: every story as a test in real Chromium (Debian's, or CHROMIUM_PATH),
// the tabs tests (several pages of one context, test/chromium), then every story opened in the
// Storybook UI (scripts/test-storybook-ui.mjs): once as is, and the stories that type and wait for
// a new answer once more on a CPU slowed down six times, where a play function that reads the page
// before the answer has rendered fails.
import { spawnSync } from 'node:child_process'
import { requireChromium } from './chromium.mjs'

requireChromium()
const steps = [
  ['npx', ['vitest', 'run', '--project', 'storybook', ...process.argv.slice(2)]],
  // The tabs of one origin with token-swap-hooks/tabs: pages of one context, driven from Node.
  ['npx', ['vitest', 'run', '--project', 'chromium']],
  ['node', ['scripts/test-storybook-ui.mjs']],
  [
    'node',
    [
      'scripts/test-storybook-ui.mjs',
      '--no-build',
      '--cpu-throttle=6',
      '--workers=3',
      'hooks-useswaproute--data',
      'hooks-uselegacypath--data',
      'hooks-usetokenprice--data',
      'devtools-swapdevtoolspanel--live',
    ],
  ],
]
for (const [command, args] of steps) {
  const result = spawnSync(command, args, { stdio: 'inherit' })
  if (result.status !== 0) process.exit(result.status ?? 1)
}
