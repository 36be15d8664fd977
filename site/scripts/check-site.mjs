// `npm run check:docs`: what the built site (site/.vitepress/dist, from `npm run docs:build`) must
// hold, checked against the built package, not against what the site's generator believed:
//   1. every internal link and image resolves, anchors included (VitePress checks pages, not
//      anchors; this checks both, in the HTML it wrote);
//   2. every export of every entry has a reference page: the export list is read here on its own,
//      from each entry's declaration file in dist and from its JavaScript; a runtime export needs a
//      page titled with its name that says it comes from that entry, with a summary and its
//      declaration, and a function also an example; a type needs its heading somewhere in the
//      reference;
//   3. every ts/tsx block of every page went through twoslash (none was left uncompiled), and no
//      hand-written page uses the declaration fence only generated pages may use;
//   4. every error class has its code's section on the error codes page, with its fields;
//   5. llms.txt links every page (and only pages that exist), llms-full.txt holds every page;
//   6. the testing guide's files compile against the packed library and its tests pass (the
//      README check's script, pointed at that page).
//
// Usage: node site/scripts/check-site.mjs [--skip-tests]
import { spawnSync } from 'node:child_process'
import { existsSync, readdirSync, readFileSync } from 'node:fs'
import { join, relative } from 'node:path'
import { parseArgs } from 'node:util'
import ts from 'typescript'
import { entries, repository, requireBuiltPackage, siteRoot } from '../.vitepress/library.mjs'
import { sitePages } from './compile-snippets.mjs'

const { values: options } = parseArgs({ options: { 'skip-tests': { type: 'boolean', default: false } } })
const dist = join(siteRoot, '.vitepress/dist')
/** @type {string[]} */
const failures = []
const fail = (/** @type {string} */ message) => failures.push(message)

/** Every HTML file of the built site, by its URL path (`/guides/protection`), the Storybook's aside. */
function builtPages() {
  /** @type {Map<string, string>} */
  const pages = new Map()
  /** @param {string} dir */
  const walk = (dir) => {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      const path = join(dir, entry.name)
      if (entry.isDirectory()) {
        if (path !== join(dist, 'storybook') && path !== join(dist, 'assets')) walk(path)
      } else if (entry.name.endsWith('.html')) {
        const url = `/${relative(dist, path).replace(/\\/g, '/')}`
          .replace(/(^|\/)index\.html$/, '$1')
          .replace(/\.html$/, '')
        pages.set(url, readFileSync(path, 'utf8'))
      }
    }
  }
  walk(dist)
  return pages
}

