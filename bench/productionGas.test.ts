// @vitest-environment node
// `npx vitest run --project bench bench/productionGas.test.ts`: the gas of a swap on the production
// routers (Uniswap V2 Router02, SwapRouter02), called by the user directly with an allowance already
// given, against the same swap through the SwapGuard with an allowance to the guard already given;
// each from the same chain state, with the reference service's calldata. Prints a table and writes
// bench/production-gas.json. Figures, not assertions (only the swaps' success is checked).
//
// A column is a `Variant`: to add one (the guard's Permit2 entry, say), append to `variants` a name,
// what it sets up outside the measure (its approval, its signature) and the transaction it measures.
import { writeFileSync } from 'node:fs'
import { type Address, erc20Abi, type Hex, parseEther, parseUnits, type TransactionReceipt } from 'viem'
import { afterAll, expect, test } from 'vitest'
import {
  createSwapClient,
  type GetSwapInfoReturnType,
  getSwapInfo,
  swapGuardAddress,
} from '../src/exports/core.js'
import { guardSwapData } from '../test/evm/guardKit.js'
import { setupProduction } from '../test/evm/production/setup.js'
import type { UniswapDeployment, UniswapTokenSymbol } from '../test/evm/production/uniswap.js'

const evm = setupProduction()

type Case = {
  name: string
  protocol: 'v2' | 'v3'
  token0: UniswapTokenSymbol
  token1: UniswapTokenSymbol
  amountIn: bigint
}

const cases: Case[] = [
  { name: 'V2, 1 hop: TKA → TKB', protocol: 'v2', token0: 'TKA', token1: 'TKB', amountIn: parseEther('250') },
  {
    name: 'V2, 2 hops: TKA → WETH → USDT',
    protocol: 'v2',
    ...{ token0: 'TKA', token1: 'USDT', amountIn: parseEther('300') },
  },
  {
    name: 'V3, 1 hop: TKB → USDC',
    protocol: 'v3',
    token0: 'TKB',
    token1: 'USDC',
    amountIn: parseEther('1000'),
  },
  {
    name: 'V3, 2 hops: TKB → USDC → USDT',
    protocol: 'v3',
    ...{ token0: 'TKB', token1: 'USDT', amountIn: parseEther('2000') },
  },
  {
    name: 'V2, native in: ETH → TKA',
    protocol: 'v2',
    token0: 'ETH',
    token1: 'TKA',
    amountIn: parseEther('1.5'),
  },
  {
    name: 'V3, native out: USDC → ETH',
    protocol: 'v3',
    ...{ token0: 'USDC', token1: 'ETH', amountIn: parseUnits('6000', 6) },
  },
]

/** What a variant gets: the deployment, the case, and the service's answer for it (output to the user). */
type Context = { uniswap: UniswapDeployment; c: Case; info: GetSwapInfoReturnType }

/** One column: its setup (outside the measure, e.g. the allowance) and the measured transaction. */
type Variant = {
  name: string
  setup(context: Context): Promise<void>
  send(context: Context): Promise<TransactionReceipt>
}

async function approve(uniswap: UniswapDeployment, token: Address, spender: Address, amount: bigint) {
  const hash = await uniswap.userClient.writeContract({
    address: token,
    abi: erc20Abi,
    functionName: 'approve',
    args: [spender, amount],
  })
  return uniswap.publicClient.waitForTransactionReceipt({ hash })
}

async function send(uniswap: UniswapDeployment, to: Address, data: Hex, value: bigint) {
  const hash = await uniswap.userClient.sendTransaction({ to, data, value })
  return uniswap.publicClient.waitForTransactionReceipt({ hash })
}

