// Generates the reference pages (site/reference/<entry>/…) from the built package: the export
// list of each entry's declaration file in dist, each export's declaration, its JSDoc (summary,
// @param, @returns, @example) and the types around it, read with TypeScript's compiler API. Run
// by the VitePress config on every `docs:dev` and `docs:build`, so the pages follow whatever the
// package exports; never edited by hand (the folders are git-ignored). What a page cannot get from
// the declarations, a hand-written note adds: site/notes/<name>.md, appended under the summary.
//
// Writes, besides the pages, site/.vitepress/.temp-reference/manifest.json: every export's page
// and anchor, which scripts/check-site.mjs compares with an export list it reads on its own.
//
// Usage: node site/scripts/reference.mjs
import { createHash } from 'node:crypto'
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { basename, join, relative } from 'node:path'
import { fileURLToPath } from 'node:url'
import ts from 'typescript'
import {
  entries,
  packageJson,
  requireBuiltPackage,
  siteRoot,
  typesFingerprint,
} from '../.vitepress/library.mjs'
import {
  cut,
  harness,
  harnessFile,
  harnessImportFor,
  harnessNames,
  namesOf,
} from '../.vitepress/snippets.mjs'
import { compilerOptions } from '../.vitepress/twoslash.mjs'

const referenceRoot = join(siteRoot, 'reference')
const notesRoot = join(siteRoot, 'notes')
export const manifestPath = join(siteRoot, '.vitepress/.temp-reference/manifest.json')
export const errorsPath = join(siteRoot, '.vitepress/.temp-reference/errors.json')

/** Suffixes that make a type belong to the page of the value it is named after. */
const typeSuffixes = [
  'Parameters',
  'ReturnType',
  'ErrorType',
  'Options',
  'Data',
  'QueryFnData',
  'QueryKey',
  'QueryKeyParameters',
  'QueryOptionsConfig',
  'Props',
  '',
]

const categoryOrder = [
  'Components',
  'Hooks',
  'Actions',
  'Query',
  'Functions',
  'Errors',
  'Classes',
  'Constants',
]

/**
 * @typedef {object} Item
 * @property {string} name
 * @property {ts.Symbol} symbol the export's own symbol (after aliases)
 * @property {string[]} specifiers every entry that exports it
 * @property {import('../.vitepress/library.mjs').Entry} entry the entry whose pages hold it
 * @property {boolean} isValue
 * @property {string} category
 * @property {string} [owner] for a type: the value whose page documents it
 * @property {Item} [ownerItem]
 */

function createProgram() {
  requireBuiltPackage()
  return ts.createProgram(
    entries.map((entry) => entry.types),
    {
      target: ts.ScriptTarget.ES2022,
      module: ts.ModuleKind.ESNext,
      moduleResolution: ts.ModuleResolutionKind.Bundler,
      jsx: ts.JsxEmit.ReactJSX,
      strict: true,
      skipLibCheck: true,
      noEmit: true,
      types: [],
    },
  )
}

/** @param {ts.Symbol} symbol @param {ts.TypeChecker} checker */
const resolveAlias = (symbol, checker) =>
  symbol.flags & ts.SymbolFlags.Alias ? checker.getAliasedSymbol(symbol) : symbol

/** @param {string} text */
const capitalize = (text) => text.charAt(0).toUpperCase() + text.slice(1)

/** Every export of every entry, once, with the entries exporting it. */
export function collectExports() {
  const program = createProgram()
  const checker = program.getTypeChecker()
  /** @type {Map<string, Item>} */
  const items = new Map()
  for (const entry of entries) {
    const source = program.getSourceFile(entry.types)
    const moduleSymbol = source && checker.getSymbolAtLocation(source)
    if (!moduleSymbol) throw new Error(`${entry.types}: not a module`)
    for (const exported of checker.getExportsOfModule(moduleSymbol)) {
      const symbol = resolveAlias(exported, checker)
      // One name can be two things in two entries (the mock's defaultSlippage is the service's):
      // each then has its own page, in its own entry; links by name go to the first.
      const same = [...items.values()].find(
        (known) => known.name === exported.name && known.symbol === symbol,
      )
      if (same) {
        same.specifiers.push(entry.specifier)
        continue
      }
      const key = items.has(exported.name) ? `${exported.name} (${entry.specifier})` : exported.name
      const isValue = Boolean(symbol.flags & ts.SymbolFlags.Value)
      items.set(key, {
        name: exported.name,
        symbol,
        specifiers: [entry.specifier],
        entry,
        isValue,
        category: isValue ? categorize(exported.name, symbol, checker) : 'Types',
      })
    }
  }
  // A type named after a value (UseSwapRouteParameters, NoRouteErrorType) is on that value's page.
  const values = [...items.values()].filter((item) => item.isValue)
  for (const item of items.values()) {
    if (item.isValue) continue
    const owner = values
      .filter((value) => value.specifiers.some((specifier) => item.specifiers.includes(specifier)))
      .filter((value) => typeSuffixes.some((suffix) => item.name === capitalize(value.name) + suffix))
      .sort((a, b) => b.name.length - a.name.length)[0]
    if (owner) {
      item.owner = owner.name
      item.ownerItem = owner
      item.entry = owner.entry
    }
  }
  return { program, checker, items }
}

