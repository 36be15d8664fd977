// Checks the built entries: `token-swap-hooks` and `token-swap-hooks/core` must
// not reach msw or the mock through static imports (bundlers would ship them).
import { readFileSync } from 'node:fs'
import { dirname, join } from 'node:path'

const forbidden = [
  { test: (specifier) => specifier === 'msw' || specifier.startsWith('msw/'), what: 'msw' },
  { test: (specifier) => specifier.startsWith('node:'), what: 'a node: module' },
]

function reach(file, seen = new Set()) {
  if (seen.has(file)) return seen
  seen.add(file)
  const code = readFileSync(file, 'utf8')
  for (const [, specifier] of code.matchAll(
    /(?:^|\n)\s*(?:import|export)\b[^'"]*?from\s*["']([^"']+)["']/g,
  )) {
    for (const rule of forbidden)
      if (rule.test(specifier)) throw new Error(`${file} imports ${rule.what} (${specifier})`)
    if (specifier.startsWith('.')) reach(join(dirname(file), specifier), seen)
  }
  for (const [, region] of code.matchAll(/\/\/#region (src\/mock\/\S+)/g))
    throw new Error(`${file} bundles the mock (${region})`)
  return seen
}

for (const entry of process.argv.slice(2).length
  ? process.argv.slice(2)
  : ['dist/index.js', 'dist/core.js', 'dist/query.js']) {
  const files = reach(entry)
  console.log(`${entry}: ${files.size} files, no msw, no node:, no mock`)
}
