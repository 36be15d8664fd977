import { readFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import { getAddress, keccak256, pad, toHex } from 'viem'
import { describe, expect, test } from 'vitest'
import {
  decodeTokenBalanceReader,
  tokenBalanceReaderAddress,
  tokenBalanceReaderCode,
} from './tokenBalanceReader.js'

type SolcOutput = {
  errors?: { severity: string; formattedMessage: string }[]
  contracts: Record<string, Record<string, { evm: { deployedBytecode: { object: string } } }>>
}

test('the embedded TokenBalanceReader bytecode is exactly what TokenBalanceReader.sol compiles to', async () => {
  const require = createRequire(import.meta.url)
  expect(require('solc/package.json').version).toBe('0.8.30')
  const solc = (await import('solc')).default as { compile(input: string): string }
  const source = readFileSync(new URL('./TokenBalanceReader.sol', import.meta.url), 'utf8')
  const output = JSON.parse(
    solc.compile(
      JSON.stringify({
        language: 'Solidity',
        sources: { 'TokenBalanceReader.sol': { content: source } },
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
  expect(
    `0x${output.contracts['TokenBalanceReader.sol']?.TokenBalanceReader?.evm.deployedBytecode.object}`,
  ).toBe(tokenBalanceReaderCode)
})

test('the reader sits at the address its label derives', () => {
  expect(tokenBalanceReaderAddress).toBe(
    getAddress(`0x${keccak256(toHex('token-swap-hooks.token-balance-reader')).slice(26)}`),
  )
})

describe('decodeTokenBalanceReader', () => {
  const entry = (status: bigint, word: bigint) => `${pad(toHex(status)).slice(2)}${pad(toHex(word)).slice(2)}`

  test('one entry per token read: a balance, reverted or malformed; fewer than asked when the reader stopped early', () => {
    const data = `0x${entry(1n, 42n)}${entry(2n, 0n)}${entry(3n, 0n)}` as const
    expect(decodeTokenBalanceReader(data, 3)).toEqual([
      { balance: 42n },
      { reason: 'reverted' },
      { reason: 'malformed' },
    ])
    expect(decodeTokenBalanceReader(data, 5)).toHaveLength(3)
  })

  test("anything but the reader's answer is undefined: nothing, a partial entry, more entries than asked, an unknown status, a word beside a failure", () => {
    expect(decodeTokenBalanceReader(undefined, 1)).toBeUndefined()
    expect(decodeTokenBalanceReader('0x', 1)).toBeUndefined()
    expect(decodeTokenBalanceReader(`0x${entry(1n, 1n).slice(0, 96)}`, 1)).toBeUndefined()
    expect(decodeTokenBalanceReader(`0x${entry(1n, 1n)}${entry(1n, 2n)}`, 1)).toBeUndefined()
    expect(decodeTokenBalanceReader(`0x${entry(0n, 0n)}`, 1)).toBeUndefined()
    expect(decodeTokenBalanceReader(`0x${entry(4n, 0n)}`, 1)).toBeUndefined()
    expect(decodeTokenBalanceReader(`0x${entry(2n, 7n)}`, 1)).toBeUndefined()
  })
})
