import { readFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import { type Abi, getAddress, getContractAddress, keccak256, toHex } from 'viem'
import { beforeAll, describe, expect, test } from 'vitest'
import {
  deterministicDeployerAddress,
  swapGuardAbi,
  swapGuardAddress,
  swapGuardExecutorAddress,
} from './swapGuard.js'
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
        evm: { bytecode: { object: string }; deployedBytecode: { object: string } }
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

type Parameter = { type: string; name?: string | undefined; indexed?: boolean | undefined }

/** Every ABI item as a comparable string: kind, name, parameter types, names and indexing, mutability. */
function signatures(abi: Abi): string[] {
  const params = (list: readonly Parameter[] | undefined) =>
    (list ?? []).map((p) => [p.type, p.indexed ? 'indexed' : '', p.name ?? ''].filter(Boolean).join(' '))
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
  outputSelection: {
    '*': { '*': ['abi', 'storageLayout', 'evm.bytecode.object', 'evm.deployedBytecode.object'] },
  },
}

let compiled: SolcOutput['contracts'][string]

beforeAll(async () => {
  const require = createRequire(import.meta.url)
  expect(require('solc/package.json').version).toBe('0.8.30')
  const solc = (await import('solc')).default as { compile(input: string): string }
  const source = readFileSync(new URL('./SwapGuard.sol', import.meta.url), 'utf8')
  const output = JSON.parse(
    solc.compile(
      JSON.stringify({ language: 'Solidity', sources: { 'SwapGuard.sol': { content: source } }, settings }),
    ),
  ) as SolcOutput
  expect(output.errors?.filter((error) => error.severity === 'error') ?? []).toEqual([])
  compiled = output.contracts['SwapGuard.sol'] ?? {}
})

describe('SwapGuard.sol', () => {
  test('the embedded init code is exactly what SwapGuard.sol compiles to', () => {
    expect(`0x${compiled.SwapGuard?.evm.bytecode.object}`).toBe(swapGuardInitCode)
  })

  test('the compiled bytes use no opcode newer than paris (no PUSH0, no transient storage, no MCOPY)', () => {
    expect(opcodesIn(swapGuardInitCode, [0x5f, 0x5c, 0x5d, 0x5e, 0x49, 0x4a])).toEqual([])
  })

  test('swapGuardAbi is the compiled ABI item for item (swap, GuardedSwap, the three errors)', () => {
    const abi = (compiled.SwapGuard?.abi ?? []).filter((item) => item.type !== 'constructor')
    expect(signatures(swapGuardAbi)).toEqual(signatures(abi))
    expect(signatures(abi)).toHaveLength(5)
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
  test('the salt is keccak256("token-swap-hooks.SwapGuard.v1")', () => {
    expect(swapGuardSalt).toBe(keccak256(toHex('token-swap-hooks.SwapGuard.v1')))
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
