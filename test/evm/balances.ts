import { readFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import { dirname, join } from 'node:path'
import {
  type Address,
  createPublicClient,
  encodeAbiParameters,
  getAddress,
  type Hex,
  http,
  keccak256,
  numberToHex,
  type PublicClient,
  pad,
  toHex,
} from 'viem'
import { afterAll, afterEach, beforeAll } from 'vitest'
import { multicall3Address } from '../../src/core/balances/multicall3.js'
import { createSwapClient } from '../../src/core/client.js'
import { createMockMarket } from '../../src/mock/createMockMarket.js'
import { type MockServer, startMockServer } from '../../src/mock/startMockServer.js'
import { compileContracts } from './compile.js'
import type { PoolTokenSymbol, SwapFixture } from './fixture.js'
import { jsonRpc } from './rpc.js'
import { setupSwapFixture } from './setup.js'

/** USD prices of the fixture's tokens in the balances rig's mock market. */
export const fixturePrices: Record<PoolTokenSymbol, number> = {
  ETH: 3000,
  TKA: 2,
  TKB: 1,
  USDC: 1,
  USDT: 1,
  BAD: 0.5,
}

/**
 * One test file's rig for balances: anvil with the swap fixture (the user
 * holds ETH, TKA, TKB, USDC, USDT and BAD), and a mock service on loopback
 * listing those tokens at `fixturePrices`. Its request log is cleared after
 * each test; the chain is reverted after each test.
 */
export function setupBalancesHarness() {
  const evm = setupSwapFixture()
  let server: MockServer | undefined
  beforeAll(async () => {
    const { tokens, pools } = evm.fixture.market
    const market = createMockMarket({
      tokens: tokens.map((token) => ({ ...token, priceUsd: fixturePrices[token.symbol] })),
      pairs: pools,
    })
    server = await startMockServer({ market })
  })
  afterEach(() => server?.service.reset())
  afterAll(async () => {
    await server?.stop()
  })
  const harness = {
    get fixture() {
      return evm.fixture
    },
    get server() {
      if (!server) throw new Error('The mock server starts in beforeAll.')
      return server
    },
    /** A client of the mock service, paced off so tests do not wait. */
    swapClient: () => createSwapClient({ baseUrl: harness.server.url, rateLimit: false }),
    user: () => evm.fixture.accounts.user.address,
  }
  return harness
}

/**
 * Multicall3's creation code, as viem ships it for its deployless multicall
 * (the contract deployed at 0xcA11…CA11 on most chains). anvil does not
 * predeploy Multicall3, so tests put it there themselves.
 */
export function multicall3CreationCode(): Hex {
  const viemEntry = createRequire(import.meta.url).resolve('viem')
  const source = readFileSync(join(dirname(viemEntry), 'constants', 'contracts.js'), 'utf8')
  const code = /multicall3Bytecode\s*=\s*['"](0x[0-9a-fA-F]+)['"]/.exec(source)?.[1]
  if (!code) throw new Error(`No multicall3Bytecode in viem's constants (${viemEntry})`)
  return code as Hex
}

/** Puts Multicall3's runtime code at its canonical address (its constructor's output, from an eth_call). */
export async function installMulticall3(fixture: SwapFixture): Promise<void> {
  const { data } = await fixture.publicClient.call({ data: multicall3CreationCode() })
  if (!data) throw new Error('Multicall3 creation code returned no runtime code')
  await fixture.testClient.setCode({ address: multicall3Address, bytecode: data })
}

/** Runtime code of contracts whose `balanceOf` misbehaves, whatever the call. */
export const misbehavingCode = {
  /** `revert(0, 0)` */
  reverts: '0x60006000fd',
  /** Returns one byte (0x01). */
  oneByte: '0x600160005360016000f3',
  /** Returns two zero words (64 bytes). */
  twoWords: '0x60406000f3',
} as const satisfies Record<string, Hex>

/** Deploys a `GasBurnerToken` (its `balanceOf` loops until its gas runs out); returns its address. */
export async function deployGasBurner(fixture: SwapFixture): Promise<Address> {
  const { GasBurnerToken } = await compileContracts()
  const receipt = await fixture.publicClient.waitForTransactionReceipt({
    hash: await fixture.deployerClient.deployContract({ ...GasBurnerToken, args: [] }),
  })
  if (!receipt.contractAddress) throw new Error('GasBurnerToken was not deployed')
  return getAddress(receipt.contractAddress)
}

/** A fresh address derived from a label (no code, no balance until the test puts some). */
export function labelAddress(label: string): Address {
  return getAddress(`0x${keccak256(toHex(label)).slice(26)}`)
}

/** Deploys `code` at the address derived from `label`; returns it. */
export async function deployCodeAt(fixture: SwapFixture, label: string, code: Hex): Promise<Address> {
  const address = labelAddress(label)
  await fixture.testClient.setCode({ address, bytecode: code })
  return address
}

/**
 * Copies a deployed TestERC20's runtime code to `count` new addresses and
 * gives `holder` a balance in every `heldEvery`-th of them (by writing the
 * `balanceOf` mapping's slot, 4 in TestERC20's layout): a large token list
 * without a transaction per token.
 */
export async function cloneTokens(
  fixture: SwapFixture,
  {
    template,
    count,
    holder,
    heldEvery = 1,
    balance = 10n ** 18n,
  }: { template: Address; count: number; holder: Address; heldEvery?: number; balance?: bigint },
): Promise<Address[]> {
  const code = await fixture.publicClient.getCode({ address: template })
  if (!code) throw new Error(`No code at ${template}`)
  const slot = keccak256(encodeAbiParameters([{ type: 'address' }, { type: 'uint256' }], [holder, 4n]))
  const request = jsonRpc(fixture.rpcUrl)
  const addresses: Address[] = []
  for (let index = 0; index < count; index++) {
    const address = labelAddress(`clone-${template}-${index}`)
    await request('anvil_setCode', [address, code])
    if (index % heldEvery === 0)
      await request('anvil_setStorageAt', [address, slot, pad(numberToHex(balance))])
    addresses.push(address)
  }
  return addresses
}

/**
 * How the node behind a counting client treats an `eth_call` with a state
 * override (its third parameter): `'honour'` (anvil's own behaviour);
 * `'refuse'`, as a node that knows no such parameter answers (geth's wording:
 * `-32602 too many arguments, want at most 2`); `'ignore'`, dropped before
 * the node sees it, as some nodes and proxies do.
 */
export type StateOverrideSupport = 'honour' | 'refuse' | 'ignore'

type JsonRpcRequest = { jsonrpc: '2.0'; id: number; method: string; params?: unknown[] }

/**
 * A public client of the fixture's node (viem's `http` transport) that records
 * every JSON-RPC request it sends, by method (`requests`), and every HTTP
 * request (`httpRequests`): with `batch: true`, one HTTP request carries many.
 * `stateOverrides` makes the node refuse or ignore `eth_call`'s state
 * override (see `StateOverrideSupport`); `callGasCap` gives every `eth_call`
 * at most that much gas, as a node's cap does (geth's `--rpc.gascap`). Every
 * other request reaches anvil as sent. `retryCount` is viem's (default 3):
 * anvil answers a call that ran out of gas with -32603, which viem retries.
 */
export function countingPublicClient(
  fixture: SwapFixture,
  {
    batch = false,
    stateOverrides = 'honour',
    callGasCap,
    retryCount,
  }: {
    batch?: boolean
    stateOverrides?: StateOverrideSupport
    callGasCap?: bigint
    retryCount?: number
  } = {},
): { publicClient: PublicClient; requests: string[]; httpRequests: () => number } {
  const requests: string[] = []
  let httpRequests = 0
  const overridden = (request: JsonRpcRequest) =>
    request.method === 'eth_call' && (request.params?.length ?? 0) > 2
  const publicClient = createPublicClient({
    chain: fixture.chain,
    transport: http(fixture.rpcUrl, {
      batch: batch ? { batchSize: 1000 } : false,
      ...(retryCount !== undefined && { retryCount }),
      fetchFn: async (input, init) => {
        httpRequests++
        let body = JSON.parse(String(init?.body)) as JsonRpcRequest | JsonRpcRequest[]
        if (callGasCap !== undefined) {
          const capped = (request: JsonRpcRequest): JsonRpcRequest => {
            if (request.method !== 'eth_call') return request
            const [call, ...rest] = (request.params ?? []) as [{ gas?: Hex }, ...unknown[]]
            const gas = call.gas === undefined ? callGasCap : BigInt(call.gas)
            return {
              ...request,
              params: [{ ...call, gas: numberToHex(gas < callGasCap ? gas : callGasCap) }, ...rest],
            }
          }
          body = Array.isArray(body) ? body.map(capped) : capped(body)
          init = { ...init, body: JSON.stringify(body) }
        }
        const sent = Array.isArray(body) ? body : [body]
        for (const { method } of sent) requests.push(method)
        if (stateOverrides === 'honour' || !sent.some(overridden)) return fetch(input, init)
        if (stateOverrides === 'ignore') {
          const stripped = sent.map((request) =>
            overridden(request) ? { ...request, params: request.params?.slice(0, 2) } : request,
          )
          return fetch(input, { ...init, body: JSON.stringify(Array.isArray(body) ? stripped : stripped[0]) })
        }
        // Refused: answered here; the rest of a batch goes to the node.
        const forwarded = sent.filter((request) => !overridden(request))
        const answers = new Map<number, unknown>()
        if (forwarded.length > 0) {
          const response = await fetch(input, { ...init, body: JSON.stringify(forwarded) })
          for (const answer of (await response.json()) as { id: number }[]) answers.set(answer.id, answer)
        }
        for (const request of sent.filter(overridden))
          answers.set(request.id, {
            jsonrpc: '2.0',
            id: request.id,
            error: { code: -32602, message: 'too many arguments, want at most 2' },
          })
        const replies = sent.map((request) => answers.get(request.id))
        return new Response(JSON.stringify(Array.isArray(body) ? replies : replies[0]), {
          headers: { 'content-type': 'application/json' },
        })
      },
    }),
  }) as PublicClient
  return { publicClient, requests, httpRequests: () => httpRequests }
}
