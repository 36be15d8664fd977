import { InvalidParameterError } from '../core/errors/parameter.js'
import { type MockServer, startMockServer } from './startMockServer.js'
import type { MockLatency } from './types.js'

/** Where the command listens when `--port` is not given. */
export const defaultMockServerPort = 8787

export const mockServerUsage = `Usage: token-swap-hooks-mock [options]

Serves the default mock market (all nine endpoints) over HTTP.

Options:
  --port <n>           port to listen on (default ${defaultMockServerPort}; 0 picks a free one)
  --host <host>        interface to listen on (default 127.0.0.1)
  --base-path <path>   serve the endpoints under a prefix, e.g. /api (default: the root)
  --latency <ms>       delay every answer: milliseconds, or a range such as 50-300
  --rate-limit <rps>   answer 429 above this many requests per second per client
  --help               show this help`

/** Anything that emits SIGINT and SIGTERM: `process`, or an emitter in tests. */
export type SignalSource = {
  once(event: 'SIGINT' | 'SIGTERM', listener: () => void): unknown
  off(event: 'SIGINT' | 'SIGTERM', listener: () => void): unknown
}

export type MainOptions = {
  /** Where lines are printed. Default `console.log`. */
  log?: ((line: string) => void) | undefined
  /** Where SIGINT and SIGTERM come from. Default `process`. */
  signals?: SignalSource | undefined
}

/** The running server, or `undefined` after `--help`. */
export type MainReturnType = MockServer | undefined

/**
 * The `token-swap-hooks-mock` command: starts the default market on
 * 127.0.0.1, prints its URL, and stops cleanly on SIGINT or SIGTERM.
 * Throws `InvalidParameterError` on an unknown or malformed flag.
 *
 * @example
 * // bin script
 * import { main } from './cli.js'
 * main(process.argv.slice(2)).catch((error) => {
 *   console.error(error.message)
 *   process.exitCode = 1
 * })
 */
export async function main(argv: string[], options: MainOptions = {}): Promise<MainReturnType> {
  const log = options.log ?? ((line: string) => console.log(line))
  const flags = parseArgs(argv)
  if (flags.help) {
    log(mockServerUsage)
    return undefined
  }
  const server = await startMockServer({
    port: flags.port ?? defaultMockServerPort,
    host: flags.host ?? '127.0.0.1',
    basePath: flags.basePath,
    latency: flags.latency,
    rateLimit: flags.rateLimit === undefined ? undefined : { requestsPerSecond: flags.rateLimit },
  })
  const signals = options.signals ?? process
  const onSignal = () => {
    void stop().then(() => log('token-swap-hooks mock service stopped'))
  }
  const stop = () => {
    signals.off('SIGINT', onSignal)
    signals.off('SIGTERM', onSignal)
    return server.stop()
  }
  signals.once('SIGINT', onSignal)
  signals.once('SIGTERM', onSignal)
  log(`token-swap-hooks mock service listening on ${server.url}${server.service.basePath}`)
  return { ...server, stop }
}

type Flags = {
  help: boolean
  port?: number | undefined
  host?: string | undefined
  basePath?: string | undefined
  latency?: MockLatency | undefined
  rateLimit?: number | undefined
}

function parseArgs(argv: string[]): Flags {
  const flags: Flags = { help: false }
  for (let index = 0; index < argv.length; index++) {
    const arg = argv[index] as string
    if (arg === '--help' || arg === '-h') {
      flags.help = true
      continue
    }
    const [name, inline] =
      arg.startsWith('--') && arg.includes('=') ? (arg.split(/=(.*)/s) as [string, string]) : [arg]
    const value = () => {
      const next = inline ?? argv[++index]
      if (next === undefined || next === '') throw flagError(name, 'needs a value', next)
      return next
    }
    switch (name) {
      case '--port': {
        const text = value()
        const port = Number(text)
        if (!/^\d+$/.test(text) || port > 65_535)
          throw flagError(name, 'must be an integer from 0 to 65535', text)
        flags.port = port
        break
      }
      case '--host':
        flags.host = value()
        break
      case '--base-path':
        flags.basePath = value()
        break
      case '--latency': {
        const text = value()
        const range = /^(\d+(?:\.\d+)?)(?:-(\d+(?:\.\d+)?))?$/.exec(text)
        if (!range) throw flagError(name, 'must be milliseconds or a range such as 50-300', text)
        const min = Number(range[1])
        const max = range[2] === undefined ? undefined : Number(range[2])
        if (max !== undefined && max < min) throw flagError(name, 'must be a range from low to high', text)
        flags.latency = max === undefined ? min : { min, max }
        break
      }
      case '--rate-limit': {
        const text = value()
        const rps = Number(text)
        if (!/^\d+(\.\d+)?$/.test(text) || !(rps > 0))
          throw flagError(name, 'must be a number greater than 0', text)
        flags.rateLimit = rps
        break
      }
      default:
        throw flagError(name, `is not an option; see --help`, arg)
    }
  }
  return flags
}

function flagError(flag: string, rule: string, value: unknown) {
  return new InvalidParameterError({ parameter: flag, rule, value })
}