/** The ids of a page's elements. */
const idsOf = (/** @type {string} */ html) =>
  new Set([...html.matchAll(/\sid="([^"]+)"/g)].map((match) => match[1]))

/** HTML entities in attribute values VitePress writes. */
const decodeEntities = (/** @type {string} */ text) =>
  text
    .replace(/&amp;/g, '&')
    .replace(/&#39;/g, "'")
    .replace(/&quot;/g, '"')
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')

function checkLinks(/** @type {Map<string, string>} */ pages) {
  const ids = new Map([...pages].map(([url, html]) => [url, idsOf(html)]))
  let internal = 0
  let external = 0
  for (const [url, html] of pages) {
    // Links and images of the page's own content: the twoslash popups' docs are text.
    for (const match of html.matchAll(/<(a|img)\s[^>]*?(href|src)="([^"]*)"/g)) {
      const target = decodeEntities(match[3] ?? '')
      if (/^(https?:|mailto:|data:)/.test(target)) {
        external++
        continue
      }
      internal++
      const [pathPart = '', anchor] = target.split('#')
      const base = new URL(pathPart || url, `http://site${url}`).pathname
      const clean = decodeURIComponent(base)
        .replace(/\.html$/, '')
        .replace(/\/index$/, '/')
      if (/^\/(assets|storybook)\//.test(clean) || /\.(png|svg|ico|txt|woff2?|js|css)$/.test(clean)) {
        if (!existsSync(join(dist, clean))) fail(`${url}: ${target} does not exist in the built site`)
        continue
      }
      const page = ids.has(clean) ? clean : ids.has(`${clean}/`) ? `${clean}/` : undefined
      if (!page) {
        fail(`${url}: a link to ${target}, a page the site does not have`)
        continue
      }
      if (anchor && !ids.get(page)?.has(decodeURIComponent(anchor)))
        fail(`${url}: a link to ${target}, an anchor ${page} does not have`)
    }
  }
  return { internal, external }
}

/** Each entry's exports as the package has them: the declaration file's, and the JavaScript's. */
async function packageExports() {
  requireBuiltPackage()
  const program = ts.createProgram(
    entries.map((entry) => entry.types),
    {
      module: ts.ModuleKind.ESNext,
      moduleResolution: ts.ModuleResolutionKind.Bundler,
      jsx: ts.JsxEmit.ReactJSX,
      skipLibCheck: true,
      noEmit: true,
    },
  )
  const checker = program.getTypeChecker()
  const list = []
  for (const entry of entries) {
    const source = program.getSourceFile(entry.types)
    const symbol = source && checker.getSymbolAtLocation(source)
    if (!symbol) throw new Error(`${entry.types}: not a module`)
    const runtime = new Set(Object.keys(await import(entry.module)))
    const declared = checker.getExportsOfModule(symbol)
    for (const exported of declared) {
      const target = exported.flags & ts.SymbolFlags.Alias ? checker.getAliasedSymbol(exported) : exported
      const isValue = Boolean(target.flags & ts.SymbolFlags.Value)
      const declaration = target.valueDeclaration ?? target.declarations?.[0]
      const callable =
        isValue &&
        !(target.flags & ts.SymbolFlags.Class) &&
        declaration !== undefined &&
        checker.getTypeOfSymbolAtLocation(target, declaration).getCallSignatures().length > 0
      list.push({ entry, name: exported.name, isValue, callable })
      runtime.delete(exported.name)
    }
    for (const name of runtime)
      fail(`${entry.specifier} exports ${name} at run time, and its declaration file does not`)
  }
  return list
}

/** The text of an HTML fragment, tags dropped. */
const textOf = (/** @type {string} */ html) =>
  decodeEntities(html.replace(/<[^>]+>/g, ''))
    .replace(/\s+/g, ' ')
    .trim()

async function checkReference(/** @type {Map<string, string>} */ pages) {
  const reference = [...pages].filter(([url]) => url.startsWith('/reference/'))
  /** @type {Map<string, { url: string, html: string }[]>} pages by the name in their h1 */
  const byTitle = new Map()
  for (const [url, html] of reference) {
    const title = /<h1[^>]*>([\s\S]*?)<\/h1>/.exec(html)?.[1]
    if (!title) continue
    const name = textOf(title).replace(/\s*​?$/, '')
    byTitle.set(name, [...(byTitle.get(name) ?? []), { url, html }])
  }
  const anchors = new Set(reference.flatMap(([url, html]) => [...idsOf(html)].map((id) => `${url}#${id}`)))
  const exports = await packageExports()
  for (const { entry, name, isValue, callable } of exports) {
    if (!isValue) {
      if (![...anchors].some((anchor) => anchor.endsWith(`#${name.toLowerCase()}`)))
        fail(`${entry.specifier}: the type ${name} has no heading in the reference`)
      continue
    }
    const candidates = (byTitle.get(name) ?? []).filter(({ html }) => {
      // The page's Import section names the entry (or its "Also exported by" line does).
      const start = html.indexOf('id="import"')
      const text = start < 0 ? '' : textOf(html.slice(start, html.indexOf('<h2', start + 1)))
      return (
        text.includes(`from '${entry.specifier}'`) ||
        text.includes(`\`${entry.specifier}\``) ||
        new RegExp(`Also exported by[^.]*${entry.specifier.replace(/[/]/g, '\\/')}(?![\\w/-])`).test(text)
      )
    })
    if (!candidates.length) {
      fail(
        `${entry.specifier}: ${name} has no reference page (a page titled ${name} that says it is exported by ${entry.specifier})`,
      )
      continue
    }
    const { url, html } = /** @type {{ url: string, html: string }} */ (candidates[0])
    const afterTitle = html.slice(html.indexOf('</h1>'))
    const summary = /<p>([\s\S]*?)<\/p>/.exec(afterTitle)?.[1]
    if (!summary || textOf(summary).length < 10)
      fail(`${url}: ${name}'s page has no summary (its JSDoc is empty)`)
    if (!idsOf(html).has('declaration')) fail(`${url}: ${name}'s page has no declaration`)
    if (callable && !idsOf(html).has('example') && !idsOf(html).has('examples'))
      fail(
        `${url}: ${name} is a function and its page has no example (an @example in its JSDoc, or site/notes/${name}.md)`,
      )
  }
  return exports.length
}

function checkBlocks(/** @type {Map<string, string>} */ pages) {
  let compiled = 0
  for (const [url, html] of pages) {
    for (const match of html.matchAll(
      /<div class="language-(tsx?|d\.ts)[^"]*">[\s\S]*?<pre class="([^"]*)"/g,
    )) {
      if (match[1] === 'd.ts') continue
      if (!/\btwoslash\b/.test(match[2] ?? ''))
        fail(`${url}: a ${match[1]} block was not compiled by twoslash`)
      else compiled++
    }
  }
  for (const page of sitePages()) {
    const path = relative(siteRoot, page)
    const generated = /^reference\/[^/]+\//.test(path)
    if (!generated && /^```d\.ts/m.test(readFileSync(page, 'utf8')))
      fail(
        `${path}: a \`\`\`d.ts block (not compiled): only the generated reference pages may show declarations`,
      )
  }
  return compiled
}

async function checkErrorCodes(/** @type {Map<string, string>} */ pages) {
  const html = pages.get('/reference/errors')
  if (!html) return fail('/reference/errors: the error codes page is missing')
  const ids = idsOf(html)
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
  const seen = new Set()
  for (const entry of entries) {
    const module = await import(entry.module)
    for (const [name, value] of Object.entries(module)) {
      if (typeof value !== 'function' || !(value.prototype instanceof Error) || seen.has(value)) continue
      seen.add(value)
      let code
      for (const args of [[{ reason: 'refused', url: 'https://swap.test/x' }], [anything, anything]]) {
        try {
          code = new value(...args).code
          if (typeof code === 'string') break
        } catch {}
      }
      if (typeof code !== 'string') continue
      const anchor = code.toLowerCase().replaceAll('_', '-')
      if (!ids.has(anchor)) fail(`/reference/errors: no section for ${code} (${name})`)
      const section = html.slice(html.indexOf(`id="${anchor}"`)).split(/<h[23]\s/)[0] ?? ''
      if (!section.includes(`${name}`)) fail(`/reference/errors#${anchor}: the section does not name ${name}`)
    }
  }
  return seen.size
}

/** llms.txt: a link to every built page and to nothing else; llms-full.txt: every page's marker. */
function checkLlms(/** @type {Map<string, string>} */ pages) {
  const index = join(dist, 'llms.txt')
  const full = join(dist, 'llms-full.txt')
  if (!existsSync(index) || !existsSync(full)) {
    fail("llms.txt or llms-full.txt missing from the built site (the config's buildEnd writes them)")
    return 0
  }
  const text = readFileSync(index, 'utf8')
  const fullText = readFileSync(full, 'utf8')
  const linked = new Set([...text.matchAll(/\]\((\/[^)]*)\)/g)].map((match) => match[1]))
  for (const url of linked) if (!pages.has(url)) fail(`llms.txt links ${url}, which is not a page`)
  const wanted = [...pages.keys()].filter((url) => url !== '/404')
  for (const url of wanted) {
    if (!linked.has(url)) fail(`llms.txt does not link ${url}`)
    if (!fullText.includes(`<!-- ${url} -->`)) fail(`llms-full.txt does not hold ${url}`)
  }
  return linked.size
}

