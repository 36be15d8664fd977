// How the site's code blocks are compiled. Every ```ts and ```tsx block of every page goes
// through twoslash (TypeScript 5, the site's own), against the built package: a type error fails
// `npm run docs:build`. The HTML comment on the line before a fence, the same markers as
// scripts/check-readme.mjs reads in the README, says what the block is:
//   - no comment: a complete file, compiled as it is;
//   - `<!-- fragment -->`: compiled with the names fragments assume (WETH, USDC, token0, amountIn,
//     client, SwapWidget…: `harness` below) in scope, nothing else;
//   - `<!-- file: PATH -->`: one file of a small app; every `file:` block of the page is one app,
//     so `app/page.tsx` can import `./Hydrate` from the block after it.
// The names and files added for the compiler are cut from what the page shows (twoslash's
// `// ---cut---`). No block can opt out: twoslash's `notwoslash` trigger is turned off.
import ts from 'typescript'
/** What fragments assume: your own values and components (a module, so nothing is global). */
export const harness = `import type { Account, Address, Chain, PublicClient, Transport, WalletClient } from 'viem'
import type { QueryClient } from '@tanstack/react-query'
import type { JSX } from 'react'
import type { Route, SwapClient } from 'token-swap-hooks/core'
export declare const WETH: Address
export declare const USDC: Address
export declare const token0: Address
export declare const token1: Address
export declare const amountIn: bigint
export declare const typed: string
export declare const account: Address
export declare const client: SwapClient
export declare const route: Route
export declare const queryClient: QueryClient
export declare const walletClient: WalletClient<Transport, Chain, Account>
export declare const publicClient: PublicClient
export declare const trustedAddresses: { [chainId: number]: readonly Address[] }
export declare const signal: AbortSignal
export declare function loadKey(): Promise<string>
export declare function SwapWidget(): JSX.Element
`

export const harnessFile = '__harness.ts'
export const harnessNames = [...harness.matchAll(/export declare (?:const|function) (\w+)/g)].map(
  (match) => match[1],
)
export const cut = '// ---cut---'

/** @typedef {{ kind: 'complete' } | { kind: 'fragment' } | { kind: 'file', path: string }} Marker */

/** The marker comment right before a fence, if any. */
/** @param {string | undefined} html @returns {Marker} */
export function readMarker(html) {
  const match = /^<!--\s*(fragment|file:\s*(\S+))\s*-->$/.exec(html?.trim() ?? '')
  if (!match) return { kind: 'complete' }
  return match[2] ? { kind: 'file', path: match[2] } : { kind: 'fragment' }
}

/** The code twoslash compiles for a fragment: the harness's names imported, then cut. */
/**
 * The names a module's code declares at its top level (imports included) and every identifier it
 * uses, read from its syntax alone.
 * @param {string} code @param {'ts' | 'tsx'} lang
 */
export function namesOf(code, lang) {
  const source = ts.createSourceFile(
    `index.${lang}`,
    code,
    ts.ScriptTarget.Latest,
    true,
    lang === 'tsx' ? ts.ScriptKind.TSX : ts.ScriptKind.TS,
  )
  /** @type {Set<string>} */
  const declared = new Set()
  /** @param {ts.BindingName} name */
  const bind = (name) => {
    if (ts.isIdentifier(name)) declared.add(name.text)
    else for (const element of name.elements) if (!ts.isOmittedExpression(element)) bind(element.name)
  }
  for (const statement of source.statements) {
    if (ts.isVariableStatement(statement))
      for (const declaration of statement.declarationList.declarations) bind(declaration.name)
    else if (
      (ts.isFunctionDeclaration(statement) ||
        ts.isClassDeclaration(statement) ||
        ts.isTypeAliasDeclaration(statement) ||
        ts.isInterfaceDeclaration(statement) ||
        ts.isEnumDeclaration(statement)) &&
      statement.name
    )
      declared.add(statement.name.text)
    else if (ts.isImportDeclaration(statement) && statement.importClause) {
      const clause = statement.importClause
      if (clause.name) declared.add(clause.name.text)
      const bindings = clause.namedBindings
      if (bindings && ts.isNamespaceImport(bindings)) declared.add(bindings.name.text)
      else if (bindings) for (const element of bindings.elements) declared.add(element.name.text)
    }
  }
  /** @type {Set<string>} */
  const used = new Set()
  /** @param {ts.Node} node */
  const visit = (node) => {
    if (ts.isIdentifier(node)) used.add(node.text)
    else if (ts.isShorthandPropertyAssignment(node)) used.add(node.name.text)
    ts.forEachChild(node, visit)
  }
  visit(source)
  return { declared, used }
}

/**
 * The hidden import of the harness's names a fragment uses and does not declare itself.
 * @param {string} code @param {'ts' | 'tsx'} lang
 */
export function harnessImportFor(code, lang) {
  const { declared, used } = namesOf(code, lang)
  const names = harnessNames.filter((name) => used.has(name) && !declared.has(name))
  return names.length ? `import { ${names.join(', ')} } from './${harnessFile.replace(/\.ts$/, '')}'` : ''
}

/** @param {string} code @param {'ts' | 'tsx'} lang */
export function fragmentSource(code, lang) {
  const prelude = harnessImportFor(code, lang)
  return prelude ? `${prelude}\n${cut}\n${code}` : code
}

/** @param {string} path @param {string} code @param {{ path: string, code: string }[]} files */
export function appFileSource(path, code, files) {
  const others = files.filter((file) => file.path !== path)
  return [
    ...others.flatMap((file) => [`// @filename: ${file.path}`, file.code]),
    `// @filename: ${path}`,
    cut,
    code,
  ].join('\n')
}