/** @param {string} name @param {ts.Symbol} symbol @param {ts.TypeChecker} checker */
function categorize(name, symbol, checker) {
  if (symbol.flags & ts.SymbolFlags.Class) {
    const type = checker.getDeclaredTypeOfSymbol(symbol)
    const isError = checker
      .getBaseTypes(/** @type {ts.InterfaceType} */ (type))
      .some(function isErrorType(base) {
        return (
          base.symbol?.name === 'Error' ||
          checker.getBaseTypes(/** @type {ts.InterfaceType} */ (base)).some(isErrorType)
        )
      })
    return isError ? 'Errors' : 'Classes'
  }
  if (/^use[A-Z]/.test(name)) return 'Hooks'
  const declaration = symbol.valueDeclaration ?? symbol.declarations?.[0]
  const callable =
    declaration && checker.getTypeOfSymbolAtLocation(symbol, declaration).getCallSignatures().length > 0
  if (!callable) return 'Constants'
  if (/^[A-Z]/.test(name)) return 'Components'
  if (/(QueryOptions|QueryKey|MutationOptions)$/.test(name)) return 'Query'
  if (
    /^get[A-Z]|^(check|settle|resume|execute|revoke|deploy|verify)/.test(name) &&
    /swap|Swap|Route|Token|Pair|Legacy|Allowance|Guard/.test(name)
  )
    return 'Actions'
  return 'Functions'
}

/** The page of an item: `/reference/<slug>/<name>`, or the entry's types page for a lone type. */
export function pageOf(/** @type {Item} */ item) {
  if (item.isValue) return `/reference/${item.entry.slug}/${item.name}`
  if (item.owner) return `/reference/${item.entry.slug}/${item.owner}`
  return `/reference/${item.entry.slug}/types`
}

/** The anchor of an item on its page (VitePress' slug of its heading). */
export function anchorOf(/** @type {Item} */ item) {
  return item.isValue ? '' : item.name.toLowerCase()
}

// ---------------------------------------------------------------------------------------------
// Rendering

/** @param {ts.Node} node */
function declarationText(node) {
  const source = node.getSourceFile()
  let text = node.getText(source)
  if (ts.isVariableDeclaration(node)) text = `const ${text}`
  // Strip the JSDoc comments inside (members'), keep one declaration readable.
  text = text.replace(/\/\*\*[\s\S]*?\*\/\s*/g, '')
  return text
    .replace(/^export declare /, '')
    .replace(/^export /, '')
    .replace(/^declare /, '')
}

/** @param {string} text */
const escapeTable = (text) => text.replace(/\|/g, '\\|').replace(/\n\s*/g, ' ')

/** JSDoc text to Markdown: `{@link X}` to a link to X's page when X is an export. */
function docText(/** @type {string} */ text, /** @type {Map<string, Item>} */ items) {
  return text.replace(/\{@link\s+([^}|\s]+)(?:[\s|]+([^}]*))?\}/g, (_, target, label) => {
    const item = items.get(target)
    const shown = label?.trim() || `\`${target}\``
    return item ? `[${shown}](${pageOf(item)}${anchorOf(item) ? `#${anchorOf(item)}` : ''})` : shown
  })
}

/** @param {ts.Symbol} symbol @param {ts.TypeChecker} checker */
function docOf(symbol, checker) {
  return ts.displayPartsToString(symbol.getDocumentationComment(checker)).trim()
}

/** @param {ts.Symbol} symbol @param {ts.TypeChecker} checker @param {string} name */
function tagsOf(symbol, checker, name) {
  return symbol
    .getJsDocTags(checker)
    .filter((tag) => tag.name === name)
    .map((tag) => ts.displayPartsToString(tag.text ?? []).trim())
}

const fromLibrary = (/** @type {ts.Declaration | undefined} */ declaration) =>
  Boolean(declaration?.getSourceFile().fileName.includes('/dist/types/'))

/**
 * The documented properties of an object type, declared in the library (not TanStack's or
 * viem's): `[name, optional, type as written, doc]`.
 * @param {ts.Type} type @param {ts.TypeChecker} checker
 */
function libraryProperties(type, checker) {
  const apparent = checker.getApparentType(type)
  if (apparent.getCallSignatures().length || checker.isArrayType?.(apparent)) return []
  return checker.getPropertiesOfType(apparent).flatMap((property) => {
    const declaration = property.valueDeclaration ?? property.declarations?.[0]
    if (!fromLibrary(declaration)) return []
    const typeNode = declaration && /** @type {{ type?: ts.TypeNode }} */ (declaration).type
    const typeText = typeNode
      ? typeNode.getText(declaration.getSourceFile())
      : checker.typeToString(checker.getTypeOfSymbol(property), undefined, ts.TypeFormatFlags.NoTruncation)
    const optional = Boolean(property.flags & ts.SymbolFlags.Optional)
    return [[property.name, optional, typeText, docOf(property, checker)]]
  })
}

