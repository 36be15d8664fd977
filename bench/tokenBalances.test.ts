// @vitest-environment node
// `npm run bench -- bench/tokenBalances.test.ts`: what reading 500 token balances costs on anvil,
// with the reader (a state override), and on a node that refuses state overrides with Multicall3
// deployed and without it; each with and without a token whose balanceOf burns all its gas:
// JSON-RPC requests (counted at the transport), HTTP requests and milliseconds, through
// getTokenBalances. Prints a table and writes bench/token-balances.json. Figures, not assertions
// (only the balances read are checked).
import { writeFileSync } from 'node:fs'
import { cpus, totalmem } from 'node:os'
import { afterAll, beforeAll, expect, test } from 'vitest'
import { type BalanceToken, getTokenBalances } from '../src/core/balances/getTokenBalances.js'
import { nativeTokenAddress } from '../src/core/constants.js'
import {
  cloneTokens,
  countingPublicClient,
  deployGasBurner,
  fixturePrices,
  installMulticall3,
  type StateOverrideSupport,
  setupBalancesHarness,
} from '../test/evm/balances.js'

const tokenCount = 500
/** Every 10th ERC-20 is held, and the native coin: 51 of the 500. */
const heldEvery = 10
const heldCount = 1 + Math.ceil((tokenCount - 1) / heldEvery)
const runs = 5

type Row = {
  path: string
  transport: string
  run: 'first (new client)' | 'repeat (median)'
  jsonRpcRequests: number
  httpRequests: number
  byMethod: string
  ms: number
  serviceRequests: number
}
const rows: Row[] = []
const median = (values: number[]) =>
  [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] as number

const h = setupBalancesHarness()
let tokens: BalanceToken[] = []
/** The same list with its second token (not held) replaced by a GasBurnerToken. */
let withBurner: BalanceToken[] = []

beforeAll(async () => {
  const clones = await cloneTokens(h.fixture, {
    template: h.fixture.tokens.TKA.address,
    count: tokenCount - 1,
    holder: h.user(),
    heldEvery,
  })
  tokens = [
    { address: nativeTokenAddress, symbol: 'ETH', decimals: 18 },
    ...clones.map((address, index) => ({
      address,
      symbol: `T${String(index).padStart(3, '0')}`,
      decimals: 18,
    })),
  ]
  const burner = { address: await deployGasBurner(h.fixture), symbol: 'BURN', decimals: 18 }
  withBurner = tokens.map((token, index) => (index === 2 ? burner : token))
  // Warm up (module loading, JIT, anvil's caches), unmeasured.
  await getTokenBalances(h.swapClient(), {
    publicClient: countingPublicClient(h.fixture).publicClient,
    account: h.user(),
    tokens,
    prices: false,
  })
}, 120_000)

/** One measured call through a counting client (a new one has not asked whether Multicall3 is deployed yet). */
async function measure(
  publicClient: ReturnType<typeof countingPublicClient>,
  prices: boolean,
  list: readonly BalanceToken[],
) {
  publicClient.requests.length = 0
  const httpBefore = publicClient.httpRequests()
  const serviceBefore = h.server.service.count()
  const started = performance.now()
  const result = await getTokenBalances(h.swapClient(), {
    publicClient: publicClient.publicClient,
    account: h.user(),
    tokens: list,
    ...(prices ? {} : { prices: false as const }),
  })
  const ms = performance.now() - started
  const held = result.balances.filter((entry) => entry.status === 'success' && entry.balance > 0n)
  expect(result.balances).toHaveLength(tokenCount)
  expect(held).toHaveLength(heldCount)
  if (list === withBurner)
    expect(result.balances.find((entry) => entry.token.symbol === 'BURN')).toMatchObject({
      status: 'error',
      reason: 'reverted',
    })
  const byMethod = new Map<string, number>()
  for (const method of publicClient.requests) byMethod.set(method, (byMethod.get(method) ?? 0) + 1)
  return {
    result,
    jsonRpcRequests: publicClient.requests.length,
    httpRequests: publicClient.httpRequests() - httpBefore,
    byMethod: [...byMethod].map(([method, count]) => `${method} ×${count}`).join(', '),
    ms,
    serviceRequests: h.server.service.count() - serviceBefore,
  }
}