/** A markdown-it plugin: rewrites each ts/tsx fence's content to what twoslash must compile. */
/** @param {import('markdown-it').default} md */
export function snippetMarkers(md) {
  // Inline code is text, never a Vue template: `queryDefaults={{ … }}` must not be interpolated.
  const codeInline = md.renderer.rules.code_inline
  md.renderer.rules.code_inline = (tokens, index, options, env, self) =>
    (codeInline?.(tokens, index, options, env, self) ?? '').replace(/^<code/, '<code v-pre')
  md.core.ruler.push('token-swap-hooks-snippets', (state) => {
    const fences = state.tokens.flatMap((token, index) => {
      if (token.type !== 'fence') return []
      const lang = token.info.trim().split(/[\s{:]/)[0]
      if (lang !== 'ts' && lang !== 'tsx') return []
      const before = state.tokens[index - 1]
      const marker = readMarker(before?.type === 'html_block' ? before.content : undefined)
      return [{ token, lang, marker }]
    })
    const files = fences.flatMap(({ token, lang, marker }) => {
      if (marker.kind !== 'file') return []
      if (!marker.path.endsWith(`.${lang}`))
        throw new Error(`${state.env.relativePath}: a \`\`\`${lang} block saved as ${marker.path}`)
      return [{ path: marker.path, code: token.content }]
    })
    for (const { token, lang, marker } of fences) {
      if (marker.kind === 'fragment') token.content = fragmentSource(token.content, lang)
      else if (marker.kind === 'file') token.content = appFileSource(marker.path, token.content, files)
    }
  })
}

/**
 * A markdown-it plugin for the error codes page: `<!-- error-fields: NoRouteError -->` becomes the
 * table of the typed fields that error carries, read from the package's declarations by the
 * reference generator (site/.vitepress/.temp-reference/errors.json).
 * @param {import('markdown-it').default} md @param {{ errors: () => Record<string, { fields: [string, boolean, string, string][], page: string }> }} options
 */
export function errorFields(md, { errors }) {
  const parse = md.parse.bind(md)
  md.parse = (source, env) =>
    parse(
      source.replace(/^<!--\s*error-fields:\s*(\w+)\s*-->$/gm, (marker, name) => {
        const facts = errors()[name]
        if (!facts)
          throw new Error(`${env?.relativePath}: ${marker} names no error class the package exports`)
        const rows = facts.fields.map(
          ([field, optional, type, doc]) =>
            `| \`${field}\`${optional ? '?' : ''} | \`${type.replace(/\|/g, '\\|').replace(/\n\s*/g, ' ')}\` | ${doc.replace(/\|/g, '\\|').replace(/\n\s*/g, ' ')} |`,
        )
        const table = rows.length
          ? ['| field | type | |', '|---|---|---|', ...rows].join('\n')
          : '_No fields beyond those every error has._'
        return `${marker}\n\n::: v-pre\n${table}\n:::\n\n[\`${name}\`](${facts.page})`
      }),
      env,
    )
}

/**
 * A markdown-it plugin for the migration page: `<!-- changelog-migration -->` becomes the
 * CHANGELOG's "Migrating from 0.1" section as it is (its table of every moved and removed name
 * comes from the two versions' export lists), each name in the table linked to its reference page
 * when the package still exports it.
 * @param {import('markdown-it').default} md
 * @param {{ changelog: () => string, now: () => { exports: Record<string, { page: string, anchor: string }> } }} options
 */
export function changelogMigration(md, { changelog, now }) {
  const parse = md.parse.bind(md)
  md.parse = (source, env) =>
    parse(
      source.replace(/^<!--\s*changelog-migration\s*-->$/m, () => {
        const text = changelog()
        const start = text.search(/^### Migrating from 0\.1/m)
        if (start < 0) throw new Error('CHANGELOG.md has no "### Migrating from 0.1" section')
        const rest = text.slice(start)
        const end = rest.slice(4).search(/^#{2,3} /m)
        const section = end < 0 ? rest : rest.slice(0, end + 4)
        const exports = now().exports
        return section
          .replace(/^### /, '## ')
          .replace(/^\| (type )?`(\w+)` \|/gm, (row, type, name) => {
            const facts = exports[name]
            return facts
              ? `| ${type ?? ''}[\`${name}\`](${facts.page}${facts.anchor ? `#${facts.anchor}` : ''}) |`
              : row
          })
          .replace(/<!-- migration:(start|end) -->\n?/g, '')
      }),
      env,
    )
}

/**
 * A markdown-it plugin for the reference's index: `<!-- entries-table -->` becomes the package's
 * entries (as its package.json lists them), each with a link to its page and how many names it
 * exports, from the reference generator's manifest.
 * @param {import('markdown-it').default} md
 * @param {{ entries: { specifier: string, slug: string }[], now: () => { exports: Record<string, { entries: string[] }> } }} options
 */
export function entriesTable(md, { entries, now }) {
  const parse = md.parse.bind(md)
  md.parse = (source, env) =>
    parse(
      source.replace(/^<!--\s*entries-table\s*-->$/m, () => {
        const exports = Object.values(now().exports)
        const rows = entries.map((entry) => {
          const count = exports.filter((facts) => facts.entries.includes(entry.specifier)).length
          return `| [\`${entry.specifier}\`](/reference/${entry.slug}/) | ${count} |`
        })
        return ['| entry | exports |', '|---|---|', ...rows].join('\n')
      }),
      env,
    )
}