/** @param {[string, boolean, string, string][]} rows */
function propertyTable(rows, /** @type {Map<string, Item>} */ items) {
  if (!rows.length) return ''
  const lines = ['| name | type | |', '|---|---|---|']
  for (const [name, optional, type, doc] of rows)
    lines.push(
      `| \`${name}\`${optional ? '?' : ''} | \`${escapeTable(type)}\` | ${escapeTable(docText(doc, items))} |`,
    )
  return lines.join('\n')
}

/** The error classes a type names (a union of `XErrorType`s, `XError`s or both). */
function errorClassesOf(/** @type {ts.Type} */ type, /** @type {Map<string, Item>} */ items) {
  const members = type.isUnion() ? type.types : type.isIntersection() ? [type] : [type]
  const names = new Set()
  for (const member of members) {
    const parts = member.isIntersection() ? member.types : [member]
    for (const part of parts) {
      const name = part.aliasSymbol?.name ?? part.symbol?.name
      if (!name) continue
      const className = name.replace(/Type$/, '')
      if (items.get(className)?.category === 'Errors') names.add(className)
    }
  }
  return [...names]
}

/** An error class's stable code, from the built module (the `code` getter). */
async function errorCodes(/** @type {Map<string, Item>} */ items) {
  /** @type {Map<string, string>} */
  const codes = new Map()
  const anything = new Proxy(() => {}, {
    get(_, property) {
      if (property === Symbol.toPrimitive)
        return (/** @type {string} */ hint) => (hint === 'number' ? 1 : '1')
      if (property === Symbol.iterator) return function* () {}
      if (property === 'then') return undefined
      return anything
    },
    apply: () => anything,
  })
  for (const item of items.values()) {
    if (item.category !== 'Errors') continue
    const module = await import(item.entry.module)
    const ErrorClass = module[item.name]
    for (const args of [[{ reason: 'refused', url: 'https://swap.test/x' }], [anything, anything]]) {
      try {
        const error = new ErrorClass(...args)
        if (typeof error.code === 'string') {
          codes.set(item.name, error.code)
          break
        }
      } catch {}
    }
  }
  return codes
}

/**
 * @param {Item} item
 * @param {{ checker: ts.TypeChecker, items: Map<string, Item>, codes: Map<string, string>, usedIn: Map<string, { title: string, link: string }[]>, prepared: Map<string, PreparedExample> }} context
 */
