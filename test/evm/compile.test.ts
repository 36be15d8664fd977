import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { type Abi, toFunctionSignature } from 'viem'
import { afterAll, describe, expect, test } from 'vitest'
import { swapRouterAbi } from '../../src/mock/routerAbi.js'
import {
  allowanceThiefAbi,
  chaosRouterAbi,
  feeOnTransferTokenAbi,
  gasAwareSandwichAbi,
  gasBurnerTokenAbi,
  gasPriceRouterAbi,
  guardInvariantHarnessAbi,
  hostileTokenAbi,
  lookAlikeGuardAbi,
  pairRouterAbi,
  reentrantRouterAbi,
  revertingRouterAbi,
  testErc20Abi,
  testNftAbi,
  testPermit2Abi,
  testRouterAbi,
  testSpenderAbi,
  usdtLikeTokenAbi,
} from './abis.js'
import {
  type CompiledContract,
  compileContracts,
  compileSolidity,
  contractNames,
  SolidityCompilationError,
} from './compile.js'

type Parameter = { type: string; name?: string | undefined; indexed?: boolean | undefined }

/** Every ABI item as a comparable string: kind, name, parameter types and names, mutability (no internalType). */
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
      ]),
    )
    .sort()
}

const tmp = mkdtempSync(join(tmpdir(), 'token-swap-hooks-compile-'))
afterAll(() => rmSync(tmp, { recursive: true, force: true }))

describe('compileContracts', () => {
  test('compiles every contract to an ABI and creation bytecode', async () => {
    const contracts = await compileContracts()
    expect(Object.keys(contracts).sort()).toEqual([...contractNames].sort())
    for (const { abi, bytecode } of Object.values(contracts)) {
      expect(bytecode).toMatch(/^0x(?:[0-9a-f]{2})+$/)
      expect(abi.length).toBeGreaterThan(0)
    }
  })

  test('the typed ABIs in abis.ts match the compiler output item for item', async () => {
    const contracts = await compileContracts()
    expect(signatures(testErc20Abi)).toEqual(signatures(contracts.TestERC20.abi))
    expect(signatures(usdtLikeTokenAbi)).toEqual(signatures(contracts.UsdtLikeToken.abi))
    expect(signatures(testSpenderAbi)).toEqual(signatures(contracts.TestSpender.abi))
    expect(signatures(testRouterAbi)).toEqual(signatures(contracts.TestRouter.abi))
    expect(signatures(revertingRouterAbi)).toEqual(signatures(contracts.RevertingRouter.abi))
    expect(signatures(hostileTokenAbi)).toEqual(signatures(contracts.HostileToken.abi))
    expect(signatures(testPermit2Abi)).toEqual(signatures(contracts.TestPermit2.abi))
    expect(signatures(testNftAbi)).toEqual(signatures(contracts.TestNFT.abi))
    expect(signatures(pairRouterAbi)).toEqual(signatures(contracts.PairRouter.abi))
    expect(signatures(gasPriceRouterAbi)).toEqual(signatures(contracts.GasPriceRouter.abi))
    expect(signatures(gasAwareSandwichAbi)).toEqual(signatures(contracts.GasAwareSandwich.abi))
    expect(signatures(allowanceThiefAbi)).toEqual(signatures(contracts.AllowanceThief.abi))
    expect(signatures(reentrantRouterAbi)).toEqual(signatures(contracts.ReentrantRouter.abi))
    expect(signatures(gasBurnerTokenAbi)).toEqual(signatures(contracts.GasBurnerToken.abi))
    expect(signatures(lookAlikeGuardAbi)).toEqual(signatures(contracts.LookAlikeGuard.abi))
    expect(signatures(chaosRouterAbi)).toEqual(signatures(contracts.ChaosRouter.abi))
    expect(signatures(feeOnTransferTokenAbi)).toEqual(signatures(contracts.FeeOnTransferToken.abi))
    expect(signatures(guardInvariantHarnessAbi)).toEqual(signatures(contracts.GuardInvariantHarness.abi))
  })

  test('the routers have exactly the swap function of src/mock/routerAbi.ts', async () => {
    const contracts = await compileContracts()
    const [expected] = swapRouterAbi
    for (const router of [
      contracts.TestRouter,
      contracts.RevertingRouter,
      contracts.GasPriceRouter,
      contracts.ReentrantRouter,
    ]) {
      const swap = router.abi.find((item) => item.type === 'function' && item.name === 'swap')
      expect(swap?.type).toBe('function')
      if (swap?.type !== 'function') continue
      expect(toFunctionSignature(swap)).toBe(toFunctionSignature(expected))
      expect(swap.stateMutability).toBe(expected.stateMutability)
      expect(swap.outputs.map((output) => output.type)).toEqual(expected.outputs.map((output) => output.type))
    }
  })
})

describe('compileSolidity', () => {
  const source =
    'pragma solidity ^0.8.20;\ncontract Answer { function get() external pure returns (uint256) { return 42; } }\n'

  test("fails with the compiler's error messages", async () => {
    const broken =
      'pragma solidity ^0.8.20;\ncontract Broken { function f() external { undefinedThing(); } }\n'
    const error = await compileSolidity({ sources: { 'Broken.sol': broken }, cacheDir: false }).catch(
      (cause: unknown) => cause,
    )
    expect(error).toBeInstanceOf(SolidityCompilationError)
    expect((error as SolidityCompilationError).errors).toHaveLength(1)
    expect((error as Error).message).toContain('Solidity compilation failed:')
    expect((error as Error).message).toContain('DeclarationError: Undeclared identifier.')
    expect((error as Error).message).toContain('Broken.sol:2:')
  })

  test('caches the output on disk, keyed by the input', async () => {
    const cacheDir = join(tmp, 'cache')
    const first = await compileSolidity({ sources: { 'Answer.sol': source }, cacheDir })
    expect(first.Answer?.abi).toEqual([
      {
        type: 'function',
        name: 'get',
        inputs: [],
        outputs: [{ name: '', type: 'uint256', internalType: 'uint256' }],
        stateMutability: 'pure',
      },
    ])
    const [file, ...others] = readdirSync(cacheDir)
    expect(others).toEqual([])
    expect(file).toMatch(/^[0-9a-f]{64}\.json$/)

    // A second compilation of the same input is served from the cache file.
    const cacheFile = join(cacheDir, file ?? '')
    const cached = JSON.parse(readFileSync(cacheFile, 'utf8')) as Record<string, CompiledContract>
    writeFileSync(cacheFile, JSON.stringify({ ...cached, FromCache: cached.Answer }))
    const second = await compileSolidity({ sources: { 'Answer.sol': source }, cacheDir })
    expect(Object.keys(second).sort()).toEqual(['Answer', 'FromCache'])

    // A different input (here another evmVersion) gets its own entry.
    await compileSolidity({ sources: { 'Answer.sol': source }, cacheDir, evmVersion: 'paris' })
    expect(readdirSync(cacheDir)).toHaveLength(2)
  })
})
