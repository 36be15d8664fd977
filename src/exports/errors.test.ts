import { readFileSync } from 'node:fs'
import { describe, expect, test } from 'vitest'
import { BaseError } from '../core/errors/base.js'

/**
 * Every error class the README names can be imported, from the entry its
 * examples import it from, so that `instanceof` works for the user; and every
 * library error exported has the `name` it is exported under.
 */

const readme = readFileSync(new URL('../../README.md', import.meta.url), 'utf8')
const packageJson = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as {
  exports: Record<string, string | { types: string }>
}

/**
 * Names the README mentions that are not error classes of this library: the
 * ECMAScript error constructors, the DOMException an aborted signal rejects
 * with, and what the README's own examples define. Another library's error
 * (viem's, say) named in the README belongs here too.
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
const named = [...new Set(readme.match(errorName) ?? [])].filter((name) => !notOurs.has(name)).sort()

/** Every `import { … } from 'token-swap-hooks…'` of the README's code blocks: [name, specifier, line]. */
function readmeImports(): [name: string, specifier: string, line: number][] {
  const found: [string, string, number][] = []
  const blocks = /^```(?:ts|tsx)\n([\s\S]*?)^```/gm
  for (const block of readme.matchAll(blocks)) {
    const blockLine = readme.slice(0, block.index).split('\n').length
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
          found.push([name, statement[2] ?? '', line])
      }
    }
  }
  return found
}

describe('the errors the README names', () => {
  test('the README names error classes (the parser finds them)', () => {
    expect(named.length).toBeGreaterThan(10)
    expect(readmeImports().length).toBeGreaterThan(3)
  })

  test.each(named)('%s is exported as an error class from at least one entry', (name) => {
    expect(entriesExporting(name), `${name} is named in README.md but no entry exports it`).not.toEqual([])
  })

  test.each(readmeImports())(
    '%s, imported from %s in README.md line %i, is exported there',
    (name, specifier) => {
      const entry = entries.find((candidate) => candidate.specifier === specifier)
      expect(entry, `${specifier} is not an entry of package.json`).toBeDefined()
      expect(isErrorClass(entry?.module[name]), `${specifier} does not export the class ${name}`).toBe(true)
    },
  )
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
    // Its stable code, for translations and analytics, is in the README's table of codes.
    const { code } = error as BaseError
    expect(code).toMatch(/^[A-Z][A-Z\d_]*$/)
    expect(documentedCodes.get(code), `${name}'s code ${code} is not in the README's table of codes`).toBe(
      name,
    )
  })
})

/** The README's table of codes: `| \`CODE\` | \`XError\` | … |` rows. */
const documentedCodes = new Map(
  [...readme.matchAll(/^\| `([A-Z][A-Z\d_]*)` \| `([A-Za-z]+Error)` \|/gm)].map((row) => [row[1], row[2]]),
)