async function scenario(
  path: string,
  transport: string,
  {
    batch = false,
    prices = false,
    stateOverrides = 'honour',
    burner = false,
  }: { batch?: boolean; prices?: boolean; stateOverrides?: StateOverrideSupport; burner?: boolean } = {},
) {
  const list = burner ? withBurner : tokens
  const client = countingPublicClient(h.fixture, { batch, stateOverrides })
  const first = await measure(client, prices, list)
  const { result, ...figures } = first
  rows.push({ path, transport, run: 'first (new client)', ...figures, ms: Math.round(first.ms) })
  const repeats = []
  for (let run = 0; run < runs; run++) repeats.push(await measure(client, prices, list))
  const last = repeats[repeats.length - 1] as (typeof repeats)[0]
  rows.push({
    path,
    transport,
    run: 'repeat (median)',
    jsonRpcRequests: last.jsonRpcRequests,
    httpRequests: last.httpRequests,
    byMethod: last.byMethod,
    ms: Math.round(median(repeats.map((repeat) => repeat.ms))),
    serviceRequests: last.serviceRequests,
  })
  return result
}

test(`${tokenCount} tokens with the reader (a state override): one eth_call, Multicall3 or not`, async () => {
  const reader = await scenario('reader (state override, 500 per call)', 'http')
  expect(reader.method).toBe('stateOverride')
  await scenario('reader, a gas burner among them', 'http', { burner: true })
  // With prices from the mock service: the 51 held tokens cost 10 price requests (maxPrices), not 51.
  const priced = await scenario('reader, with prices (maxPrices 10)', 'http', { prices: true })
  expect(priced.balances.filter((entry) => entry.priceUsd === fixturePrices.ETH)).toHaveLength(1)
})

test(`${tokenCount} tokens on a node that refuses state overrides, without Multicall3: one eth_call per token`, async () => {
  const plain = await scenario('no state override, no Multicall3 (eth_call per token)', 'http', {
    stateOverrides: 'refuse',
  })
  expect(plain.method).toBe('eth_call')
  await scenario('no state override, no Multicall3 (eth_call per token)', 'http, batch: true', {
    batch: true,
    stateOverrides: 'refuse',
  })
  await scenario('no state override, no Multicall3, a gas burner among them', 'http, batch: true', {
    batch: true,
    stateOverrides: 'refuse',
    burner: true,
  })
})

test(`${tokenCount} tokens on a node that refuses state overrides, with Multicall3: one aggregate3`, async () => {
  await installMulticall3(h.fixture)
  const batched = await scenario('no state override, Multicall3 (aggregate3, 500 per call)', 'http', {
    stateOverrides: 'refuse',
  })
  expect(batched.method).toBe('multicall3')
  await scenario('no state override, Multicall3, a gas burner among them', 'http, batch: true', {
    batch: true,
    stateOverrides: 'refuse',
    burner: true,
  })
})

afterAll(() => {
  if (rows.length === 0) return
  console.table(rows)
  const report = {
    note: `getTokenBalances over ${tokenCount} tokens on anvil (${heldCount} held: the native coin and every ${heldEvery}th ERC-20; in the "gas burner" rows a token that is not held is replaced by a GasBurnerToken, whose balanceOf loops until its gas runs out), read through viem's http transport (its default 3 retries); JSON-RPC requests counted at the transport (a batch of them is one HTTP request); "no state override" rows go through a node that refuses eth_call's state override (-32602), and their "first" run (a new client) includes that refused eth_call and the one eth_getCode that tells whether Multicall3 is deployed (both remembered per client and chain); anvil answers an eth_call that ran out of gas with -32603, which viem retries 3 times (geth's -32000 is not retried); "repeat" is the median of ${runs} more calls with the same client; serviceRequests are the swap service's (/overview/token/price), for the row with prices`,
    machine: `${cpus()[0]?.model.trim()}, ${cpus().length} cores, ${Math.round(totalmem() / 2 ** 30)} GiB, Node ${process.version}`,
    rows,
  }
  writeFileSync(new URL('./token-balances.json', import.meta.url), `${JSON.stringify(report, null, 2)}\n`)
})
