// Tree shaking carries what separate entries used to (`npm run check:tree-shaking`, run by CI after
// `npm run build`). Builds each page a user builds (the pages of .size-limit.json, and every hook
// imported alone) with esbuild, as an app's bundler would (package.json's `sideEffects: false`
// honoured, minified, react, @tanstack/*, viem external), and asserts from its metafile which
// modules of the library are in it: importing one hook does not pull the executor, the guard's
// bytes, the devtools, the mock, the tab coordinator, token balances or exact output unless that
// hook is one of theirs. Also: importing an entry for nothing keeps nothing (no top-level side
// effects that survive `sideEffects: false`), and every size-limit line is a page checked here.
//
// Usage: node scripts/check-tree-shaking.mjs [--verbose]
import { readFileSync } from 'node:fs'
import { dirname, join, relative, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'
import { parseArgs } from 'node:util'
import { build } from 'esbuild'
import { api } from './api-report.mjs'

const repo = resolve(dirname(fileURLToPath(import.meta.url)), '..')
const { values: options } = parseArgs({ options: { verbose: { type: 'boolean', default: false } } })

/** Parts of the library a page may or may not contain, by the module (src path) they are built from. */
const parts = {
  // The executor's folder, but for the hook point the tab coordinator sets (records/claims: a
  // function slot, so that a swap asks for the record's Web Lock once token-swap-hooks/tabs is on).
  executor: /^src\/core\/execute\/(?!records\/claims\.js$)/,
  resume: /^src\/core\/execute\/(resumeSwap|settlePendingSwaps|checkPendingSwap)\.js$/,
  // What sends a swap: executeSwap and its runner (the preview's planner and simulation are not it).
  runner: /^src\/core\/execute\/(executeSwap|run\/(runSwap|finishSwap|failSwap))\.js$/,
  "the guard's bytes": /^src\/guard\//,
  devtools: /^src\/react\/devtools\//,
  mock: /^src\/mock\//,
  tabs: /^src\/tabs\//,
  balances: /^src\/core\/balances\//,
  'exact output': /^src\/core\/actions\/getSwapRouteForOutput\.js$/,
  react: /^src\/react\//,
  'failure report': /^src\/core\/report\//,
}
const optIn = ["the guard's bytes", 'devtools', 'mock', 'tabs', 'failure report']
const features = ['executor', 'balances', 'exact output']
const except = (list, ...names) => list.filter((name) => !names.includes(name))

const quote = ['SwapProvider', 'useSwapRoute']
const queryHooks = [
  'SwapProvider',
  'useSwapRoute',
  'useSwapInfo',
  'usePairs',
  'useTokens',
  'useTokenPrice',
  'useTokensData',
  'useLegacyPath',
  'useLegacyPairs',
  'useLegacyTokens',
  'useRateLimitState',
  'useSwapClient',
]
const nineActions = [
  'createSwapClient',
  'getSwapRoute',
  'getSwapInfo',
  'getPairs',
  'getTokens',
  'getTokenPrice',
  'getTokensData',
  'getLegacyPath',
  'getLegacyPairs',
  'getLegacyTokens',
]

/**
 * The pages of .size-limit.json: { imports: { 'dist/x.js': names }, without: parts, with: parts }.
 * `with` proves the check sees what it should (a page that must hold the executor holds it).
 */
const pages = [
  { name: 'the quote page', imports: { 'dist/index.js': quote }, without: [...optIn, ...features] },
  { name: 'every query hook', imports: { 'dist/index.js': queryHooks }, without: [...optIn, ...features] },
  {
    name: 'quote + balances',
    imports: { 'dist/index.js': [...quote, 'useTokenBalances'] },
    without: [...optIn, 'executor', 'exact output'],
    with: ['balances'],
  },
  {
    name: 'quote + exact output',
    imports: { 'dist/index.js': [...quote, 'useSwapRouteForOutput'] },
    without: [...optIn, 'executor', 'balances'],
    with: ['exact output'],
  },
  {
    name: 'quote + balances + exact output',
    imports: { 'dist/index.js': [...quote, 'useTokenBalances', 'useSwapRouteForOutput'] },
    without: [...optIn, 'executor'],
    with: ['balances', 'exact output'],
  },
  {
    name: 'quote + tab coordinator',
    imports: { 'dist/index.js': quote, 'dist/tabs.js': ['createTabCoordinator'] },
    without: [...except(optIn, 'tabs'), ...features],
    with: ['tabs'],
  },
  {
    name: 'useExecuteSwap',
    imports: { 'dist/index.js': ['useExecuteSwap'] },
    without: [...optIn, 'resume', 'balances', 'exact output'],
    with: ['executor', 'runner'],
  },
  {
    name: 'a widget that executes and resumes',
    imports: { 'dist/index.js': ['useExecuteSwap', 'useSwapPreview', 'usePendingSwaps'] },
    without: [...optIn, 'balances', 'exact output'],
    with: ['executor', 'resume'],
  },
  {
    name: 'executeSwap from core',
    imports: { 'dist/core.js': ['executeSwap'] },
    without: [...optIn, 'react', 'resume', 'balances', 'exact output'],
    with: ['executor'],
  },
  {
    name: 'resumeSwap and settlePendingSwaps from core',
    imports: { 'dist/core.js': ['resumeSwap', 'settlePendingSwaps'] },
    without: [...optIn, 'react', 'balances', 'exact output'],
    with: ['resume'],
  },
  {
    name: 'the client and the nine actions from core',
    imports: { 'dist/core.js': nineActions },
    without: [...optIn, 'react', ...features],
  },
  {
    name: 'createFailureReport alone',
    imports: { 'dist/core.js': ['createFailureReport'] },
    without: [...except(optIn, 'failure report'), 'react', ...features],
    with: ['failure report'],
  },
  {
    name: 'useTokenBalances alone',
    imports: { 'dist/index.js': ['useTokenBalances'] },
    without: [...optIn, 'executor', 'exact output'],
    with: ['balances'],
  },
  {
    name: 'useSwapRouteForOutput alone',
    imports: { 'dist/index.js': ['useSwapRouteForOutput'] },
    without: [...optIn, 'executor', 'balances'],
    with: ['exact output'],
  },
  {
    name: 'useToken alone (a token pasted by its address)',
    imports: { 'dist/index.js': ['useToken'] },
    without: [...optIn, ...features],
  },
  {
    name: 'useMaxAmount alone',
    imports: { 'dist/index.js': ['useMaxAmount'] },
    without: [...optIn, 'runner', 'resume', 'balances', 'exact output'],
    with: ['executor'],
  },
  {
    name: 'getMaxAmount alone from core',
    imports: { 'dist/core.js': ['getMaxAmount'] },
    without: [...optIn, 'react', 'runner', 'resume', 'balances', 'exact output'],
    with: ['executor'],
  },
  {
    name: 'useSuggestedSlippage alone',
    imports: { 'dist/index.js': ['useSuggestedSlippage'] },
    without: [...optIn, ...features],
  },
  {
    name: 'token-swap-hooks/guard',
    imports: { 'dist/guard.js': '*' },
    without: [...except(optIn, "the guard's bytes"), 'react', 'resume', 'balances', 'exact output'],
    with: ["the guard's bytes"],
  },
  {
    name: 'token-swap-hooks/devtools',
    imports: { 'dist/devtools.js': '*' },
    without: ["the guard's bytes", 'mock', 'tabs', 'balances', 'exact output'],
    with: ['devtools'],
  },
  {
    name: 'token-swap-hooks/tabs',
    imports: { 'dist/tabs.js': '*' },
    without: ["the guard's bytes", 'devtools', 'mock', 'balances', 'exact output'],
    with: ['tabs'],
  },
]

// Every hook alone: never an opt-in part; a feature's part only in that feature's hooks.
const executorHooks = ['useExecuteSwap', 'useSwapPreview', 'usePendingSwaps', 'useMaxAmount']
const hooks = api()
  ['token-swap-hooks'].runtime.map(({ name }) => name)
  .filter((name) => /^use[A-Z]/.test(name))
const alone = new Set(pages.map((page) => JSON.stringify(page.imports)))
for (const hook of hooks.filter((name) => !alone.has(JSON.stringify({ 'dist/index.js': [name] }))))
  pages.push({
    name: `${hook} alone`,
    imports: { 'dist/index.js': [hook] },
    without: [
      ...optIn,
      ...(executorHooks.includes(hook) ? [] : ['executor']),
      ...(hook === 'usePendingSwaps' ? [] : ['resume']),
      ...(hook === 'useTokenBalances' ? [] : ['balances']),
      ...(hook === 'useSwapRouteForOutput' ? [] : ['exact output']),
    ],
  })

const problems = []

/** The library modules (as src paths) a page's bundle holds, and its minified size. */
async function bundle(contents) {
  const result = await build({
    stdin: { contents, resolveDir: repo, loader: 'js' },
    bundle: true,
    minify: true,
    write: false,
    format: 'esm',
    metafile: true,
    platform: 'browser',
    external: ['react', 'react-dom', '@tanstack/*', 'viem', 'viem/*', 'msw', 'msw/*', 'node:*'],
    logLevel: 'silent',
  })
  const [output] = Object.values(result.metafile.outputs)
  const modules = Object.entries(output.inputs)
    .filter(([path, { bytesInOutput }]) => bytesInOutput > 0 && path.startsWith('dist/'))
    .map(([path]) => `src/${path.slice('dist/'.length)}`)
  return { modules, bytes: result.outputFiles[0].contents.length }
}

const source = (imports) =>
  Object.entries(imports)
    .map(([path, names]) => `export ${names === '*' ? '*' : `{ ${names.join(', ')} }`} from './${path}'`)
    .join('\n')

for (const page of pages) {
  const { modules, bytes } = await bundle(source(page.imports))
  const holds = (part) => modules.filter((module) => parts[part].test(module))
  for (const part of page.without ?? []) {
    const found = holds(part)
    if (found.length > 0) problems.push(`${page.name} pulls ${part}: ${found.join(', ')}`)
  }
  for (const part of page.with ?? [])
    if (holds(part).length === 0)
      problems.push(`${page.name} holds none of ${part} (the check would see nothing)`)
  if (options.verbose) console.log(`${page.name}: ${bytes} B minified, ${modules.length} modules`)
}

// An entry imported for nothing keeps nothing: no top-level code survives `sideEffects: false`.
const packageJson = JSON.parse(readFileSync(join(repo, 'package.json'), 'utf8'))
const entryFiles = Object.values(packageJson.exports)
  .map((target) => (typeof target === 'string' ? target : target.default))
  .filter((target) => target.startsWith('./dist/'))
  .map((target) => target.slice(2))
for (const file of entryFiles) {
  const { modules, bytes } = await bundle(`import './${file}'`)
  if (modules.length > 0 || bytes > 0)
    problems.push(`import '${file}' (for nothing) keeps ${bytes} B: ${modules.join(', ')}`)
}

// Every page of .size-limit.json is one of the pages above.
const key = (imports) =>
  JSON.stringify(
    Object.entries(imports)
      .map(([path, names]) => [path, names === '*' ? '*' : [...names].sort()])
      .sort(),
  )
const checked = new Set(pages.map((page) => key(page.imports)))
for (const line of JSON.parse(readFileSync(join(repo, '.size-limit.json'), 'utf8'))) {
  const paths = [line.path].flat()
  const imports = Object.fromEntries(
    paths.map((path) => {
      const names = typeof line.import === 'object' ? line.import[path] : (line.import ?? '*')
      const list =
        names.trim() === '*'
          ? '*'
          : names
              .replace(/[{}]/g, '')
              .split(',')
              .map((name) => name.trim())
      return [path, list]
    }),
  )
  if (!checked.has(key(imports)))
    problems.push(
      `.size-limit.json "${line.name}" is not a page of scripts/check-tree-shaking.mjs: add its rule`,
    )
}

if (problems.length > 0) {
  console.error(
    `check-tree-shaking: ${problems.length} problem(s):\n${problems.map((line) => `  - ${line}`).join('\n')}`,
  )
  process.exit(1)
}
console.log(
  `check-tree-shaking: ${pages.length} pages (${hooks.length} hooks alone) hold only what they import; ` +
    `${entryFiles.length} entries imported for nothing keep nothing; every size-limit line is checked ` +
    `(${relative(process.cwd(), join(repo, '.size-limit.json')) || '.size-limit.json'})`,
)
