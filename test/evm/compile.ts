import { createHash } from 'node:crypto'
import { mkdirSync, readdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'
import type { Abi, Hex } from 'viem'

/** The contracts in `test/evm/contracts`. */
export const contractNames = [
  'TestERC20',
  'UsdtLikeToken',
  'TestSpender',
  'TestRouter',
  'RevertingRouter',
  'HostileToken',
  'TestPermit2',
  'TestNFT',
  'PairRouter',
  'GasPriceRouter',
  'GasAwareSandwich',
  'AllowanceThief',
  'ReentrantRouter',
  'GasBurnerToken',
  'LookAlikeGuard',
  'ChaosRouter',
  'FeeOnTransferToken',
  'GuardInvariantHarness',
  'Bytes32Token',
  'NoDecimalsToken',
  'GarbageToken',
] as const

export type ContractName = (typeof contractNames)[number]

export type CompiledContract = {
  abi: Abi
  /** Creation bytecode, `0x`-prefixed. */
  bytecode: Hex
}

export type CompileSolidityParameters = {
  /** Source unit name (e.g. `TestERC20.sol`) → Solidity source. Imports resolve between these names. */
  sources: Record<string, string>
  /** @default 'cancun' (anvil's default hardfork supports it) */
  evmVersion?: string | undefined
  /**
   * Directory for the on-disk cache, keyed by a hash of the input and the solc version;
   * `false` disables it.
   * @default node_modules/.cache/token-swap-hooks-evm
   */
  cacheDir?: string | false | undefined
}

/** Contract name → ABI and bytecode, for every contract of every source. */
export type CompileSolidityReturnType = Record<string, CompiledContract>

export type CompileContractsReturnType = Record<ContractName, CompiledContract>

/** Thrown when solc reports errors; `message` lists them as the compiler formats them. */
export class SolidityCompilationError extends Error {
  override name = 'SolidityCompilationError'
  readonly errors: readonly string[]
  constructor(errors: readonly string[]) {
    super(`Solidity compilation failed:\n${errors.join('\n')}`)
    this.errors = errors
  }
}

const require = createRequire(import.meta.url)
const here = dirname(fileURLToPath(import.meta.url))

/** Where `compileContracts` reads the sources from. */
export const contractsDir = join(here, 'contracts')
export const defaultCacheDir = join(here, '..', '..', 'node_modules', '.cache', 'token-swap-hooks-evm')

type SolcOutput = {
  errors?: { severity: 'error' | 'warning' | 'info'; formattedMessage?: string; message: string }[]
  contracts?: Record<string, Record<string, { abi: Abi; evm: { bytecode: { object: string } } }>>
}

type Solc = { compile(input: string): string; version(): string }

let solcInstance: Solc | undefined

/** solc-js takes ~0.4 s to load, so it is only loaded on a cache miss. */
async function loadSolc(): Promise<Solc> {
  if (!solcInstance) {
    const module: { default: Solc } = await import('solc')
    solcInstance = module.default
  }
  return solcInstance
}

function solcPackageVersion(): string {
  const pkg: { version: string } = JSON.parse(readFileSync(require.resolve('solc/package.json'), 'utf8'))
  return pkg.version
}

/**
 * Compiles Solidity sources with solc-js (standard JSON), caching the result on disk.
 *
 * @example
 * const { Greeter } = await compileSolidity({ sources: { 'Greeter.sol': source } })
 */
export async function compileSolidity({
  sources,
  evmVersion = 'cancun',
  cacheDir = defaultCacheDir,
}: CompileSolidityParameters): Promise<CompileSolidityReturnType> {
  const input = {
    language: 'Solidity',
    sources: Object.fromEntries(
      Object.entries(sources)
        .sort(([a], [b]) => (a < b ? -1 : 1))
        .map(([name, content]) => [name, { content }]),
    ),
    settings: {
      evmVersion,
      optimizer: { enabled: false },
      outputSelection: { '*': { '*': ['abi', 'evm.bytecode.object'] } },
    },
  }
  const inputJson = JSON.stringify(input)
  const key = createHash('sha256').update(`solc@${solcPackageVersion()}\n${inputJson}`).digest('hex')
  const cacheFile = cacheDir === false ? undefined : join(cacheDir, `${key}.json`)

  if (cacheFile) {
    try {
      return JSON.parse(readFileSync(cacheFile, 'utf8')) as CompileSolidityReturnType
    } catch {
      // Not cached yet (or unreadable): compile.
    }
  }

  const solc = await loadSolc()
  const output = JSON.parse(solc.compile(inputJson)) as SolcOutput
  const errors = (output.errors ?? [])
    .filter((error) => error.severity === 'error')
    .map((error) => error.formattedMessage ?? error.message)
  if (errors.length > 0) throw new SolidityCompilationError(errors)

  const result: CompileSolidityReturnType = {}
  for (const contracts of Object.values(output.contracts ?? {})) {
    for (const [name, contract] of Object.entries(contracts)) {
      result[name] = { abi: contract.abi, bytecode: `0x${contract.evm.bytecode.object}` }
    }
  }

  if (cacheFile && cacheDir !== false) {
    // Write then rename, so parallel test workers never read a half-written file.
    mkdirSync(cacheDir, { recursive: true })
    const tmp = `${cacheFile}.${process.pid}.tmp`
    writeFileSync(tmp, JSON.stringify(result))
    renameSync(tmp, cacheFile)
  }
  return result
}

let contractsPromise: Promise<CompileContractsReturnType> | undefined

/**
 * Compiles every contract in `test/evm/contracts` (once per process; cached on disk across runs).
 *
 * @example
 * const { TestRouter } = await compileContracts()
 * await walletClient.deployContract({ abi: TestRouter.abi, bytecode: TestRouter.bytecode, args: [spender] })
 */
export function compileContracts(
  options: Omit<CompileSolidityParameters, 'sources'> = {},
): Promise<CompileContractsReturnType> {
  const compile = async () => {
    const sources = Object.fromEntries(
      readdirSync(contractsDir)
        .filter((file) => file.endsWith('.sol'))
        .map((file) => [file, readFileSync(join(contractsDir, file), 'utf8')]),
    )
    const compiled = await compileSolidity({ ...options, sources })
    const result = {} as CompileContractsReturnType
    for (const name of contractNames) {
      const contract = compiled[name]
      if (!contract) throw new Error(`Contract ${name} not found in ${contractsDir}`)
      result[name] = contract
    }
    return result
  }
  if (Object.keys(options).length > 0) return compile()
  contractsPromise ??= compile().catch((error: unknown) => {
    contractsPromise = undefined
    throw error
  })
  return contractsPromise
}
