import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { transformerTwoslash } from '@shikijs/vitepress-twoslash'
import { defineConfig } from 'vitepress'
import { writeLlmsTxt } from '../scripts/llms.mjs'
import { errorsPath, generateReference, manifestPath } from '../scripts/reference.mjs'
import { entries, packageJson, requireBuiltPackage, siteRoot } from './library.mjs'
import { changelogMigration, entriesTable, errorFields, snippetMarkers } from './snippets.mjs'
import { createTypesCache, twoslashOptions } from './twoslash.mjs'

requireBuiltPackage()
/** @param {string} path */
const readJson = (path: string) => JSON.parse(readFileSync(path, 'utf8'))
// The reference pages, from the built package's declarations, before VitePress reads the pages.
const reference = await generateReference()

export default defineConfig({
  title: 'token-swap-hooks',
  // A favicon of its own: without one, the browser's request for /favicon.ico is a 404 (an error
  // in the console test:docs fails on).
  head: [['link', { rel: 'icon', type: 'image/svg+xml', href: '/favicon.svg' }]],
  description:
    'Typed React hooks, TanStack Query factories and a guarded viem executor for the token swap service.',
  lang: 'en-US',
  cleanUrls: true,
  ignoreDeadLinks: false,
  lastUpdated: false,
  srcExclude: ['README.md', 'notes/**', 'node_modules/**'],
  markdown: {
    languages: ['js', 'jsx', 'ts', 'tsx'],
    // Declarations excerpted from dist by the reference generator: shown as TypeScript, not compiled
    // again (they are the compiler's own output). Only generated pages use this fence.
    languageAlias: { 'd.ts': 'ts' },
    theme: { light: 'github-light', dark: 'github-dark' },
    config(md) {
      md.use(snippetMarkers)
        .use(errorFields, { errors: () => readJson(errorsPath) })
        .use(changelogMigration, {
          changelog: () => readFileSync(join(siteRoot, '../CHANGELOG.md'), 'utf8'),
          now: () => readJson(manifestPath),
        })
        .use(entriesTable, { entries, now: () => readJson(manifestPath) })
    },
    codeTransformers: [
      transformerTwoslash({
        // Every ts/tsx block, with no way out (no `notwoslash`): a type error fails the build.
        explicitTrigger: false,
        langs: ['ts', 'tsx'],
        disableTriggers: [],
        throws: true,
        twoslashOptions,
        typesCache: createTypesCache(),
      }),
    ],
  },
  // llms.txt (every page, its title and first sentence) and llms-full.txt (every page in full).
  buildEnd(site) {
    writeLlmsTxt({
      srcDir: site.srcDir,
      outDir: site.outDir,
      pages: site.pages,
      title: 'token-swap-hooks',
      description: site.site.description,
      specifiers: entries.map((entry) => entry.specifier),
    })
  },
  themeConfig: {
    nav: [
      { text: 'Guide', link: '/getting-started', activeMatch: '^/(getting-started|guides/)' },
      { text: 'Reference', link: '/reference/' },
      { text: 'Errors', link: '/reference/errors' },
      { text: 'Storybook', link: '/storybook' },
      { text: `v${packageJson.version}`, items: [{ text: 'Migration 0.1 → 0.2', link: '/migration' }] },
    ],
    sidebar: {
      '/reference/': [
        {
          text: 'Reference',
          items: [
            { text: 'Entries', link: '/reference/' },
            { text: 'Error codes', link: '/reference/errors' },
          ],
        },
        ...reference.sidebar,
      ],
      '/': [
        {
          text: 'Introduction',
          items: [
            { text: 'Getting started', link: '/getting-started' },
            { text: 'The Storybook', link: '/storybook' },
            { text: 'Examples', link: '/examples' },
            { text: 'Migrating from 0.1', link: '/migration' },
          ],
        },
        {
          text: 'Guides',
          items: [
            { text: 'The provider and the query hooks', link: '/guides/provider' },
            { text: 'Handling errors', link: '/guides/errors' },
            { text: 'Failure reports', link: '/guides/failure-reports' },
            { text: 'How a swap is protected', link: '/guides/protection' },
            { text: 'Executing a swap', link: '/guides/executing' },
            { text: 'Slippage', link: '/guides/slippage' },
            { text: 'Rate limits and several tabs', link: '/guides/rate-limits' },
            { text: 'Resume after a reload', link: '/guides/resume' },
            { text: 'Balances and exact output', link: '/guides/balances' },
            { text: 'Testing an app with the mock', link: '/guides/testing' },
            { text: 'Server rendering with Next.js', link: '/guides/nextjs' },
            { text: 'With wagmi', link: '/guides/wagmi' },
            { text: 'Without React', link: '/guides/core' },
            { text: 'Devtools', link: '/guides/devtools' },
          ],
        },
        {
          text: 'More',
          items: [
            { text: 'Performance', link: '/guides/performance' },
            { text: 'Where the spec is silent', link: '/guides/spec' },
            { text: 'How a swap runs (architecture)', link: '/architecture' },
            { text: 'Contributing', link: '/contributing' },
            { text: 'Changelog', link: '/changelog' },
          ],
        },
      ],
    },
    search: { provider: 'local' },
    outline: [2, 3],
  },
})
