// The migration table of a release: every public name of an older version whose import changes,
// old entry → new entry, generated from the two export lists (scripts/api-report.mjs run over the
// older version's sources and over this one's).
//
// Usage: node scripts/migration-table.mjs --from <git ref> [--write CHANGELOG.md]
//   prints the table, or writes it into the file between `<!-- migration:start -->` and
//   `<!-- migration:end -->`.
import { execFileSync } from 'node:child_process'
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { dirname, join, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'
import { parseArgs } from 'node:util'
import { api } from './api-report.mjs'

const repo = resolve(dirname(fileURLToPath(import.meta.url)), '..')
const { values: options } = parseArgs({
  options: { from: { type: 'string' }, write: { type: 'string' } },
})
if (!options.from) {
  console.error('migration-table: --from <git ref> (the version users move from) is required')
  process.exit(1)
}

/** The public API of the sources at `ref`, read from a temporary copy of its package.json and src/. */
function apiAt(ref) {
  const directory = mkdtempSync(join(tmpdir(), 'token-swap-hooks-api-'))
  try {
    const archive = execFileSync('git', ['archive', ref, 'package.json', 'src'], {
      cwd: repo,
      maxBuffer: 256 * 1024 * 1024,
    })
    execFileSync('tar', ['-x', '-C', directory], { input: archive })
    return api(directory)
  } finally {
    rmSync(directory, { recursive: true, force: true })
  }
}

const before = apiAt(options.from)
const after = api()
const short = (specifier) => specifier.replace(/^token-swap-hooks/, '') || '.'
const react = new Set(['.', '/execute', '/resume', '/balances', '/exact-output', '/slippage'])

/**
 * Where a name an old entry exported is imported from now: the same entry when it still exports
 * it; else, for what a React app imported, the main entry, then /query, then /core, then /guard;
 * for the framework-free entries, the same layer first. Undefined: removed.
 */
function target(oldEntry, name) {
  const has = (entry) => {
    const found = after[`token-swap-hooks${entry === '.' ? '' : entry}`]
    return found && [...found.runtime, ...found.types].some((item) => item.name === name)
  }
  const old = short(oldEntry)
  if (has(old)) return old
  // The mock's, the tabs' and the devtools' names are their own (the mock's defaultSlippage is not
  // core's): moved nowhere else.
  if (['/mock', '/mock/msw', '/tabs', '/devtools'].includes(old)) return undefined
  const order = react.has(old)
    ? ['.', '/query', '/core', '/guard']
    : old === '/query'
      ? ['/query', '/core', '.']
      : old === '/guard'
        ? ['/guard', '/core']
        : ['/core', '/query', '/guard', '.']
  return order.find(has)
}

const specifier = (entry) => `token-swap-hooks${entry === '.' ? '' : entry}`
// name → target → { from: old entries, type: boolean }
const moves = new Map()
for (const [oldEntry, { runtime, types }] of Object.entries(before))
  for (const [item, isType] of [
    ...runtime.map((item) => [item, false]),
    ...types.map((item) => [item, true]),
  ]) {
    const to = target(oldEntry, item.name)
    if (to === short(oldEntry)) continue
    const key = `${item.name}\u0000${to ?? ''}`
    const row = moves.get(key) ?? { name: item.name, to, isType, from: [] }
    row.from.push(short(oldEntry))
    moves.set(key, row)
  }

const rows = [...moves.values()].sort(
  (a, b) =>
    (a.to === undefined) - (b.to === undefined) ||
    a.name.localeCompare(b.name) ||
    (a.to ?? '').localeCompare(b.to ?? ''),
)
const lines = [
  `| name | 0.1 entry | 0.2 entry |`,
  '|---|---|---|',
  ...rows.map(
    ({ name, to, isType, from }) =>
      `| ${isType ? 'type ' : ''}\`${name}\` | ${from.map((entry) => `\`${specifier(entry)}\``).join(', ')} | ${
        to ? `\`${specifier(to)}\`` : 'removed'
      } |`,
  ),
]
const table = lines.join('\n')
const moved = rows.filter((row) => row.to).length
const removed = rows.length - moved

if (options.write) {
  const path = resolve(options.write)
  const text = readFileSync(path, 'utf8')
  const start = '<!-- migration:start -->'
  const end = '<!-- migration:end -->'
  const [a, b] = [text.indexOf(start), text.indexOf(end)]
  if (a === -1 || b < a) {
    console.error(`migration-table: ${options.write} has no ${start} … ${end}`)
    process.exit(1)
  }
  writeFileSync(path, `${text.slice(0, a + start.length)}\n${table}\n${text.slice(b)}`)
  console.log(`migration-table: ${moved} moved and ${removed} removed names written into ${options.write}`)
} else console.log(table)
