// `npm run size:breakdown`: where the bytes of an entry go, from esbuild's metafile (after `npm run build`).
// Usage: node scripts/size-breakdown.mjs [entry] [import]   e.g. ./dist/index.js '{ useSwapRoute }'
// Bytes are each module group's share of the minified bundle; its gzip figure is that share of the gzipped total.
import { gzipSync } from 'node:zlib'
import { build } from 'esbuild'

const [entry = './dist/index.js', names = '{ SwapProvider, useSwapRoute }'] = process.argv.slice(2)
const result = await build({
  stdin: { contents: `export ${names} from '${entry}'`, resolveDir: process.cwd(), loader: 'js' },
  bundle: true,
  minify: true,
  write: false,
  format: 'esm',
  metafile: true,
  external: ['react', 'react-dom', '@tanstack/*', 'viem', 'viem/*'],
  logLevel: 'silent',
})
const output = result.outputFiles[0].contents
const gzip = gzipSync(output).length
const groups = [
  ['response schemas', /core\/schemas/],
  ['error classes', /errors\//],
  [
    'request: fetch, timeout, redirects, size cap, redaction, URL rules',
    /core\/(request|utils\/(redact|signal|retryAfter|retry|url))\.js/,
  ],
  ['rate limiter', /rateLimiter/],
  [
    'client, parameter checks and parseAmount',
    /core\/(client|utils\/(validate|wireQuery|getMinAmountOut|parseAmount|quotedFor)|constants)\.js/,
  ],
  ['the nine actions', /core\/actions\//],
  ['executing a swap', /core\/execute\//],
  ['query factories and keys', /\/query\//],
  ['provider and hooks', /\/react\//],
  ['the mock', /\/mock\//],
]
const sizes = new Map()
for (const [file, { bytesInOutput }] of Object.entries(Object.values(result.metafile.outputs)[0].inputs)) {
  const name = groups.find(([, pattern]) => pattern.test(file))?.[0] ?? file
  sizes.set(name, (sizes.get(name) ?? 0) + bytesInOutput)
}
const total = [...sizes.values()].reduce((sum, size) => sum + size, 0)
console.log(
  `export ${names} from '${entry}': ${output.length} B minified, ${(gzip / 1000).toFixed(2)} kB gzip`,
)
console.log('| part | minified | share | ≈ gzip |\n|---|---|---|---|')
for (const [name, size] of [...sizes].filter(([, size]) => size > 0).sort((a, b) => b[1] - a[1]))
  console.log(
    `| ${name} | ${(size / 1000).toFixed(1)} kB | ${Math.round((100 * size) / total)}% | ${((gzip * size) / total / 1000).toFixed(2)} kB |`,
  )
