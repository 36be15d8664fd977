import { createHash } from 'node:crypto'
import { mkdirSync, readdirSync, readFileSync, renameSync, statSync, writeFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import { join, relative } from 'node:path'
import { type Abi, type Address, concat, getContractAddress, type Hex, keccak256 } from 'viem'
import { defaultCacheDir } from '../compile.js'

/** Where Permit2 lives on every chain it is deployed on (Uniswap's canonical deployment). */
export const permit2Address: Address = '0x000000000022D473030F116dDEE9F6B43aC78BA3'

/** The salt of the canonical deployment through the deterministic deployment proxy. */
export const permit2Salt: Hex = '0x0000000000000000000000000000000000000000d3af2663da51c10215000000'

const deterministicDeployer: Address = '0x4e59b44847b379578588920cA78FbF26c0B4956C'

const require = createRequire(import.meta.url)

/** Permit2's source as `@uniswap/v4-periphery` ships it (`lib/permit2`), with solmate beside it. */
export const permit2Root = join(require.resolve('@uniswap/v4-periphery/package.json'), '..', 'lib', 'permit2')

/**
 * Permit2's own settings (`lib/permit2/foundry.toml`): solc 0.8.17, via IR,
 * 1,000,000 optimizer runs, no metadata hash; the EVM version is solc 0.8.17's
 * default (london), as Foundry leaves it.
 */
const settings = {
  viaIR: true,
  optimizer: { enabled: true, runs: 1_000_000 },
  metadata: { bytecodeHash: 'none' },
  outputSelection: { '*': { '*': ['abi', 'evm.bytecode.object', 'evm.deployedBytecode.object'] } },
}

export type Permit2Artifact = { abi: Abi; bytecode: Hex; deployedBytecode: Hex }

function solFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name)
    if (statSync(path).isDirectory()) return solFiles(path)
    return name.endsWith('.sol') ? [path] : []
  })
}

/** The standard-JSON input: Permit2's `src/` and the solmate files it imports (`solmate/…`). */
function permit2Input() {
  const sources: Record<string, { content: string }> = {}
  for (const file of solFiles(join(permit2Root, 'src')))
    sources[`src/${relative(join(permit2Root, 'src'), file)}`] = { content: readFileSync(file, 'utf8') }
  for (const name of ['src/tokens/ERC20.sol', 'src/utils/SafeTransferLib.sol'])
    sources[`solmate/${name}`] = { content: readFileSync(join(permit2Root, 'lib', 'solmate', name), 'utf8') }
  const sorted = Object.fromEntries(Object.entries(sources).sort(([a], [b]) => (a < b ? -1 : 1)))
  return { language: 'Solidity', sources: sorted, settings }
}

let artifact: Promise<Permit2Artifact> | undefined

/**
 * Permit2 compiled from the source `@uniswap/v4-periphery` ships, with its
 * pinned compiler and settings (about 9 s with solc-js; cached on disk by a
 * hash of the input and the compiler version).
 *
 * @example
 * const { bytecode } = await compilePermit2()
 */
export function compilePermit2(cacheDir = defaultCacheDir): Promise<Permit2Artifact> {
  artifact ??= (async () => {
    const input = JSON.stringify(permit2Input())
    const solcVersion = (require('solc-0.8.17/package.json') as { version: string }).version
    const key = createHash('sha256').update(`solc@${solcVersion}\n${input}`).digest('hex')
    const cacheFile = join(cacheDir, `permit2-${key}.json`)
    try {
      return JSON.parse(readFileSync(cacheFile, 'utf8')) as Permit2Artifact
    } catch {
      // Not cached yet: compile.
    }
    const solc = require('solc-0.8.17') as { compile(input: string): string }
    const output = JSON.parse(solc.compile(input)) as {
      errors?: { severity: string; formattedMessage: string }[]
      contracts: Record<
        string,
        Record<
          string,
          { abi: Abi; evm: { bytecode: { object: string }; deployedBytecode: { object: string } } }
        >
      >
    }
    const errors = (output.errors ?? []).filter((error) => error.severity === 'error')
    if (errors.length) throw new Error(errors.map((error) => error.formattedMessage).join('\n'))
    const permit2 = output.contracts['src/Permit2.sol']?.Permit2
    if (!permit2) throw new Error('Permit2 not in the compiler output')
    const result: Permit2Artifact = {
      abi: permit2.abi,
      bytecode: `0x${permit2.evm.bytecode.object}`,
      deployedBytecode: `0x${permit2.evm.deployedBytecode.object}`,
    }
    mkdirSync(cacheDir, { recursive: true })
    const tmp = `${cacheFile}.${process.pid}.tmp`
    writeFileSync(tmp, JSON.stringify(result))
    renameSync(tmp, cacheFile)
    return result
  })().catch((error: unknown) => {
    artifact = undefined
    throw error
  })
  return artifact
}

