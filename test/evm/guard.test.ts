/**
 * The swap guard on a real chain: the user approves the guard and calls
 * `SwapGuard.swap` with the service's router, spender and calldata, built as
 * the mock service builds them. Honest swaps pass with exact amounts; the
 * guard cannot be used to spend another user's allowance; a router
 * re-entering it cannot take the user's funds in flight; and the attacks that
 * fool a simulation (they behave when `tx.gasprice` or `block.basefee` is 0)
 * steal when the user signs the router call directly, and revert on chain
 * through the guard.
 */
import {
  type Abi,
  type Address,
  BaseError,
  ContractFunctionRevertedError,
  decodeErrorResult,
  decodeFunctionResult,
  encodeFunctionData,
  type Hex,
  hexToBigInt,
  maxUint256,
  parseEther,
  parseUnits,
  zeroAddress,
} from 'viem'
import { beforeAll, describe, expect, test } from 'vitest'
import {
  swapGuardAbi,
  swapGuardAddress,
  swapGuardExecutorAddress,
} from '../../src/core/execute/guard/swapGuard.js'
import { deploySwapGuard } from '../../src/guard/deploySwapGuard.js'
import { getAmountOut } from '../../src/mock/amm.js'
import { swapRouterAbi } from '../../src/mock/routerAbi.js'
import {
  allowanceThiefAbi,
  gasAwareSandwichAbi,
  pairRouterAbi,
  reentrantRouterAbi,
  testErc20Abi,
  testRouterAbi,
} from './abis.js'
import { compileContracts } from './compile.js'
import { defaultPools, type PoolConfig, type PoolTokenSymbol, type SwapFixture } from './fixture.js'
import {
  allowance,
  approve,
  attackerAccount,
  deadlineIn,
  deploy,
  type GuardSwap,
  gasCost,
  guardedSwaps,
  guardSwapData,
  mined,
  mint,
  receiptOf,
  revertDataOf,
  routerSwapData,
  swapGuardExecutorAbi,
  type TestWalletClient,
  walletFor,
} from './guardKit.js'
import { getRevertReason } from './revert.js'
import { setupSwapFixture } from './setup.js'

const e18 = (amount: string) => parseEther(amount)
const e6 = (amount: string) => parseUnits(amount, 6)

/**
 * The default pools, but a shallower TKA/TKB pool (10,000 : 20,000), so that a sandwich of
 * a few hundred TKA pays the attacker (in the default 1,000,000 : 2,000,000 pool the fees
 * would eat it).
 */
const pools: PoolConfig[] = defaultPools.map((pool) =>
  pool.tokenA === 'TKA' && pool.tokenB === 'TKB'
    ? { ...pool, reserveA: e18('10000'), reserveB: e18('20000') }
    : pool,
)

const evm = setupSwapFixture({ pools })

/** A gas limit for transactions that must be mined even when they revert (no estimation: it would simulate). */
const gas = 1_500_000n

let attackerClient: TestWalletClient
let pairRouter: Address
let thief: Address
let C: Awaited<ReturnType<typeof compileContracts>>

