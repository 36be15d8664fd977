// The library as the site compiles against it: the built package (dist), found through the
// `exports` of the repository's package.json, never through src. Shared by the VitePress config
// (twoslash's compiler options) and the scripts that generate and check the reference pages.
import { createHash } from 'node:crypto'
import { existsSync, readdirSync, readFileSync } from 'node:fs'
import { dirname, join, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'

/** The repository (the package), one level above the site. */
export const repository = resolve(dirname(fileURLToPath(import.meta.url)), '../..')
/** The site's own folder (VitePress' srcDir). */
export const siteRoot = join(repository, 'site')

/**
 * @typedef {{ name: string, version: string, exports: Record<string, string | { types: string, default: string }> }} PackageJson
 * @typedef {object} Entry
 * @property {string} specifier `token-swap-hooks`, `token-swap-hooks/core`…
 * @property {string} subpath `.`, `./core`… as package.json names it
 * @property {string} types the entry's declaration file in dist, absolute
 * @property {string} module the entry's JavaScript in dist, absolute
 * @property {string} slug the URL segment of its reference pages: `main`, `core`, `mock-msw`…
 */

/** @type {PackageJson} */
export const packageJson = JSON.parse(readFileSync(join(repository, 'package.json'), 'utf8'))

/** @type {Entry[]} Every entry of the package, in package.json's order. */
export const entries = Object.entries(packageJson.exports)
  .filter(([subpath]) => subpath !== './package.json')
  .map(([subpath, target]) => ({
    specifier: subpath === '.' ? packageJson.name : `${packageJson.name}/${subpath.slice(2)}`,
    subpath,
    types: join(repository, typeof target === 'string' ? target : target.types),
    module: join(repository, typeof target === 'string' ? target.replace(/\.d\.ts$/, '.js') : target.default),
    slug: subpath === '.' ? 'main' : subpath.slice(2).replaceAll('/', '-'),
  }))

/** Throws a message saying how to build the package when dist is missing. */
export function requireBuiltPackage() {
  const missing = entries.filter((entry) => !existsSync(entry.types))
  if (missing.length)
    throw new Error(
      `The site compiles its code against the built package, and ${missing.map((entry) => entry.types).join(', ')} ${missing.length === 1 ? 'is' : 'are'} missing: run \`npm run build\` at the repository root first.`,
    )
}

/** @returns {Record<string, string[]>} TypeScript `paths` resolving each entry to its declaration file in dist, as `exports` does. */
export function packagePaths() {
  /** @type {Record<string, string[]>} */
  const paths = {}
  for (const entry of entries) paths[entry.specifier] = [entry.types]
  return paths
}

/**
 * A hash of everything the site's code compiles against: the package's declaration files, the
 * repository's and the site's lockfiles (the types of react, viem, TypeScript…). Caches of
 * compiled snippets are keyed by it, so a changed type never leaves a stale snippet passing.
 * @returns {string}
 */
export function typesFingerprint() {
  const hash = createHash('sha256')
  /** @param {string} dir */
  const walk = (dir) => {
    for (const entry of readdirSync(dir, { withFileTypes: true }).sort((a, b) =>
      a.name.localeCompare(b.name),
    )) {
      const path = join(dir, entry.name)
      if (entry.isDirectory()) walk(path)
      else if (entry.name.endsWith('.d.ts')) hash.update(path).update(readFileSync(path))
    }
  }
  walk(join(repository, 'dist/types'))
  for (const lockfile of ['package-lock.json', 'site/package-lock.json'])
    if (existsSync(join(repository, lockfile))) hash.update(readFileSync(join(repository, lockfile)))
  hash.update(JSON.stringify(packageJson.exports))
  return hash.digest('hex')
}
