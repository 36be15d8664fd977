// @vitest-environment node
// `npm run bench -- bench/guardGas.test.ts`: the gas a swap costs through the swap guard against
// the same swap sent straight to the router, on anvil, each from the same chain state. Prints a
// table and writes bench/guard-gas.json. Figures, not assertions (only the swaps' success is checked).
import { writeFileSync } from 'node:fs'
import { type Address, type Hex, parseEther, parseUnits, type TransactionReceipt } from 'viem'
import { afterAll, beforeAll, expect, test } from 'vitest'
import { deploySwapGuard } from '../src/core/execute/guard/deploySwapGuard.js'
import {
  swapGuardAddress,
  swapGuardExecutorAddress,
  swapGuardInitCode,
} from '../src/core/execute/guard/swapGuard.js'
import type { SwapFixture } from '../test/evm/fixture.js'
import { approve, deadlineIn, guardSwapData, mined, routerSwapData } from '../test/evm/guardKit.js'
import { setupSwapFixture } from '../test/evm/setup.js'

type Row = { swap: string; direct: number; guarded: number; overhead: number; ratio: number }
const rows: Row[] = []
let deployGas = 0n

const evm = setupSwapFixture()

beforeAll(async () => {
  const deployment = await deploySwapGuard({
    walletClient: evm.fixture.deployerClient,
    publicClient: evm.fixture.publicClient,
  })
  if (deployment.status === 'deployed') deployGas = deployment.receipt.gasUsed
})

type Case = {
  name: string
  token0: 'TKA' | 'USDC' | 'ETH'
  token1: 'TKB' | 'USDC' | 'ETH'
  amountIn: bigint
  /** Where the router pays token1 in the guarded swap: the recipient itself, or the executor (which forwards it). */
  payTo: 'recipient' | 'executor'
}

/** The user's swap sent straight to the router (approving the spender first, outside the measure). */
async function direct(fixture: SwapFixture, c: Case): Promise<TransactionReceipt> {
  const { user } = fixture.accounts
  const native = c.token0 === 'ETH'
  if (!native)
    await approve(fixture, fixture.userClient, fixture.tokens[c.token0].address, fixture.spender, c.amountIn)
  const data = routerSwapData({
    path: [fixture.tokens[c.token0].address, fixture.tokens[c.token1].address],
    amountIn: c.amountIn,
    to: user.address,
    deadline: await deadlineIn(fixture),
  })
  return mined(
    fixture,
    fixture.userClient.sendTransaction({ to: fixture.router, data, value: native ? c.amountIn : 0n }),
  )
}

/** The same swap through the guard (approving the guard first, outside the measure). */
async function guarded(fixture: SwapFixture, c: Case): Promise<TransactionReceipt> {
  const { user } = fixture.accounts
  const native = c.token0 === 'ETH'
  const token0: Address = fixture.tokens[c.token0].address
  const token1: Address = fixture.tokens[c.token1].address
  if (!native) await approve(fixture, fixture.userClient, token0, swapGuardAddress, c.amountIn)
  const data: Hex = guardSwapData({
    token0,
    amountIn: c.amountIn,
    token1,
    minAmountOut: 1n,
    recipient: user.address,
    spender: native ? undefined : fixture.spender,
    router: fixture.router,
    data: routerSwapData({
      path: [token0, token1],
      amountIn: c.amountIn,
      to: c.payTo === 'recipient' ? user.address : swapGuardExecutorAddress,
      deadline: await deadlineIn(fixture),
    }),
  })
  return mined(
    fixture,
    fixture.userClient.sendTransaction({ to: swapGuardAddress, data, value: native ? c.amountIn : 0n }),
  )
}

const cases: Case[] = [
  { name: 'TKA → TKB', token0: 'TKA', token1: 'TKB', amountIn: parseEther('100'), payTo: 'recipient' },
  {
    name: 'TKA → TKB, output via the executor',
    token0: 'TKA',
    token1: 'TKB',
    amountIn: parseEther('100'),
    payTo: 'executor',
  },
  { name: 'ETH → USDC', token0: 'ETH', token1: 'USDC', amountIn: parseEther('1'), payTo: 'recipient' },
  { name: 'USDC → ETH', token0: 'USDC', token1: 'ETH', amountIn: parseUnits('3000', 6), payTo: 'recipient' },
  {
    name: 'USDC → ETH, output via the executor',
    token0: 'USDC',
    token1: 'ETH',
    amountIn: parseUnits('3000', 6),
    payTo: 'executor',
  },
]

test.each(cases)('gas: $name, direct vs through the guard', async (c) => {
  const fixture = evm.fixture
  // Both from the same state: the direct swap, then back to the snapshot, then the guarded one.
  const snapshot = await fixture.snapshot()
  const a = await direct(fixture, c)
  await fixture.revert(snapshot)
  const b = await guarded(fixture, c)
  expect(a.status).toBe('success')
  expect(b.status).toBe('success')
  const [directGas, guardedGas] = [Number(a.gasUsed), Number(b.gasUsed)]
  rows.push({
    swap: c.name,
    direct: directGas,
    guarded: guardedGas,
    overhead: guardedGas - directGas,
    ratio: Math.round((guardedGas / directGas) * 1000) / 1000,
  })
})

afterAll(() => {
  if (rows.length === 0) return
  console.table(rows)
  console.log(
    `SwapGuard deployment: ${deployGas} gas (init code ${(swapGuardInitCode.length - 2) / 2} bytes, through the deterministic deployment proxy)`,
  )
  const report = {
    note: 'gasUsed on anvil of the same swap sent to the TestRouter directly and through SwapGuard.swap, each from the same state; approvals not included',
    deployGas: Number(deployGas),
    rows,
  }
  writeFileSync(new URL('./guard-gas.json', import.meta.url), `${JSON.stringify(report, null, 2)}\n`)
})