function renderValuePage(item, context) {
  const { checker, items, codes, usedIn } = context
  const { symbol, name } = item
  const declarations = symbol.declarations ?? []
  const lines = [`---`, `title: ${name}`, `outline: [2, 3]`, `---`, '', `# ${name}`, '']
  const doc = docText(docOf(symbol, checker), items).replace(/```(?:tsx?)?\n([\s\S]*?)```/g, (_, code) =>
    exampleBlock(code, item, context.prepared).join('\n'),
  )
  lines.push(doc || '', '')
  const note = join(notesRoot, `${name}.md`)
  if (existsSync(note)) lines.push(readFileSync(note, 'utf8').trim(), '')

  lines.push('## Import', '', `\`import { ${name} } from '${item.specifiers[0]}'\``, '')
  if (item.specifiers.length > 1)
    lines.push(
      `Also exported by ${item.specifiers
        .slice(1)
        .map((specifier) => `\`${specifier}\``)
        .join(', ')}.`,
      '',
    )

  lines.push('## Declaration', '', '::: v-pre', '```d.ts')
  const shown = declarations.filter((declaration) => !ts.isClassDeclaration(declaration) || true)
  lines.push(shown.map((declaration) => declarationText(declaration)).join('\n'))
  lines.push('```', ':::', '')

  const declaration = symbol.valueDeclaration ?? declarations[0]
  const type = declaration && checker.getTypeOfSymbolAtLocation(symbol, declaration)
  const signatures =
    item.category === 'Errors' || item.category === 'Classes' ? [] : (type?.getCallSignatures() ?? [])
  const paramDocs = new Map(
    tagsOf(symbol, checker, 'param').map((text) => {
      const [first, ...rest] = text.split(/\s+/)
      return [first ?? '', rest.join(' ').replace(/^-\s*/, '')]
    }),
  )
  const signature = signatures.at(-1)
  if (signature?.parameters.length) {
    lines.push('## Parameters', '', '::: v-pre')
    for (const parameter of signature.parameters) {
      const parameterDeclaration = /** @type {ts.ParameterDeclaration | undefined} */ (
        parameter.valueDeclaration
      )
      const typeText = parameterDeclaration?.type?.getText(parameterDeclaration.getSourceFile()) ?? 'unknown'
      const optional = Boolean(parameterDeclaration?.questionToken || parameterDeclaration?.initializer)
      lines.push(`### ${parameter.name}${optional ? ' (optional)' : ''}`, '', `Type: \`${typeText}\``, '')
      const described = paramDocs.get(parameter.name) || docOf(parameter, checker)
      if (described) lines.push(docText(described, items), '')
      const parameterType = checker.getTypeOfSymbol(parameter)
      const table = propertyTable(
        libraryProperties(checker.getNonNullableType(parameterType), checker),
        items,
      )
      if (table) lines.push(table, '')
    }
    lines.push(':::', '')
  }

  if (signature) {
    const returnType = signature.getReturnType()
    const returnNode = /** @type {ts.SignatureDeclaration | undefined} */ (signature.getDeclaration())?.type
    const returnText =
      returnNode?.getText(returnNode.getSourceFile()) ??
      checker.typeToString(returnType, undefined, ts.TypeFormatFlags.NoTruncation)
    lines.push('## Returns', '', '::: v-pre', `Type: \`${escapeTable(returnText)}\``, '')
    const returns = tagsOf(symbol, checker, 'returns')[0]
    if (returns) lines.push(docText(returns, items), '')
    const awaited = checker.getAwaitedType(returnType) ?? returnType
    const table = propertyTable(libraryProperties(awaited, checker), items)
    if (table) lines.push(table, '')
    lines.push(':::', '')
  }

  // Errors: the `XErrorType` of the page, or the `error` a hook's result carries.
  const errorType = items.get(`${capitalize(name)}ErrorType`)
  /** @type {string[]} */
  let errors = []
  if (errorType) errors = errorClassesOf(checker.getDeclaredTypeOfSymbol(errorType.symbol), items)
  else if (signature && item.category === 'Hooks') {
    const errorProperty = signature.getReturnType().getProperty('error')
    if (errorProperty)
      errors = errorClassesOf(checker.getNonNullableType(checker.getTypeOfSymbol(errorProperty)), items)
  }
  if (item.category === 'Errors') {
    const code = codes.get(name)
    lines.push(
      '## Code',
      '',
      `\`${code}\`: see [the error codes](/reference/errors#${code?.toLowerCase().replaceAll('_', '-')}).`,
      '',
    )
    const classType = checker.getDeclaredTypeOfSymbol(symbol)
    const fields = libraryProperties(classType, checker).filter(([field]) => !baseErrorFields.includes(field))
    if (fields.length) lines.push('## Fields', '', '::: v-pre', propertyTable(fields, items), ':::', '')
  }
  if (errors.length) {
    lines.push('## Errors', '', '| class | code |', '|---|---|')
    for (const error of errors) {
      const errorItem = items.get(error)
      const code = codes.get(error) ?? ''
      lines.push(
        `| [\`${error}\`](${errorItem ? pageOf(errorItem) : '/reference/errors'}) | [\`${code}\`](/reference/errors#${code.toLowerCase().replaceAll('_', '-')}) |`,
      )
    }
    lines.push('')
  }

  // Events: what `onEvent` hears, when the parameters take one.
  const parameterType = signature?.parameters.at(-1) && checker.getTypeOfSymbol(signature.parameters.at(-1))
  const onEvent = parameterType && checker.getNonNullableType(parameterType).getProperty('onEvent')
  if (onEvent) {
    lines.push(
      '## Events',
      '',
      'Its `onEvent` hears these events, each with its `type` (see [the lifecycle events](/reference/main/types#swaplifecycleevent) and [Events for analytics](/guides/executing#events-for-analytics)):',
      '',
    )
    const eventType = checker.getNonNullableType(checker.getTypeOfSymbol(onEvent)).getCallSignatures()[0]
      ?.parameters[0]
    const union = eventType && checker.getTypeOfSymbol(eventType)
    const members = union?.isUnion() ? union.types : union ? [union] : []
    const types = new Set()
    for (const member of members) {
      const typeProperty = member.getProperty('type')
      const literal = typeProperty && checker.getTypeOfSymbol(typeProperty)
      for (const part of literal?.isUnion() ? literal.types : literal ? [literal] : [])
        if (part.isStringLiteral()) types.add(part.value)
    }
    lines.push([...types].map((type) => `\`${type}\``).join(', '), '')
  }

  const examples = tagsOf(symbol, checker, 'example')
  if (examples.length) {
    lines.push(`## Example${examples.length > 1 ? 's' : ''}`, '')
    for (const example of examples) lines.push(...exampleBlock(example, item, context.prepared), '')
  }

  const owned = [...items.values()].filter((type) => type.ownerItem === item)
  if (owned.length) {
    lines.push('## Types', '')
    for (const type of owned) lines.push(...renderType(type, context))
  }

  const uses = usedIn.get(name)
  if (uses?.length) {
    lines.push('## In the guides', '')
    for (const use of uses) lines.push(`- [${use.title}](${use.link})`)
    lines.push('')
  }
  return lines.join('\n')
}

