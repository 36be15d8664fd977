import { readFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import { toFunctionSignature } from 'viem'
import { expect, test } from 'vitest'
import { outcomeProbeAbi, outcomeProbeCode } from './outcomeProbe.js'

type SolcOutput = {
  errors?: { severity: string; formattedMessage: string }[]
  contracts: Record<
    string,
    Record<string, { abi: { type: string; name?: string }[]; evm: { deployedBytecode: { object: string } } }>
  >
}

test('the embedded OutcomeProbe bytecode is exactly what OutcomeProbe.sol compiles to', async () => {
  const require = createRequire(import.meta.url)
  expect(require('solc/package.json').version).toBe('0.8.30')
  const solc = (await import('solc')).default as { compile(input: string): string }
  const source = readFileSync(new URL('./OutcomeProbe.sol', import.meta.url), 'utf8')
  const output = JSON.parse(
    solc.compile(
      JSON.stringify({
        language: 'Solidity',
        sources: { 'OutcomeProbe.sol': { content: source } },
        settings: {
          evmVersion: 'paris',
          viaIR: true,
          optimizer: { enabled: true, runs: 1 },
          metadata: { appendCBOR: false },
          outputSelection: { '*': { '*': ['abi', 'evm.deployedBytecode.object'] } },
        },
      }),
    ),
  ) as SolcOutput
  expect(output.errors?.filter((error) => error.severity === 'error') ?? []).toEqual([])
  const contract = output.contracts['OutcomeProbe.sol']?.OutcomeProbe
  expect(`0x${contract?.evm.deployedBytecode.object}`).toBe(outcomeProbeCode)
  const probe = contract?.abi.find((item) => item.name === 'probe')
  expect(toFunctionSignature(probe as never)).toBe(toFunctionSignature(outcomeProbeAbi[0]))
})
