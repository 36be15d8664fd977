// @vitest-environment node
// `npx vitest run --project bench bench/guardGas.test.ts`: the gas a swap costs through the swap
// guard, with an approval of the guard (`swap`) and with a Permit2 signature (`swapWithPermit2`),
// against the same swap sent straight to the router, on anvil, each from the same chain state
// (receipts' gasUsed). Routers: the project's TestRouter and PairRouter (V2-like), and the
// published Uniswap V2 Router02 and SwapRouter02 (V3) over published pools (test/evm/production).
// Per swap in total, the approvals each path needs are added: an exact approval (0 → amountIn)
// before a direct or an approval-guarded swap; for Permit2, nothing once the user approved Permit2
// for the token, and on a user's first swap that one-time approval and a fresh nonce word. Prints
// a table and writes bench/guard-gas.json. Figures, not assertions (only the swaps' success is
// checked).
import { writeFileSync } from 'node:fs'
import {
  type Address,
  concat,
  encodeFunctionData,
  erc20Abi,
  type Hex,
  maxUint256,
  parseAbi,
  parseEther,
  parseUnits,
  type TransactionReceipt,
  zeroAddress,
} from 'viem'
import type { PrivateKeyAccount } from 'viem/accounts'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { encodeSwapWithPermit2 } from '../src/core/execute/guard/encodeSwapWithPermit2.js'
import {
  deterministicDeployerAddress,
  permit2Address,
  swapGuardAddress,
  swapGuardExecutorAddress,
} from '../src/core/execute/guard/swapGuard.js'
import { swapPermitTypedData } from '../src/core/execute/guard/swapPermitTypedData.js'
import { deploySwapGuard } from '../src/guard/deploySwapGuard.js'
import { swapGuardInitCode, swapGuardSalt } from '../src/guard/swapGuardInitCode.js'
import { pairRouterAbi } from '../test/evm/abis.js'
import { startAnvil } from '../test/evm/anvil.js'
import { compileContracts } from '../test/evm/compile.js'
import { deploy, ensurePermit2, guardSwapData, mined, mint, routerSwapData } from '../test/evm/guardKit.js'
import { swapRouter02Abi, uniswapV2Router02Abi } from '../test/evm/production/abis.js'
import { setupUniswap } from '../test/evm/production/uniswap.js'
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
  /** Per swap with its approvals: exact approval + direct, exact approval + guarded, Permit2 once approved, Permit2 on a user's first swap. */
  totalDirect: number
  totalGuarded: number
  totalPermit2: number | null
  totalPermit2First: number | null
}
const rows: Row[] = []
const figures = { exactApproval: 0, permit2Approval: 0, freshNonceWord: 0, deployGas: 0 }

const permit2Abi = parseAbi(['function invalidateUnorderedNonces(uint256 wordPos, uint256 mask)'])

/** What a measure needs of a chain: its clients, the user, and snapshots. */
type Chain = {
  chainId: number
  publicClient: {
    waitForTransactionReceipt(args: { hash: Hex }): Promise<TransactionReceipt>
    getBlock(): Promise<{ timestamp: bigint }>
  }
  userClient: {
    sendTransaction(args: { to: Address; data: Hex; value?: bigint }): Promise<Hex>
    writeContract(args: never): Promise<Hex>
  }
  user: PrivateKeyAccount
  snapshot(): Promise<Hex>
  revert(id: Hex): Promise<void>
}

type Case = {
  name: string
  token0: string
  token1: string
  amountIn: bigint
  /** Where the router pays token1 in the guarded swaps: the recipient itself (default), or the executor. */
  payTo?: 'executor' | undefined
}

type Router = {
  name: string
  chain(): Chain
  address(): Address
  spender(): Address
  token(symbol: string): Address
  /** The router's calldata for the swap, paying `to`; `undefined` when the router cannot make it. */
  data(c: Case, to: Address, deadline: bigint): Hex
  cases: Case[]
}

const fixtureEvm = setupSwapFixture()
const uniswapEvm = setupUniswap({
  async afterDeploy(uniswap) {
    await deploySwapGuard({ walletClient: uniswap.deployerClient, publicClient: uniswap.publicClient })
  },
})
let pairRouter: Address

