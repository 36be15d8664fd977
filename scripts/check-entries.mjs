// Checks the built entries (run after `npm run build`):
// - no entry but the mock entries reaches a node: module, and none but token-swap-hooks/mock/msw
//   reaches msw, through static imports, in the JS and in the types (a bundler would ship them, a
//   type checker would need them installed);
// - the framework-free entries (core, query, guard) never reach React;
// - the .d.ts import only packages the user has: dependencies and peerDependencies (optional
//   peers only from the entries that need them);
// - every module a React Server Component app imports as a client component starts with 'use client'.
import { existsSync, readdirSync, readFileSync } from 'node:fs'
import { dirname, join } from 'node:path'

const packageJson = JSON.parse(readFileSync('package.json', 'utf8'))

const isPackage = (name) => (specifier) => specifier === name || specifier.startsWith(`${name}/`)
const rules = {
  msw: isPackage('msw'),
  'node: modules': (specifier) => specifier.startsWith('node:'),
  react: (specifier) => isPackage('react')(specifier) || isPackage('@tanstack/react-query')(specifier),
  // The types may name QueryClient from @tanstack/react-query (a required peer: the balances and
  // exact-output factories take one), never react itself.
  'react (in types: react itself)': (specifier) =>
    isPackage('react')(specifier) || isPackage('react-dom')(specifier),
}
// Entry name → what its JS and its types must never reach ({ js, types } where they differ).
const entries = {
  index: ['msw', 'node: modules'],
  core: ['msw', 'node: modules', 'react'],
  query: {
    js: ['msw', 'node: modules', 'react'],
    types: ['msw', 'node: modules', 'react (in types: react itself)'],
  },
  guard: ['msw', 'node: modules', 'react'],
  tabs: ['msw', 'node: modules'],
  devtools: ['msw', 'node: modules'],
  mock: ['msw', 'react'],
  mockMsw: ['react'],
}

// Every entry named in package.json "exports" is checked here: a new one needs its rule.
const exported = Object.values(packageJson.exports)
  .map((target) => (typeof target === 'string' ? target : target.default))
  .filter((target) => target.startsWith('./dist/'))
  .map((target) => target.slice('./dist/'.length).replace(/\.js$/, ''))
for (const name of exported)
  if (!(name in entries))
    fail(`package.json exports dist/${name}.js, which scripts/check-entries.mjs has no rule for`)

function fail(message) {
  console.error(`check-entries: ${message}`)
  process.exit(1)
}

/** The module specifiers a JS or .d.ts file imports or re-exports, comments and strings aside. */
function specifiers(code) {
  // Drop comments (JSDoc examples import things too), keeping string literals intact.
  const stripped = code.replace(
    /\/\*[\s\S]*?\*\/|\/\/[^\n]*|'(?:\\.|[^'\\\n])*'|"(?:\\.|[^"\\\n])*"|`(?:\\.|[^`\\])*`/g,
    (match) => (match.startsWith('/') ? '' : match),
  )
  const found = []
  const patterns = [
    /(?:^|[\n;])\s*(?:import|export)\b[^'"`;]*?\bfrom\s*["']([^"']+)["']/g, // import … from, export … from
    /(?:^|[\n;])\s*import\s*["']([^"']+)["']/g, // import 'x' (side effects)
    /\bimport\(\s*["']([^"']+)["']\s*\)/g, // import('x'), in types and in code
  ]
  for (const pattern of patterns)
    for (const [, specifier] of stripped.matchAll(pattern)) found.push(specifier)
  return found
}

/** Follows relative imports from `file`; returns every file reached and every bare specifier seen. */
function reach(entry, file, forbidden, resolve, seen = new Map()) {
  if (seen.has(file)) return seen
  if (!existsSync(file)) fail(`${file} is missing (run npm run build first)`)
  const bare = new Set()
  seen.set(file, bare)
  const code = readFileSync(file, 'utf8')
  for (const specifier of specifiers(code)) {
    for (const name of forbidden)
      if (rules[name](specifier)) fail(`${entry} reaches ${name}: ${file} imports ${specifier}`)
    if (specifier.startsWith('.'))
      reach(entry, resolve(join(dirname(file), specifier)), forbidden, resolve, seen)
    else bare.add(specifier)
  }
  for (const [, region] of code.matchAll(/\/\/#region (src\/mock\/\S+)/g))
    if (!['mock', 'mockMsw'].some((name) => file === `dist/${name}.js`))
      fail(`${file} bundles the mock (${region})`)
  return seen
}

const asJs = (path) => path
const asDts = (path) => path.replace(/\.js$/, '.d.ts')

// A package name from a bare specifier: `@scope/name/sub` → `@scope/name`, `name/sub` → `name`.
const packageOf = (specifier) =>
  specifier
    .split('/')
    .slice(0, specifier.startsWith('@') ? 2 : 1)
    .join('/')
const dependencies = new Set(Object.keys(packageJson.dependencies ?? {}))
const peers = new Set(Object.keys(packageJson.peerDependencies ?? {}))
const optionalPeers = new Set(
  Object.entries(packageJson.peerDependenciesMeta ?? {})
    .filter(([, meta]) => meta.optional)
    .map(([name]) => name),
)

for (const [name, rule] of Object.entries(entries)) {
  const { js: forbidden, types: forbiddenInTypes } = Array.isArray(rule) ? { js: rule, types: rule } : rule
  const js = reach(`dist/${name}.js`, `dist/${name}.js`, forbidden, asJs)
  const types = reach(
    `the types of dist/${name}.js`,
    `dist/types/exports/${name}.d.ts`,
    forbiddenInTypes,
    asDts,
  )
  const packages = new Set()
  for (const [file, bare] of types)
    for (const specifier of bare) {
      const pkg = packageOf(specifier)
      if (pkg.startsWith('node:') || pkg === packageJson.name) continue
      if (!dependencies.has(pkg) && !peers.has(pkg))
        fail(
          `${file} imports ${specifier}, but ${pkg} is neither a dependency nor a peer dependency: ` +
            `a user's type checker cannot resolve it (pnpm, npm --install-strategy=linked)`,
        )
      packages.add(pkg)
    }
  const optional = [...packages].filter((pkg) => optionalPeers.has(pkg))
  console.log(
    `dist/${name}.js: ${js.size} files, ${types.size} .d.ts; no ${forbidden.join(', no ')}` +
      (forbiddenInTypes === forbidden ? '; ' : ` (types: no ${forbiddenInTypes.join(', no ')}); `) +
      `types import ${[...packages].sort().join(', ') || 'no package'}` +
      (optional.length ? ` (optional peer: ${optional.join(', ')})` : ''),
  )
}

// Every module of the React layer (hooks and the provider); its error class is plain code.
const serverSafe = new Set(['dist/react/errors.js'])
const clientModules = readdirSync('dist/react', { recursive: true })
  .filter((file) => String(file).endsWith('.js'))
  .map((file) => join('dist/react', String(file)))
  .filter((file) => !serverSafe.has(file))
for (const file of clientModules)
  if (!/^["']use client["'];?\n/.test(readFileSync(file, 'utf8')))
    fail(`${file} lost its 'use client' directive in the build`)
console.log(`dist/react: ${clientModules.length} modules, each starting with 'use client'`)
