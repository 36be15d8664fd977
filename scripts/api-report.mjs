// The public API, reviewed (`npm run check:api`, run by CI; `npm run api:report` rewrites it).
//
// Reads each entry of package.json "exports" from its module in src/exports/, follows every
// re-export to the declaration it names, and writes api/token-swap-hooks.api.md: for each entry,
// its runtime exports (what `import * as entry` holds) and its type-only exports, with what each
// is (function, class, const, type, interface). `--check` compares the file with what the
// sources export now and fails when they differ: a change to the public API updates the report in
// the same commit, so that it is reviewed as a diff rather than accumulated.
//
// It also fails for an exported name whose declaration has no doc comment (`/** … */` right
// before it): every public name says what it is for.
//
// Usage: node scripts/api-report.mjs [--check] [--json]
//   --json prints { entry: { runtime: [...], types: [...] } } instead of writing the report.
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs'
import { dirname, join, relative, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'
import { parseArgs } from 'node:util'

const repo = resolve(dirname(fileURLToPath(import.meta.url)), '..')
export const reportPath = join(repo, 'api/token-swap-hooks.api.md')

/** A source file's text with comments and string contents blanked (same length, same lines). */
function blank(code) {
  return code.replace(
    /\/\*[\s\S]*?\*\/|\/\/[^\n]*|'(?:\\.|[^'\\\n])*'|"(?:\\.|[^"\\\n])*"|`(?:\\.|[^`\\])*`/g,
    (match) =>
      match[0] === "'" || match[0] === '"'
        ? match // module specifiers are read from the blanked text
        : match.replace(/[^\n]/g, ' '),
  )
}

const sources = new Map()
function source(file) {
  let entry = sources.get(file)
  if (!entry) {
    if (!existsSync(file)) throw new Error(`${relative(repo, file)} does not exist`)
    const text = readFileSync(file, 'utf8')
    entry = { text, blanked: blank(text) }
    sources.set(file, entry)
  }
  return entry
}

/** `./x.js` from `file` → the .ts or .tsx source it names. */
function resolveSpecifier(file, specifier) {
  const base = resolve(dirname(file), specifier).replace(/\.js$/, '')
  for (const candidate of [`${base}.ts`, `${base}.tsx`, join(base, 'index.ts')])
    if (existsSync(candidate)) return candidate
  throw new Error(`${relative(repo, file)}: cannot resolve ${specifier}`)
}

/**
 * The export statements of a module: `export { a, type B, c as d } from './x.js'`,
 * `export type { … } from …`, `export * from …`, and local `export { … }` lists.
 */
function exportStatements(file) {
  const { blanked } = source(file)
  const statements = []
  for (const match of blanked.matchAll(
    /(?:^|[\n;])\s*export\s+(type\s+)?(?:\{([^}]*)\}|\*)\s*(?:from\s*['"]([^'"]+)['"])?/g,
  )) {
    const [, typeOnly, list, from] = match
    if (list === undefined) {
      if (!from) continue
      statements.push({ star: true, from: resolveSpecifier(file, from) })
      continue
    }
    const names = list
      .split(',')
      .map((part) => part.trim())
      .filter(Boolean)
      .map((part) => {
        const isType = Boolean(typeOnly) || /^type\s/.test(part)
        const [imported, exported = imported] = part.replace(/^type\s+/, '').split(/\s+as\s+/)
        return { imported: imported.trim(), exported: exported.trim(), isType }
      })
    statements.push({ names, from: from ? resolveSpecifier(file, from) : undefined })
  }
  return statements
}

const declarationPattern = (name) =>
  new RegExp(
    String.raw`(?:^|\n)([ \t]*)export\s+(?:declare\s+)?(?:default\s+)?(async\s+function\*?|function\*?|const|let|var|abstract\s+class|class|type|interface|enum)\s+${name}\b`,
  )
const localDeclarationPattern = (name) =>
  new RegExp(
    String.raw`(?:^|\n)([ \t]*)(?:declare\s+)?(async\s+function\*?|function\*?|const|let|var|abstract\s+class|class|type|interface|enum)\s+${name}\b`,
  )

const kindOf = (keyword) =>
  keyword.includes('class')
    ? 'class'
    : keyword.includes('function')
      ? 'function'
      : keyword === 'type' || keyword === 'interface'
        ? keyword
        : keyword === 'enum'
          ? 'enum'
          : 'const'

