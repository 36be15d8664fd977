// @vitest-environment node
// `npx vitest run --project bench bench/guardGas.test.ts`: the gas a swap costs through the swap
// guard, with an approval of the guard (`swap`) and with a Permit2 signature (`swapWithPermit2`),
// against the same swap sent straight to the router, on anvil, each from the same chain state
// (receipts' gasUsed). Per swap in total, the approvals each path needs are added: an exact
// approval (0 → amountIn) before a direct or an approval-guarded swap; for Permit2, the user's
// one-time approval of Permit2 is counted in full on the first swap and not after. Prints a table
// per router and writes bench/guard-gas.json. Figures, not assertions (only the swaps' success is
// checked).
import { writeFileSync } from 'node:fs'
import {
  type Address,
  concat,
  encodeFunctionData,
  type Hex,
  maxUint256,
  parseAbi,
  parseEther,
  parseUnits,
  type TransactionReceipt,
  zeroAddress,
} from 'viem'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import {
  deterministicDeployerAddress,
  permit2Address,
  swapGuardAddress,
  swapGuardExecutorAddress,
} from '../src/core/execute/guard/swapGuard.js'
import { swapGuardInitCode, swapGuardSalt } from '../src/core/execute/guard/swapGuardInitCode.js'
import { pairRouterAbi } from '../test/evm/abis.js'
import { startAnvil } from '../test/evm/anvil.js'
import { compileContracts } from '../test/evm/compile.js'
import type { PoolTokenSymbol, SwapFixture } from '../test/evm/fixture.js'
import {
  approve,
  deadlineIn,
  deploy,
  ensurePermit2,
  guardPermit2Data,
  guardSwapData,
  mined,
  mint,
  routerSwapData,
} from '../test/evm/guardKit.js'
import { jsonRpc } from '../test/evm/rpc.js'
import { setupSwapFixture } from '../test/evm/setup.js'

type Row = {
  router: string
  swap: string
  direct: number
  guarded: number
  permit2: number | null
  /** guarded − direct, permit2 − direct */
  overhead: number
  permit2Overhead: number | null
  /** Per swap with its approvals: exact approval + direct, exact approval + guarded, Permit2 steady state, Permit2 first swap. */
  totalDirect: number
  totalGuarded: number
  totalPermit2: number | null
  totalPermit2First: number | null
  ratio: number
  permit2Ratio: number | null
}
const rows: Row[] = []
const figures = { exactApproval: 0, permit2Approval: 0, freshNonceWord: 0, deployGas: 0 }

const evm = setupSwapFixture()

const permit2Abi = parseAbi(['function invalidateUnorderedNonces(uint256 wordPos, uint256 mask)'])

type Router = {
  name: string
  /** The router's calldata for the swap, paying `to`. */
  data(fixture: SwapFixture, c: Case, to: Address): Promise<Hex>
  address(fixture: SwapFixture): Address
  spender(fixture: SwapFixture): Address
}

type Case = {
  name: string
  token0: PoolTokenSymbol
  token1: PoolTokenSymbol
  amountIn: bigint
  /** Where the router pays token1 in the guarded swap: the recipient itself, or the executor (which forwards it). */
  payTo?: 'recipient' | 'executor' | undefined
}

let pairRouter: Address

const testRouter: Router = {
  name: 'TestRouter',
  address: (fixture) => fixture.router,
  spender: (fixture) => fixture.spender,
  data: async (fixture, c, to) =>
    routerSwapData({
      path: [fixture.tokens[c.token0].address, fixture.tokens[c.token1].address],
      amountIn: c.amountIn,
      to,
      deadline: await deadlineIn(fixture),
    }),
}

const v2LikeRouter: Router = {
  name: 'PairRouter (V2-like)',
  address: () => pairRouter,
  spender: () => pairRouter,
  data: async (fixture, c, to) => {
    const path = [fixture.tokens[c.token0].address, fixture.tokens[c.token1].address]
    const deadline = await deadlineIn(fixture)
    if (c.token0 === 'ETH')
      return encodeFunctionData({
        abi: pairRouterAbi,
        functionName: 'swapExactETHForTokens',
        args: [0n, path, to, deadline],
      })
    return encodeFunctionData({
      abi: pairRouterAbi,
      functionName: c.token1 === 'ETH' ? 'swapExactTokensForETH' : 'swapExactTokensForTokens',
      args: [c.amountIn, 0n, path, to, deadline],
    })
  },
}