const fixtureChain = (): Chain => {
  const f = fixtureEvm.fixture
  return { ...f, chainId: f.chain.id, user: f.accounts.user } as unknown as Chain
}
const uniswapChain = (): Chain => {
  const u = uniswapEvm.uniswap
  return { ...u, chainId: u.chain.id, user: u.accounts.user } as unknown as Chain
}

const testRouter: Router = {
  name: 'TestRouter',
  chain: fixtureChain,
  address: () => fixtureEvm.fixture.router,
  spender: () => fixtureEvm.fixture.spender,
  token: (symbol) => fixtureEvm.fixture.tokens[symbol as 'TKA'].address,
  data: (c, to, deadline) =>
    routerSwapData({
      path: [testRouter.token(c.token0), testRouter.token(c.token1)],
      amountIn: c.amountIn,
      to,
      deadline,
    }),
  cases: [
    { name: 'TKA → TKB', token0: 'TKA', token1: 'TKB', amountIn: parseEther('100') },
    {
      name: 'TKA → TKB, paid to the executor',
      token0: 'TKA',
      token1: 'TKB',
      amountIn: parseEther('100'),
      payTo: 'executor',
    },
    { name: 'USDC → ETH', token0: 'USDC', token1: 'ETH', amountIn: parseUnits('3000', 6) },
    { name: 'ETH → USDC', token0: 'ETH', token1: 'USDC', amountIn: parseEther('1') },
  ],
}

const v2Calldata = (
  router: { token(symbol: string): Address },
  path: string[],
  c: Case,
  to: Address,
  deadline: bigint,
) => {
  const addresses = path.map((symbol) => router.token(symbol))
  if (c.token0 === 'ETH')
    return encodeFunctionData({
      abi: uniswapV2Router02Abi,
      functionName: 'swapExactETHForTokens',
      args: [0n, addresses, to, deadline],
    })
  return encodeFunctionData({
    abi: uniswapV2Router02Abi,
    functionName: c.token1 === 'ETH' ? 'swapExactTokensForETH' : 'swapExactTokensForTokens',
    args: [c.amountIn, 0n, addresses, to, deadline],
  })
}

