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
}

/**
 * Serves `dir` on 127.0.0.1 (`/` is `index.html`).
 * @param {string} dir
 * @returns {Promise<{ origin: string, close: () => void }>}
 */
export async function serveStatic(dir) {
  const server = createServer(async (request, response) => {
    const path = normalize(decodeURIComponent(new URL(request.url ?? '/', 'http://x').pathname)).replace(
      /^(\.\.[/\\])+/,
      '',
    )
    const file = join(dir, path.endsWith('/') ? `${path}index.html` : path)
    try {
      const body = await readFile(file)
      response.writeHead(200, { 'content-type': types[extname(file)] ?? 'application/octet-stream' })
      response.end(body)
    } catch {
      response.writeHead(404).end()
    }
  })
  await new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve(undefined)))
  const address = server.address()
  if (!address || typeof address === 'string') throw new Error('The static server has no port.')
  return { origin: `http://127.0.0.1:${address.port}`, close: () => server.close() }
}