beforeAll(async () => {
  const fixture = evm.fixture
  // The guard's deployment, on a chain of its own (the fixture's chain has it already).
  const bare = await startAnvil()
  try {
    const request = jsonRpc(bare.rpcUrl)
    const [from] = (await request('eth_accounts', [])) as Address[]
    const hash = (await request('eth_sendTransaction', [
      { from, to: deterministicDeployerAddress, data: concat([swapGuardSalt, swapGuardInitCode]) },
    ])) as Hex
    const receipt = (await request('eth_getTransactionReceipt', [hash])) as { gasUsed: Hex; status: Hex }
    expect(receipt.status).toBe('0x1')
    figures.deployGas = Number(receipt.gasUsed)
  } finally {
    await bare.stop()
  }

  await ensurePermit2(fixture)
  const C = await compileContracts()
  pairRouter = await deploy(fixture, C.PairRouter)
  const { TKA, TKB, USDC, ETH } = fixture.tokens
  await mint(fixture, TKA.address, pairRouter, parseEther('1000000'))
  await mint(fixture, TKB.address, pairRouter, parseEther('2000000'))
  await mint(fixture, USDC.address, pairRouter, parseUnits('1000000', 6))
  await fixture.testClient.setBalance({ address: pairRouter, value: parseEther('500') })
  for (const [a, b, ra, rb] of [
    [TKA.address, TKB.address, parseEther('1000000'), parseEther('2000000')],
    [ETH.address, USDC.address, parseEther('500'), parseUnits('1000000', 6)],
  ] as const)
    await mined(
      fixture,
      fixture.deployerClient.writeContract({
        address: pairRouter,
        abi: pairRouterAbi,
        functionName: 'setPair',
        args: [a, b, ra, rb],
      }),
    )
}, 120_000)

/** The user's swap sent straight to the router, after an exact approval of the spender. */
async function direct(fixture: SwapFixture, router: Router, c: Case) {
  const { user } = fixture.accounts
  const native = c.token0 === 'ETH'
  const approval = native
    ? undefined
    : await approve(
        fixture,
        fixture.userClient,
        fixture.tokens[c.token0].address,
        router.spender(fixture),
        c.amountIn,
      )
  const swap = await mined(
    fixture,
    fixture.userClient.sendTransaction({
      to: router.address(fixture),
      data: await router.data(fixture, c, user.address),
      value: native ? c.amountIn : 0n,
    }),
  )
  return { approval, swap }
}

/** The same swap through `SwapGuard.swap`, after an exact approval of the guard. */
async function guarded(fixture: SwapFixture, router: Router, c: Case) {
  const { user } = fixture.accounts
  const native = c.token0 === 'ETH'
  const token0 = fixture.tokens[c.token0].address
  const approval = native
    ? undefined
    : await approve(fixture, fixture.userClient, token0, swapGuardAddress, c.amountIn)
  const to = c.payTo === 'executor' ? swapGuardExecutorAddress : user.address
  const swap = await mined(
    fixture,
    fixture.userClient.sendTransaction({
      to: swapGuardAddress,
      data: guardSwapData({
        token0,
        amountIn: c.amountIn,
        token1: fixture.tokens[c.token1].address,
        minAmountOut: 1n,
        recipient: user.address,
        spender: native ? undefined : router.spender(fixture),
        router: router.address(fixture),
        data: await router.data(fixture, c, to),
      }),
      value: native ? c.amountIn : 0n,
    }),
  )
  return { approval, swap }
}

/**
 * The same swap through `SwapGuard.swapWithPermit2`: the user approved Permit2 for the token
 * (outside the measure, counted apart) and used an earlier nonce of the same bitmap word, as
 * every swap after a user's first does.
 */
async function withPermit2(fixture: SwapFixture, router: Router, c: Case) {
  const { user } = fixture.accounts
  const token0 = fixture.tokens[c.token0].address
  const permit2Approval = await approve(fixture, fixture.userClient, token0, permit2Address, maxUint256)
  await mined(
    fixture,
    fixture.userClient.writeContract({
      address: permit2Address,
      abi: permit2Abi,
      functionName: 'invalidateUnorderedNonces',
      args: [0n, 1n],
    }),
  )
  const to = c.payTo === 'executor' ? swapGuardExecutorAddress : user.address
  const data = await guardPermit2Data(fixture, user, {
    token0,
    amountIn: c.amountIn,
    nonce: 1n,
    deadline: await deadlineIn(fixture),
    witness: {
      token1: fixture.tokens[c.token1].address,
      minAmountOut: 1n,
      recipient: user.address,
      spender: router.spender(fixture),
      router: router.address(fixture),
      data: await router.data(fixture, c, to),
    },
  })
  const swap = await mined(fixture, fixture.userClient.sendTransaction({ to: swapGuardAddress, data }))
  return { permit2Approval, swap }
}

const cases: Case[] = [
  { name: 'TKA → TKB', token0: 'TKA', token1: 'TKB', amountIn: parseEther('100') },
  {
    name: 'TKA → TKB, paid to the executor',
    token0: 'TKA',
    token1: 'TKB',
    amountIn: parseEther('100'),
    payTo: 'executor',
  },
  { name: 'USDC → ETH', token0: 'USDC', token1: 'ETH', amountIn: parseUnits('3000', 6), payTo: 'executor' },
  { name: 'ETH → USDC', token0: 'ETH', token1: 'USDC', amountIn: parseEther('1') },
]