/** An @example as a compiled block (prepared by `prepareExamples`). */
function exampleBlock(
  /** @type {string} */ example,
  /** @type {Item} */ item,
  /** @type {Map<string, PreparedExample>} */ prepared,
) {
  const ready = prepared.get(`${item.name}\n${example}`)
  if (!ready) throw new Error(`${item.name}: an example was not prepared`)
  return [`\`\`\`${ready.lang}`, ready.code, '```']
}

/**
 * @typedef {object} PreparedExample
 * @property {'ts' | 'tsx'} lang
 * @property {string} code what twoslash compiles: a hidden prelude, cut, then the example
 * @property {string[]} placeholders the names the example uses and nothing defines (typed `any`)
 */

/** Names JSDoc examples use without importing them, and where a reader's code imports them from. */
const wellKnown = /** @type {Record<string, string>} */ ({
  useState: 'react',
  useEffect: 'react',
  useMemo: 'react',
  useCallback: 'react',
  formatUnits: 'viem',
  parseUnits: 'viem',
  formatEther: 'viem',
  parseEther: 'viem',
  erc20Abi: 'viem',
  maxUint256: 'viem',
  zeroAddress: 'viem',
  createPublicClient: 'viem',
  createWalletClient: 'viem',
  http: 'viem',
  custom: 'viem',
  mainnet: 'viem/chains',
  QueryClient: '@tanstack/react-query',
  QueryClientProvider: '@tanstack/react-query',
  useQuery: '@tanstack/react-query',
  useMutation: '@tanstack/react-query',
  useQueryClient: '@tanstack/react-query',
  dehydrate: '@tanstack/react-query',
  HydrationBoundary: '@tanstack/react-query',
  usePublicClient: 'wagmi',
  useWalletClient: 'wagmi',
})

/** Whether a statement list returns outside any function (an example written as a function body). */
function returnsAtTopLevel(/** @type {ts.SourceFile} */ source) {
  let found = false
  /** @param {ts.Node} node */
  const visit = (node) => {
    if (found || ts.isFunctionLike(node) || ts.isClassLike(node)) return
    if (ts.isReturnStatement(node)) found = true
    else ts.forEachChild(node, visit)
  }
  for (const statement of source.statements) visit(statement)
  return found
}

/**
 * JSDoc examples are sketches: they use the library without importing it, and names of your own
 * (`error`, `toast`, `ROUTER`) without defining them, and some are a function's body. Each is
 * compiled as it is shown, with a hidden prelude: the library's names it uses imported from the
 * entry that documents them, the fragments' harness (token0, amountIn, client…), every other name
 * nothing defines declared as `any`, and, for a body that returns, a function around it. The
 * placeholders are found with one TypeScript program over every example (a second pass reports
 * what still fails, which the site's build then fails on).
 * @param {{ item: Item, example: string }[]} examples @param {Map<string, Item>} items
 * @returns {Map<string, PreparedExample>}
 */
