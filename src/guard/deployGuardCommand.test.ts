import { spawn } from 'node:child_process'
import { mkdirSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { build } from 'esbuild'
import { type Address, createPublicClient, http } from 'viem'
import { privateKeyToAccount } from 'viem/accounts'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { type StartAnvilReturnType, startAnvil } from '../../test/evm/anvil.js'
import { anvilPrivateKeys } from '../../test/evm/fixture.js'
import { jsonRpc } from '../../test/evm/rpc.js'
import {
  swapGuardAddress,
  swapGuardCodeHash,
  swapGuardExecutorAddress,
} from '../core/execute/guard/swapGuard.js'
import { verifySwapGuard } from '../core/execute/guard/verifySwapGuard.js'
import { deployGuardKeyVariable, deployGuardUsage } from './deployGuardCommand.js'

// The command as a user runs it: its bin file bundled as the package build bundles it (viem left to
// node_modules), spawned with node, the key in the environment, the RPC URL as its argument.
const root = new URL('../../', import.meta.url).pathname
const out = join(root, 'node_modules', '.cache', 'token-swap-hooks-deploy-guard', 'deploy-guard.mjs')
const key = anvilPrivateKeys[1]
const deployer = privateKeyToAccount(key).address

type Ran = { code: number | null; stdout: string; stderr: string }

function run(args: string[], env: Record<string, string> = {}): Promise<Ran> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [out, ...args], {
      env: { PATH: process.env.PATH ?? '', ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    })
    let stdout = ''
    let stderr = ''
    child.stdout.on('data', (chunk) => {
      stdout += chunk
    })
    child.stderr.on('data', (chunk) => {
      stderr += chunk
    })
    child.on('error', reject)
    child.on('close', (code) => resolve({ code, stdout, stderr }))
  })
}

let anvil: StartAnvilReturnType
let bare: StartAnvilReturnType

beforeAll(async () => {
  mkdirSync(join(out, '..'), { recursive: true })
  await build({
    entryPoints: [join(root, 'src/guard/deployGuardBin.ts')],
    outfile: out,
    bundle: true,
    platform: 'node',
    format: 'esm',
    packages: 'external',
    logLevel: 'silent',
  })
  ;[anvil, bare] = await Promise.all([
    startAnvil(),
    startAnvil({ args: ['--disable-default-create2-deployer'] }),
  ])
}, 60_000)
afterAll(async () => {
  await Promise.all([anvil?.stop(), bare?.stop()])
})

describe('token-swap-hooks-deploy-guard', () => {
  test('the bin file starts with a hashbang and the package names it', () => {
    expect(readFileSync(join(root, 'src/guard/deployGuardBin.ts'), 'utf8')).toMatch(
      /^#!\/usr\/bin\/env node\n/,
    )
    const { bin } = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8'))
    expect(bin['token-swap-hooks-deploy-guard']).toBe('./dist/deploy-guard.js')
    expect(deployGuardUsage).toMatch(/^Usage: token-swap-hooks-deploy-guard <rpc-url> \[options\]\n/)
  })

  test('--help prints the usage; no key, a key given as an argument, or no URL: exit 2, nothing sent', async () => {
    expect(await run(['--help'])).toEqual({ code: 0, stdout: `${deployGuardUsage}\n`, stderr: '' })
    const nonce = async () =>
      createPublicClient({ transport: http(anvil.rpcUrl) }).getTransactionCount({ address: deployer })
    const before = await nonce()

    const noKey = await run([anvil.rpcUrl])
    expect(noKey.code).toBe(2)
    expect(noKey.stderr).toContain(`Set ${deployGuardKeyVariable} to the deployer's private key`)

    const asArgument = await run([anvil.rpcUrl, key])
    expect(asArgument.code).toBe(2)
    expect(asArgument.stderr).toContain('A private key was given as an argument: refused')

    const noUrl = await run([], { [deployGuardKeyVariable]: key })
    expect(noUrl.code).toBe(2)
    expect(noUrl.stderr).toContain('Give exactly one RPC URL')

    const badKey = await run([anvil.rpcUrl], { [deployGuardKeyVariable]: '0x1234' })
    expect(badKey.code).toBe(2)
    expect(await nonce()).toBe(before)
  })

  test('deploys with the key from the environment, verifies both code hashes, prints the gas used and the cost; a second run sends nothing', async () => {
    const publicClient = createPublicClient({ transport: http(anvil.rpcUrl) })
    expect((await run([anvil.rpcUrl, '--check'])).stdout).toBe(
      `chain ${anvil.chainId}: swap guard missing (${swapGuardAddress})\n`,
    )

    const first = await run([anvil.rpcUrl], { [deployGuardKeyVariable]: key })
    expect(first.stderr).toBe('')
    expect(first.code).toBe(0)
    const lines = first.stdout.trim().split('\n')
    expect(lines[0]).toBe(`chain ${anvil.chainId}: deploying the swap guard from ${deployer}`)
    expect(lines[1]).toBe(`deployed: ${swapGuardAddress} (executor ${swapGuardExecutorAddress})`)
    expect(lines[3]).toContain(`code verified: guard ${swapGuardCodeHash}`)
    const hash = lines[2]?.match(/^transaction: (0x[0-9a-f]{64}) \(block \d+\)$/)?.[1] as `0x${string}`
    const receipt = await publicClient.getTransactionReceipt({ hash })
    expect(receipt.from).toBe(deployer.toLowerCase())
    expect(lines[4]).toBe(`gas used: ${receipt.gasUsed}`)
    const cost = receipt.gasUsed * receipt.effectiveGasPrice
    expect(lines[6]).toMatch(new RegExp(`^cost: [0-9.]+ \\(native coin, ${cost} wei\\)$`))
    expect(await verifySwapGuard({ publicClient })).toBe('verified')

    const nonce = await publicClient.getTransactionCount({ address: deployer })
    const second = await run([anvil.rpcUrl], { [deployGuardKeyVariable]: key.slice(2) })
    expect(second.code).toBe(0)
    expect(second.stdout).toContain(`already deployed and verified at ${swapGuardAddress}: nothing sent`)
    expect(await publicClient.getTransactionCount({ address: deployer })).toBe(nonce)
    expect(await run([anvil.rpcUrl, '--check'])).toMatchObject({
      code: 0,
      stdout: `chain ${anvil.chainId}: swap guard verified (${swapGuardAddress})\n`,
    })
  })

  test('refusals exit 1 with the typed error: no deployer on the chain, other code at the address', async () => {
    const noDeployer = await run([bare.rpcUrl], { [deployGuardKeyVariable]: key })
    expect(noDeployer.code).toBe(1)
    expect(noDeployer.stderr).toContain('SwapGuardNotDeployedError: The swap guard is not deployed on chain')

    await jsonRpc(bare.rpcUrl)('anvil_setCode', [swapGuardAddress, '0x6000'])
    const lookAlike = await run([bare.rpcUrl], { [deployGuardKeyVariable]: key })
    expect(lookAlike.code).toBe(1)
    expect(lookAlike.stderr).toContain(`SwapGuardCodeMismatchError: The code at ${swapGuardAddress}`)
    expect(await run([bare.rpcUrl, '--check'])).toMatchObject({
      code: 1,
      stdout: `chain ${bare.chainId}: swap guard mismatch (${swapGuardAddress})\n`,
    })
    const sent = await createPublicClient({ transport: http(bare.rpcUrl) }).getTransactionCount({
      address: deployer as Address,
    })
    expect(sent).toBe(0)
  })
})
