// Compiles every ts/tsx block of the site's pages with twoslash, as `docs:build` does, without
// building the site: a quicker loop while writing (`npm run docs:snippets [page…]`), and a list
// of every failing block at once (the build stops at the first). Errors point at page lines.
//
// Usage: node site/scripts/compile-snippets.mjs [site/guides/executing.md …]
import { readdirSync, readFileSync } from 'node:fs'
import { join, relative, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'
import MarkdownIt from 'markdown-it'
import { createTwoslasher } from 'twoslash'
import { siteRoot } from '../.vitepress/library.mjs'
import { snippetMarkers } from '../.vitepress/snippets.mjs'
import { twoslashOptions } from '../.vitepress/twoslash.mjs'

/** Every page of the site (the generated reference included), as VitePress finds them. */
export function sitePages(dir = siteRoot) {
  /** @type {string[]} */
  const pages = []
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    if (entry.name.startsWith('.') || ['node_modules', 'notes', 'public', 'scripts'].includes(entry.name))
      continue
    const path = join(dir, entry.name)
    if (entry.isDirectory()) pages.push(...sitePages(path))
    else if (entry.name.endsWith('.md') && !(dir === siteRoot && entry.name === 'README.md')) pages.push(path)
  }
  return pages.sort()
}

/** The ts/tsx fences of a page, as the site's markdown plugin rewrites them for twoslash. */
export function pageBlocks(/** @type {string} */ path) {
  const md = new MarkdownIt({ html: true })
  md.use(snippetMarkers)
  const tokens = md.parse(readFileSync(path, 'utf8'), { relativePath: relative(siteRoot, path) })
  return tokens.flatMap((token) => {
    if (token.type !== 'fence') return []
    const lang = token.info.trim().split(/[\s{:[]/)[0] ?? ''
    return [{ lang, code: token.content, line: (token.map?.[0] ?? 0) + 1 }]
  })
}

async function main() {
  const targets = process.argv.slice(2).map((path) => resolve(path))
  const pages = targets.length ? targets : sitePages()
  const twoslasher = createTwoslasher(twoslashOptions)
  let blocks = 0
  let failed = 0
  const started = Date.now()
  for (const page of pages) {
    for (const block of pageBlocks(page)) {
      if (block.lang !== 'ts' && block.lang !== 'tsx') continue
      blocks++
      try {
        twoslasher(block.code, block.lang)
      } catch (error) {
        failed++
        const message = error instanceof Error ? error.message : String(error)
        console.error(
          `✗ ${relative(process.cwd(), page)}:${block.line}\n${message.trim().split('\n').slice(-6).join('\n')}\n`,
        )
      }
    }
  }
  const seconds = ((Date.now() - started) / 1000).toFixed(1)
  console.log(`compile-snippets: ${blocks} blocks in ${pages.length} pages, ${failed} failed (${seconds} s)`)
  if (failed) process.exitCode = 1
}

if (process.argv[1] === fileURLToPath(import.meta.url)) await main()