function prepareExamples(examples, items) {
  const byName = new Map(
    [...items.values()]
      .filter((item) => item.name === [...items.keys()].find((key) => items.get(key) === item))
      .map((item) => [item.name, item]),
  )
  /** @type {Map<string, { lang: 'ts' | 'tsx', imports: string, body: string, wrap: boolean, prelude: string[], key: string }>} */
  const drafts = new Map()
  for (const { item, example } of examples) {
    const code = example.replace(/^```\w*\n?|```$/g, '').trim()
    const lang = /<[A-Za-z][^>]*>|\/>/.test(code) ? 'tsx' : 'ts'
    const source = ts.createSourceFile(
      `example.${lang}`,
      code,
      ts.ScriptTarget.Latest,
      true,
      lang === 'tsx' ? ts.ScriptKind.TSX : ts.ScriptKind.TS,
    )
    const lastImport = source.statements.filter(ts.isImportDeclaration).at(-1)
    const split = lastImport ? lastImport.end : 0
    const imports = code.slice(0, split).trim()
    const body = code.slice(split).trim()
    const wrap = returnsAtTopLevel(source)
    const { declared, used } = namesOf(code, lang)
    /** @type {string[]} */
    const prelude = []
    const libraryNames = [...used].filter(
      (name) => !declared.has(name) && byName.has(name) && !harnessNames.includes(name),
    )
    const bySpecifier = new Map()
    for (const name of libraryNames) {
      const specifier = byName.get(name)?.specifiers[0]
      bySpecifier.set(specifier, [...(bySpecifier.get(specifier) ?? []), name])
    }
    // Names of React, viem, TanStack Query and wagmi that examples use as a reader would have them.
    for (const name of used) {
      const specifier = !declared.has(name) && !byName.has(name) ? wellKnown[name] : undefined
      if (specifier) bySpecifier.set(specifier, [...(bySpecifier.get(specifier) ?? []), name])
    }
    for (const [specifier, names] of bySpecifier)
      prelude.push(`import { ${names.join(', ')} } from '${specifier}'`)
    const harnessLine = harnessImportFor(code, lang)
    if (harnessLine) prelude.push(harnessLine)
    drafts.set(`${item.name}\n${example}`, {
      lang,
      imports,
      body,
      wrap,
      prelude,
      key: `${item.name}\n${example}`,
    })
  }
  /** @param {{ lang: 'ts' | 'tsx', imports: string, body: string, wrap: boolean, prelude: string[] }} draft @param {string[]} placeholders */
  const assemble = (draft, placeholders) => {
    const hidden = [...draft.prelude, ...placeholders.map((name) => `declare const ${name}: any`)]
    // An example written for a Vite app reads `import.meta.env`, which Vite's own types declare.
    if (/import\.meta\.env/.test(draft.body))
      hidden.push('declare global { interface ImportMeta { readonly env: Record<string, any> } }')
    const parts = []
    if (hidden.length) parts.push(...hidden, cut)
    if (draft.imports) parts.push(draft.imports, '')
    if (draft.wrap)
      parts.push(
        '// ---cut-start---',
        'async function example() {',
        '// ---cut-end---',
        draft.body,
        '// ---cut-start---',
        '}',
        '// ---cut-end---',
      )
    else parts.push(draft.body)
    return parts.join('\n')
  }
  const missing = new Map([...drafts.keys()].map((key) => [key, /** @type {string[]} */ ([])]))
  // The placeholders depend only on the examples and the package's types: cached by both.
  const fingerprint = createHash('sha256')
    .update(typesFingerprint())
    .update(JSON.stringify([...drafts.entries()]))
    .digest('hex')
  const cacheFile = join(siteRoot, '.vitepress/cache/reference-examples.json')
  const cached = existsSync(cacheFile) ? JSON.parse(readFileSync(cacheFile, 'utf8')) : undefined
  const passes = process.env.REFERENCE_REPORT ? [1, 2] : cached?.fingerprint === fingerprint ? [] : [1]
  if (!passes.length) for (const [key, names] of Object.entries(cached.missing)) missing.set(key, names)
  for (const pass of passes) {
    const files = new Map(
      [...drafts.entries()].map(([key, draft], index) => [
        join(siteRoot, `__example${index}.${draft.lang}`),
        { key, code: assemble(draft, missing.get(key) ?? []) },
      ]),
    )
    const diagnostics = compileVirtual(files)
    for (const [file, list] of diagnostics) {
      const { key } = /** @type {{ key: string }} */ (files.get(file))
      for (const diagnostic of list) {
        const message = ts.flattenDiagnosticMessageText(diagnostic.messageText, '\n')
        const name =
          /^(?:Cannot find name|No value exists in scope for the shorthand property) '([\w$]+)'/.exec(
            message,
          )?.[1]
        if (pass === 1 && name && [2304, 2552, 18004].includes(diagnostic.code)) {
          const list = missing.get(key) ?? []
          if (!list.includes(name)) list.push(name)
          missing.set(key, list)
        } else if (pass === 2) {
          console.warn(
            `reference: the @example of ${key.split('\n')[0]} does not compile: ${message.split('\n')[0]}`,
          )
        }
      }
    }
  }
  if (passes.length) {
    mkdirSync(join(cacheFile, '..'), { recursive: true })
    writeFileSync(cacheFile, JSON.stringify({ fingerprint, missing: Object.fromEntries(missing) }))
  }
  return new Map(
    [...drafts.entries()].map(([key, draft]) => {
      const placeholders = missing.get(key) ?? []
      return [key, { lang: draft.lang, code: assemble(draft, placeholders), placeholders }]
    }),
  )
}

/** Semantic and syntactic errors of virtual files, in one program with the site's compiler options. */
function compileVirtual(/** @type {Map<string, { code: string }>} */ files) {
  const options = { ...compilerOptions, baseUrl: siteRoot }
  const host = ts.createCompilerHost(options)
  const virtual = new Map([...files].map(([path, { code }]) => [path, code]))
  virtual.set(join(siteRoot, harnessFile), harness)
  const { getSourceFile, fileExists, readFile } = host
  host.getSourceFile = (path, version, ...rest) =>
    virtual.has(path)
      ? ts.createSourceFile(path, /** @type {string} */ (virtual.get(path)), version)
      : getSourceFile.call(host, path, version, ...rest)
  host.fileExists = (path) => virtual.has(path) || fileExists.call(host, path)
  host.readFile = (path) => virtual.get(path) ?? readFile.call(host, path)
  const started = Date.now()
  const program = ts.createProgram([...virtual.keys()], options, host)
  /** @type {Map<string, readonly ts.Diagnostic[]>} */
  const result = new Map()
  for (const path of files.keys()) {
    const source = program.getSourceFile(path)
    if (!source) continue
    const list = [...program.getSyntacticDiagnostics(source), ...program.getSemanticDiagnostics(source)]
    if (list.length) result.set(path, list)
  }
  if (process.env.DEBUG_REFERENCE) console.log(`compileVirtual: ${Date.now() - started} ms`)
  return result
}

/**
 * @param {Item} item
 * @param {{ checker: ts.TypeChecker, items: Map<string, Item> }} context
 */
