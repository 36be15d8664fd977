import { storybookTest } from '@storybook/addon-vitest/vitest-plugin'
import react from '@vitejs/plugin-react'
import { playwright } from '@vitest/browser-playwright'
import { defineConfig } from 'vitest/config'
import { chromiumArgs, chromiumPath } from './scripts/chromium.mjs'

const entries = {
  index: 'src/exports/index.ts',
  core: 'src/exports/core.ts',
  query: 'src/exports/query.ts',
  guard: 'src/exports/guard.ts',
  tabs: 'src/exports/tabs.ts',
  devtools: 'src/exports/devtools.ts',
  mock: 'src/exports/mock.ts',
  mockMsw: 'src/exports/mockMsw.ts',
  'mock-server': 'src/mock/bin.ts',
  'deploy-guard': 'src/guard/deployGuardBin.ts',
}

// Packages the library imports but never bundles.
const external = [/^react($|\/)/, /^react-dom($|\/)/, /^@tanstack\//, /^viem($|\/)/, /^msw($|\/)/, /^node:/]

export default defineConfig({
  plugins: [react()],
  publicDir: false,
  build: {
    lib: { entry: entries, formats: ['es'] },
    outDir: 'dist',
    emptyOutDir: true,
    // No source maps: the JS is unminified ES2022, one file per source module under the same path,
    // so a stack trace reads as the source does; maps (with the TypeScript inside) would double the
    // tarball. JSDoc lives in the .d.ts, where editors read it, not in the JS; legal comments and
    // /* @__PURE__ */ annotations stay.
    sourcemap: false,
    minify: false,
    target: 'es2022',
    // src/mock/bin.ts keeps its hashbang in dist/mock-server.js.
    // One file per module, so that an app's bundler tree-shakes at module granularity.
    rollupOptions: {
      external,
      output: {
        preserveModules: true,
        preserveModulesRoot: 'src',
        entryFileNames: '[name].js',
        comments: { legal: true, annotation: true, jsdoc: false },
      },
    },
  },
  test: {
    // The on-chain tests wait for real blocks and receipts on a shared 2-core machine: a generous
    // limit, so that load never fails a test that would pass; a hang still fails.
    testTimeout: 20_000,
    projects: [
      {
        extends: true,
        test: {
          name: 'node',
          environment: 'node',
          // The anvil build these tests run on (1.7.1, the newest on npm) now and then strands or
          // loses a transaction it answered a hash for (its background miner races an evm_revert
          // or a manual mine; foundry-rs/foundry#10122, made atomic upstream by #16027, not
          // released yet): whoever waits for that receipt waits until the test's timeout. The
          // chain is reset before every test, so a test caught by it runs once more; a test that
          // fails twice fails, and the reporter shows every retry. test/evm/unstick.ts mines the
          // stranded transactions it can see.
          retry: 1,
          include: [
            'src/core/**/*.test.ts',
            'src/exports/**/*.test.ts',
            'src/guard/**/*.test.ts',
            'src/query/**/*.test.ts',
            'src/mock/**/*.test.ts',
            'src/tabs/**/*.test.ts',
            'test/**/*.test.ts',
          ],
        },
      },
      {
        extends: true,
        test: {
          name: 'react',
          environment: 'jsdom',
          include: ['src/react/**/*.test.{ts,tsx}', 'test/**/*.test.tsx'],
          setupFiles: ['test/setup-react.ts'],
        },
      },
      {
        // `npm run bench`: measurements, not assertions; never part of `npm test`.
        extends: true,
        test: {
          name: 'bench',
          environment: 'jsdom',
          include: ['bench/**/*.test.{ts,tsx}'],
          fileParallelism: false,
          testTimeout: 300_000,
        },
      },
      {
        // Pages of a real Chromium driven from Node (playwright-core): the tabs of one origin with
        // token-swap-hooks/tabs. Part of `npm run test:browser`, never of `npm test`.
        extends: true,
        test: {
          name: 'chromium',
          environment: 'node',
          include: ['test/chromium/**/*.test.ts'],
          fileParallelism: false,
          testTimeout: 60_000,
          hookTimeout: 180_000,
        },
      },
      {
        // `npm run test:examples`: the example apps, installed from the packed package, built,
        // served and driven in Chromium against the mock service and anvil. Never part of `npm test`.
        extends: true,
        test: {
          name: 'examples',
          environment: 'node',
          include: ['examples/*.test.ts'],
          fileParallelism: false,
          testTimeout: 120_000,
          hookTimeout: 600_000,
        },
      },
      {
        // Every story is a test, in real Chromium: `npm run test:browser`.
        extends: true,
        publicDir: 'public',
        plugins: [storybookTest({ configDir: '.storybook' })],
        test: {
          name: 'storybook',
          browser: {
            enabled: true,
            headless: true,
            provider: playwright({ launchOptions: { executablePath: chromiumPath, args: chromiumArgs } }),
            instances: [{ browser: 'chromium' }],
          },
        },
      },
    ],
  },
})
