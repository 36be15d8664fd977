import { readdirSync, readFileSync } from 'node:fs'
import { request as httpRequest } from 'node:http'
import { afterAll, beforeAll, describe, expect, test, vi } from 'vitest'
import { InvalidParameterError } from '../core/errors/parameter.js'
import { createMockMarket } from './createMockMarket.js'
import { createMockService } from './createMockService.js'
import { mockTokenAddresses } from './fixtures.js'
import { type MockServer, startMockServer } from './startMockServer.js'

const { WETH, USDC } = mockTokenAddresses

describe('startMockServer', () => {
  let server: MockServer
  beforeAll(async () => {
    server = await startMockServer()
  })
  afterAll(() => server.stop())

  test('listens on a free loopback port and answers over real HTTP', async () => {
    expect(server.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/)
    expect(server.url).not.toBe('http://127.0.0.1:0')
    const response = await fetch(
      `${server.url}/swap/route?token0=${WETH}&token1=${USDC}&amount_in=1000000000000000000`,
    )
    expect(response.status).toBe(200)
    expect(response.headers.get('content-type')).toBe('application/json')
    expect(response.headers.get('access-control-allow-origin')).toBe('*')
    const quote = server.service.market.quote({ token0: WETH, token1: USDC, amountIn: 10n ** 18n })!
    expect(await response.json()).toEqual({ path: quote.path, amount_out: quote.amountOut.toString() })
  })

  test('the client id is the x-client-id header, else the remote address', async () => {
    server.service.clearLog()
    await fetch(`${server.url}/get_tokens`)
    await fetch(`${server.url}/get_tokens`, { headers: { 'x-client-id': 'widget' } })
    expect(server.service.log.map((entry) => entry.clientId)).toEqual(['127.0.0.1', 'widget'])
  })

  test('other methods are answered 405 (their bodies are not kept); preflights 204', async () => {
    const post = await fetch(`${server.url}/get_tokens`, { method: 'POST', body: 'x'.repeat(100_000) })
    expect(post.status).toBe(405)
    expect(await post.json()).toEqual({ detail: 'Method Not Allowed' })
    const preflight = await fetch(`${server.url}/get_tokens`, {
      method: 'OPTIONS',
      headers: { origin: 'http://localhost:6006', 'access-control-request-method': 'GET' },
    })
    expect(preflight.status).toBe(204)
    expect(preflight.headers.get('access-control-allow-headers')).toBe('*')
  })

  test('a POST is answered 405 without its body being read first (issue 10, item 10)', async () => {
    // An endless upload: the server must answer without waiting for (or buffering) the body.
    const upload = httpRequest(`${server.url}/get_tokens`, { method: 'POST' })
    const chunk = Buffer.alloc(64 * 1024, 120)
    let written = 0
    let failed = false
    upload.on('error', () => {
      failed = true
    })
    const response = new Promise<import('node:http').IncomingMessage>((resolve) =>
      upload.once('response', resolve),
    )
    const pump = () => {
      while (!failed && upload.write(chunk)) {
        written += chunk.length
        if (written > 256 * 1024 * 1024) return
      }
      if (!failed) upload.once('drain', pump)
    }
    pump()
    const answer = await response
    expect(answer.statusCode).toBe(405)
    expect(answer.headers.connection).toBe('close')
    // The server reads at most a little of what keeps coming, then closes the connection.
    await vi.waitFor(() => expect(failed).toBe(true), { timeout: 4_000 })
    expect(written).toBeLessThan(64 * 1024 * 1024)
    upload.destroy()
  })

  test('an injected network failure destroys the connection; the next request is answered', async () => {
    server.service.fail({ network: true })
    const error = await fetch(`${server.url}/get_tokens`).catch((error: unknown) => error)
    expect(error).toBeInstanceOf(TypeError)
    expect((await fetch(`${server.url}/get_tokens`)).status).toBe(200)
  })

  test('a base path, a given service, and rate limiting by remote address', async () => {
    const service = createMockService(createMockMarket({ maxHops: 1 }), {
      basePath: '/api',
      rateLimit: { requestsPerSecond: 1 },
    })
    const other = await startMockServer({ service, host: 'localhost' })
    try {
      expect(other.service).toBe(service)
      expect(other.url).toMatch(/^http:\/\/localhost:\d+$/)
      expect((await fetch(`${other.url}/api/get_pairs`)).status).toBe(200)
      const limited = await fetch(`${other.url}/api/get_pairs`)
      expect(limited.status).toBe(429)
      expect(limited.headers.get('retry-after')).toBe('1')
      expect(limited.headers.get('access-control-expose-headers')).toContain('retry-after')
    } finally {
      await other.stop()
    }
  })

  test('stop() closes kept-alive connections at once; the port is then free', async () => {
    const other = await startMockServer({ latency: 5 })
    const response = await fetch(`${other.url}/get_tokens`, { headers: { connection: 'keep-alive' } })
    expect(response.status).toBe(200)
    await response.text()
    const started = performance.now()
    await other.stop()
    await other.stop() // idempotent
    expect(performance.now() - started).toBeLessThan(1_000)
    await expect(fetch(`${other.url}/get_tokens`)).rejects.toThrow(TypeError)
    const port = Number(new URL(other.url).port)
    const again = await startMockServer({ port })
    expect(again.url).toBe(other.url)
    await expect(startMockServer({ port })).rejects.toThrow(/EADDRINUSE/)
    await again.stop()
  })

  test('rejects a bad port', async () => {
    await expect(startMockServer({ port: 70_000 })).rejects.toThrow(InvalidParameterError)
  })
})

test('library files are browser-safe: no static node: import, only the dynamic one in startMockServer', () => {
  const directory = new URL('.', import.meta.url)
  const sources = readdirSync(directory).filter((name) => name.endsWith('.ts') && !name.endsWith('.test.ts'))
  expect(sources.length).toBeGreaterThan(8)
  for (const name of sources) {
    const text = readFileSync(new URL(name, directory), 'utf8')
    expect({ name, staticNode: /^\s*(import|export)\b[^;]*?from\s+['"]node:/m.test(text) }).toEqual({
      name,
      staticNode: false,
    })
    expect({ name, require: /\brequire\(/.test(text) }).toEqual({ name, require: false })
    const dynamic = text.match(/await import\(['"]node:[^'"]+['"]\)/g) ?? []
    expect({ name, dynamic }).toEqual({
      name,
      dynamic: name === 'startMockServer.ts' ? ["await import('node:http')"] : [],
    })
  }
})
