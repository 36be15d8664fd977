import { readdirSync, readFileSync } from 'node:fs'
import { join, relative } from 'node:path'
import { fileURLToPath } from 'node:url'
import { describe, expect, test } from 'vitest'
import { BaseError } from '../core/errors/base.js'

/**
 * Every error class the documentation names (the README and the site's hand-written pages) can be
 * imported, from the entry its examples import it from, so that `instanceof` works for the user;
 * every library error exported has the `name` it is exported under, and its stable code is in the
 * site's table of error codes (site/reference/errors.md).
 */

const root = fileURLToPath(new URL('../../', import.meta.url))
/** The hand-written Markdown of the site: not its dependencies, not the generated reference. */
function sitePages(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name)
    if (entry.isDirectory()) {
      const generated = relative(root, dir) === join('site', 'reference')
      return entry.name === 'node_modules' || entry.name.startsWith('.') || generated ? [] : sitePages(path)
    }
    return entry.name.endsWith('.md') ? [path] : []
  })
}
const docs = [join(root, 'README.md'), ...sitePages(join(root, 'site'))].map((path) => ({
  file: relative(root, path),
  text: readFileSync(path, 'utf8'),
}))
const codesPage = readFileSync(join(root, 'site/reference/errors.md'), 'utf8')
const packageJson = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as {
  exports: Record<string, string | { types: string }>
}

/**
 * Names the documentation mentions that are not error classes of this library:
 * the ECMAScript error constructors, the DOMException an aborted signal rejects
 * with, and what its own examples define. Another library's error (viem's, say)
 * named in the documentation belongs here too.
 */
const notOurs = new Set([
  'Error',
  'TypeError',
  'RangeError',
  'SyntaxError',
  'ReferenceError',
  'EvalError',
  'URIError',
  'AggregateError',
  // `signal` aborted: a DOMException named AbortError.
  'AbortError',
  // A component of the README's error-handling example (`function QuoteError()`).
  'QuoteError',
])

/** Each package entry (`token-swap-hooks`, `token-swap-hooks/core`…) and its module, from package.json. */
const entries = await Promise.all(
  Object.entries(packageJson.exports)
    .filter(([subpath]) => subpath !== './package.json')
    .map(async ([subpath, target]) => {
      const types = typeof target === 'string' ? target : target.types
      const file = /\/exports\/(\w+)\.d\.ts$/.exec(types)?.[1]
      if (!file) throw new Error(`package.json exports ${subpath}: no src/exports module found for ${types}`)
      const specifier = subpath === '.' ? 'token-swap-hooks' : `token-swap-hooks/${subpath.slice(2)}`
      const module = (await import(`./${file}.ts`)) as Record<string, unknown>
      return { specifier, module }
    }),
)

const isErrorClass = (value: unknown): value is new (...args: never[]) => Error =>
  typeof value === 'function' && value.prototype instanceof Error

function entriesExporting(name: string): string[] {
  return entries.filter(({ module }) => isErrorClass(module[name])).map(({ specifier }) => specifier)
}

const errorName = /\b[A-Z][A-Za-z]+Error\b/g
const named = [...new Set(docs.flatMap(({ text }) => text.match(errorName) ?? []))]
  .filter((name) => !notOurs.has(name))
  .sort()

/** Every `import { … } from 'token-swap-hooks…'` of the documentation's code blocks: [name, specifier, where]. */
function docImports(): [name: string, specifier: string, where: string][] {
  const found: [string, string, string][] = []
  const blocks = /^```(?:ts|tsx)\n([\s\S]*?)^```/gm
  for (const { file, text } of docs)
    for (const block of text.matchAll(blocks)) {
      const blockLine = text.slice(0, block.index).split('\n').length
      for (const statement of (block[1] ?? '').matchAll(
        /import\s+(?:type\s+)?\{([^}]*)\}\s*from\s*'(token-swap-hooks[^']*)'/g,
      )) {
        const line = blockLine + (block[1] ?? '').slice(0, statement.index).split('\n').length
        for (const part of (statement[1] ?? '').split(',')) {
          // `type X` and `X as Y`: the exported name is X.
          const name = part
            .trim()
            .replace(/^type\s+/, '')
            .split(/\s+as\s+/)[0]
          if (name && new RegExp(`^${errorName.source}$`).test(name) && !notOurs.has(name))
            found.push([name, statement[2] ?? '', `${file}:${line}`])
        }
      }
    }
  return found
}

