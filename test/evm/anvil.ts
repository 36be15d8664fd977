import { type ChildProcess, spawn } from 'node:child_process'
import { accessSync, constants, existsSync } from 'node:fs'
import { createRequire } from 'node:module'
import { createServer, type Socket } from 'node:net'
import { delimiter, dirname, join } from 'node:path'
import { unstickTransactions } from './unstick.js'

export type AnvilBinarySource = 'ANVIL_PATH' | 'package' | 'PATH'

export type FindAnvilBinaryParameters = {
  /** @default process.env */
  env?: Record<string, string | undefined> | undefined
  /**
   * Returns the path of `bin/anvil` in `@foundry-rs/anvil-linux-amd64`, or undefined when the
   * package is not installed. Tests replace it to simulate a machine without the package.
   */
  findPackageBinary?: (() => string | undefined) | undefined
}

export type FindAnvilBinaryReturnType = { path: string; source: AnvilBinarySource }

export type StartAnvilParameters = {
  /** Passed as `--chain-id`; anvil's default is 31337. */
  chainId?: number | undefined
  /** Extra command-line arguments, e.g. `['--block-base-fee-per-gas', '0']`. */
  args?: readonly string[] | undefined
  /**
   * Mine a block for a ready transaction anvil's automine left in the pool (see
   * `unstickTransactions`). @default true
   */
  unstick?: boolean | undefined
  /** How long to wait for `eth_chainId` to answer. @default 10_000 */
  timeoutMs?: number | undefined
  /** Where to look for the binary (see `findAnvilBinary`). */
  env?: FindAnvilBinaryParameters['env']
  findPackageBinary?: FindAnvilBinaryParameters['findPackageBinary']
}

export type StartAnvilReturnType = {
  rpcUrl: string
  chainId: number
  /** The anvil process id. */
  pid: number
  /** The binary that was started and where it was found. */
  binary: FindAnvilBinaryReturnType
  /** Kills anvil and waits for it to exit. Safe to call twice. */
  stop(): Promise<void>
}

const anvilPackage = '@foundry-rs/anvil-linux-amd64'

const howToGetAnvil = [
  'anvil can come from (checked in this order):',
  '  1. the ANVIL_PATH environment variable, the path of an anvil binary;',
  `  2. the optional dev dependency ${anvilPackage} (bin/anvil), installed by \`npm ci\` on Linux x64 through the test/evm workspace;`,
  '  3. `anvil` on the PATH, e.g. from a Foundry install (https://getfoundry.sh: `curl -L https://foundry.paradigm.xyz | bash && foundryup`).',
].join('\n')

/** Thrown when no anvil binary can be found, or ANVIL_PATH names a file that cannot be run. */
export class AnvilNotFoundError extends Error {
  override name = 'AnvilNotFoundError'
  constructor(reason: string) {
    super(`${reason}\n${howToGetAnvil}`)
  }
}

/** Thrown when anvil exits early or does not answer `eth_chainId` in time. */
export class AnvilStartError extends Error {
  override name = 'AnvilStartError'
}

function isExecutable(path: string): boolean {
  try {
    accessSync(path, constants.X_OK)
    return true
  } catch {
    return false
  }
}

function defaultFindPackageBinary(): string | undefined {
  try {
    const packageJson = createRequire(import.meta.url).resolve(`${anvilPackage}/package.json`)
    const binary = join(dirname(packageJson), 'bin', 'anvil')
    return existsSync(binary) ? binary : undefined
  } catch {
    return undefined
  }
}

/**
 * Finds the anvil binary: `ANVIL_PATH`, then `@foundry-rs/anvil-linux-amd64`'s `bin/anvil`,
 * then `anvil` on the PATH. Throws `AnvilNotFoundError` explaining all three when none is found,
 * or when `ANVIL_PATH` is set but does not name an executable file.
 */
export function findAnvilBinary({
  env = process.env,
  findPackageBinary = defaultFindPackageBinary,
}: FindAnvilBinaryParameters = {}): FindAnvilBinaryReturnType {
  const fromEnv = env.ANVIL_PATH
  if (fromEnv) {
    if (!existsSync(fromEnv))
      throw new AnvilNotFoundError(`ANVIL_PATH is set to ${fromEnv}, which does not exist.`)
    if (!isExecutable(fromEnv))
      throw new AnvilNotFoundError(`ANVIL_PATH is set to ${fromEnv}, which is not an executable file.`)
    return { path: fromEnv, source: 'ANVIL_PATH' }
  }

  const fromPackage = findPackageBinary()
  if (fromPackage) return { path: fromPackage, source: 'package' }

  for (const dir of (env.PATH ?? '').split(delimiter)) {
    if (!dir) continue
    const candidate = join(dir, 'anvil')
    if (isExecutable(candidate)) return { path: candidate, source: 'PATH' }
  }

  throw new AnvilNotFoundError('No anvil binary found.')
}

/** A free TCP port on 127.0.0.1 (listen on port 0, read it, close). */
export function getFreePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer()
    server.unref()
    server.on('error', reject)
    server.listen(0, '127.0.0.1', () => {
      const address = server.address()
      const port = typeof address === 'object' && address ? address.port : undefined
      server.close(() => (port ? resolve(port) : reject(new Error('Could not get a free port'))))
    })
  })
}

