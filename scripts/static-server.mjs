// A static file server for a Storybook build (`storybook-static`), on a free local port.
// Shared by the screenshots and the Storybook UI check.
import { readFile } from 'node:fs/promises'
import { createServer } from 'node:http'
import { extname, join, normalize } from 'node:path'

const types = {
  '.html': 'text/html',
  '.js': 'text/javascript',
  '.css': 'text/css',
  '.json': 'application/json',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.woff2': 'font/woff2',
  '.woff': 'font/woff',
  '.txt': 'text/plain; charset=utf-8',
  '.ico': 'image/x-icon',
}

/**
 * Serves `dir` on 127.0.0.1 (`/` is `index.html`). With `cleanUrls`, `/guide` is `guide.html`
 * (a VitePress build with `cleanUrls: true`).
 * @param {string} dir
 * @param {{ cleanUrls?: boolean }} [options]
 * @returns {Promise<{ origin: string, close: () => void }>}
 */
export async function serveStatic(dir, options = {}) {
  const server = createServer(async (request, response) => {
    const path = normalize(decodeURIComponent(new URL(request.url ?? '/', 'http://x').pathname)).replace(
      /^(\.\.[/\\])+/,
      '',
    )
    const file = join(dir, path.endsWith('/') ? `${path}index.html` : path)
    const candidates =
      options.cleanUrls && !extname(file) ? [file, `${file}.html`, join(file, 'index.html')] : [file]
    for (const candidate of candidates) {
      try {
        const body = await readFile(candidate)
        response.writeHead(200, { 'content-type': types[extname(candidate)] ?? 'application/octet-stream' })
        response.end(body)
        return
      } catch {}
    }
    response.writeHead(404).end()
  })
  await new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve(undefined)))
  const address = server.address()
  if (!address || typeof address === 'string') throw new Error('The static server has no port.')
  return { origin: `http://127.0.0.1:${address.port}`, close: () => server.close() }
}