function renderType(item, { checker, items }) {
  const lines = [`### ${item.name}`, '']
  const doc = docText(docOf(item.symbol, checker), items)
  if (doc) lines.push(doc, '')
  if (item.specifiers.length) lines.push(`\`import type { ${item.name} } from '${item.specifiers[0]}'\``, '')
  lines.push('::: v-pre', '```d.ts')
  lines.push((item.symbol.declarations ?? []).map((declaration) => declarationText(declaration)).join('\n'))
  lines.push('```', '')
  const table = propertyTable(libraryProperties(checker.getDeclaredTypeOfSymbol(item.symbol), checker), items)
  if (table && table.split('\n').length > 2) lines.push(table, '')
  lines.push(':::', '')
  return lines
}

/** The fields BaseError gives every error, and the two every execution error carries. */
const baseErrorFields = [
  'name',
  'shortMessage',
  'details',
  'metaMessages',
  'code',
  'walk',
  'cause',
  'message',
  'stack',
]
const executeSwapErrorFields = ['leftoverAllowance', 'step']

/**
 * Each error class: its code, its entries and the typed fields it carries beyond BaseError's
 * (and, below ExecuteSwapError, beyond the two every execution error carries). For the error
 * codes page (`<!-- error-fields: X -->`) and scripts/check-site.mjs.
 * @param {{ checker: ts.TypeChecker, items: Map<string, Item>, codes: Map<string, string> }} context
 */
function errorFacts({ checker, items, codes }) {
  /** @type {Record<string, { code: string | undefined, entries: string[], page: string, fields: [string, boolean, string, string][] }>} */
  const facts = {}
  for (const item of items.values()) {
    if (item.category !== 'Errors') continue
    const type = checker.getDeclaredTypeOfSymbol(item.symbol)
    /** @param {ts.Type} candidate @returns {boolean} */
    const extendsExecute = (candidate) =>
      checker
        .getBaseTypes(/** @type {ts.InterfaceType} */ (candidate))
        .some((base) => base.symbol?.name === 'ExecuteSwapError' || extendsExecute(base))
    const skip = [...baseErrorFields, ...(extendsExecute(type) ? executeSwapErrorFields : [])]
    facts[item.name] = {
      code: codes.get(item.name),
      entries: item.specifiers,
      page: pageOf(item),
      fields: libraryProperties(type, checker).filter(([field]) => !skip.includes(field)),
    }
  }
  return facts
}

/** Which guides import each name: `[name] → [{ title, link }]`. */
function guideUses() {
  /** @type {Map<string, { title: string, link: string }[]>} */
  const uses = new Map()
  const folders = ['', 'guides']
  for (const folder of folders) {
    const dir = join(siteRoot, folder)
    for (const file of readdirSync(dir)) {
      if (!file.endsWith('.md') || file === 'README.md') continue
      const markdown = readFileSync(join(dir, file), 'utf8')
      const title = /^#\s+(.+)$/m.exec(markdown)?.[1]?.replace(/`/g, '') ?? file
      const link = `/${folder ? `${folder}/` : ''}${file === 'index.md' ? '' : basename(file, '.md')}`
      for (const statement of markdown.matchAll(
        /import\s+(?:type\s+)?\{([^}]*)\}\s*from\s*'token-swap-hooks[^']*'/g,
      ))
        for (const part of (statement[1] ?? '').split(',')) {
          const name = part
            .trim()
            .replace(/^type\s+/, '')
            .split(/\s+as\s+/)[0]
          if (!name) continue
          const list = uses.get(name) ?? []
          if (!list.some((use) => use.link === link)) list.push({ title, link })
          uses.set(name, list)
        }
    }
  }
  return uses
}

/** @param {import('../.vitepress/library.mjs').Entry} entry @param {Item[]} list @param {{ checker: ts.TypeChecker, items: Map<string, Item> }} context */
function renderEntryPage(entry, list, context) {
  const lines = [`---`, `title: ${entry.specifier}`, `---`, '', `# \`${entry.specifier}\``, '']
  const summary = entrySummaries[entry.subpath]
  if (summary) lines.push(summary, '')
  const exported = [...context.items.values()].filter((item) => item.specifiers.includes(entry.specifier))
  for (const category of [...categoryOrder, 'Types']) {
    const inCategory = exported
      .filter((item) => item.category === category)
      .sort((a, b) => a.name.localeCompare(b.name))
    if (!inCategory.length) continue
    lines.push(`## ${category}`, '', '| | |', '|---|---|')
    for (const item of inCategory) {
      const first =
        docText(docOf(item.symbol, context.checker), context.items).split(/\n\n/)[0]?.replace(/\n/g, ' ') ??
        ''
      const link = `${pageOf(item)}${anchorOf(item) ? `#${anchorOf(item)}` : ''}`
      lines.push(`| [\`${item.name}\`](${link}) | ${escapeTable(first)} |`)
    }
    lines.push('')
  }
  void list
  return lines.join('\n')
}