// Every anvil this process started and has not stopped yet, killed if the process goes away.
const running = new Set<ChildProcess>()
let exitHooksInstalled = false

function killAll() {
  for (const child of running) child.kill('SIGKILL')
  running.clear()
}

function installExitHooks() {
  if (exitHooksInstalled) return
  exitHooksInstalled = true
  process.on('exit', killAll)
  // A forked test worker (vitest's default pool) whose parent went away: the run is over.
  if (process.channel) process.once('disconnect', killAll)
  for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP'] as const) {
    process.once(signal, () => {
      killAll()
      // Keep the default behaviour (terminate) unless someone else handles the signal.
      if (process.listenerCount(signal) === 0) process.kill(process.pid, signal)
    })
  }
}

async function chainIdOf(rpcUrl: string): Promise<number | undefined> {
  try {
    const response = await fetch(rpcUrl, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'eth_chainId', params: [] }),
      signal: AbortSignal.timeout(1_000),
    })
    if (!response.ok) return undefined
    const body = (await response.json()) as { result?: string }
    return body.result ? Number.parseInt(body.result, 16) : undefined
  } catch {
    return undefined
  }
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms))

/**
 * Starts a real anvil node on a free port of 127.0.0.1 and resolves once it answers `eth_chainId`.
 *
 * @example
 * const anvil = await startAnvil({ chainId: 31337 })
 * // ... createPublicClient({ transport: http(anvil.rpcUrl) })
 * await anvil.stop()
 */
export async function startAnvil(parameters: StartAnvilParameters = {}): Promise<StartAnvilReturnType> {
  const binary = findAnvilBinary(parameters)
  const timeoutMs = parameters.timeoutMs ?? 10_000
  // Another process can take the port between getFreePort and anvil's bind: retry then.
  for (let attempt = 1; ; attempt++) {
    try {
      return await startOnce(binary, parameters, timeoutMs)
    } catch (error) {
      const portTaken = error instanceof AnvilStartError && /address already in use/i.test(error.message)
      if (!portTaken || attempt >= 3) throw error
    }
  }
}

async function startOnce(
  binary: FindAnvilBinaryReturnType,
  parameters: StartAnvilParameters,
  timeoutMs: number,
): Promise<StartAnvilReturnType> {
  const port = await getFreePort()
  const args = ['--host', '127.0.0.1', '--port', String(port), '--silent']
  if (parameters.chainId !== undefined) args.push('--chain-id', String(parameters.chainId))
  args.push(...(parameters.args ?? []))

  installExitHooks()
  const child = spawn(binary.path, args, { stdio: ['ignore', 'ignore', 'pipe'] })
  running.add(child)
  // A forgotten stop() must not keep the test process alive; the exit hooks still kill anvil.
  child.unref()

  let stderr = ''
  child.stderr?.setEncoding('utf8')
  child.stderr?.on('data', (chunk: string) => {
    if (stderr.length < 10_000) stderr += chunk
  })
  // The pipe is a net.Socket at runtime; unref it too so it does not hold the event loop.
  ;(child.stderr as Socket | null)?.unref()

  let exit: { code: number | null; signal: NodeJS.Signals | null } | undefined
  let spawnError: Error | undefined
  const exited = new Promise<void>((resolve) => {
    // 'close' rather than 'exit': it comes after stderr is fully read.
    child.once('close', (code, signal) => {
      exit = { code, signal }
      running.delete(child)
      resolve()
    })
    child.once('error', (error) => {
      spawnError = error
      running.delete(child)
      resolve()
    })
  })

  let unstick: (() => void) | undefined
  const stop = async () => {
    unstick?.()
    if (exit || spawnError) return
    child.kill('SIGTERM')
    const timer = setTimeout(() => child.kill('SIGKILL'), 2_000)
    await exited
    clearTimeout(timer)
  }

  const rpcUrl = `http://127.0.0.1:${port}`
  const command = `${binary.path} ${args.join(' ')}`
  const details = () =>
    stderr.trim() ? `\nanvil's stderr:\n${stderr.trim()}` : '\nanvil printed nothing on stderr.'
  const deadline = Date.now() + timeoutMs
  for (;;) {
    if (spawnError) throw new AnvilStartError(`Could not start anvil (${command}): ${spawnError.message}`)
    if (exit)
      throw new AnvilStartError(
        `anvil exited before answering (code ${exit.code}, signal ${exit.signal}): ${command}${details()}`,
      )
    const chainId = await chainIdOf(rpcUrl)
    if (chainId !== undefined) {
      if (parameters.unstick !== false) unstick = unstickTransactions(rpcUrl)
      return { rpcUrl, chainId, pid: child.pid ?? -1, binary, stop }
    }
    if (Date.now() > deadline) {
      await stop()
      throw new AnvilStartError(
        `anvil did not answer eth_chainId at ${rpcUrl} within ${timeoutMs} ms: ${command}${details()}`,
      )
    }
    await sleep(20)
  }
}
