// Every TypeScript code block of the README compiles against the packed library, and the README's
// test files pass (`npm run check:readme`, run by CI).
//
// The blocks, by the HTML comment on the line before their fence (invisible on GitHub):
//   - `<!-- file: PATH -->`: a file of a small app (PATH inside it, e.g. `src/App.tsx`,
//     `test/setup.ts`, `vitest.config.ts`), compiled as it is; when the README gives a
//     `vitest.config.ts`, Vitest runs the app's tests with it, as a user who pasted them would;
//   - `<!-- fragment -->`: compiled as a module with the names the README says fragments assume
//     (WETH, USDC, token0, amountIn, client, SwapWidget…) declared, nothing else;
//   - no comment: a complete file, compiled as it is.
// A ```ts block is compiled as .ts (so JSX in it fails) and a ```tsx block as .tsx. Other fences
// (sh, json) are not checked. There is no way to skip a TypeScript block.
//
// The library is what `npm pack` ships (prepack builds it), extracted into the app's
// node_modules; every other package (react, viem, wagmi, msw, vitest…) resolves from the
// repository's node_modules. Errors point at README.md lines.
//
// Usage: node scripts/check-readme.mjs [--keep] [README.md]
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { dirname, join, relative, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'
import { parseArgs, stripVTControlCharacters } from 'node:util'
import { packLibrary, run } from './run.mjs'

const repo = resolve(dirname(fileURLToPath(import.meta.url)), '..')
const { values: options, positionals } = parseArgs({
  options: { keep: { type: 'boolean', default: false } },
  allowPositionals: true,
})
const readmePath = resolve(repo, positionals[0] ?? 'README.md')
const readmeName = relative(process.cwd(), readmePath) || 'README.md'
// Inside the repository, so that react, viem, msw, vitest… resolve from its node_modules.
const work = join(repo, '.cache/readme-check')
const app = join(work, 'app')

/** Names a fragment may use without defining them: your values and your components. */
const harness = `// What README fragments assume: your own values and components.
declare const WETH: import('viem').Address
declare const USDC: import('viem').Address
declare const token0: import('viem').Address
declare const token1: import('viem').Address
declare const amountIn: bigint
declare const typed: string
declare const account: import('viem').Address
declare const client: import('token-swap-hooks').SwapClient
declare const route: import('token-swap-hooks').Route
declare const queryClient: import('@tanstack/react-query').QueryClient
declare const walletClient: import('viem').WalletClient
declare const publicClient: import('viem').PublicClient
declare const trustedAddresses: import('token-swap-hooks/core').TrustedAddresses
declare const signal: AbortSignal
declare function loadKey(): Promise<string>
declare function SwapWidget(): import('react').JSX.Element
`

const compilerOptions = {
  target: 'ES2022',
  lib: ['ES2022', 'DOM', 'DOM.Iterable'],
  module: 'ESNext',
  moduleResolution: 'Bundler',
  jsx: 'react-jsx',
  strict: true,
  skipLibCheck: true,
  noEmit: true,
  // No ambient @types from the repository: what a block uses, it imports.
  types: [],
}

/** The README's TypeScript blocks: { kind, path, lang, line (of the fence), code }. */
export function extractBlocks(markdown) {
  const lines = markdown.split('\n')
  const blocks = []
  for (let index = 0; index < lines.length; index++) {
    const fence = /^```(\w*)\s*$/.exec(lines[index])
    if (!fence) continue
    const start = index
    let end = index + 1
    while (end < lines.length && !/^```\s*$/.test(lines[end])) end++
    if (end === lines.length) throw new Error(`${readmeName}:${start + 1}: a code fence is never closed`)
    index = end
    const lang = fence[1]
    if (lang !== 'ts' && lang !== 'tsx') continue
    let before = start - 1
    while (before >= 0 && lines[before].trim() === '') before--
    const marker = /^<!--\s*(fragment|file:\s*(\S+))\s*-->$/.exec(lines[before]?.trim() ?? '')
    const code = lines.slice(start + 1, end).join('\n')
    const line = start + 2 // the first line of code, 1-based
    if (marker?.[2]) {
      const path = marker[2]
      if (!path.endsWith(`.${lang}`))
        throw new Error(`${readmeName}:${start + 1}: a \`\`\`${lang} block saved as ${path}`)
      blocks.push({ kind: 'file', path, lang, line, code })
    } else if (marker) {
      blocks.push({ kind: 'fragment', path: `fragments/L${line}.${lang}`, lang, line, code })
    } else {
      blocks.push({ kind: 'complete', path: `complete/L${line}.${lang}`, lang, line, code })
    }
  }
  return blocks
}