/** One line per entry, for its reference page (the export files' own header comments say the same). */
const entrySummaries = {
  '.': "The React side: `SwapProvider` and every hook, the errors and `parseAmount`. Client components (`'use client'`), so the provider can sit in a Next.js App Router layout.",
  './core':
    "Everything without React: `createSwapClient`, one action per endpoint, executing, previewing and resuming a swap, balances, exact output, slippage, every error class and the guard's runtime constants.",
  './query':
    'The TanStack Query option factories and keys of every endpoint, for `queryClient.fetchQuery`, prefetching and server rendering.',
  './guard':
    "The swap guard's deployment: `deploySwapGuard`, `isSwapGuardDeployed` and its creation bytecode, for a chain where nobody deployed it yet.",
  './tabs':
    'The tabs of one origin as one client of the service: one rate-limit budget, one tab polling each quote, one tab resuming a swap.',
  './devtools': 'A panel for TanStack Devtools, and the same panel on its own.',
  './mock':
    'An in-memory market behind all nine endpoints and a loopback server, for tests, demos and Storybook.',
  './mock/msw': 'The mock service as MSW handlers (the one entry that needs the optional peer `msw`).',
}

/** Writes every page; returns the sidebar and the manifest. */
export async function generateReference() {
  const { checker, items } = collectExports()
  const codes = await errorCodes(items)
  const usedIn = guideUses()
  // Every @example, and every code block inside a summary, compiled as a sketch (see prepareExamples).
  const examples = [...items.values()].flatMap((item) =>
    item.isValue
      ? [
          ...tagsOf(item.symbol, checker, 'example'),
          ...[...docOf(item.symbol, checker).matchAll(/```(?:tsx?)?\n([\s\S]*?)```/g)].map(
            (match) => match[1] ?? '',
          ),
        ].map((example) => ({ item, example }))
      : [],
  )
  const prepared = prepareExamples(examples, items)
  const context = { checker, items, codes, usedIn, prepared }
  for (const entry of entries) rmSync(join(referenceRoot, entry.slug), { recursive: true, force: true })
  // Folders of entries that no longer exist (after a restructure) go too.
  for (const folder of readdirSync(referenceRoot, { withFileTypes: true }))
    if (folder.isDirectory()) rmSync(join(referenceRoot, folder.name), { recursive: true, force: true })

  /** @type {Record<string, { page: string, anchor: string, entries: string[], isValue: boolean }>} */
  const manifest = {}
  /** @type {import('vitepress').DefaultTheme.SidebarItem[]} */
  const sidebar = []
  for (const entry of entries) {
    const dir = join(referenceRoot, entry.slug)
    mkdirSync(dir, { recursive: true })
    const own = [...items.values()].filter((item) => item.entry === entry)
    writeFileSync(join(dir, 'index.md'), renderEntryPage(entry, own, context))
    for (const item of own.filter((candidate) => candidate.isValue))
      writeFileSync(join(dir, `${item.name}.md`), renderValuePage(item, context))
    const lone = own
      .filter((item) => !item.isValue && !item.owner)
      .sort((a, b) => a.name.localeCompare(b.name))
    if (lone.length) {
      const lines = [
        '---',
        `title: Types of ${entry.specifier}`,
        '---',
        '',
        `# Types of \`${entry.specifier}\``,
        '',
      ]
      lines.push(
        "The types this entry exports that belong to no one function (a type named after a function, such as `UseSwapRouteParameters`, is on that function's page).",
        '',
      )
      for (const item of lone) lines.push(...renderType(item, context))
      writeFileSync(join(dir, 'types.md'), lines.join('\n'))
    }
    sidebar.push({
      text: entry.specifier,
      collapsed: true,
      items: [
        { text: 'Overview', link: `/reference/${entry.slug}/` },
        ...categoryOrder.flatMap((category) => {
          const list = own
            .filter((item) => item.category === category)
            .sort((a, b) => a.name.localeCompare(b.name))
          return list.length
            ? [
                {
                  text: category,
                  collapsed: true,
                  items: list.map((item) => ({ text: item.name, link: pageOf(item) })),
                },
              ]
            : []
        }),
        ...(lone.length ? [{ text: 'Types', link: `/reference/${entry.slug}/types` }] : []),
      ],
    })
  }
  // A clean clone has no .temp-reference yet (it is not in git).
  mkdirSync(join(errorsPath, '..'), { recursive: true })
  writeFileSync(errorsPath, `${JSON.stringify(errorFacts(context), null, 2)}\n`)
  for (const [key, item] of items)
    manifest[key] = {
      page: pageOf(item),
      anchor: anchorOf(item),
      entries: item.specifiers,
      isValue: item.isValue,
    }
  writeFileSync(
    manifestPath,
    `${JSON.stringify({ version: packageJson.version, exports: manifest }, null, 2)}\n`,
  )
  return { sidebar, count: items.size }
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const started = Date.now()
  const { count } = await generateReference()
  console.log(
    `reference: ${count} exports, pages in ${relative(process.cwd(), referenceRoot)} (${Date.now() - started} ms)`,
  )
}