const pairRouterBench: Router = {
  name: 'PairRouter (V2-like)',
  chain: fixtureChain,
  address: () => pairRouter,
  spender: () => pairRouter,
  token: (symbol) => fixtureEvm.fixture.tokens[symbol as 'TKA'].address,
  data: (c, to, deadline) => {
    const path = [pairRouterBench.token(c.token0), pairRouterBench.token(c.token1)]
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
  cases: [
    { name: 'TKA → TKB', token0: 'TKA', token1: 'TKB', amountIn: parseEther('100') },
    { name: 'USDC → ETH', token0: 'USDC', token1: 'ETH', amountIn: parseUnits('3000', 6), payTo: 'executor' },
    { name: 'ETH → USDC', token0: 'ETH', token1: 'USDC', amountIn: parseEther('1') },
  ],
}

const uniswapV2: Router = {
  name: 'Uniswap V2 Router02',
  chain: uniswapChain,
  address: () => uniswapEvm.uniswap.contracts.v2Router,
  spender: () => uniswapEvm.uniswap.contracts.v2Router,
  token: (symbol) => uniswapEvm.uniswap.address(symbol as 'TKA'),
  data: (c, to, deadline) =>
    v2Calldata(
      uniswapV2,
      [c.token0 === 'ETH' ? 'WETH' : c.token0, c.token1 === 'ETH' ? 'WETH' : c.token1],
      c,
      to,
      deadline,
    ),
  cases: [
    { name: 'TKA → TKB', token0: 'TKA', token1: 'TKB', amountIn: parseEther('250') },
    { name: 'USDT → ETH', token0: 'USDT', token1: 'ETH', amountIn: parseUnits('4500', 6) },
    { name: 'ETH → TKA', token0: 'ETH', token1: 'TKA', amountIn: parseEther('1.5') },
  ],
}

const uniswapV3: Router = {
  name: 'SwapRouter02 (V3)',
  chain: uniswapChain,
  address: () => uniswapEvm.uniswap.contracts.swapRouter02,
  spender: () => uniswapEvm.uniswap.contracts.swapRouter02,
  token: (symbol) => uniswapEvm.uniswap.address(symbol as 'TKA'),
  data: (c, to) =>
    encodeFunctionData({
      abi: swapRouter02Abi,
      functionName: 'exactInputSingle',
      args: [
        {
          tokenIn: uniswapV3.token(c.token0 === 'ETH' ? 'WETH' : c.token0),
          tokenOut: uniswapV3.token(c.token1),
          fee: c.token0 === 'ETH' ? 500 : 3000,
          recipient: to,
          amountIn: c.amountIn,
          amountOutMinimum: 0n,
          sqrtPriceLimitX96: 0n,
        },
      ],
    }),
  cases: [
    { name: 'TKB → USDC', token0: 'TKB', token1: 'USDC', amountIn: parseEther('1000') },
    { name: 'ETH → USDC', token0: 'ETH', token1: 'USDC', amountIn: parseEther('1') },
  ],
}

beforeAll(async () => {
  const fixture = fixtureEvm.fixture
  // The guard's deployment, on a chain of its own (the fixture's chain has it already).
  const bare = await startAnvil()
  try {
    const request = jsonRpc(bare.rpcUrl)
    const [from] = (await request('eth_accounts', [])) as Address[]
    const hash = (await request('eth_sendTransaction', [
      {
        from,
        to: deterministicDeployerAddress,
        data: concat([swapGuardSalt, swapGuardInitCode]),
        gas: '0x2dc6c0',
      },
    ])) as Hex
    let receipt: { gasUsed: Hex; status: Hex } | null = null
    while (!receipt) receipt = (await request('eth_getTransactionReceipt', [hash])) as typeof receipt
    expect(receipt.status).toBe('0x1')
    figures.deployGas = Number(receipt.gasUsed)
  } finally {
    await bare.stop()
  }

  await ensurePermit2(fixture)
  pairRouter = await deploy(fixture, (await compileContracts()).PairRouter)
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
}, 180_000)

const gas = (receipt: TransactionReceipt | undefined) => Number(receipt?.gasUsed ?? 0n)

async function send(chain: Chain, to: Address, data: Hex, value = 0n): Promise<TransactionReceipt> {
  const receipt = await chain.publicClient.waitForTransactionReceipt({
    hash: await chain.userClient.sendTransaction({ to, data, value }),
  })
  if (receipt.status !== 'success') throw new Error(`reverted: ${receipt.transactionHash}`)
  return receipt
}

const approve = (chain: Chain, token: Address, spender: Address, amount: bigint) =>
  send(chain, token, encodeFunctionData({ abi: erc20Abi, functionName: 'approve', args: [spender, amount] }))

/** The three paths from the same state: direct (after an exact approval of the spender), guarded with an exact approval of the guard, guarded with Permit2. */
async function measure(router: Router, c: Case) {
  const chain = router.chain()
  const native = c.token0 === 'ETH'
  const token0 = router.token(c.token0)
  const token1 = router.token(c.token1)
  const deadline = (await chain.publicClient.getBlock()).timestamp + 3600n
  const value = native ? c.amountIn : 0n
  const payTo = c.payTo === 'executor' ? swapGuardExecutorAddress : chain.user.address

  const start = await chain.snapshot()
  const directApproval = native ? undefined : await approve(chain, token0, router.spender(), c.amountIn)
  const direct = await send(chain, router.address(), router.data(c, chain.user.address, deadline), value)
  await chain.revert(start)

  const again = await chain.snapshot()
  const guardApproval = native ? undefined : await approve(chain, token0, swapGuardAddress, c.amountIn)
  const swap = {
    token0,
    amountIn: c.amountIn,
    token1,
    minAmountOut: 1n,
    recipient: chain.user.address,
    spender: native ? zeroAddress : router.spender(),
    router: router.address(),
    data: router.data(c, payTo, deadline),
  }
  const guarded = await send(chain, swapGuardAddress, guardSwapData(swap), value)
  await chain.revert(again)

  if (native) return { direct, directApproval, guarded, guardApproval }
  const last = await chain.snapshot()
  const permit2Approval = await approve(chain, token0, permit2Address, maxUint256)
  // An earlier nonce of the same bitmap word used, as on every swap after a user's first.
  await send(
    chain,
    permit2Address,
    encodeFunctionData({ abi: permit2Abi, functionName: 'invalidateUnorderedNonces', args: [0n, 1n] }),
  )
  const permit = {
    token0,
    amountIn: c.amountIn,
    nonce: 1n,
    deadline,
    witness: {
      token1,
      minAmountOut: 1n,
      recipient: chain.user.address,
      spender: router.spender(),
      router: router.address(),
      data: swap.data,
    },
  }
  const signature = await chain.user.signTypedData(swapPermitTypedData({ ...permit, chainId: chain.chainId }))
  const permit2 = await send(
    chain,
    swapGuardAddress,
    encodeSwapWithPermit2({ ...permit, owner: chain.user.address, signature }),
  )
  await chain.revert(last)
  return { direct, directApproval, guarded, guardApproval, permit2, permit2Approval }
}

describe.each([testRouter, pairRouterBench, uniswapV2, uniswapV3])('$name', (router) => {
  test.each(router.cases)('gas: $name, direct vs guarded (approval, Permit2)', async (c) => {
    const m = await measure(router, c)
    const [d, g, p] = [gas(m.direct), gas(m.guarded), m.permit2 ? gas(m.permit2) : null]
    if (m.directApproval) figures.exactApproval = gas(m.directApproval)
    if (m.permit2Approval) figures.permit2Approval = gas(m.permit2Approval)
    rows.push({
      router: router.name,
      swap: c.name,
      direct: d,
      guarded: g,
      permit2: p,
      overhead: g - d,
      permit2Overhead: p === null ? null : p - d,
      totalDirect: d + gas(m.directApproval),
      totalGuarded: g + gas(m.guardApproval),
      totalPermit2: p,
      totalPermit2First: p === null ? null : p + gas(m.permit2Approval),
    })
  })
})

test('a fresh Permit2 nonce word (a user’s first signature, then every 256th): its first bit costs more', async () => {
  const chain = fixtureChain()
  const start = await chain.snapshot()
  const bit = (word: bigint, mask: bigint) =>
    send(
      chain,
      permit2Address,
      encodeFunctionData({ abi: permit2Abi, functionName: 'invalidateUnorderedNonces', args: [word, mask] }),
    )
  await bit(5n, 1n)
  const used = await bit(5n, 2n)
  const fresh = await bit(6n, 1n)
  await chain.revert(start)
  figures.freshNonceWord = gas(fresh) - gas(used)
  expect(figures.freshNonceWord).toBeGreaterThan(0)
})

afterAll(() => {
  if (rows.length === 0) return
  for (const row of rows) if (row.totalPermit2First !== null) row.totalPermit2First += figures.freshNonceWord
  const ratio = (a: number, b: number) => (a / b).toFixed(2)
  console.table(
    rows.map((row) => ({
      router: row.router,
      swap: row.swap,
      direct: row.direct,
      'guarded (approval)': `${row.guarded} (+${row.overhead}, ×${ratio(row.guarded, row.direct)})`,
      'guarded (Permit2)':
        row.permit2 === null
          ? '–'
          : `${row.permit2} (+${row.permit2Overhead}, ×${ratio(row.permit2, row.direct)})`,
      'approve + direct': row.totalDirect,
      'approve + guarded': row.totalGuarded,
      'Permit2 (approved / first swap)':
        row.totalPermit2 === null ? '–' : `${row.totalPermit2} / ${row.totalPermit2First}`,
    })),
  )
  console.log(
    `exact approval ${figures.exactApproval} gas; Permit2 approval (once per token) ${figures.permit2Approval}; a fresh Permit2 nonce word +${figures.freshNonceWord}; SwapGuard deployment ${figures.deployGas} gas (init code ${(swapGuardInitCode.length - 2) / 2} bytes, through the deterministic deployment proxy)`,
  )
  const report = {
    note: 'gasUsed on anvil of the same swap sent to the router directly, through SwapGuard.swap (after an exact approval of the guard) and through SwapGuard.swapWithPermit2 (Permit2 approved, a used nonce word), each from the same state. total*: with the approvals each path needs: an exact approval before a direct or approval-guarded swap (totalDirect, totalGuarded); nothing per swap once the user approved Permit2 (totalPermit2); on a first swap, the one-time Permit2 approval and a fresh nonce word (totalPermit2First).',
    ...figures,
    rows,
  }
  writeFileSync(new URL('./guard-gas.json', import.meta.url), `${JSON.stringify(report, null, 2)}\n`)
})