type Request = (method: string, params: unknown) => Promise<unknown>

/**
 * Puts Permit2 at its canonical address on a test node. Through the
 * deterministic deployment proxy with the canonical salt when the compiled
 * init code lands there (the published deployment's bytes); otherwise the
 * runtime code of a deployment made on another chain id is set at the
 * canonical address, so that Permit2 builds its EIP-712 domain from the
 * address it sits at (its cached separator is for that other chain). Either
 * way the domain it reports is checked against its address.
 *
 * @example
 * await deployPermit2(jsonRpc(anvil.rpcUrl), deployer)
 */
export async function deployPermit2(
  request: Request,
  from: Address,
): Promise<{ method: 'create2' | 'setCode' }> {
  const { bytecode } = await compilePermit2()
  const predicted = getContractAddress({
    from: deterministicDeployer,
    opcode: 'CREATE2',
    salt: permit2Salt,
    bytecodeHash: keccak256(bytecode),
  })
  let method: 'create2' | 'setCode'
  if (predicted.toLowerCase() === permit2Address.toLowerCase()) {
    const hash = (await request('eth_sendTransaction', [
      { from, to: deterministicDeployer, data: concat([permit2Salt, bytecode]), gas: '0x4c4b40' },
    ])) as Hex
    await waitMined(request, hash)
    method = 'create2'
  } else {
    // Deployed where the chain id differs from the node's, then its runtime code moved to the
    // canonical address: Permit2 then builds its domain from block.chainid and address(this).
    const chainId = (await request('eth_chainId', [])) as Hex
    await request('anvil_setChainId', [Number(chainId) + 1])
    let deployed: Address
    try {
      const hash = (await request('eth_sendTransaction', [{ from, data: bytecode, gas: '0x4c4b40' }])) as Hex
      deployed = (await waitMined(request, hash)).contractAddress
    } finally {
      await request('anvil_setChainId', [Number(chainId)])
    }
    await request('anvil_setCode', [permit2Address, await request('eth_getCode', [deployed, 'latest'])])
    method = 'setCode'
  }
  await checkDomain(request)
  return { method }
}

async function waitMined(request: Request, hash: Hex): Promise<{ contractAddress: Address }> {
  for (let attempt = 0; attempt < 200; attempt++) {
    const receipt = (await request('eth_getTransactionReceipt', [hash])) as {
      status: Hex
      contractAddress: Address
    } | null
    if (receipt) {
      if (receipt.status !== '0x1') throw new Error(`Permit2 deployment reverted (${hash})`)
      return receipt
    }
    await new Promise((resolve) => setTimeout(resolve, 25))
  }
  throw new Error(`Permit2 deployment not mined (${hash})`)
}

/** Permit2's `DOMAIN_SEPARATOR()` must be the one of its own address on the node's chain. */
async function checkDomain(request: Request) {
  const chainId = BigInt((await request('eth_chainId', [])) as Hex)
  const reported = (await request('eth_call', [{ to: permit2Address, data: '0x3644e515' }, 'latest'])) as Hex
  const { encodeAbiParameters, toHex } = await import('viem')
  const expected = keccak256(
    encodeAbiParameters(
      [{ type: 'bytes32' }, { type: 'bytes32' }, { type: 'uint256' }, { type: 'address' }],
      [
        keccak256(toHex('EIP712Domain(string name,uint256 chainId,address verifyingContract)')),
        keccak256(toHex('Permit2')),
        chainId,
        permit2Address,
      ],
    ),
  )
  if (reported !== expected)
    throw new Error(`Permit2 at ${permit2Address} reports the domain ${reported}, not its own (${expected})`)
}
