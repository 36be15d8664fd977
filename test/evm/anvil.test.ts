import { chmodSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, describe, expect, test } from 'vitest'
import { AnvilNotFoundError, AnvilStartError, findAnvilBinary, startAnvil } from './anvil.js'
import { jsonRpc } from './rpc.js'

const tmp = mkdtempSync(join(tmpdir(), 'token-swap-hooks-anvil-'))
afterAll(() => rmSync(tmp, { recursive: true, force: true }))

function script(name: string, body: string): string {
  const path = join(tmp, name)
  writeFileSync(path, `#!/bin/sh\n${body}\n`)
  chmodSync(path, 0o755)
  return path
}

const missing = join(tmp, 'no-such-anvil')
const noPackage = () => undefined

function isRunning(pid: number): boolean {
  try {
    process.kill(pid, 0)
    return true
  } catch {
    return false
  }
}

describe('findAnvilBinary', () => {
  test('uses ANVIL_PATH first', () => {
    const fake = script('anvil-from-env', 'exit 0')
    expect(findAnvilBinary({ env: { ANVIL_PATH: fake, PATH: '' } })).toEqual({
      path: fake,
      source: 'ANVIL_PATH',
    })
  })

  test('then bin/anvil of @foundry-rs/anvil-linux-amd64', () => {
    const found = findAnvilBinary({ env: { PATH: '' } })
    expect(found.source).toBe('package')
    expect(found.path).toMatch(/node_modules\/@foundry-rs\/anvil-linux-amd64\/bin\/anvil$/)
  })

  test('then anvil on the PATH', () => {
    const dir = join(tmp, 'foundry-bin')
    mkdirSync(dir, { recursive: true })
    writeFileSync(join(dir, 'anvil'), '#!/bin/sh\n')
    chmodSync(join(dir, 'anvil'), 0o755)
    const env = { PATH: ['/nonexistent', dir].join(':') }
    expect(findAnvilBinary({ env, findPackageBinary: noPackage })).toEqual({
      path: join(dir, 'anvil'),
      source: 'PATH',
    })
  })

  test('explains all three options when none is found', () => {
    const find = () => findAnvilBinary({ env: { PATH: '/nonexistent' }, findPackageBinary: noPackage })
    expect(find).toThrow(AnvilNotFoundError)
    expect(find).toThrow(/No anvil binary found/)
    expect(find).toThrow(/ANVIL_PATH environment variable/)
    expect(find).toThrow(/@foundry-rs\/anvil-linux-amd64/)
    expect(find).toThrow(/`anvil` on the PATH/)
  })

  test('rejects an ANVIL_PATH that is not an executable file', () => {
    const notExecutable = join(tmp, 'not-executable')
    writeFileSync(notExecutable, '')
    expect(() => findAnvilBinary({ env: { ANVIL_PATH: notExecutable } })).toThrow(
      `ANVIL_PATH is set to ${notExecutable}, which is not an executable file.`,
    )
  })
})

describe('startAnvil', () => {
  test('fails with a clear message when ANVIL_PATH points to a missing file', async () => {
    const error = await startAnvil({ env: { ANVIL_PATH: missing } }).catch((cause: unknown) => cause)
    expect(error).toBeInstanceOf(AnvilNotFoundError)
    expect((error as Error).message).toMatchInlineSnapshot(`
      "ANVIL_PATH is set to ${missing}, which does not exist.
      anvil can come from (checked in this order):
        1. the ANVIL_PATH environment variable, the path of an anvil binary;
        2. the optional dev dependency @foundry-rs/anvil-linux-amd64 (bin/anvil), installed by \`npm ci\` on Linux x64 through the test/evm workspace;
        3. \`anvil\` on the PATH, e.g. from a Foundry install (https://getfoundry.sh: \`curl -L https://foundry.paradigm.xyz | bash && foundryup\`)."
    `)
  })

  test("reports anvil's stderr when it exits before answering", async () => {
    const crashing = script('crashing-anvil', 'echo "error: something went wrong" >&2\nexit 3')
    const error = await startAnvil({ env: { ANVIL_PATH: crashing } }).catch((cause: unknown) => cause)
    expect(error).toBeInstanceOf(AnvilStartError)
    expect((error as Error).message).toMatch(/^anvil exited before answering \(code 3, signal null\)/)
    expect((error as Error).message).toContain('--host 127.0.0.1 --port')
    expect((error as Error).message).toContain("anvil's stderr:\nerror: something went wrong")
  })

  test('times out, and kills the process, when the node never answers', async () => {
    const pidFile = join(tmp, 'hanging.pid')
    const hanging = script('hanging-anvil', `echo $$ > ${pidFile}\necho "still starting" >&2\nexec sleep 30`)
    const error = await startAnvil({ env: { ANVIL_PATH: hanging }, timeoutMs: 300 }).catch(
      (cause: unknown) => cause,
    )
    expect(error).toBeInstanceOf(AnvilStartError)
    expect((error as Error).message).toMatch(
      /did not answer eth_chainId at http:\/\/127\.0\.0\.1:\d+ within 300 ms/,
    )
    expect((error as Error).message).toContain('still starting')
    expect(isRunning(Number(readFileSync(pidFile, 'utf8')))).toBe(false)
  })

  test('starts a real node with the given chain id and stops it', async () => {
    const anvil = await startAnvil({ chainId: 4242 })
    try {
      expect(anvil.chainId).toBe(4242)
      expect(anvil.rpcUrl).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/)
      const response = await fetch(anvil.rpcUrl, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'eth_blockNumber', params: [] }),
      })
      expect(await response.json()).toEqual({ jsonrpc: '2.0', id: 1, result: '0x0' })
      expect(isRunning(anvil.pid)).toBe(true)
    } finally {
      await anvil.stop()
    }
    expect(isRunning(anvil.pid)).toBe(false)
    await expect(fetch(anvil.rpcUrl)).rejects.toThrow()
    await anvil.stop() // a second stop is harmless
  })

  test('the watch for stranded transactions leaves a mempool held with automine off alone', async () => {
    const anvil = await startAnvil()
    const rpc = jsonRpc(anvil.rpcUrl)
    try {
      const [from, to] = (await rpc('eth_accounts', [])) as [string, string]
      await rpc('evm_setAutomine', [false])
      const hash = await rpc('eth_sendTransaction', [{ from, to, value: '0x1' }])
      // Several of the watch's ticks (every 250 ms): a transaction held on purpose stays held.
      await new Promise((resolve) => setTimeout(resolve, 1_000))
      expect(await rpc('eth_blockNumber', [])).toBe('0x0')
      expect(await rpc('eth_getTransactionReceipt', [hash])).toBeNull()
      await rpc('evm_mine', [])
      expect(await rpc('eth_getTransactionReceipt', [hash])).toMatchObject({ blockNumber: '0x1' })
    } finally {
      await anvil.stop()
    }
  })
})