beforeAll(async () => {
  const fixture = evm.fixture
  // The fixture deploys the guard, as on any chain where someone did.
  const deployment = await deploySwapGuard({
    walletClient: fixture.deployerClient,
    publicClient: fixture.publicClient,
  })
  expect(deployment.status).toBe('already-deployed')
  attackerClient = walletFor(fixture, attackerAccount)
  C = await compileContracts()

  // A Uniswap-V2-like router, its own spender, with its own pairs.
  pairRouter = await deploy(fixture, C.PairRouter)
  const { TKA, TKB, USDC } = fixture.tokens
  await mint(fixture, TKA.address, pairRouter, e18('100000'))
  await mint(fixture, TKB.address, pairRouter, e18('100000'))
  await mint(fixture, USDC.address, pairRouter, e6('1000000'))
  await fixture.testClient.setBalance({ address: pairRouter, value: e18('500') })
  for (const [a, b, ra, rb] of [
    [TKA.address, TKB.address, e18('100000'), e18('100000')],
    [fixture.tokens.ETH.address, USDC.address, e18('500'), e6('1000000')],
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
  thief = await deploy(fixture, C.AllowanceThief)
}, 60_000)

// --- helpers ----------------------------------------------------------------------------------

const tokenOf = (fixture: SwapFixture, symbol: PoolTokenSymbol) => fixture.tokens[symbol].address

/** The TestRouter's quote for `path` right now (its math is exactly src/mock/amm.ts). */
async function routerQuote(fixture: SwapFixture, path: readonly PoolTokenSymbol[], amountIn: bigint) {
  return fixture.publicClient.readContract({
    address: fixture.router,
    abi: testRouterAbi,
    functionName: 'getAmountOut',
    args: [path.map((symbol) => tokenOf(fixture, symbol)), amountIn],
  })
}

type Holding = { token: PoolTokenSymbol | Address; owner: Address }

/** Balances of several (token, owner) pairs, read together. */
async function balances(fixture: SwapFixture, holdings: readonly Holding[]): Promise<bigint[]> {
  return Promise.all(holdings.map(({ token, owner }) => fixture.balanceOf(token, owner)))
}

/** What the guard and the executor hold of the fixture's tokens and of ETH: all zero after any swap. */
async function guardHoldings(fixture: SwapFixture): Promise<bigint[]> {
  const symbols: PoolTokenSymbol[] = ['ETH', 'TKA', 'TKB', 'USDC', 'USDT']
  return balances(
    fixture,
    symbols.flatMap((token) => [
      { token, owner: swapGuardAddress },
      { token, owner: swapGuardExecutorAddress },
    ]),
  )
}

/** Sends `SwapGuard.swap` from `client` with a fixed gas limit (mined even if it reverts) and waits. */
async function sendGuardSwap(fixture: SwapFixture, client: TestWalletClient, swap: GuardSwap, value = 0n) {
  const hash = await client.sendTransaction({ to: swapGuardAddress, data: guardSwapData(swap), value, gas })
  return receiptOf(fixture, hash)
}

/**
 * What a mined transaction reverted with, from its trace: the guard's (or executor's) custom
 * error by name with its arguments, or an `Error(string)` by its reason.
 */
async function revertOf(
  fixture: SwapFixture,
  hash: Hex,
): Promise<{ name: string; args: readonly unknown[] }> {
  const data = await revertDataOf(fixture, hash)
  if (!data) throw new Error('The transaction did not revert')
  const abi: Abi = [...swapGuardAbi, ...swapGuardExecutorAbi]
  const decoded = decodeErrorResult({ abi, data })
  if (decoded.errorName === 'Error') return { name: String(decoded.args?.[0]), args: [] }
  return { name: decoded.errorName, args: decoded.args ?? [] }
}

/** Simulates `SwapGuard.swap` (eth_call) and returns its `amountOut`, or throws viem's error. */
async function simulateGuardSwap(fixture: SwapFixture, account: Address, swap: GuardSwap, value = 0n) {
  const { result } = await fixture.publicClient.simulateContract({
    account,
    address: swapGuardAddress,
    abi: swapGuardAbi,
    functionName: 'swap',
    args: [
      swap.token0,
      swap.amountIn,
      swap.token1,
      swap.minAmountOut,
      swap.recipient,
      swap.spender ?? zeroAddress,
      swap.router,
      swap.data,
    ],
    value,
  })
  return result
}

/** The custom error name and args a viem call error carries (from a ContractFunctionRevertedError). */
function contractError(error: unknown): { name: string | undefined; args: readonly unknown[] | undefined } {
  const reverted =
    error instanceof BaseError ? error.walk((cause) => cause instanceof ContractFunctionRevertedError) : null
  if (!(reverted instanceof ContractFunctionRevertedError)) throw error
  return { name: reverted.data?.errorName, args: reverted.data?.args }
}

async function rejectionOf(promise: Promise<unknown>): Promise<unknown> {
  try {
    await promise
  } catch (error) {
    return error
  }
  throw new Error('Expected a revert, but the call succeeded')
}

// --- honest swaps ------------------------------------------------------------------------------

describe('honest swaps through the guard', () => {
  test.each([
    ['straight to the recipient', 'recipient'],
    ['to the executor, which forwards it', 'executor'],
  ] as const)(
    'ERC-20 → ERC-20 (TKA → TKB), the router paying %s: exact amounts, nothing left behind',
    async (_, payTo) => {
      const fixture = evm.fixture
      const { user, recipient } = fixture.accounts
      const TKA = tokenOf(fixture, 'TKA')
      const TKB = tokenOf(fixture, 'TKB')
      const amountIn = e18('100')
      const expected = await routerQuote(fixture, ['TKA', 'TKB'], amountIn)
      const swap: GuardSwap = {
        token0: TKA,
        amountIn,
        token1: TKB,
        minAmountOut: (expected * 99n) / 100n,
        recipient: recipient.address,
        spender: fixture.spender,
        router: fixture.router,
        data: routerSwapData({
          path: [TKA, TKB],
          amountIn,
          minAmountOut: (expected * 99n) / 100n,
          to: payTo === 'recipient' ? recipient.address : swapGuardExecutorAddress,
          deadline: await deadlineIn(fixture),
        }),
      }
      await approve(fixture, fixture.userClient, TKA, swapGuardAddress, amountIn)
      expect(await simulateGuardSwap(fixture, user.address, swap)).toBe(expected)

      const holdings = [
        { token: TKA, owner: user.address },
        { token: TKB, owner: recipient.address },
        { token: TKB, owner: user.address },
      ]
      const before = await balances(fixture, holdings)
      const receipt = await sendGuardSwap(fixture, fixture.userClient, swap)
      expect(receipt.status).toBe('success')
      const after = await balances(fixture, holdings)

      expect(after).toEqual([before[0]! - amountIn, before[1]! + expected, before[2]])
      expect(guardedSwaps(receipt)).toEqual([
        {
          payer: user.address,
          recipient: recipient.address,
          token0: TKA,
          token1: TKB,
          amountIn,
          amountOut: expected,
        },
      ])
      expect(await guardHoldings(fixture)).toEqual(Array(10).fill(0n))
      expect(await allowance(fixture, TKA, swapGuardExecutorAddress, fixture.spender)).toBe(0n)
      expect(await allowance(fixture, TKA, user.address, swapGuardAddress)).toBe(0n)
    },
  )

  test('the router pulls less than amountIn: the rest comes back to the user, the spender keeps no allowance', async () => {
    const fixture = evm.fixture
    const { user } = fixture.accounts
    const TKA = tokenOf(fixture, 'TKA')
    const TKB = tokenOf(fixture, 'TKB')
    const amountIn = e18('100')
    const routed = e18('60')
    const expected = await routerQuote(fixture, ['TKA', 'TKB'], routed)
    await approve(fixture, fixture.userClient, TKA, swapGuardAddress, amountIn)
    const [tka, tkb] = await balances(fixture, [
      { token: TKA, owner: user.address },
      { token: TKB, owner: user.address },
    ])

    const receipt = await sendGuardSwap(fixture, fixture.userClient, {
      token0: TKA,
      amountIn,
      token1: TKB,
      minAmountOut: expected,
      recipient: user.address,
      spender: fixture.spender,
      router: fixture.router,
      data: routerSwapData({
        path: [TKA, TKB],
        amountIn: routed,
        to: user.address,
        deadline: await deadlineIn(fixture),
      }),
    })
    expect(receipt.status).toBe('success')
    expect(
      await balances(fixture, [
        { token: TKA, owner: user.address },
        { token: TKB, owner: user.address },
      ]),
    ).toEqual([tka! - routed, tkb! + expected])
    expect(guardedSwaps(receipt)).toEqual([
      {
        payer: user.address,
        recipient: user.address,
        token0: TKA,
        token1: TKB,
        amountIn: routed,
        amountOut: expected,
      },
    ])
    // The executor approved the spender for 100 and the router used 60: reset to 0 all the same.
    expect(await allowance(fixture, TKA, swapGuardExecutorAddress, fixture.spender)).toBe(0n)
    expect(await guardHoldings(fixture)).toEqual(Array(10).fill(0n))
  })

  test('native in (ETH → USDC), value = amountIn: the user pays exactly amountIn and gas', async () => {
    const fixture = evm.fixture
    const { user, recipient } = fixture.accounts
    const ETH = tokenOf(fixture, 'ETH')
    const USDC = tokenOf(fixture, 'USDC')
    const amountIn = e18('1.5')
    const expected = await routerQuote(fixture, ['ETH', 'USDC'], amountIn)
    const [eth, usdc] = await balances(fixture, [
      { token: 'ETH', owner: user.address },
      { token: USDC, owner: recipient.address },
    ])
    const receipt = await sendGuardSwap(
      fixture,
      fixture.userClient,
      {
        token0: ETH,
        amountIn,
        token1: USDC,
        minAmountOut: expected,
        recipient: recipient.address,
        router: fixture.router,
        data: routerSwapData({
          path: [ETH, USDC],
          amountIn,
          to: recipient.address,
          deadline: await deadlineIn(fixture),
        }),
      },
      amountIn,
    )
    expect(receipt.status).toBe('success')
    expect(
      await balances(fixture, [
        { token: 'ETH', owner: user.address },
        { token: USDC, owner: recipient.address },
      ]),
    ).toEqual([eth! - amountIn - gasCost(receipt), usdc! + expected])
    expect(guardedSwaps(receipt)).toEqual([
      {
        payer: user.address,
        recipient: recipient.address,
        token0: ETH,
        token1: USDC,
        amountIn,
        amountOut: expected,
      },
    ])
    expect(await guardHoldings(fixture)).toEqual(Array(10).fill(0n))
  })

  test('native in with more value than the router takes (PairRouter.swapETHForExactTokens): the excess comes back to the payer, not the recipient', async () => {
    const fixture = evm.fixture
    const { user, recipient } = fixture.accounts
    const ETH = tokenOf(fixture, 'ETH')
    const USDC = tokenOf(fixture, 'USDC')
    const amountOut = e6('2000')
    const path = [ETH, USDC]
    const [needed] = await fixture.publicClient.readContract({
      address: pairRouter,
      abi: pairRouterAbi,
      functionName: 'getAmountsIn',
      args: [amountOut, path],
    })
    const amountIn = e18('2') // the most the user sends
    expect(needed).toBeLessThan(amountIn)
    const holdings = [
      { token: 'ETH' as const, owner: user.address },
      { token: 'ETH' as const, owner: recipient.address },
      { token: USDC, owner: recipient.address },
    ]
    const [eth, recipientEth, usdc] = await balances(fixture, holdings)
    const receipt = await sendGuardSwap(
      fixture,
      fixture.userClient,
      {
        token0: ETH,
        amountIn,
        token1: USDC,
        minAmountOut: amountOut,
        recipient: recipient.address,
        router: pairRouter,
        data: encodeFunctionData({
          abi: pairRouterAbi,
          functionName: 'swapETHForExactTokens',
          args: [amountOut, path, recipient.address, await deadlineIn(fixture)],
        }),
      },
      amountIn,
    )
    expect(receipt.status).toBe('success')
    expect(await balances(fixture, holdings)).toEqual([
      eth! - needed! - gasCost(receipt),
      recipientEth,
      usdc! + amountOut,
    ])
    expect(guardedSwaps(receipt)).toEqual([
      {
        payer: user.address,
        recipient: recipient.address,
        token0: ETH,
        token1: USDC,
        amountIn: needed,
        amountOut,
      },
    ])
    expect(await guardHoldings(fixture)).toEqual(Array(10).fill(0n))
  })

  test('native out (USDC → ETH) to the user: their ETH grows by exactly the output, less the gas', async () => {
    const fixture = evm.fixture
    const { user } = fixture.accounts
    const ETH = tokenOf(fixture, 'ETH')
    const USDC = tokenOf(fixture, 'USDC')
    const amountIn = e6('3000')
    const expected = await routerQuote(fixture, ['USDC', 'ETH'], amountIn)
    const approval = await approve(fixture, fixture.userClient, USDC, swapGuardAddress, amountIn)
    expect(approval.status).toBe('success')
    const [eth, usdc] = await balances(fixture, [
      { token: 'ETH', owner: user.address },
      { token: USDC, owner: user.address },
    ])
    const receipt = await sendGuardSwap(fixture, fixture.userClient, {
      token0: USDC,
      amountIn,
      token1: ETH,
      minAmountOut: expected,
      recipient: user.address,
      spender: fixture.spender,
      router: fixture.router,
      data: routerSwapData({
        path: [USDC, ETH],
        amountIn,
        to: swapGuardExecutorAddress,
        deadline: await deadlineIn(fixture),
      }),
    })
    expect(receipt.status).toBe('success')
    expect(
      await balances(fixture, [
        { token: 'ETH', owner: user.address },
        { token: USDC, owner: user.address },
      ]),
    ).toEqual([eth! + expected - gasCost(receipt), usdc! - amountIn])
    expect(guardedSwaps(receipt)).toEqual([
      {
        payer: user.address,
        recipient: user.address,
        token0: USDC,
        token1: ETH,
        amountIn,
        amountOut: expected,
      },
    ])
    expect(await guardHoldings(fixture)).toEqual(Array(10).fill(0n))
  })

  test('USDT-style token0 (non-zero → non-zero approve refused): two guarded swaps in a row both pass', async () => {
    const fixture = evm.fixture
    const { user } = fixture.accounts
    const USDT = tokenOf(fixture, 'USDT')
    const USDC = tokenOf(fixture, 'USDC')
    for (const amountIn of [e6('1000'), e6('2500')]) {
      const expected = await routerQuote(fixture, ['USDT', 'USDC'], amountIn)
      await approve(fixture, fixture.userClient, USDT, swapGuardAddress, amountIn)
      const [usdt, usdc] = await balances(fixture, [
        { token: USDT, owner: user.address },
        { token: USDC, owner: user.address },
      ])
      const receipt = await sendGuardSwap(fixture, fixture.userClient, {
        token0: USDT,
        amountIn,
        token1: USDC,
        minAmountOut: expected,
        recipient: user.address,
        spender: fixture.spender,
        router: fixture.router,
        data: routerSwapData({
          path: [USDT, USDC],
          amountIn,
          to: user.address,
          deadline: await deadlineIn(fixture),
        }),
      })
      expect(receipt.status).toBe('success')
      expect(
        await balances(fixture, [
          { token: USDT, owner: user.address },
          { token: USDC, owner: user.address },
        ]),
      ).toEqual([usdt! - amountIn, usdc! + expected])
      expect(await allowance(fixture, USDT, swapGuardExecutorAddress, fixture.spender)).toBe(0n)
      expect(await allowance(fixture, USDT, user.address, swapGuardAddress)).toBe(0n)
    }
  })

  test('a second router ABI, Uniswap-V2-like (PairRouter: router = spender, pulls with transferFrom itself)', async () => {
    const fixture = evm.fixture
    const { user, recipient } = fixture.accounts
    const TKA = tokenOf(fixture, 'TKA')
    const TKB = tokenOf(fixture, 'TKB')
    const USDC = tokenOf(fixture, 'USDC')
    const ETH = tokenOf(fixture, 'ETH')
    const amountIn = e18('250')
    const amounts = await fixture.publicClient.readContract({
      address: pairRouter,
      abi: pairRouterAbi,
      functionName: 'getAmountsOut',
      args: [amountIn, [TKA, TKB]],
    })
    const expected = amounts[1]!
    await approve(fixture, fixture.userClient, TKA, swapGuardAddress, amountIn)
    const [tka, tkb] = await balances(fixture, [
      { token: TKA, owner: user.address },
      { token: TKB, owner: recipient.address },
    ])
    const receipt = await sendGuardSwap(fixture, fixture.userClient, {
      token0: TKA,
      amountIn,
      token1: TKB,
      minAmountOut: expected,
      recipient: recipient.address,
      spender: pairRouter,
      router: pairRouter,
      data: encodeFunctionData({
        abi: pairRouterAbi,
        functionName: 'swapExactTokensForTokens',
        args: [amountIn, expected, [TKA, TKB], recipient.address, await deadlineIn(fixture)],
      }),
    })
    expect(receipt.status).toBe('success')
    expect(
      await balances(fixture, [
        { token: TKA, owner: user.address },
        { token: TKB, owner: recipient.address },
      ]),
    ).toEqual([tka! - amountIn, tkb! + expected])
    expect(guardedSwaps(receipt)).toEqual([
      {
        payer: user.address,
        recipient: recipient.address,
        token0: TKA,
        token1: TKB,
        amountIn,
        amountOut: expected,
      },
    ])
    expect(await allowance(fixture, TKA, swapGuardExecutorAddress, pairRouter)).toBe(0n)

    // And native out through it (swapExactTokensForETH, paid to the executor).
    const usdcIn = e6('4000')
    const [, ethOut] = await fixture.publicClient.readContract({
      address: pairRouter,
      abi: pairRouterAbi,
      functionName: 'getAmountsOut',
      args: [usdcIn, [USDC, ETH]],
    })
    await approve(fixture, fixture.userClient, USDC, swapGuardAddress, usdcIn)
    const [ethBefore] = await balances(fixture, [{ token: 'ETH', owner: recipient.address }])
    const second = await sendGuardSwap(fixture, fixture.userClient, {
      token0: USDC,
      amountIn: usdcIn,
      token1: ETH,
      minAmountOut: ethOut!,
      recipient: recipient.address,
      spender: pairRouter,
      router: pairRouter,
      data: encodeFunctionData({
        abi: pairRouterAbi,
        functionName: 'swapExactTokensForETH',
        args: [usdcIn, 0n, [USDC, ETH], swapGuardExecutorAddress, await deadlineIn(fixture)],
      }),
    })
    expect(second.status).toBe('success')
    expect(await fixture.balanceOf('ETH', recipient.address)).toBe(ethBefore! + ethOut!)
    expect(await guardHoldings(fixture)).toEqual(Array(10).fill(0n))
  })
})

// --- failures ----------------------------------------------------------------------------------

describe('a guarded swap that breaks its bounds reverts, moving nothing', () => {
  /** An honest TKA → TKB swap of 100 TKA for the user, approved; `overrides` change it. */
  async function tkaToTkb(fixture: SwapFixture, overrides: Partial<GuardSwap> = {}) {
    const TKA = tokenOf(fixture, 'TKA')
    const TKB = tokenOf(fixture, 'TKB')
    const amountIn = e18('100')
    const expected = await routerQuote(fixture, ['TKA', 'TKB'], amountIn)
    await approve(fixture, fixture.userClient, TKA, swapGuardAddress, amountIn)
    const swap: GuardSwap = {
      token0: TKA,
      amountIn,
      token1: TKB,
      minAmountOut: expected,
      recipient: fixture.accounts.user.address,
      spender: fixture.spender,
      router: fixture.router,
      data: routerSwapData({
        path: [TKA, TKB],
        amountIn,
        to: fixture.accounts.user.address,
        deadline: await deadlineIn(fixture),
      }),
      ...overrides,
    }
    return { swap, expected, TKA, TKB, amountIn }
  }

  /** The user's TKA, TKB and ETH, and their TKA allowance to the guard. */
  async function userState(fixture: SwapFixture) {
    const { user } = fixture.accounts
    return {
      balances: await balances(fixture, [
        { token: 'TKA', owner: user.address },
        { token: 'TKB', owner: user.address },
        { token: 'ETH', owner: user.address },
      ]),
      allowance: await allowance(fixture, tokenOf(fixture, 'TKA'), user.address, swapGuardAddress),
    }
  }

  /** Sends the swap for real (fixed gas), expects it mined and reverted, and the user's state unchanged but gas. */
  async function expectRevertedOnChain(fixture: SwapFixture, swap: GuardSwap, value = 0n) {
    const before = await userState(fixture)
    const receipt = await sendGuardSwap(fixture, fixture.userClient, swap, value)
    expect(receipt.status).toBe('reverted')
    const after = await userState(fixture)
    expect(after).toEqual({
      balances: [before.balances[0], before.balances[1], before.balances[2]! - gasCost(receipt)],
      allowance: before.allowance,
    })
    expect(await guardHoldings(fixture)).toEqual(Array(10).fill(0n))
    return receipt
  }

  test('floor not met: AmountOutTooLow(received, minAmountOut), in simulation and on chain', async () => {
    const fixture = evm.fixture
    const probe = await tkaToTkb(fixture)
    const { swap, expected } = await tkaToTkb(fixture, { minAmountOut: probe.expected + 1n })
    const error = await rejectionOf(simulateGuardSwap(fixture, fixture.accounts.user.address, swap))
    expect(contractError(error)).toEqual({ name: 'AmountOutTooLow', args: [expected, expected + 1n] })

    const receipt = await expectRevertedOnChain(fixture, swap)
    expect(await revertOf(fixture, receipt.transactionHash)).toEqual({
      name: 'AmountOutTooLow',
      args: [expected, expected + 1n],
    })
  })

  test("the router's own revert bubbles up unchanged (TestRouter: slippage, RevertingRouter)", async () => {
    const fixture = evm.fixture
    const { swap, expected, TKA, TKB, amountIn } = await tkaToTkb(fixture)
    const slippage = {
      ...swap,
      data: routerSwapData({
        path: [TKA, TKB],
        amountIn,
        minAmountOut: expected + 1n,
        to: fixture.accounts.user.address,
        deadline: await deadlineIn(fixture),
      }),
    }
    expect(
      getRevertReason(await rejectionOf(simulateGuardSwap(fixture, fixture.accounts.user.address, slippage))),
    ).toBe('TestRouter: slippage')
    const receipt = await expectRevertedOnChain(fixture, slippage)
    expect((await revertOf(fixture, receipt.transactionHash)).name).toBe('TestRouter: slippage')

    const reverting = { ...swap, router: fixture.revertingRouter }
    expect(
      getRevertReason(
        await rejectionOf(simulateGuardSwap(fixture, fixture.accounts.user.address, reverting)),
      ),
    ).toBe('RevertingRouter: swap disabled')
  })

  test("the router takes more of the user's token0 through another approval: AmountInExceeded", async () => {
    const fixture = evm.fixture
    const { user } = fixture.accounts
    // A leftover approval of the user's, to a contract the router call reaches.
    await approve(fixture, fixture.userClient, tokenOf(fixture, 'TKA'), thief, maxUint256)
    const { swap, TKA, amountIn } = await tkaToTkb(fixture, { minAmountOut: 0n })
    const extra = e18('15')
    const greedy: GuardSwap = {
      ...swap,
      spender: zeroAddress,
      router: thief,
      data: encodeFunctionData({
        abi: allowanceThiefAbi,
        functionName: 'steal',
        args: [TKA, user.address, attackerAccount.address, amountIn + extra],
      }),
    }
    const error = await rejectionOf(simulateGuardSwap(fixture, user.address, greedy))
    // 100 pulled by the guard and handed back unused, 115 taken through the leftover approval.
    expect(contractError(error)).toEqual({ name: 'AmountInExceeded', args: [amountIn + extra, amountIn] })
    const receipt = await expectRevertedOnChain(fixture, greedy)
    expect((await revertOf(fixture, receipt.transactionHash)).name).toBe('AmountInExceeded')
    expect(await fixture.balanceOf('TKA', attackerAccount.address)).toBe(0n)
  })

  test('InvalidSwap: value with an ERC-20 input or above amountIn, the router a swap token, the guard or the executor, a bad recipient, one token on both sides', async () => {
    const fixture = evm.fixture
    const { user } = fixture.accounts
    const { swap, TKA, TKB } = await tkaToTkb(fixture)
    const ETH = tokenOf(fixture, 'ETH')
    const nativeIn: GuardSwap = {
      ...swap,
      token0: ETH,
      amountIn: e18('1'),
      spender: zeroAddress,
      data: routerSwapData({ path: [ETH, TKB], amountIn: e18('1'), to: user.address, deadline: 2n ** 40n }),
    }
    const cases: [string, GuardSwap, bigint][] = [
      ['value with an ERC-20 token0', swap, 1n],
      ['value above amountIn', nativeIn, e18('1') + 1n],
      ['router = token0', { ...swap, router: TKA }, 0n],
      ['router = token1', { ...swap, router: TKB }, 0n],
      ['router = the guard', { ...swap, router: swapGuardAddress }, 0n],
      ['router = the executor', { ...swap, router: swapGuardExecutorAddress }, 0n],
      ['recipient = 0', { ...swap, recipient: zeroAddress }, 0n],
      ['recipient = the guard', { ...swap, recipient: swapGuardAddress }, 0n],
      ['recipient = the executor', { ...swap, recipient: swapGuardExecutorAddress }, 0n],
      ['token0 = token1', { ...swap, token1: TKA }, 0n],
    ]
    for (const [what, invalid, value] of cases) {
      const error = await rejectionOf(simulateGuardSwap(fixture, user.address, invalid, value))
      expect(contractError(error), what).toEqual({ name: 'InvalidSwap', args: undefined })
    }
    // The same as a mined transaction (TestRouter itself refuses value ≠ amountIn: the guard refuses it first).
    const receipt = await expectRevertedOnChain(fixture, nativeIn, e18('1') + 1n)
    expect((await revertOf(fixture, receipt.transactionHash)).name).toBe('InvalidSwap')
  })

  test('only the guard can call the executor', async () => {
    const fixture = evm.fixture
    const TKA = tokenOf(fixture, 'TKA')
    const hash = await attackerClient.writeContract({
      address: swapGuardExecutorAddress,
      abi: swapGuardExecutorAbi,
      functionName: 'run',
      args: [attackerAccount.address, TKA, TKA, attackerAccount.address, zeroAddress, 0n, TKA, 0n, '0x'],
      gas,
    })
    const receipt = await receiptOf(fixture, hash)
    expect(receipt.status).toBe('reverted')
    expect((await revertOf(fixture, hash)).name).toBe('NotGuard')
  })
})

// --- another user's allowance ------------------------------------------------------------------

describe("no one can spend another user's allowance to the guard", () => {
  test('a victim approved the guard for everything; every way an attacker routes a transferFrom of it fails, and the victim loses nothing', async () => {
    const fixture = evm.fixture
    const victim = fixture.accounts.user
    const attacker = attackerAccount.address
    const TKA = tokenOf(fixture, 'TKA')
    const TKB = tokenOf(fixture, 'TKB')
    const ETH = tokenOf(fixture, 'ETH')
    await approve(fixture, fixture.userClient, TKA, swapGuardAddress, maxUint256)
    const stolen = e18('500')
    const transferFrom = encodeFunctionData({
      abi: testErc20Abi,
      functionName: 'transferFrom',
      args: [victim.address, attacker, stolen],
    })
    // The attacker's own swap, paying nothing of its own (native token0, no value).
    const base: GuardSwap = {
      token0: ETH,
      amountIn: 0n,
      token1: TKB,
      minAmountOut: 0n,
      recipient: attacker,
      router: TKA,
      data: transferFrom,
    }
    const attacks: [string, GuardSwap, string][] = [
      [
        "router = the victim's token, data = transferFrom(victim, attacker)",
        base,
        'TestERC20: insufficient allowance',
      ],
      [
        'router = a contract that calls transferFrom(victim, attacker) itself',
        {
          ...base,
          router: thief,
          data: encodeFunctionData({
            abi: allowanceThiefAbi,
            functionName: 'steal',
            args: [TKA, victim.address, attacker, stolen],
          }),
        },
        'TestERC20: insufficient allowance',
      ],
      [
        "token0 = the victim's token: the guard pulls from the caller, never the victim",
        {
          ...base,
          token0: TKA,
          amountIn: stolen,
          router: fixture.router,
          spender: fixture.spender,
          data: routerSwapData({ path: [TKA, TKB], amountIn: stolen, to: attacker, deadline: 2n ** 40n }),
        },
        'TestERC20: insufficient allowance',
      ],
      [
        'router = the guard, data = a swap as the victim',
        {
          ...base,
          router: swapGuardAddress,
          data: guardSwapData({ ...base, token0: TKA, amountIn: stolen }),
        },
        'InvalidSwap',
      ],
      [
        'router = the executor, data = run(victim as payer)',
        {
          ...base,
          router: swapGuardExecutorAddress,
          data: encodeFunctionData({
            abi: swapGuardExecutorAbi,
            functionName: 'run',
            args: [victim.address, TKA, TKB, attacker, zeroAddress, stolen, TKA, 0n, transferFrom],
          }),
        },
        'InvalidSwap',
      ],
    ]
    const victimState = async () => ({
      balance: await fixture.balanceOf(TKA, victim.address),
      allowance: await allowance(fixture, TKA, victim.address, swapGuardAddress),
    })
    const before = await victimState()
    expect(before.allowance).toBe(maxUint256)
    for (const [what, attack, reason] of attacks) {
      const receipt = await sendGuardSwap(fixture, attackerClient, attack)
      expect(receipt.status, what).toBe('reverted')
      expect((await revertOf(fixture, receipt.transactionHash)).name, what).toBe(reason)
      expect(await victimState(), what).toEqual(before)
      expect(await fixture.balanceOf(TKA, attacker), what).toBe(0n)
    }

    // The attacker's own swap through the guard, with its own tokens and approval, takes only its own.
    await mint(fixture, TKA, attacker, e18('10'))
    await approve(fixture, attackerClient, TKA, swapGuardAddress, maxUint256)
    const own = await sendGuardSwap(fixture, attackerClient, {
      token0: TKA,
      amountIn: e18('10'),
      token1: TKB,
      minAmountOut: 0n,
      recipient: attacker,
      spender: fixture.spender,
      router: fixture.router,
      data: routerSwapData({ path: [TKA, TKB], amountIn: e18('10'), to: attacker, deadline: 2n ** 40n }),
    })
    expect(own.status).toBe('success')
    expect(guardedSwaps(own)[0]).toMatchObject({ payer: attacker, amountIn: e18('10') })
    expect(await fixture.balanceOf(TKA, attacker)).toBe(0n)
    expect(await victimState()).toEqual(before)
  })
})

// --- reentrancy --------------------------------------------------------------------------------

describe("a router re-entering the guard during the user's swap", () => {
  const rate = e18('2') // the hostile router pays 2 TKB per TKA, honestly

  /**
   * Deploys a ReentrantRouter holding TKB stock and the attacker's TKA (approved to the
   * guard), armed with `nested`, a call into the guard made as the router, before pulling
   * the user's input or after paying the output.
   */
  async function armedRouter(fixture: SwapFixture, nested: GuardSwap, afterPayout: boolean) {
    const reentrant = await deploy(fixture, C.ReentrantRouter, [rate])
    await mint(fixture, tokenOf(fixture, 'TKB'), reentrant, e18('10000'))
    await mint(fixture, tokenOf(fixture, 'TKA'), reentrant, e18('10'))
    if (nested.token0 !== tokenOf(fixture, 'ETH'))
      await mined(
        fixture,
        fixture.deployerClient.writeContract({
          address: reentrant,
          abi: reentrantRouterAbi,
          functionName: 'approve',
          args: [nested.token0, swapGuardAddress, maxUint256],
        }),
      )
    await mined(
      fixture,
      fixture.deployerClient.writeContract({
        address: reentrant,
        abi: reentrantRouterAbi,
        functionName: 'arm',
        args: [swapGuardAddress, guardSwapData(nested), afterPayout],
      }),
    )
    return reentrant
  }

  /** The user's guarded swap of 100 TKA for TKB through `router`, its output paid to the executor. */
  async function userSwap(fixture: SwapFixture, router: Address) {
    const { user } = fixture.accounts
    const TKA = tokenOf(fixture, 'TKA')
    const TKB = tokenOf(fixture, 'TKB')
    const amountIn = e18('100')
    await approve(fixture, fixture.userClient, TKA, swapGuardAddress, amountIn)
    const swap: GuardSwap = {
      token0: TKA,
      amountIn,
      token1: TKB,
      minAmountOut: (amountIn * rate) / e18('1'),
      recipient: user.address,
      spender: router,
      router,
      data: routerSwapData({ path: [TKA, TKB], amountIn, to: swapGuardExecutorAddress, deadline: 2n ** 40n }),
    }
    return { swap, amountIn, TKA, TKB }
  }

  test.each([
    ["before the router pulls the user's input (the executor holds the user's TKA)", false],
    ["after the router paid the user's output (the executor holds the user's TKB)", true],
  ] as const)(
    'the attacker re-enters with a swap of its own %s: it gets back only its own, the user gets exactly the swap',
    async (_, afterPayout) => {
      const fixture = evm.fixture
      const { user } = fixture.accounts
      const attacker = attackerAccount.address
      const TKA = tokenOf(fixture, 'TKA')
      const TKB = tokenOf(fixture, 'TKB')
      // The attacker's swap: 2 TKA in, but its calldata routes only 1 TKA (TestRouter), paying the
      // executor: it is owed 1 TKA back and the TestRouter's output, and hopes for the executor's balance.
      const nestedOut = await routerQuote(fixture, ['TKA', 'TKB'], e18('1'))
      const router = await armedRouter(
        fixture,
        {
          token0: TKA,
          amountIn: e18('2'),
          token1: TKB,
          minAmountOut: 0n,
          recipient: attacker,
          spender: fixture.spender,
          router: fixture.router,
          data: routerSwapData({
            path: [TKA, TKB],
            amountIn: e18('1'),
            to: swapGuardExecutorAddress,
            deadline: 2n ** 40n,
          }),
        },
        afterPayout,
      )
      const { swap, amountIn } = await userSwap(fixture, router)
      const holdings = [
        { token: TKA, owner: user.address },
        { token: TKB, owner: user.address },
        { token: TKA, owner: router },
        { token: TKB, owner: router },
        { token: TKB, owner: attacker },
      ]
      const before = await balances(fixture, holdings)
      const receipt = await sendGuardSwap(fixture, fixture.userClient, swap)
      expect(receipt.status).toBe('success')
      const userOut = (amountIn * rate) / e18('1')
      expect(await balances(fixture, holdings)).toEqual([
        before[0]! - amountIn,
        before[1]! + userOut,
        // The attacker's router: the user's 100 TKA for 200 TKB of its stock (the honest trade), and its
        // own swap: 2 TKA pulled, 1 handed back, the TestRouter's output to the attacker. Nothing more.
        before[2]! + amountIn - e18('1'),
        before[3]! - userOut,
        before[4]! + nestedOut,
      ])
      // Two GuardedSwap events, the nested one first, each with its own measured amounts.
      expect(guardedSwaps(receipt)).toEqual([
        {
          payer: router,
          recipient: attacker,
          token0: TKA,
          token1: TKB,
          amountIn: e18('1'),
          amountOut: nestedOut,
        },
        {
          payer: user.address,
          recipient: user.address,
          token0: TKA,
          token1: TKB,
          amountIn,
          amountOut: userOut,
        },
      ])
      expect(await guardHoldings(fixture)).toEqual(Array(10).fill(0n))
    },
  )

  test.each([
    ["the user's TKA, before the router pulls it", false, 'TKA', 'TestERC20: insufficient balance'],
    ["the user's TKB output, after the router paid it", true, 'TKB', 'AmountOutTooLow'],
  ] as const)(
    "the attacker re-enters with router = a token and data = transfer(attacker) to take %s: the user's transaction reverts",
    async (_, afterPayout, symbol, reason) => {
      const fixture = evm.fixture
      const attacker = attackerAccount.address
      const token = tokenOf(fixture, symbol)
      // Its own swap is of ETH (no value) for USDC, so that its router may be TKA or TKB; its calldata
      // moves the user's whole amount in flight to the attacker.
      const amount = symbol === 'TKA' ? e18('100') : e18('200')
      const router = await armedRouter(
        fixture,
        {
          token0: tokenOf(fixture, 'ETH'),
          amountIn: 0n,
          token1: tokenOf(fixture, 'USDC'),
          minAmountOut: 0n,
          recipient: attacker,
          router: token,
          data: encodeFunctionData({ abi: testErc20Abi, functionName: 'transfer', args: [attacker, amount] }),
        },
        afterPayout,
      )
      const { swap } = await userSwap(fixture, router)
      const { user } = fixture.accounts
      const holdings = [
        { token: 'TKA' as const, owner: user.address },
        { token: 'TKB' as const, owner: user.address },
        { token: 'ETH' as const, owner: user.address },
      ]
      const before = await balances(fixture, holdings)
      const receipt = await sendGuardSwap(fixture, fixture.userClient, swap)
      expect(receipt.status).toBe('reverted')
      expect(await balances(fixture, holdings)).toEqual([before[0], before[1], before[2]! - gasCost(receipt)])
      expect(await fixture.balanceOf(token, attacker)).toBe(0n)
      expect((await revertOf(fixture, receipt.transactionHash)).name).toBe(reason)
    },
  )
})

// --- the attacks the guard exists for ----------------------------------------------------------

describe('the attacks the guard exists for: each steals when the user signs the router call directly, and reverts on chain through the guard', () => {
  /** The user's swap in every attack: 500 TKA for TKB, the floor 1% under the honest quote. */
  const amountIn = e18('500')
  const floorOf = (quote: bigint) => (quote * 99n) / 100n

  /** The TestRouter's TKA/TKB reserves right now. */
  async function tkaTkbReserves(fixture: SwapFixture) {
    const [reserveA, reserveB, feeBps] = await fixture.publicClient.readContract({
      address: fixture.router,
      abi: testRouterAbi,
      functionName: 'getPool',
      args: [tokenOf(fixture, 'TKA'), tokenOf(fixture, 'TKB')],
    })
    return { reserveA, reserveB, feeBps }
  }

  /**
   * A front-run of `front` TKA, then the user's `userIn` TKA, then a back-run selling what the front-run
   * bought, on the TKA/TKB pool (src/mock/amm.ts is the TestRouter's math): what each gets.
   */
  function sandwich(
    pool: { reserveA: bigint; reserveB: bigint; feeBps: bigint },
    front: bigint,
    userIn: bigint,
  ) {
    let { reserveA, reserveB } = pool
    const hop = (amount: bigint, aToB: boolean) => {
      const out = getAmountOut({
        amountIn: amount,
        reserveIn: aToB ? reserveA : reserveB,
        reserveOut: aToB ? reserveB : reserveA,
        feeBps: pool.feeBps,
      })
      if (aToB) [reserveA, reserveB] = [reserveA + amount, reserveB - out]
      else [reserveA, reserveB] = [reserveA - out, reserveB + amount]
      return out
    }
    const bought = hop(front, true)
    const userOut = hop(userIn, true)
    const soldFor = hop(bought, false)
    return { bought, userOut, soldFor }
  }

  /** The user's TKA, TKB, ETH and TKA allowances (to the guard and the spender). */
  async function userState(fixture: SwapFixture, spender: Address) {
    const { user } = fixture.accounts
    const TKA = tokenOf(fixture, 'TKA')
    return {
      balances: await balances(fixture, [
        { token: 'TKA', owner: user.address },
        { token: 'TKB', owner: user.address },
        { token: 'ETH', owner: user.address },
      ]),
      allowances: [
        await allowance(fixture, TKA, user.address, swapGuardAddress),
        await allowance(fixture, TKA, user.address, spender),
      ],
    }
  }

  /** What eth_call and eth_simulateV1 (validation off) predict for the user's direct call: the raw return data. */
  async function simulations(fixture: SwapFixture, to: Address, data: Hex) {
    const { user } = fixture.accounts
    const call = await fixture.publicClient.call({ account: user.address, to, data })
    const [block] = await fixture.publicClient.simulateBlocks({
      blocks: [{ calls: [{ account: user.address, to, data }] }],
      validation: false,
    })
    const [simulated] = block?.calls ?? []
    expect(simulated?.status).toBe('success')
    return { ethCall: call.data as Hex, ethSimulateV1: simulated?.data as Hex }
  }

  /** Approves the guard, checks a simulation of the guarded swap passes, sends it, and checks it reverted moving nothing. */
  async function guardedReverts(
    fixture: SwapFixture,
    swap: GuardSwap,
    simulatedOut: bigint,
    spender: Address,
  ) {
    await approve(fixture, fixture.userClient, swap.token0, swapGuardAddress, swap.amountIn)
    // The simulation of the guarded call is fooled too: it predicts success, above the floor.
    expect(await simulateGuardSwap(fixture, fixture.accounts.user.address, swap)).toBe(simulatedOut)
    const before = await userState(fixture, spender)
    const receipt = await sendGuardSwap(fixture, fixture.userClient, swap)
    expect(receipt.status).toBe('reverted')
    expect(await userState(fixture, spender)).toEqual({
      balances: [before.balances[0], before.balances[1], before.balances[2]! - gasCost(receipt)],
      allowances: before.allowances,
    })
    expect(await guardHoldings(fixture)).toEqual(Array(10).fill(0n))
    return receipt
  }

  describe("a. an in-transaction sandwich in the router's multicall (GasAwareSandwich)", () => {
    const epsilon = e18('0.001')
    const front = e18('5000')

    /** Deploys the sandwich with its TKA, and the service's multicall calldata around the user's swap. */
    async function setup(fixture: SwapFixture) {
      const { user } = fixture.accounts
      const TKA = tokenOf(fixture, 'TKA')
      const TKB = tokenOf(fixture, 'TKB')
      const ETH = tokenOf(fixture, 'ETH')
      const bot = await deploy(fixture, C.GasAwareSandwich, [
        fixture.router,
        fixture.spender,
        TKA,
        TKB,
        front,
      ])
      await mint(fixture, TKA, bot, front)
      const deadline = await deadlineIn(fixture)
      const hop = routerSwapData({ path: [TKA, ETH], amountIn: epsilon, to: bot, deadline })
      const userIn = amountIn - 2n * epsilon
      const data = encodeFunctionData({
        abi: testRouterAbi,
        functionName: 'multicall',
        args: [
          [hop, routerSwapData({ path: [TKA, TKB], amountIn: userIn, to: user.address, deadline }), hop],
        ],
      })
      const pool = await tkaTkbReserves(fixture)
      const honest = await routerQuote(fixture, ['TKA', 'TKB'], userIn)
      return { bot, data, honest, attack: sandwich(pool, front, userIn), TKA, TKB }
    }

    /** The user's output in a multicall's return data (its second call's `amountOut`). */
    const userOutOf = (data: Hex) => {
      const results = decodeFunctionResult({ abi: testRouterAbi, functionName: 'multicall', data })
      return decodeFunctionResult({ abi: swapRouterAbi, functionName: 'swap', data: results[1] as Hex })
    }

    test('bypassed: eth_call and eth_simulateV1 predict the honest output, the mined transaction is sandwiched', async () => {
      const fixture = evm.fixture
      const { user } = fixture.accounts
      const { bot, data, honest, attack, TKA, TKB } = await setup(fixture)
      await approve(fixture, fixture.userClient, TKA, fixture.spender, amountIn)

      const predicted = await simulations(fixture, fixture.router, data)
      expect(userOutOf(predicted.ethCall)).toBe(honest)
      expect(userOutOf(predicted.ethSimulateV1)).toBe(honest)

      const before = await balances(fixture, [
        { token: TKA, owner: user.address },
        { token: TKB, owner: user.address },
        { token: TKA, owner: bot },
      ])
      const receipt = await receiptOf(
        fixture,
        fixture.userClient.sendTransaction({ to: fixture.router, data, gas }),
      )
      expect(receipt.status).toBe('success')
      const after = await balances(fixture, [
        { token: TKA, owner: user.address },
        { token: TKB, owner: user.address },
        { token: TKA, owner: bot },
      ])
      expect(after[0]).toBe(before[0]! - amountIn)
      expect(after[1]).toBe(before[1]! + attack.userOut)
      expect(after[2]).toBe(before[2]! - front + attack.soldFor)
      // The user lost over a third of the output to the sandwich, and the attacker made a profit.
      expect(honest - attack.userOut).toBeGreaterThan(honest / 3n)
      expect(attack.soldFor).toBeGreaterThan(front)
    })

    test('through the guard: the simulation still predicts success, the mined transaction reverts with AmountOutTooLow', async () => {
      const fixture = evm.fixture
      const { user } = fixture.accounts
      const { bot, data, honest, attack, TKA, TKB } = await setup(fixture)
      const floor = floorOf(honest)
      const receipt = await guardedReverts(
        fixture,
        {
          token0: TKA,
          amountIn,
          token1: TKB,
          minAmountOut: floor,
          recipient: user.address,
          spender: fixture.spender,
          router: fixture.router,
          data,
        },
        honest,
        fixture.spender,
      )
      expect(await revertOf(fixture, receipt.transactionHash)).toEqual({
        name: 'AmountOutTooLow',
        args: [attack.userOut, floor],
      })
      expect(await fixture.balanceOf(TKA, bot)).toBe(front)
      expect(
        await fixture.publicClient.readContract({
          address: bot,
          abi: gasAwareSandwichAbi,
          functionName: 'bought',
        }),
      ).toBe(0n)
    })
  })

  describe('b. a router that pays in simulations and keeps the input when mined (GasPriceRouter)', () => {
    const rate = e18('2')

    async function setup(fixture: SwapFixture) {
      const { user } = fixture.accounts
      const TKA = tokenOf(fixture, 'TKA')
      const TKB = tokenOf(fixture, 'TKB')
      const router = await deploy(fixture, C.GasPriceRouter, [rate])
      await mint(fixture, TKB, router, e18('10000'))
      const quote = (amountIn * rate) / e18('1')
      const data = routerSwapData({
        path: [TKA, TKB],
        amountIn,
        minAmountOut: floorOf(quote),
        to: user.address,
        deadline: await deadlineIn(fixture),
      })
      return { router, data, quote, TKA, TKB }
    }

    test('bypassed: eth_call and eth_simulateV1 predict the quote, the mined transaction takes the input and pays nothing', async () => {
      const fixture = evm.fixture
      const { router, data, quote, TKA } = await setup(fixture)
      await approve(fixture, fixture.userClient, TKA, router, amountIn)
      const predicted = await simulations(fixture, router, data)
      expect(hexToBigInt(predicted.ethCall)).toBe(quote)
      expect(hexToBigInt(predicted.ethSimulateV1)).toBe(quote)

      const before = await userState(fixture, router)
      const receipt = await receiptOf(fixture, fixture.userClient.sendTransaction({ to: router, data, gas }))
      expect(receipt.status).toBe('success')
      const after = await userState(fixture, router)
      expect(after.balances).toEqual([
        before.balances[0]! - amountIn,
        before.balances[1], // no TKB at all
        before.balances[2]! - gasCost(receipt),
      ])
      expect(await fixture.balanceOf(TKA, router)).toBe(amountIn)
    })

    test('through the guard (router = spender): the simulation predicts the quote, the mined transaction reverts with AmountOutTooLow(0)', async () => {
      const fixture = evm.fixture
      const { user } = fixture.accounts
      const { router, data, quote, TKA, TKB } = await setup(fixture)
      const floor = floorOf(quote)
      const receipt = await guardedReverts(
        fixture,
        {
          token0: TKA,
          amountIn,
          token1: TKB,
          minAmountOut: floor,
          recipient: user.address,
          spender: router,
          router,
          data,
        },
        quote,
        router,
      )
      expect(await revertOf(fixture, receipt.transactionHash)).toEqual({
        name: 'AmountOutTooLow',
        args: [0n, floor],
      })
      expect(await fixture.balanceOf(TKA, router)).toBe(0n)
    })
  })

  describe('c. a mempool sandwich of calldata with minAmountOut 0 (automine off: front-run, the user, back-run in one block)', () => {
    const front = e18('5000')
    const gwei = 10n ** 9n

    /**
     * The attacker, holding `front` TKA (approved to the spender, as TKB), sees the user's pending
     * transaction, front-runs it with a higher fee and back-runs it with a lower one (anvil orders
     * its pool by fee); then one block is mined. Returns the three receipts in block order.
     */
    async function sandwichInMempool(fixture: SwapFixture, sendUser: () => Promise<Hex>) {
      const TKA = tokenOf(fixture, 'TKA')
      const TKB = tokenOf(fixture, 'TKB')
      const attacker = attackerAccount.address
      const pool = await tkaTkbReserves(fixture)
      const { bought } = sandwich(pool, front, 0n)
      const nonce = await fixture.publicClient.getTransactionCount({ address: attacker })
      const deadline = await deadlineIn(fixture)
      await fixture.testClient.setAutomine(false)
      try {
        const userHash = await sendUser()
        const frontHash = await attackerClient.sendTransaction({
          to: fixture.router,
          data: routerSwapData({ path: [TKA, TKB], amountIn: front, to: attacker, deadline }),
          gas,
          nonce,
          maxFeePerGas: 30n * gwei,
          maxPriorityFeePerGas: 30n * gwei,
        })
        const backHash = await attackerClient.sendTransaction({
          to: fixture.router,
          data: routerSwapData({ path: [TKB, TKA], amountIn: bought, to: attacker, deadline }),
          gas,
          nonce: nonce + 1,
          maxFeePerGas: 10n * gwei,
          maxPriorityFeePerGas: 10n * gwei,
        })
        await fixture.testClient.mine({ blocks: 1 })
        const receipts = await Promise.all(
          [frontHash, userHash, backHash].map((hash) => receiptOf(fixture, hash)),
        )
        // One block, in the attacker's order.
        expect(new Set(receipts.map((receipt) => receipt.blockNumber)).size).toBe(1)
        expect(receipts.map((receipt) => receipt.transactionIndex)).toEqual([0, 1, 2])
        expect(receipts[0]?.status).toBe('success')
        expect(receipts[2]?.status).toBe('success')
        return receipts as [(typeof receipts)[0], (typeof receipts)[0], (typeof receipts)[0]]
      } finally {
        await fixture.testClient.setAutomine(true)
      }
    }

    async function arm(fixture: SwapFixture) {
      const TKA = tokenOf(fixture, 'TKA')
      const TKB = tokenOf(fixture, 'TKB')
      await mint(fixture, TKA, attackerAccount.address, front)
      await approve(fixture, attackerClient, TKA, fixture.spender, maxUint256)
      await approve(fixture, attackerClient, TKB, fixture.spender, maxUint256)
      const pool = await tkaTkbReserves(fixture)
      const honest = await routerQuote(fixture, ['TKA', 'TKB'], amountIn)
      return { TKA, TKB, honest, attack: sandwich(pool, front, amountIn) }
    }

    // Every fee well above anvil's base fee (1 gwei at most here: its blocks are far from full).
    const userFees = { gas, maxFeePerGas: 20n * 10n ** 9n, maxPriorityFeePerGas: 20n * 10n ** 9n }

    test('bypassed: the user gets what is left after the front-run, the attacker pockets the difference', async () => {
      const fixture = evm.fixture
      const { user } = fixture.accounts
      const { TKA, TKB, honest, attack } = await arm(fixture)
      await approve(fixture, fixture.userClient, TKA, fixture.spender, amountIn)
      const data = routerSwapData({
        path: [TKA, TKB],
        amountIn,
        minAmountOut: 0n,
        to: user.address,
        deadline: await deadlineIn(fixture),
      })
      const before = await balances(fixture, [
        { token: TKA, owner: user.address },
        { token: TKB, owner: user.address },
        { token: TKA, owner: attackerAccount.address },
      ])
      const [, userReceipt] = await sandwichInMempool(fixture, () =>
        fixture.userClient.sendTransaction({ to: fixture.router, data, ...userFees }),
      )
      expect(userReceipt.status).toBe('success')
      expect(
        await balances(fixture, [
          { token: TKA, owner: user.address },
          { token: TKB, owner: user.address },
          { token: TKA, owner: attackerAccount.address },
        ]),
      ).toEqual([before[0]! - amountIn, before[1]! + attack.userOut, before[2]! - front + attack.soldFor])
      expect(honest - attack.userOut).toBeGreaterThan(honest / 3n)
      expect(attack.soldFor).toBeGreaterThan(front)
    })

    test("through the guard: the user's transaction reverts with AmountOutTooLow; the attacker is left with its fees", async () => {
      const fixture = evm.fixture
      const { user } = fixture.accounts
      const { TKA, TKB, honest, attack } = await arm(fixture)
      const floor = floorOf(honest)
      const swap: GuardSwap = {
        token0: TKA,
        amountIn,
        token1: TKB,
        minAmountOut: floor,
        recipient: user.address,
        spender: fixture.spender,
        router: fixture.router,
        data: routerSwapData({
          path: [TKA, TKB],
          amountIn,
          minAmountOut: 0n,
          to: user.address,
          deadline: await deadlineIn(fixture),
        }),
      }
      await approve(fixture, fixture.userClient, TKA, swapGuardAddress, amountIn)
      const before = await userState(fixture, fixture.spender)
      const attackerBefore = await fixture.balanceOf(TKA, attackerAccount.address)
      const [, userReceipt] = await sandwichInMempool(fixture, () =>
        fixture.userClient.sendTransaction({ to: swapGuardAddress, data: guardSwapData(swap), ...userFees }),
      )
      expect(userReceipt.status).toBe('reverted')
      expect(await userState(fixture, fixture.spender)).toEqual({
        balances: [before.balances[0], before.balances[1], before.balances[2]! - gasCost(userReceipt)],
        allowances: before.allowances,
      })
      expect(await revertOf(fixture, userReceipt.transactionHash)).toEqual({
        name: 'AmountOutTooLow',
        args: [attack.userOut, floor],
      })
      // Without the user's trade in between, the round trip only cost the attacker the pool's fees.
      expect(await fixture.balanceOf(TKA, attackerAccount.address)).toBeLessThan(attackerBefore)
      expect(await guardHoldings(fixture)).toEqual(Array(10).fill(0n))
    })
  })
})
