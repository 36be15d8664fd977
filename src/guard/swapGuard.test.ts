import { readFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import {
  type Abi,
  type Address,
  concat,
  getAddress,
  getContractAddress,
  type Hex,
  keccak256,
  pad,
  toHex,
} from 'viem'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import {
  swapGuardExecutorRuntimeCode,
  swapGuardRuntimeCode,
} from '../../stories/support/swapGuardRuntimeCode.js'
import { startAnvil } from '../../test/evm/anvil.js'
import { jsonRpc } from '../../test/evm/rpc.js'
import {
  deterministicDeployerAddress,
  permit2Address,
  swapGuardAbi,
  swapGuardAddress,
  swapGuardCodeHash,
  swapGuardExecutorAddress,
  swapGuardExecutorCodeHash,
} from '../core/execute/guard/swapGuard.js'
import { swapPermitTypes, swapPermitWitnessTypeString } from '../core/execute/guard/swapPermitTypedData.js'
import { swapGuardInitCode, swapGuardSalt } from './swapGuardInitCode.js'

type SolcOutput = {
  errors?: { severity: string; formattedMessage: string }[]
  contracts: Record<
    string,
    Record<
      string,
      {
        abi: Abi
        storageLayout: { storage: unknown[] }
        evm: {
          bytecode: { object: string }
          deployedBytecode: {
            object: string
            immutableReferences?: Record<string, { start: number; length: number }[]>
          }
        }
      }
    >
  >
}

/** The opcodes of `codes` found in `code`, walked instruction by instruction (PUSH data skipped). */
function opcodesIn(code: string, codes: readonly number[]): number[] {
  const bytes = Buffer.from(code.slice(2), 'hex')
  const found: number[] = []
  for (let i = 0; i < bytes.length; i++) {
    const op = bytes[i] as number
    if (codes.includes(op)) found.push(op)
    if (op >= 0x60 && op <= 0x7f) i += op - 0x5f
  }
  return found
}

type Parameter = {
  type: string
  name?: string | undefined
  indexed?: boolean | undefined
  components?: readonly Parameter[] | undefined
}

/** Every ABI item as a comparable string: kind, name, parameter types (tuples with their components), names and indexing, mutability. */
function signatures(abi: Abi): string[] {
  const param = (p: Parameter): string =>
    [
      p.components ? `${p.type}(${p.components.map(param).join(',')})` : p.type,
      p.indexed ? 'indexed' : '',
      p.name ?? '',
    ]
      .filter(Boolean)
      .join(' ')
  const params = (list: readonly Parameter[] | undefined) => (list ?? []).map(param)
  return abi
    .map((item) =>
      JSON.stringify([
        item.type,
        'name' in item ? item.name : '',
        'inputs' in item ? params(item.inputs) : [],
        'outputs' in item ? params(item.outputs) : [],
        'stateMutability' in item ? item.stateMutability : '',
        // An event is anonymous only when it says so (parseAbi leaves `anonymous: false` out).
        item.type === 'event' ? Boolean(item.anonymous) : '',
      ]),
    )
    .sort()
}

/** The exact settings the shipped bytes were compiled with (see swapGuard.ts). */
const settings = {
  evmVersion: 'paris',
  viaIR: true,
  optimizer: { enabled: true, runs: 200 },
  metadata: { appendCBOR: false },
}
const outputSelection = {
  '*': { '*': ['abi', 'storageLayout', 'evm.bytecode.object', 'evm.deployedBytecode'] },
}

/** The compiler's standard-JSON input shipped beside the source, for explorers (`npm run build:guard` writes it). */
const standardInput = JSON.parse(
  readFileSync(new URL('./SwapGuard.standard-input.json', import.meta.url), 'utf8'),
) as { language: string; sources: Record<string, { content: string }>; settings: Record<string, unknown> }
const source = readFileSync(new URL('./SwapGuard.sol', import.meta.url), 'utf8')

type Solc = { compile(input: string): string }
let solc: Solc
let compiled: SolcOutput['contracts'][string]

function compile(input: object): SolcOutput {
  const output = JSON.parse(solc.compile(JSON.stringify(input))) as SolcOutput
  expect(output.errors?.filter((error) => error.severity === 'error') ?? []).toEqual([])
  return output
}

/** The runtime code as deployed: the immutable (an address) written where the compiler left room for it. */
function runtimeWith(contract: SolcOutput['contracts'][string][string] | undefined, immutable: Address): Hex {
  const code = Buffer.from(contract?.evm.deployedBytecode.object ?? '', 'hex')
  const references = Object.values(contract?.evm.deployedBytecode.immutableReferences ?? {}).flat()
  expect(references.length).toBeGreaterThan(0)
  for (const { start, length } of references)
    Buffer.from(pad(immutable, { size: length }).slice(2), 'hex').copy(code, start)
  return `0x${code.toString('hex')}`
}

beforeAll(async () => {
  const require = createRequire(import.meta.url)
  expect(require('solc/package.json').version).toBe('0.8.30')
  solc = (await import('solc')).default as Solc
  // The shipped input, verbatim: what an explorer compiles (its source and settings are checked below).
  compiled = compile(standardInput).contracts['SwapGuard.sol'] ?? {}
}, 60_000)

describe('SwapGuard.sol', () => {
  test('the embedded init code is exactly what SwapGuard.sol compiles to (from the shipped standard-JSON input)', () => {
    expect(`0x${compiled.SwapGuard?.evm.bytecode.object}`).toBe(swapGuardInitCode)
  })

  test('the compiled bytes use no opcode newer than paris (no PUSH0, no transient storage, no MCOPY)', () => {
    expect(opcodesIn(swapGuardInitCode, [0x5f, 0x5c, 0x5d, 0x5e, 0x49, 0x4a])).toEqual([])
  })

  test('swapGuardAbi is the compiled ABI item for item (swap, swapWithPermit2, GuardedSwap, the three errors)', () => {
    const abi = (compiled.SwapGuard?.abi ?? []).filter((item) => item.type !== 'constructor')
    expect(signatures(swapGuardAbi)).toEqual(signatures(abi))
    expect(signatures(abi)).toHaveLength(6)
  })

  test('the shipped standard-JSON input (compiled above, verbatim) is SwapGuard.sol with exactly these settings', () => {
    const expected = {
      language: 'Solidity',
      sources: { 'SwapGuard.sol': { content: source } },
      settings: { ...settings, outputSelection },
    }
    expect(standardInput).toEqual(expected)
    // Byte for byte as npm run build:guard writes it.
    expect(readFileSync(new URL('./SwapGuard.standard-input.json', import.meta.url), 'utf8')).toBe(
      `${JSON.stringify(expected, null, 2)}\n`,
    )
  })

  test('the runtime code hashes are those of the compiled runtime code with its immutables (the other contract’s address) filled in', () => {
    expect(keccak256(runtimeWith(compiled.SwapGuard, swapGuardExecutorAddress))).toBe(swapGuardCodeHash)
    expect(keccak256(runtimeWith(compiled.SwapGuardExecutor, swapGuardAddress))).toBe(
      swapGuardExecutorCodeHash,
    )
  })

  test("the stories' simulated chain serves the guard's and the executor's runtime code byte for byte", () => {
    expect(swapGuardRuntimeCode).toBe(runtimeWith(compiled.SwapGuard, swapGuardExecutorAddress))
    expect(swapGuardExecutorRuntimeCode).toBe(runtimeWith(compiled.SwapGuardExecutor, swapGuardAddress))
  })

  test("the Permit2 witness: the contract's type string and typehash are the EIP-712 encoding of swapPermitTypes", () => {
    // EIP-712 encodeType: the type, then the types it references, sorted by name.
    const encodeType = (name: keyof typeof swapPermitTypes): string => {
      const fields = (type: keyof typeof swapPermitTypes) =>
        `${type}(${swapPermitTypes[type].map((field) => `${field.type} ${field.name}`).join(',')})`
      const referenced = new Set<keyof typeof swapPermitTypes>()
      const visit = (type: keyof typeof swapPermitTypes) => {
        for (const field of swapPermitTypes[type])
          if (field.type in swapPermitTypes && !referenced.has(field.type as keyof typeof swapPermitTypes)) {
            referenced.add(field.type as keyof typeof swapPermitTypes)
            visit(field.type as keyof typeof swapPermitTypes)
          }
      }
      visit(name)
      referenced.delete(name)
      return [fields(name), ...[...referenced].sort().map(fields)].join('')
    }
    const stub =
      'PermitWitnessTransferFrom(TokenPermissions permitted,address spender,uint256 nonce,uint256 deadline,'
    expect(`${stub}${swapPermitWitnessTypeString}`).toBe(encodeType('PermitWitnessTransferFrom'))
    expect(source).toContain(`"${swapPermitWitnessTypeString}"`)
    expect(source).toContain(`keccak256(\n        "${encodeType('GuardedSwap')}"\n    )`)
    // Permit2's rule: the witness type string is "<Type> <name>)" then the referenced types in order.
    expect(swapPermitWitnessTypeString).toMatch(
      /^GuardedSwap witness\)GuardedSwap\(.*\)TokenPermissions\(address token,uint256 amount\)$/,
    )
    expect(source).toContain(`address constant PERMIT2 = ${permit2Address};`)
  })

  test('the executor has no entry point but `run` (guard only) and `receive`', () => {
    const abi = compiled.SwapGuardExecutor?.abi ?? []
    expect(
      abi
        .filter((item) => item.type === 'function' || item.type === 'receive' || item.type === 'fallback')
        .map((item) => ('name' in item ? item.name : item.type)),
    ).toEqual(['run', 'receive'])
  })

  test('neither contract has storage, and neither can write storage, self-destruct or delegatecall', () => {
    for (const name of ['SwapGuard', 'SwapGuardExecutor']) {
      const contract = compiled[name]
      expect(contract?.storageLayout.storage, name).toEqual([])
      // SSTORE, TSTORE, SELFDESTRUCT, DELEGATECALL, CALLCODE
      expect(
        opcodesIn(`0x${contract?.evm.deployedBytecode.object}`, [0x55, 0x5d, 0xff, 0xf4, 0xf2]),
        name,
      ).toEqual([])
    }
  })
})

