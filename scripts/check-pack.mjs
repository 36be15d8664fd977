// Checks what `npm pack` would publish (run by CI after the build; `npm run check:pack`).
// `npm pack --dry-run --json` runs the prepack script (the build) as a real pack would, then lists
// the tarball. Every path package.json names (each "exports" target, "types" and "default", the
// "bin"), LICENSE, CHANGELOG.md and README.md must be in it, and no test file may be. What ships is
// the built package and nothing twice: dist/*.js (unminified, one file per module), dist/types/*.d.ts
// (with the JSDoc), and of the sources only the swap guard's Solidity and its standard-JSON input
// (for an explorer's verification); no TypeScript source, no source or declaration maps, no
// fixtures. A shipped file that points to a source map fails, and so does a tarball over its budget.
import { execFileSync } from 'node:child_process'
import { readFileSync } from 'node:fs'

const packageJson = JSON.parse(readFileSync('package.json', 'utf8'))
const problems = []

function fail(message) {
  console.error(`check-pack: ${message}`)
  process.exit(1)
}

/** Every file path an "exports" map names, with where: `exports["./mock"].types`. */
function exportTargets(target, where = 'exports', found = []) {
  if (typeof target === 'string') found.push({ path: target, why: `package.json ${where}` })
  else if (Array.isArray(target)) for (const item of target) exportTargets(item, where, found)
  else if (target && typeof target === 'object')
    for (const [key, value] of Object.entries(target))
      exportTargets(value, key.startsWith('.') ? `${where}["${key}"]` : `${where}.${key}`, found)
  return found
}

/**
 * The files of the tarball `npm pack` would write. The prepack script's output shares stdout with
 * npm's JSON, so the JSON is the last part of stdout that parses.
 */
function packedFiles() {
  let stdout
  try {
    stdout = execFileSync('npm', ['pack', '--dry-run', '--json'], {
      encoding: 'utf8',
      stdio: ['ignore', 'pipe', 'pipe'],
      maxBuffer: 64 * 1024 * 1024,
    })
  } catch (error) {
    console.error(error.stdout?.slice(-4000) ?? '', error.stderr?.slice(-4000) ?? '')
    fail(`npm pack --dry-run failed (exit code ${error.status}); its output is above`)
  }
  const starts = [...stdout.matchAll(/^\[\s*$/gm)].map((match) => match.index).reverse()
  for (const start of starts) {
    try {
      const [result] = JSON.parse(stdout.slice(start))
      return {
        filename: result.filename,
        files: new Set(result.files.map((file) => file.path)),
        size: result.size,
        unpackedSize: result.unpackedSize,
      }
    } catch {}
  }
  fail(`no JSON in the output of npm pack --dry-run --json:\n${stdout.slice(-2000)}`)
}

/** The packed size the tarball must stay under (npm's `size`: the .tgz), in bytes. */
const maxPackedBytes = 450_000

const { filename, files, size, unpackedSize } = packedFiles()

const bin =
  typeof packageJson.bin === 'string' ? { [packageJson.name]: packageJson.bin } : (packageJson.bin ?? {})
const required = [
  ...exportTargets(packageJson.exports),
  ...Object.entries(bin).map(([name, path]) => ({ path, why: `package.json bin["${name}"]` })),
  ...['LICENSE', 'CHANGELOG.md', 'README.md'].map((path) => ({ path, why: 'shipped with every release' })),
].map(({ path, why }) => ({ path: path.replace(/^\.\//, ''), why }))
for (const { path, why } of required)
  if (!files.has(path)) problems.push(`${path} is missing from the tarball (${why})`)

// Test files, type tests, test snapshots and test helpers: never published.
const testFile = /(^|\/)(__tests__|__snapshots__|test|tests)\/|\.(test|spec|test-d)\.[cm]?[jt]sx?$/
for (const path of files)
  if (testFile.test(path)) problems.push(`${path} is a test file and must not be published`)

// Only the built package: each file is one of these kinds, and nothing is shipped twice.
const kinds = [
  ['the JavaScript (dist/**/*.js)', (path) => /^dist\/(?!types\/).*\.js$/.test(path)],
  ['the types (dist/types/**/*.d.ts)', (path) => /^dist\/types\/.*\.d\.ts$/.test(path)],
  [
    "the swap guard's Solidity and standard-JSON input",
    (path) => path === 'src/guard/SwapGuard.sol' || path === 'src/guard/SwapGuard.standard-input.json',
  ],
  [
    'package.json, LICENSE, CHANGELOG.md, README.md',
    (path) => /^(package\.json|LICENSE|CHANGELOG\.md|README\.md)$/.test(path),
  ],
]
const counts = new Map(kinds.map(([kind]) => [kind, 0]))
for (const path of files) {
  const kind = kinds.find(([, matches]) => matches(path))?.[0]
  if (kind) counts.set(kind, counts.get(kind) + 1)
  else problems.push(`${path} is none of what the package ships (${kinds.map(([name]) => name).join('; ')})`)
}
// No source maps ship, so no shipped file may point to one.
for (const path of files)
  if (/\.[cm]?js$/.test(path) && /\/\/# sourceMappingURL=/.test(readFileSync(path, 'utf8')))
    problems.push(`${path} points to a source map, and none ships`)
if (size > maxPackedBytes)
  problems.push(
    `the tarball is ${(size / 1000).toFixed(1)} kB packed, over its budget of ${maxPackedBytes / 1000} kB`,
  )

if (problems.length > 0) {
  fail(`${filename} is not what a release needs:\n${problems.map((line) => `  - ${line}`).join('\n')}`)
}
console.log(
  `check-pack: ${filename}: ${(size / 1000).toFixed(1)} kB packed (budget ${maxPackedBytes / 1000} kB), ` +
    `${(unpackedSize / 1000).toFixed(1)} kB unpacked, ${files.size} files: ` +
    `${[...counts].map(([kind, count]) => `${count} ${kind}`).join(', ')}; ${required.length} required paths ` +
    `present (exports, bin, LICENSE, CHANGELOG.md, README.md); no test files, no sources twice, no maps`,
)