const variants: Variant[] = [
  {
    // The router's calldata sent by the user to the router, its allowance given beforehand.
    name: 'direct',
    async setup({ uniswap, c, info }) {
      if (info.approvalAddress)
        await approve(uniswap, uniswap.address(c.token0), info.approvalAddress, c.amountIn)
    },
    send: ({ uniswap, info }) => send(uniswap, info.transferAddress, info.data, info.transferValue),
  },
  {
    // The same calldata through SwapGuard.swap, the user's allowance to the guard given beforehand.
    name: 'guarded',
    async setup({ uniswap, c, info }) {
      if (info.approvalAddress)
        await approve(uniswap, uniswap.address(c.token0), swapGuardAddress, c.amountIn)
    },
    send({ uniswap, c, info }) {
      const data = guardSwapData({
        token0: uniswap.address(c.token0),
        amountIn: c.amountIn,
        token1: uniswap.address(c.token1),
        minAmountOut: (info.estimateAmount * 99n) / 100n,
        recipient: uniswap.accounts.user.address,
        spender: info.approvalAddress ?? undefined,
        router: info.transferAddress,
        data: info.data,
      })
      return send(uniswap, swapGuardAddress, data, info.transferValue)
    },
  },
  // { name: 'guarded with Permit2', setup: approve Permit2 + sign, send: the guard's Permit2 entry },
]

type Row = Record<string, string | number>
const rows: Row[] = []
const approvals: { token: string; kind: string; gas: number }[] = []

test.each(cases)('gas: $name, each variant from the same state', async (c) => {
  const { uniswap, service } = evm
  const client = createSwapClient({ baseUrl: `${service.url}?protocols=${c.protocol}` })
  const [token0, token1] = [uniswap.address(c.token0), uniswap.address(c.token1)]
  const info = await getSwapInfo(client, {
    ...{ token0, token1, amountIn: c.amountIn },
    ...{ to: uniswap.accounts.user.address, slippage: 0.01 },
  })
  const gas: Record<string, number> = {}
  for (const variant of variants) {
    const snapshot = await uniswap.snapshot()
    await variant.setup({ uniswap, c, info })
    const receipt = await variant.send({ uniswap, c, info })
    expect(receipt.status, `${c.name}, ${variant.name}`).toBe('success')
    gas[variant.name] = Number(receipt.gasUsed)
    await uniswap.revert(snapshot)
  }
  const direct = gas.direct as number
  const row: Row = { swap: c.name, direct }
  for (const variant of variants.slice(1)) {
    const measured = gas[variant.name] as number
    row[variant.name] = measured
    row[`${variant.name} − direct`] = measured - direct
    row[`${variant.name} ÷ direct`] = Math.round((measured / direct) * 1000) / 1000
  }
  rows.push(row)
})

test('gas: an exact approval (approve(guard, amount) from a zero allowance), per token kind', async () => {
  const { uniswap } = evm
  for (const [symbol, kind] of [
    ['TKA', 'TestERC20 (18 decimals)'],
    ['USDC', 'TestERC20 (6 decimals)'],
    ['USDT', 'UsdtLikeToken'],
    ['WETH', 'WETH9 (published)'],
  ] as const) {
    const snapshot = await uniswap.snapshot()
    if (symbol === 'WETH') await send(uniswap, uniswap.contracts.weth, '0xd0e30db0', parseEther('1')) // deposit()
    const receipt = await approve(uniswap, uniswap.address(symbol), swapGuardAddress, 10n ** 18n)
    expect(receipt.status).toBe('success')
    approvals.push({ token: symbol, kind, gas: Number(receipt.gasUsed) })
    await uniswap.revert(snapshot)
  }
})

afterAll(() => {
  if (rows.length === 0) return
  console.table(rows)
  console.table(approvals)
  const report = {
    note: 'gasUsed on anvil of the same swap (the reference service calldata, output to the user) sent to the production router directly, the allowance to the router already given, and through SwapGuard.swap, the allowance to the guard already given; each variant from the same state; approvals measured apart, from a zero allowance',
    variants: variants.map((variant) => variant.name).join(', '),
    rows,
    approvals,
  }
  writeFileSync(new URL('./production-gas.json', import.meta.url), `${JSON.stringify(report, null, 2)}\n`)
})