/** The doc comment right before `index` in `text` (blank lines and `// biome-ignore` lines aside), or undefined. */
function docCommentBefore(text, index) {
  let before = text.slice(0, index).replace(/\s+$/, '')
  // Line comments between the doc comment and the declaration (lint suppressions).
  while (/\n[ \t]*\/\/[^\n]*$/.test(before))
    before = before.replace(/\n[ \t]*\/\/[^\n]*$/, '').replace(/\s+$/, '')
  if (!before.endsWith('*/')) return undefined
  const start = before.lastIndexOf('/*')
  if (start === -1 || before[start + 2] !== '*') return undefined
  const comment = before.slice(start)
  // A doc comment with words in it, not an empty `/** */`.
  return /[A-Za-z]/.test(comment.replace(/@\w+/g, '')) ? comment : undefined
}

/**
 * Where `name`, exported by `file`, is declared: { file, kind, doc }. Follows re-exports and
 * local export lists.
 */
function findDeclaration(file, name, seen = new Set()) {
  const key = `${file}#${name}`
  if (seen.has(key)) throw new Error(`${relative(repo, file)}: re-export cycle for ${name}`)
  seen.add(key)
  const { text, blanked } = source(file)
  const declared = declarationPattern(name).exec(blanked)
  if (declared) {
    const start = declared.index + declared[0].indexOf('export')
    return { file, kind: kindOf(declared[2]), doc: docCommentBefore(text, start) }
  }
  for (const statement of exportStatements(file)) {
    if (statement.star) {
      try {
        return findDeclaration(statement.from, name, seen)
      } catch {
        continue
      }
    }
    const hit = statement.names.find((entry) => entry.exported === name)
    if (!hit) continue
    if (statement.from) return findDeclaration(statement.from, hit.imported, seen)
    // `export { local }` with `local` declared in this file.
    const local = localDeclarationPattern(hit.imported).exec(blanked)
    if (!local) throw new Error(`${relative(repo, file)}: exports ${name} but declares no ${hit.imported}`)
    const start = local.index + local[0].length - local[0].trimStart().length
    return { file, kind: kindOf(local[2]), doc: docCommentBefore(text, start) }
  }
  throw new Error(`${relative(repo, file)} does not export ${name}`)
}

/** Every name a module exports: Map name → { isType, file, kind, doc }. */
function exportsOf(file) {
  const found = new Map()
  for (const statement of exportStatements(file)) {
    if (statement.star) {
      for (const [name, entry] of exportsOf(statement.from)) if (!found.has(name)) found.set(name, entry)
      continue
    }
    for (const { imported, exported, isType } of statement.names) {
      const declaration = statement.from
        ? findDeclaration(statement.from, imported)
        : findDeclaration(file, exported)
      const runtime = !isType && !['type', 'interface'].includes(declaration.kind)
      found.set(exported, { ...declaration, isType: !runtime })
    }
  }
  // Declarations exported where they are written (an exports file is only re-exports, but allow it).
  const { blanked } = source(file)
  for (const match of blanked.matchAll(
    /(?:^|\n)[ \t]*export\s+(?:declare\s+)?(async\s+function\*?|function\*?|const|let|var|abstract\s+class|class|type|interface|enum)\s+([A-Za-z_$][\w$]*)/g,
  )) {
    const declaration = findDeclaration(file, match[2])
    found.set(match[2], { ...declaration, isType: ['type', 'interface'].includes(declaration.kind) })
  }
  return found
}

/** package.json "exports" → [{ specifier, file }], in package.json order. */
export function entries(root = repo) {
  const packageJson = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8'))
  return Object.entries(packageJson.exports)
    .filter(([subpath]) => subpath !== './package.json')
    .map(([subpath, target]) => {
      const types = typeof target === 'string' ? target : target.types
      const module = /\/exports\/([\w-]+)\.d\.ts$/.exec(types)?.[1]
      if (!module) throw new Error(`package.json exports ${subpath}: no src/exports module for ${types}`)
      const specifier = subpath === '.' ? packageJson.name : `${packageJson.name}/${subpath.slice(2)}`
      return { specifier, file: join(root, 'src/exports', `${module}.ts`) }
    })
}

