import { readFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import { expect, test } from 'vitest'
import { callRunnerCode } from './stateOverrides.js'

type SolcOutput = {
  errors?: { severity: string; formattedMessage: string }[]
  contracts: Record<string, Record<string, { evm: { deployedBytecode: { object: string } } }>>
}

test('the embedded CallRunner bytecode is exactly what CallRunner.sol compiles to', async () => {
  const require = createRequire(import.meta.url)
  expect(require('solc/package.json').version).toBe('0.8.30')
  const solc = (await import('solc')).default as { compile(input: string): string }
  const source = readFileSync(new URL('./CallRunner.sol', import.meta.url), 'utf8')
  const output = JSON.parse(
    solc.compile(
      JSON.stringify({
        language: 'Solidity',
        sources: { 'CallRunner.sol': { content: source } },
        settings: {
          evmVersion: 'paris',
          viaIR: true,
          optimizer: { enabled: true, runs: 1 },
          metadata: { appendCBOR: false },
          outputSelection: { '*': { '*': ['evm.deployedBytecode.object'] } },
        },
      }),
    ),
  ) as SolcOutput
  expect(output.errors?.filter((error) => error.severity === 'error') ?? []).toEqual([])
  expect(`0x${output.contracts['CallRunner.sol']?.CallRunner?.evm.deployedBytecode.object}`).toBe(
    callRunnerCode,
  )
})