describe('the constants', () => {
  test('the salt is keccak256("token-swap-hooks.SwapGuard.v2")', () => {
    expect(swapGuardSalt).toBe(keccak256(toHex('token-swap-hooks.SwapGuard.v2')))
  })

  test('swapGuardAddress is the CREATE2 address of the init code and salt from the deterministic deployer', () => {
    expect(deterministicDeployerAddress).toBe(getAddress('0x4e59b44847b379578588920ca78fbf26c0b4956c'))
    expect(swapGuardAddress).toBe(
      getContractAddress({
        opcode: 'CREATE2',
        from: deterministicDeployerAddress,
        salt: swapGuardSalt,
        bytecode: swapGuardInitCode,
      }),
    )
  })

  test("swapGuardExecutorAddress is the guard's first CREATE (nonce 1)", () => {
    expect(swapGuardExecutorAddress).toBe(getContractAddress({ from: swapGuardAddress, nonce: 1n }))
  })

  test('the addresses are checksummed literals', () => {
    for (const address of [swapGuardAddress, swapGuardExecutorAddress, deterministicDeployerAddress])
      expect(address).toBe(getAddress(address))
  })
})

describe('deployed on anvil through the deterministic deployer', () => {
  let anvil: Awaited<ReturnType<typeof startAnvil>>
  beforeAll(async () => {
    anvil = await startAnvil()
  }, 30_000)
  afterAll(() => anvil?.stop())

  test('the code at both addresses hashes to swapGuardCodeHash and swapGuardExecutorCodeHash', async () => {
    const request = jsonRpc(anvil.rpcUrl)
    const [from] = (await request('eth_accounts', [])) as Address[]
    const hash = (await request('eth_sendTransaction', [
      {
        from,
        to: deterministicDeployerAddress,
        data: concat([swapGuardSalt, swapGuardInitCode]),
        gas: '0x2dc6c0',
      },
    ])) as Hex
    let receipt: { status: Hex } | null = null
    while (!receipt) receipt = (await request('eth_getTransactionReceipt', [hash])) as { status: Hex } | null
    expect(receipt.status).toBe('0x1')
    const guardCode = (await request('eth_getCode', [swapGuardAddress, 'latest'])) as Hex
    const executorCode = (await request('eth_getCode', [swapGuardExecutorAddress, 'latest'])) as Hex
    expect(keccak256(guardCode)).toBe(swapGuardCodeHash)
    expect(keccak256(executorCode)).toBe(swapGuardExecutorCodeHash)
  })
})
