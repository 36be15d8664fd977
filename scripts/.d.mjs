import { gzipSync } from 'node:zlib'
import { build } from 'esbuild'

const r = await build({
  stdin: { contents: process.argv[2], resolveDir: process.cwd(), loader: 'ts' },
  bundle: true,
  minify: true,
  write: false,
  metafile: true,
  format: 'esm',
  external: ['react', 'react-dom', '@tanstack/react-query', 'viem', 'viem/*'],
})
const out = r.outputFiles[0]
console.log('gz', gzipSync(out.contents).length)
const inputs = Object.values(r.metafile.outputs)[0].inputs
const g = {}
for (const [k, v] of Object.entries(inputs)) {
  const kk = k.replace(/node_modules\/zod\/.*/, 'zod')
  g[kk] = (g[kk] ?? 0) + v.bytesInOutput
}
for (const [k, b] of Object.entries(g)
  .sort((a, b) => b[1] - a[1])
  .slice(0, 30))
  console.log(String(b).padStart(6), k)
