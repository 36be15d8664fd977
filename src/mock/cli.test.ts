import { EventEmitter } from 'node:events'
import { readFileSync } from 'node:fs'
import { describe, expect, test } from 'vitest'
import { InvalidParameterError } from '../core/errors/parameter.js'
import { main, mockServerUsage } from './cli.js'

describe('main (the mock-server command)', () => {
  test('starts the default market with the flags, prints the URL, stops on SIGINT', async () => {
    const lines: string[] = []
    const signals = new EventEmitter()
    const server = await main(
      ['--port', '0', '--host=127.0.0.1', '--latency', '20-30', '--rate-limit', '50'],
      {
        log: (line) => lines.push(line),
        signals,
      },
    )
    expect(server).toBeDefined()
    expect(lines).toEqual([`token-swap-hooks mock service listening on ${server!.url}`])
    expect(lines[0]).toMatch(/^token-swap-hooks mock service listening on http:\/\/127\.0\.0\.1:\d+$/)
    const started = performance.now()
    const response = await fetch(`${server!.url}/get_tokens`)
    expect(response.status).toBe(200)
    expect(performance.now() - started).toBeGreaterThanOrEqual(18)
    expect(signals.listenerCount('SIGINT')).toBe(1)
    expect(signals.listenerCount('SIGTERM')).toBe(1)

    signals.emit('SIGINT')
    await expect.poll(() => lines.length).toBe(2)
    expect(lines[1]).toBe('token-swap-hooks mock service stopped')
    expect(signals.listenerCount('SIGINT')).toBe(0)
    expect(signals.listenerCount('SIGTERM')).toBe(0)
    await expect(fetch(`${server!.url}/get_tokens`)).rejects.toThrow(TypeError)
  })

  test('SIGTERM stops too; stop() by hand removes the listeners; --base-path', async () => {
    const signals = new EventEmitter()
    const lines: string[] = []
    const server = await main(['--port=0', '--base-path', '/api'], {
      log: (line) => lines.push(line),
      signals,
    })
    expect(lines[0]).toMatch(/listening on http:\/\/127\.0\.0\.1:\d+\/api$/)
    expect((await fetch(`${server!.url}/api/get_pairs`)).status).toBe(200)
    signals.emit('SIGTERM')
    await expect.poll(() => lines.at(-1)).toBe('token-swap-hooks mock service stopped')

    const other = await main(['--port', '0'], { log: () => {}, signals })
    await other!.stop()
    expect(signals.listenerCount('SIGINT')).toBe(0)
  })

  test('--help prints the usage and starts nothing; bad flags throw InvalidParameterError', async () => {
    const lines: string[] = []
    expect(await main(['--help'], { log: (line) => lines.push(line) })).toBeUndefined()
    expect(lines).toEqual([mockServerUsage])
    // The usage names the command the package installs.
    const { bin } = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8'))
    expect(bin['token-swap-hooks-mock']).toBe('./dist/mock-server.js')
    expect(mockServerUsage).toMatch(/^Usage: token-swap-hooks-mock \[options\]\n/)
    for (const argv of [
      ['--port', 'x'],
      ['--port'],
      ['--latency', '30-10'],
      ['--rate-limit', '0'],
      ['--verbose'],
    ]) {
      const error = await main(argv, { log: () => {} }).catch((error: unknown) => error)
      expect({ argv, error: error instanceof InvalidParameterError }).toEqual({ argv, error: true })
    }
  })
})
