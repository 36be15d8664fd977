// @vitest-environment node
// `npm run bench -- bench/tokenBalances.test.ts`: what reading 500 token balances costs on anvil,
// with Multicall3 deployed and without it: JSON-RPC requests (counted at the transport), HTTP
// requests and milliseconds, through getTokenBalances. Prints a table and writes
// bench/token-balances.json. Figures, not assertions (only the balances read are checked).
import { writeFileSync } from 'node:fs'
import { cpus, totalmem } from 'node:os'
import { afterAll, beforeAll, expect, test } from 'vitest'
import { type BalanceToken, getTokenBalances } from '../src/core/balances/getTokenBalances.js'
import { nativeTokenAddress } from '../src/core/constants.js'
import {
  cloneTokens,
  countingPublicClient,
  fixturePrices,
  installMulticall3,
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
  run: 'first (eth_getCode asked)' | 'repeat (median)'
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
  // Warm up (module loading, JIT, anvil's caches), unmeasured.
  await getTokenBalances(h.swapClient(), {
    publicClient: countingPublicClient(h.fixture).publicClient,
    account: h.user(),
    tokens,
    prices: false,
  })
}, 120_000)

/** One measured call through a counting client (a new one has not asked whether Multicall3 is deployed yet). */
async function measure(publicClient: ReturnType<typeof countingPublicClient>, prices: boolean) {
  publicClient.requests.length = 0
  const httpBefore = publicClient.httpRequests()
  const serviceBefore = h.server.service.count()
  const started = performance.now()
  const result = await getTokenBalances(h.swapClient(), {
    publicClient: publicClient.publicClient,
    account: h.user(),
    tokens,
    ...(prices ? {} : { prices: false as const }),
  })
  const ms = performance.now() - started
  const held = result.balances.filter((entry) => entry.status === 'success' && entry.balance > 0n)
  expect(result.balances).toHaveLength(tokenCount)
  expect(held).toHaveLength(heldCount)
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

async function scenario(path: string, transport: string, batch: boolean, prices = false) {
  const client = countingPublicClient(h.fixture, { batch })
  const first = await measure(client, prices)
  const { result, ...figures } = first
  rows.push({ path, transport, run: 'first (eth_getCode asked)', ...figures, ms: Math.round(first.ms) })
  const repeats = []
  for (let run = 0; run < runs; run++) repeats.push(await measure(client, prices))
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

test(`${tokenCount} tokens without Multicall3: one eth_call per token`, async () => {
  const plain = await scenario('no Multicall3 (eth_call per token)', 'http', false)
  expect(plain.method).toBe('eth_call')
  await scenario('no Multicall3 (eth_call per token)', 'http, batch: true', true)
})

test(`${tokenCount} tokens with Multicall3: one aggregate3`, async () => {
  await installMulticall3(h.fixture)
  const batched = await scenario('Multicall3 (aggregate3, 500 per call)', 'http', false)
  expect(batched.method).toBe('multicall3')
  // With prices from the mock service: the 51 held tokens cost 10 price requests (maxPrices), not 51.
  const priced = await scenario('Multicall3, with prices (maxPrices 10)', 'http', false, true)
  expect(priced.balances.filter((entry) => entry.priceUsd === fixturePrices.ETH)).toHaveLength(1)
})

afterAll(() => {
  if (rows.length === 0) return
  console.table(rows)
  const report = {
    note: `getTokenBalances over ${tokenCount} tokens on anvil (${heldCount} held: the native coin and every ${heldEvery}th ERC-20), read through viem's http transport; JSON-RPC requests counted at the transport (a batch of them is one HTTP request); "first" includes the one eth_getCode that tells whether Multicall3 is deployed (remembered per client and chain); "repeat" is the median of ${runs} more calls with the same client; serviceRequests are the swap service's (/overview/token/price), for the row with prices`,
    machine: `${cpus()[0]?.model.trim()}, ${cpus().length} cores, ${Math.round(totalmem() / 2 ** 30)} GiB, Node ${process.version}`,
    rows,
  }
  writeFileSync(new URL('./token-balances.json', import.meta.url), `${JSON.stringify(report, null, 2)}\n`)
})