/** tsc's `path(line,col)` → `README.md:line:col`, for the blocks' files. */
function toReadmeLines(output, blocks) {
  let text = output
  for (const block of blocks) {
    const escaped = block.path.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')
    text = text.replace(
      new RegExp(`${escaped}\\((\\d+),(\\d+)\\)`, 'g'),
      (_, row, column) => `${readmeName}:${block.line + Number(row) - 1}:${column} (${block.path})`,
    )
  }
  return text
}

async function main() {
  const blocks = extractBlocks(readFileSync(readmePath, 'utf8'))
  const paths = new Set()
  for (const block of blocks) {
    if (paths.has(block.path)) throw new Error(`${readmeName}:${block.line - 1}: ${block.path} given twice`)
    paths.add(block.path)
  }
  rmSync(work, { recursive: true, force: true })
  mkdirSync(app, { recursive: true })
  for (const block of blocks) {
    const target = join(app, block.path)
    mkdirSync(dirname(target), { recursive: true })
    // `export {}` makes a fragment a module: its names never meet another block's.
    writeFileSync(target, block.kind === 'fragment' ? `${block.code}\nexport {}\n` : `${block.code}\n`)
  }
  writeFileSync(join(app, 'harness.d.ts'), harness)
  writeFileSync(
    join(app, 'package.json'),
    `${JSON.stringify({ name: 'readme-app', private: true, type: 'module' })}\n`,
  )
  const nonFragments = blocks.filter((block) => block.kind !== 'fragment').map((block) => block.path)
  const fragments = blocks.filter((block) => block.kind === 'fragment').map((block) => block.path)
  writeFileSync(join(app, 'tsconfig.json'), JSON.stringify({ compilerOptions, files: nonFragments }, null, 2))
  writeFileSync(
    join(app, 'tsconfig.fragments.json'),
    JSON.stringify({ compilerOptions, files: ['harness.d.ts', ...fragments] }, null, 2),
  )
  console.log(
    `check-readme: ${blocks.length} TypeScript blocks in ${readmeName} (${blocks.filter((b) => b.kind === 'file').length} app files, ${nonFragments.length - blocks.filter((b) => b.kind === 'file').length} complete files, ${fragments.length} fragments)`,
  )

  // The library as published: npm pack (prepack builds JS and types), extracted.
  let tarball
  try {
    tarball = await packLibrary(repo, work)
  } catch (error) {
    return fail('npm pack', error.message)
  }
  const installed = join(app, 'node_modules/token-swap-hooks')
  mkdirSync(installed, { recursive: true })
  const untar = await run('tar', ['-xzf', tarball, '-C', installed, '--strip-components=1'])
  if (untar.code !== 0) return fail('tar', untar.output)

  const tsc = join(repo, 'node_modules/.bin/tsc')
  for (const [label, project, list] of [
    ['complete files and app files', 'tsconfig.json', blocks.filter((b) => b.kind !== 'fragment')],
    ['fragments', 'tsconfig.fragments.json', blocks.filter((b) => b.kind === 'fragment')],
  ]) {
    if (list.length === 0) continue
    const result = await run(tsc, ['-p', project], { cwd: app })
    if (result.code !== 0) return fail(`tsc over the ${label}`, toReadmeLines(result.output, list))
    console.log(`✓ tsc: ${list.length} ${label}`)
  }

  if (paths.has('vitest.config.ts')) {
    const vitest = join(repo, 'node_modules/.bin/vitest')
    const result = await run(vitest, ['run', '--root', app, '--config', join(app, 'vitest.config.ts')], {
      cwd: app,
    })
    if (result.code !== 0) return fail('vitest over the README’s tests', result.output)
    const summary = /Tests\s+.*$/m.exec(stripVTControlCharacters(result.output))
    console.log(`✓ vitest: ${summary?.[0].trim() ?? 'passed'}`)
  }
  if (!options.keep) rmSync(work, { recursive: true, force: true })
  console.log('check-readme: passed')
}

function fail(step, output) {
  console.error(`✗ ${step} failed:\n${output.trimEnd()}`)
  console.error(`check-readme: FAILED (${step}); the files are kept in ${relative(process.cwd(), app)}`)
  process.exitCode = 1
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  main().catch((error) => {
    console.error(`check-readme: ${error.message}`)
    process.exitCode = 1
  })
}
