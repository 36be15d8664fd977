// Twoslash's options, shared by the VitePress config and scripts/compile-snippets.mjs: TypeScript
// 5 (the site's own; the repository's TypeScript 7 has no JS compiler API), the virtual files at
// the site's folder (so react, viem, wagmi… resolve from the repository's node_modules, as in an
// app), the package's entries resolved to dist's declaration files, as its `exports` do.
import { createHash } from 'node:crypto'
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import ts from 'typescript'
import { packagePaths, siteRoot, typesFingerprint } from './library.mjs'
import { harness, harnessFile } from './snippets.mjs'

/** How a user's project compiles: strict, bundler resolution, no ambient types beyond what it imports. */
export const compilerOptions = {
  target: ts.ScriptTarget.ES2022,
  lib: ['lib.es2022.d.ts', 'lib.dom.d.ts', 'lib.dom.iterable.d.ts'],
  module: ts.ModuleKind.ESNext,
  moduleResolution: ts.ModuleResolutionKind.Bundler,
  jsx: ts.JsxEmit.ReactJSX,
  strict: true,
  skipLibCheck: true,
  noEmit: true,
  types: [],
  paths: packagePaths(),
}

/** @type {import('twoslash').CreateTwoslashOptions} */
export const twoslashOptions = {
  tsModule: ts,
  vfsRoot: siteRoot,
  compilerOptions,
  extraFiles: { [harnessFile]: harness },
}

/**
 * A cache of twoslash's results on disk, keyed by the block's code and language and by
 * `typesFingerprint()` (the package's declarations, both lockfiles, the compiler options): a
 * block is compiled again whenever anything it compiles against changed. Only successes are
 * stored, so a failing block fails every build until it is fixed. Off with DOCS_NO_CACHE=1.
 * @returns {import('@shikijs/vitepress-twoslash').VitePressPluginTwoslashOptions['typesCache']}
 */
export function createTypesCache() {
  if (process.env.DOCS_NO_CACHE) return undefined
  const dir = join(siteRoot, '.vitepress/cache/twoslash')
  const fingerprint = createHash('sha256')
    .update(typesFingerprint())
    .update(JSON.stringify(compilerOptions))
    .update(ts.version)
    .digest('hex')
  /** @param {string} code @param {string | undefined} lang */
  const fileOf = (code, lang) =>
    join(
      dir,
      `${createHash('sha256')
        .update(fingerprint)
        .update(lang ?? '')
        .update(code)
        .digest('hex')
        .slice(0, 24)}.json`,
    )
  return {
    init: () => mkdirSync(dir, { recursive: true }),
    read: (code, lang) =>
      existsSync(fileOf(code, lang)) ? JSON.parse(readFileSync(fileOf(code, lang), 'utf8')) : null,
    write: (code, data, lang) => writeFileSync(fileOf(code, lang), JSON.stringify(data)),
  }
}