const gas = (receipt: TransactionReceipt | undefined) => Number(receipt?.gasUsed ?? 0n)
const ratio = (a: number, b: number) => Math.round((a / b) * 1000) / 1000

describe.each([testRouter, v2LikeRouter])('$name', (router) => {
  test.each(cases.filter((c) => router === testRouter || c.payTo !== 'executor' || c.token1 === 'ETH'))(
    'gas: $name, direct vs guarded (approval, Permit2)',
    async (c) => {
      const fixture = evm.fixture
      const start = await fixture.snapshot()
      const a = await direct(fixture, router, c)
      await fixture.revert(start)
      const again = await fixture.snapshot()
      const b = await guarded(fixture, router, c)
      await fixture.revert(again)
      const p = c.token0 === 'ETH' ? undefined : await withPermit2(fixture, router, c)
      expect([a.swap.status, b.swap.status, p?.swap.status ?? 'success']).toEqual([
        'success',
        'success',
        'success',
      ])
      const [d, g, pg] = [gas(a.swap), gas(b.swap), p ? gas(p.swap) : null]
      if (a.approval) figures.exactApproval = gas(a.approval)
      if (p) figures.permit2Approval = gas(p.permit2Approval)
      rows.push({
        router: router.name,
        swap: c.name,
        direct: d,
        guarded: g,
        permit2: pg,
        overhead: g - d,
        permit2Overhead: pg === null ? null : pg - d,
        totalDirect: d + gas(a.approval),
        totalGuarded: g + gas(b.approval),
        totalPermit2: pg,
        totalPermit2First: pg === null ? null : pg + gas(p?.permit2Approval),
        ratio: ratio(g, d),
        permit2Ratio: pg === null ? null : ratio(pg, d),
      })
    },
  )
})

test('a fresh Permit2 nonce word (a user’s first signature, or every 256th): its first bit costs more', async () => {
  const fixture = evm.fixture
  const { user } = fixture.accounts
  const start = await fixture.snapshot()
  // The same one-bit write, in a word used before and in a fresh one.
  await mined(
    fixture,
    fixture.userClient.writeContract({
      address: permit2Address,
      abi: permit2Abi,
      functionName: 'invalidateUnorderedNonces',
      args: [5n, 1n],
    }),
  )
  const used = await mined(
    fixture,
    fixture.userClient.writeContract({
      address: permit2Address,
      abi: permit2Abi,
      functionName: 'invalidateUnorderedNonces',
      args: [5n, 2n],
    }),
  )
  const fresh = await mined(
    fixture,
    fixture.userClient.writeContract({
      address: permit2Address,
      abi: permit2Abi,
      functionName: 'invalidateUnorderedNonces',
      args: [6n, 1n],
    }),
  )
  await fixture.revert(start)
  figures.freshNonceWord = gas(fresh) - gas(used)
  expect(user.address).not.toBe(zeroAddress)
  expect(figures.freshNonceWord).toBeGreaterThan(0)
})

afterAll(() => {
  if (rows.length === 0) return
  for (const row of rows) if (row.totalPermit2First !== null) row.totalPermit2First += figures.freshNonceWord
  console.table(
    rows.map((row) => ({
      router: row.router,
      swap: row.swap,
      direct: row.direct,
      'guarded (approval)': `${row.guarded} (+${row.overhead}, ×${row.ratio})`,
      'guarded (Permit2)':
        row.permit2 === null ? '–' : `${row.permit2} (+${row.permit2Overhead}, ×${row.permit2Ratio})`,
      'total: approve + direct': row.totalDirect,
      'total: approve + guarded': row.totalGuarded,
      'total: Permit2 (then / first)':
        row.totalPermit2 === null ? '–' : `${row.totalPermit2} / ${row.totalPermit2First}`,
    })),
  )
  console.log(
    `exact approval ${figures.exactApproval} gas; Permit2 approval (once per token) ${figures.permit2Approval}; a fresh Permit2 nonce word +${figures.freshNonceWord}; SwapGuard deployment ${figures.deployGas} gas (init code ${(swapGuardInitCode.length - 2) / 2} bytes, through the deterministic deployment proxy)`,
  )
  const report = {
    note: 'gasUsed on anvil of the same swap sent to the router directly, through SwapGuard.swap (approval) and through SwapGuard.swapWithPermit2, each from the same state. total*: with the approvals each path needs: an exact approval before a direct or approval-guarded swap; for Permit2 nothing per swap once the user approved Permit2 (totalPermit2), and on a first swap the one-time Permit2 approval and a fresh nonce word (totalPermit2First).',
    ...figures,
    rows,
  }
  writeFileSync(new URL('./guard-gas.json', import.meta.url), `${JSON.stringify(report, null, 2)}\n`)
})
