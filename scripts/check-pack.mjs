// Checks what `npm pack` would publish (run by CI after the build; `npm run check:pack`).
// `npm pack --dry-run --json` runs the prepack script (the build) as a real pack would, then lists
// the tarball. Every path package.json names (each "exports" target, "types" and "default", the
// "bin"), LICENSE, CHANGELOG.md and README.md must be in it, and no test file may be. Every source
// map a shipped file points to must ship, and so must every source a shipped map names (so that
// "Go to definition" in a user's editor lands in the shipped src/, never on a missing file).
import { execFileSync } from 'node:child_process'
import { readFileSync } from 'node:fs'
import { dirname, join, normalize } from 'node:path'

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
      return { filename: result.filename, files: new Set(result.files.map((file) => file.path)) }
    } catch {}
  }
  fail(`no JSON in the output of npm pack --dry-run --json:\n${stdout.slice(-2000)}`)
}

const { filename, files } = packedFiles()

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

// Source maps: the files the pack lists are read from this directory, which is what it packs.
for (const path of files) {
  if (/\.[cm]?[jt]sx?$/.test(path)) {
    const url = /\/\/# sourceMappingURL=(\S+)\s*$/.exec(readFileSync(path, 'utf8'))?.[1]
    if (url && !url.startsWith('data:') && !files.has(normalize(join(dirname(path), url))))
      problems.push(`${path} points to ${url}, which is not in the tarball`)
  }
  if (path.endsWith('.map')) {
    const { sources = [], sourceRoot = '' } = JSON.parse(readFileSync(path, 'utf8'))
    for (const source of sources) {
      const target = normalize(join(dirname(path), sourceRoot, source))
      if (!files.has(target)) problems.push(`${path} names ${source}, which is not in the tarball`)
    }
  }
}

if (problems.length > 0) {
  fail(`${filename} is not what a release needs:\n${problems.map((line) => `  - ${line}`).join('\n')}`)
}
console.log(
  `check-pack: ${filename}: ${files.size} files; ${required.length} required paths present ` +
    `(exports, bin, LICENSE, CHANGELOG.md, README.md); every source map and its sources; no test files`,
)
