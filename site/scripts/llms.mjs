// llms.txt and llms-full.txt for the built site (https://llmstxt.org): the first an index of every
// page with its title and first sentence, the second every page's Markdown in one file (the
// guides first, then the reference), as VitePress built them. Called by the config's buildEnd.
import { readFileSync, writeFileSync } from 'node:fs'
import { dirname, join } from 'node:path'

/** @param {string} markdown */
const withoutFrontmatter = (markdown) => markdown.replace(/^---\n[\s\S]*?\n---\n/, '')

/** @param {string} markdown */
function titleOf(markdown) {
  const heading = /^#\s+(.+)$/m.exec(markdown)?.[1]
  const hero = /^\s+name:\s*(.+)$/m.exec(markdown)?.[1]
  return (heading ?? hero ?? '').replace(/`/g, '').trim()
}

/** A page with VitePress' `<!--@include: path-->` replaced by the file it includes (recursively). */
function withIncludes(/** @type {string} */ file) {
  return readFileSync(file, 'utf8').replace(/<!--\s*@include:\s*([^\s{#]+)\s*-->/g, (_, path) =>
    withIncludes(join(dirname(file), path)),
  )
}

/** The first sentence of a page's first paragraph, Markdown links reduced to their text. */
function summaryOf(/** @type {string} */ markdown) {
  const body = withoutFrontmatter(markdown)
    .replace(/^(`{3,}|~{3,})[^\n]*\n[\s\S]*?^\1\s*$/gm, '')
    .replace(/^#.*$/gm, '')
  const paragraph = body
    .split(/\n\s*\n/)
    .map((block) => block.trim())
    .find((block) => block && !/^(<!--|```|\||:::|-|\d+\.|!\[)/.test(block))
  return (paragraph ?? '')
    .replace(/\[([^\]]+)\]\([^)]*\)/g, '$1')
    .replace(/\s+/g, ' ')
    .split(/(?<=\.)\s/)[0]
    ?.slice(0, 240)
}

/**
 * @param {{ srcDir: string, outDir: string, pages: string[], title: string, description: string, specifiers: string[] }} site
 */
export function writeLlmsTxt({ srcDir, outDir, pages, title, description, specifiers }) {
  const order = (/** @type {string} */ page) =>
    page === 'index.md'
      ? 0
      : page === 'getting-started.md'
        ? 1
        : page.startsWith('guides/')
          ? 2
          : page.startsWith('reference/')
            ? 4
            : 3
  const sorted = [...pages].sort((a, b) => order(a) - order(b) || a.localeCompare(b))
  const read = (/** @type {string} */ page) => withIncludes(join(srcDir, page))
  const url = (/** @type {string} */ page) =>
    `/${page.replace(/(^|\/)index\.md$/, '$1').replace(/\.md$/, '')}`
  const sections = [
    ['Start', (/** @type {string} */ page) => order(page) <= 1],
    ['Guides', (/** @type {string} */ page) => order(page) === 2],
    ['More', (/** @type {string} */ page) => order(page) === 3],
    ['Reference', (/** @type {string} */ page) => order(page) === 4],
  ]
  const lines = [`# ${title}`, '', `> ${description}`, '']
  lines.push(
    `Every code block on these pages is TypeScript compiled against the built package. The reference has a page for every export of every entry (${specifiers.map((specifier) => `\`${specifier}\``).join(', ')}). \`llms-full.txt\` holds every page in full.`,
    '',
  )
  for (const [name, belongs] of sections) {
    const list = sorted.filter((page) => /** @type {(page: string) => boolean} */ (belongs)(page))
    if (!list.length) continue
    lines.push(`## ${name}`, '')
    for (const page of list) {
      const markdown = read(page)
      const summary = summaryOf(markdown)
      lines.push(`- [${titleOf(markdown) || url(page)}](${url(page)})${summary ? `: ${summary}` : ''}`)
    }
    lines.push('')
  }
  writeFileSync(join(outDir, 'llms.txt'), lines.join('\n'))
  const full = sorted.map((page) => `<!-- ${url(page)} -->\n${withoutFrontmatter(read(page)).trim()}\n`)
  writeFileSync(join(outDir, 'llms-full.txt'), `# ${title}\n\n> ${description}\n\n${full.join('\n')}`)
}