async function main() {
  const started = Date.now()
  if (!existsSync(join(dist, 'index.html'))) {
    console.error('check-site: no built site in site/.vitepress/dist: run `npm run docs:build` first')
    process.exit(1)
  }
  const pages = builtPages()
  const links = checkLinks(pages)
  console.log(
    `✓ links: ${links.internal} internal links and images in ${pages.size} pages resolved (${links.external} external, not fetched)`,
  )
  const exports = await checkReference(pages)
  console.log(`✓ reference: ${exports} exports (entry × name) checked for a page`)
  const blocks = checkBlocks(pages)
  console.log(`✓ code: ${blocks} ts/tsx blocks compiled by twoslash`)
  const errors = await checkErrorCodes(pages)
  console.log(`✓ error codes: ${errors} error classes`)
  const llms = checkLlms(pages)
  console.log(`✓ llms.txt: ${llms} pages linked, llms-full.txt holds them`)
  if (!options['skip-tests']) {
    const result = spawnSync('node', ['scripts/check-readme.mjs', 'site/guides/testing.md'], {
      cwd: repository,
      stdio: 'inherit',
    })
    if (result.status !== 0)
      fail('site/guides/testing.md: its files do not compile against the packed library, or its tests fail')
  }
  const seconds = ((Date.now() - started) / 1000).toFixed(1)
  if (failures.length) {
    for (const failure of failures) console.error(`✗ ${failure}`)
    console.error(`check-site: ${failures.length} failures (${seconds} s)`)
    process.exit(1)
  }
  console.log(`check-site: passed (${seconds} s)`)
}

await main()