describe('the errors the documentation names', () => {
  test('the documentation names error classes (the parser finds them)', () => {
    expect(named.length).toBeGreaterThan(10)
    expect(docImports().length).toBeGreaterThan(3)
  })

  test.each(named)('%s is exported as an error class from at least one entry', (name) => {
    expect(
      entriesExporting(name),
      `${name} is named in the documentation but no entry exports it`,
    ).not.toEqual([])
  })

  test.each(docImports())('%s, imported from %s in %s, is exported there', (name, specifier) => {
    const entry = entries.find((candidate) => candidate.specifier === specifier)
    expect(entry, `${specifier} is not an entry of package.json`).toBeDefined()
    expect(isErrorClass(entry?.module[name]), `${specifier} does not export the class ${name}`).toBe(true)
  })
})

/**
 * A value for any constructor parameter: every property is itself, calling it
 * gives itself, it is an empty list when spread and 1 or "1" when used as a
 * number or a string. Enough to build each error and read its `name`.
 */
const anything: unknown = new Proxy(() => {}, {
  get(_, property) {
    if (property === Symbol.toPrimitive) return (hint: string) => (hint === 'number' ? 1 : '1')
    if (property === Symbol.iterator) return function* () {}
    if (property === 'then') return undefined
    return anything
  },
  apply: () => anything,
})

/** Constructor arguments for the classes `anything` cannot build (one looks its message up by `reason`). */
const samples: Record<string, unknown[]> = {
  RedirectError: [{ reason: 'refused', url: 'https://swap.test/x' }],
  PriceImpactTooHighError: [{ value: 0.2, valueIn: 10, valueOut: 8, blocking: 0.15, amountOut: 8n }],
}

describe('every library error an entry exports', () => {
  const exported = entries.flatMap(({ specifier, module }) =>
    Object.entries(module)
      .filter(
        ([, value]) => isErrorClass(value) && (value === BaseError || value.prototype instanceof BaseError),
      )
      .map(([name, value]) => [name, specifier, value] as const),
  )

  test('there are some', () => {
    expect(exported.length).toBeGreaterThan(20)
  })

  test.each(exported)('%s (from %s) has that name', (name, _, ErrorClass) => {
    const build = ErrorClass as unknown as new (...args: unknown[]) => Error
    let error: Error
    try {
      error = new build(...(samples[name] ?? [anything, anything]))
    } catch (cause) {
      throw new Error(
        `${name} cannot be built from \`anything\`: give its constructor arguments in \`samples\``,
        {
          cause,
        },
      )
    }
    expect(error).toBeInstanceOf(BaseError)
    expect(error.name).toBe(name)
    // Its stable code, for translations and analytics, is in the site's table of error codes.
    const { code } = error as BaseError
    expect(code).toMatch(/^[A-Z][A-Z\d_]*$/)
    expect(
      documentedCodes.get(code),
      `${name}'s code ${code} is not in site/reference/errors.md's table`,
    ).toBe(name)
  })
})

/** The error codes page's table: `| [\`CODE\`](#code) | \`XError\` | … |` rows. */
const documentedCodes = new Map(
  [...codesPage.matchAll(/^\| \[?`([A-Z][A-Z\d_]*)`(?:\]\(#[a-z-]+\))? \| `([A-Za-z]+Error)` \|/gm)].map(
    (row) => [row[1], row[2]],
  ),
)
