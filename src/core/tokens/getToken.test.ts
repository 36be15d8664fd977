import { readFileSync } from 'node:fs'
import { type Address, createPublicClient, custom, getAddress, keccak256, toHex } from 'viem'
import { beforeAll, describe, expect, test } from 'vitest'
import { compileContracts } from '../../../test/evm/compile.js'
import { setupProduction } from '../../../test/evm/production/setup.js'
import { jsonRpc } from '../../../test/evm/rpc.js'
import { createSwapClient } from '../client.js'
import { InvalidParameterError } from '../errors/parameter.js'
import { type GetTokenParameters, getToken, tokenInfoReaderAddress, tokenInfoReaderCode } from './getToken.js'

/*
 * A token pasted by its address, read from a real chain (anvil, with the rig's tokens and a few odd
 * ones of its own) and listed, or not, by another implementation of the service (the rig's
 * reference service, which blacklists SCAM).
 */
const evm = setupProduction()
const odd: Record<'Bytes32Token' | 'NoDecimalsToken' | 'GarbageToken', Address> = {} as never

beforeAll(async () => {
  const compiled = await compileContracts()
  const { deployerClient, publicClient } = evm.uniswap
  for (const name of Object.keys(odd) as (keyof typeof odd)[]) odd[name] = '0x' as Address
  for (const name of ['Bytes32Token', 'NoDecimalsToken', 'GarbageToken'] as const) {
    const hash = await deployerClient.deployContract({
      abi: compiled[name].abi,
      bytecode: compiled[name].bytecode,
    })
    odd[name] = getAddress(
      (await publicClient.waitForTransactionReceipt({ hash })).contractAddress as Address,
    )
  }
}, 60_000)

const client = () => createSwapClient({ baseUrl: evm.service.url, rateLimit: false })
const read = (address: string, publicClient: GetTokenParameters['publicClient'] = evm.uniswap.publicClient) =>
  getToken(client(), { publicClient, address })

test('the embedded reader is exactly what TokenInfoReader.sol compiles to, at the address its label derives', async () => {
  const solc = (await import('solc')).default as { compile(input: string): string }
  const source = readFileSync(new URL('./TokenInfoReader.sol', import.meta.url), 'utf8')
  const output = JSON.parse(
    solc.compile(
      JSON.stringify({
        language: 'Solidity',
        sources: { 'TokenInfoReader.sol': { content: source } },
        settings: {
          evmVersion: 'paris',
          viaIR: true,
          optimizer: { enabled: true, runs: 1 },
          metadata: { appendCBOR: false },
          outputSelection: { '*': { '*': ['evm.deployedBytecode.object'] } },
        },
      }),
    ),
  ) as { contracts: Record<string, Record<string, { evm: { deployedBytecode: { object: string } } }>> }
  expect(`0x${output.contracts['TokenInfoReader.sol']?.TokenInfoReader?.evm.deployedBytecode.object}`).toBe(
    tokenInfoReaderCode,
  )
  expect(tokenInfoReaderAddress).toBe(
    getAddress(`0x${keccak256(toHex('token-swap-hooks.token-info-reader')).slice(26)}`),
  )
})

describe.each([
  ['a node that runs the reader (one eth_call)', false],
  ['a node that refuses state overrides (one call per question)', true],
])('%s', (_, refusesOverrides) => {
  const publicClient = (): GetTokenParameters['publicClient'] => {
    if (!refusesOverrides) return evm.uniswap.publicClient
    const forward = jsonRpc(evm.anvil.rpcUrl)
    return createPublicClient({
      chain: evm.uniswap.chain,
      transport: custom({
        request: ({ method, params }) => {
          if (method === 'eth_call' && (params as unknown[]).length > 2)
            return Promise.reject(Object.assign(new Error('state override not supported'), { code: -32602 }))
          return forward(method, params)
        },
      }),
    })
  }

  test('a listed token, a blacklisted one, and one the service does not list', async () => {
    const { address } = evm.uniswap
    expect(await read(address('TKA'), publicClient())).toMatchObject({
      kind: 'token',
      symbol: 'TKA',
      decimals: 18,
      listing: 'listed',
      warning: undefined,
    })
    expect(await read(address('USDC'), publicClient())).toMatchObject({ symbol: 'USDC', decimals: 6 })
    expect(await read(address('SCAM'), publicClient())).toMatchObject({
      kind: 'token',
      listing: 'blacklisted',
      warning: 'blacklisted',
    })
  })

  test('tokens that answer oddly: bytes32 name and symbol decoded, no decimals, garbage', async () => {
    expect(await read(odd.Bytes32Token, publicClient())).toEqual({
      address: odd.Bytes32Token,
      kind: 'token',
      name: 'Maker',
      symbol: 'MKR',
      decimals: 18,
      listing: 'unlisted',
      warning: 'unlisted',
    })
    expect(await read(odd.NoDecimalsToken, publicClient())).toMatchObject({
      kind: 'token',
      symbol: 'PLN',
      decimals: undefined,
    })
    // Not one word for totalSupply(), nor text for its name: garbage, said so.
    expect(await read(odd.GarbageToken, publicClient())).toMatchObject({
      kind: 'not-a-token',
      name: undefined,
      symbol: undefined,
      decimals: undefined,
      warning: 'not-a-token',
    })
  })

  test('a contract that is not a token, and an address with nothing deployed', async () => {
    expect(await read(evm.uniswap.contracts.v2Router, publicClient())).toMatchObject({
      kind: 'not-a-token',
      warning: 'not-a-token',
    })
    expect(await read('0x000000000000000000000000000000000000dEaD', publicClient())).toMatchObject({
      kind: 'no-contract',
      warning: 'not-a-token',
    })
  })
})

test('pasted text with spaces around it is read; text that is not an address is refused before any request', async () => {
  expect(await read(`  ${evm.uniswap.address('TKA').toLowerCase()}\n`)).toMatchObject({ symbol: 'TKA' })
  const before = evm.service.requests.length
  for (const text of [
    'USDC',
    '0x1234',
    `${evm.uniswap.address('TKA').slice(0, -1)}Z`,
    '0xAbCdEf0000000000000000000000000000000000',
  ])
    await expect(read(text)).rejects.toMatchObject({ name: 'InvalidParameterError', parameter: 'address' })
  await expect(read('not an address')).rejects.toBeInstanceOf(InvalidParameterError)
  expect(evm.service.requests.length).toBe(before)
})

test('a service whose list cannot be read: listing unknown, the chain still read', async () => {
  const offline = createSwapClient({ baseUrl: 'http://127.0.0.1:9/', rateLimit: false, timeoutMs: 500 })
  expect(
    await getToken(offline, { publicClient: evm.uniswap.publicClient, address: evm.uniswap.address('TKA') }),
  ).toMatchObject({
    symbol: 'TKA',
    listing: 'unknown',
    warning: undefined,
  })
})