/**
 * { specifier: { runtime: [{ name, kind, file, doc }], types: [...] } }, read from the sources under
 * `root` (this repository, or a checkout of another version of it).
 */
export function api(root = repo) {
  const result = {}
  for (const { specifier, file } of entries(root)) {
    const names = [...exportsOf(file)].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
    const describe = ([name, { kind, file: at, doc }]) => ({ name, kind, file: relative(root, at), doc })
    result[specifier] = {
      runtime: names.filter(([, entry]) => !entry.isType).map(describe),
      types: names.filter(([, entry]) => entry.isType).map(describe),
    }
  }
  return result
}

export function render(report) {
  const lines = [
    '# token-swap-hooks: the public API',
    '',
    '<!-- Generated by `npm run api:report` (scripts/api-report.mjs) from src/exports/. Do not edit:',
    '     `npm run check:api` (CI) fails when this file differs from what the entries export. -->',
    '',
    'Every name each entry exports. A change here is a change to the public API: review it as one.',
    '',
  ]
  const total = Object.values(report).reduce(
    (sum, { runtime, types }) => sum + runtime.length + types.length,
    0,
  )
  lines.push(
    `${Object.keys(report).length} entries, ${total} names`,
    '',
    '| entry | runtime | types |',
    '|---|---|---|',
  )
  for (const [specifier, { runtime, types }] of Object.entries(report))
    lines.push(`| \`${specifier}\` | ${runtime.length} | ${types.length} |`)
  for (const [specifier, { runtime, types }] of Object.entries(report)) {
    lines.push('', `## \`${specifier}\``, '', `### Runtime (${runtime.length})`, '')
    for (const { name, kind } of runtime) lines.push(`- \`${name}\` (${kind})`)
    lines.push('', `### Types (${types.length})`, '')
    for (const { name, kind } of types) lines.push(`- \`${name}\` (${kind})`)
  }
  return `${lines.join('\n')}\n`
}

function main() {
  const { values: options } = parseArgs({
    options: { check: { type: 'boolean', default: false }, json: { type: 'boolean', default: false } },
  })
  const report = api()
  if (options.json) {
    const plain = Object.fromEntries(
      Object.entries(report).map(([specifier, { runtime, types }]) => [
        specifier,
        { runtime: runtime.map(({ name }) => name), types: types.map(({ name }) => name) },
      ]),
    )
    console.log(JSON.stringify(plain, null, 2))
    return
  }
  const problems = []
  const undocumented = new Map()
  for (const { runtime, types } of Object.values(report))
    for (const { name, file, doc } of [...runtime, ...types])
      if (!doc) undocumented.set(`${name} (${file})`, true)
  for (const name of undocumented.keys()) problems.push(`${name} is exported without a doc comment`)
  const text = render(report)
  const path = relative(process.cwd(), reportPath)
  if (options.check) {
    const current = existsSync(reportPath) ? readFileSync(reportPath, 'utf8') : ''
    if (current !== text)
      problems.unshift(
        `${path} differs from what the entries export: run \`npm run api:report\` and commit the change ` +
          `(a change to the public API is reviewed in the same commit)\n${diff(current, text)}`,
      )
  } else {
    mkdirSync(dirname(reportPath), { recursive: true })
    writeFileSync(reportPath, text)
    console.log(`api-report: wrote ${path}`)
  }
  if (problems.length > 0) {
    console.error(
      `api-report: ${problems.length} problem(s):\n${problems.map((line) => `  - ${line}`).join('\n')}`,
    )
    process.exit(1)
  }
  const total = Object.values(report).reduce(
    (sum, { runtime, types }) => sum + runtime.length + types.length,
    0,
  )
  console.log(
    `api-report: ${Object.keys(report).length} entries, ${total} names, each with a doc comment` +
      (options.check ? `; ${path} is up to date` : ''),
  )
}

/** The lines only one side has, marked - (the report) and + (the sources). */
function diff(before, after) {
  const a = before.split('\n')
  const b = after.split('\n')
  const inA = new Set(a)
  const inB = new Set(b)
  return [
    ...a.filter((line) => line && !inB.has(line)).map((line) => `    - ${line}`),
    ...b.filter((line) => line && !inA.has(line)).map((line) => `    + ${line}`),
  ].join('\n')
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) main()
