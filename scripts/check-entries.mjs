// Checks the built entries (run after `npm run build`):
// - no entry but the mock reaches msw or node: through static imports (bundlers would ship them);
// - the framework-free entries (core, core/execute, query) never reach React;
// - every module a React Server Component app imports as a client component starts with 'use client'.
import { readdirSync, readFileSync } from 'node:fs'
import { dirname, join } from 'node:path'

const rules = {
  msw: (specifier) => specifier === 'msw' || specifier.startsWith('msw/'),
  'a node: module': (specifier) => specifier.startsWith('node:'),
  react: (specifier) => specifier === 'react' || specifier.startsWith('@tanstack/react-query'),
}
const entries = {
  'dist/index.js': ['msw', 'a node: module'],
  'dist/execute.js': ['msw', 'a node: module'],
  'dist/core.js': ['msw', 'a node: module', 'react'],
  'dist/coreExecute.js': ['msw', 'a node: module', 'react'],
  'dist/query.js': ['msw', 'a node: module', 'react'],
}

function reach(file, forbidden, seen = new Set()) {
  if (seen.has(file)) return seen
  seen.add(file)
  const code = readFileSync(file, 'utf8')
  for (const [, specifier] of code.matchAll(
    /(?:^|\n)\s*(?:import|export)\b[^'"]*?from\s*["']([^"']+)["']/g,
  )) {
    for (const name of forbidden)
      if (rules[name](specifier)) throw new Error(`${file} imports ${name} (${specifier})`)
    if (specifier.startsWith('.')) reach(join(dirname(file), specifier), forbidden, seen)
  }
  for (const [, region] of code.matchAll(/\/\/#region (src\/mock\/\S+)/g))
    throw new Error(`${file} bundles the mock (${region})`)
  return seen
}

for (const [entry, forbidden] of Object.entries(entries)) {
  const files = reach(entry, forbidden)
  console.log(`${entry}: ${files.size} files, no ${forbidden.join(', no ')}`)
}

// Every module of the React layer (hooks and the provider); its error class is plain code.
const serverSafe = new Set(['dist/react/errors.js'])
const clientModules = readdirSync('dist/react', { recursive: true })
  .filter((file) => String(file).endsWith('.js'))
  .map((file) => join('dist/react', String(file)))
  .filter((file) => !serverSafe.has(file))
for (const file of clientModules)
  if (!/^["']use client["'];?\n/.test(readFileSync(file, 'utf8')))
    throw new Error(`${file} lost its 'use client' directive in the build`)
console.log(`dist/react: ${clientModules.length} modules, each starting with 'use client'`)
