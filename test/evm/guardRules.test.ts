/**
 * The guard's rules, on a real chain, for both entries (`swap` with an approval, `swapWithPermit2`
 * with a signature):
 * - the confused-deputy rule (0x's AllowanceHolder, Permit2 adapters): the executor never calls
 *   Permit2, the guard, itself or a swap token as the router, and never approves Permit2, the guard
 *   or itself as the spender: each refusal is `InvalidSwap`, in simulation and mined;
 * - nothing left behind: whatever of token0, token1 or the native coin a route leaves in the
 *   executor goes back (token0 and native to the payer, token1 to the recipient; native to the
 *   recipient when it is token1), and the executor holds no more of any swap token after a swap
 *   than before, measured on chain.
 */
import {
  type Address,
  BaseError,
  decodeErrorResult,
  encodeFunctionData,
  type Hex,
  maxUint256,
  parseAbi,
  parseEther,
  zeroAddress,
} from 'viem'
import { beforeAll, describe, expect, test } from 'vitest'
import { encodeSwapWithPermit2 } from '../../src/core/execute/guard/encodeSwapWithPermit2.js'
import {
  permit2Address,
  swapGuardAbi,
  swapGuardAddress,
  swapGuardExecutorAddress,
} from '../../src/core/execute/guard/swapGuard.js'
import { chaosRouterAbi } from './abis.js'
import { type ChaosAction, chaosData } from './chaosKit.js'
import { compileContracts } from './compile.js'
import type { SwapFixture } from './fixture.js'
import {
  approve,
  deploy,
  ensurePermit2,
  type GuardSwap,
  guardedSwaps,
  guardSwapData,
  mined,
  mint,
  receiptOf,
  revertDataOf,
  signSwapPermit,
} from './guardKit.js'
import { setupSwapFixture } from './setup.js'

const evm = setupSwapFixture()
const gas = 1_500_000n
let chaos: Address

type Entry = 'swap' | 'swapWithPermit2'

beforeAll(async () => {
  const fixture = evm.fixture
  await ensurePermit2(fixture)
  chaos = await deploy(fixture, (await compileContracts()).ChaosRouter)
  const { TKA, TKB, USDC } = fixture.tokens
  for (const token of [TKA, TKB, USDC]) await mint(fixture, token.address, chaos, parseEther('1000000'))
  await fixture.testClient.setBalance({ address: chaos, value: parseEther('1000') })
  for (const token of [TKA, TKB, USDC]) {
    await approve(fixture, fixture.userClient, token.address, permit2Address, maxUint256)
    await approve(fixture, fixture.userClient, token.address, swapGuardAddress, maxUint256)
  }
}, 120_000)

/** The guard call for `swap` through `entry`, signed by the user for Permit2; with its value. */
async function guardCall(fixture: SwapFixture, entry: Entry, swap: GuardSwap): Promise<Hex> {
  if (entry === 'swap') return guardSwapData(swap)
  const { user } = fixture.accounts
  const permit = {
    token0: swap.token0,
    amountIn: swap.amountIn,
    nonce: BigInt(Math.floor(Math.random() * 2 ** 48)),
    deadline: (await fixture.publicClient.getBlock()).timestamp + 3600n,
    witness: {
      token1: swap.token1,
      minAmountOut: swap.minAmountOut,
      recipient: swap.recipient,
      spender: swap.spender ?? zeroAddress,
      router: swap.router,
      data: swap.data,
    },
  }
  return encodeSwapWithPermit2({
    ...permit,
    owner: user.address,
    signature: await signSwapPermit(fixture, user, permit),
  })
}

async function revertName(fixture: SwapFixture, hash: Hex) {
  const data = await revertDataOf(fixture, hash)
  if (!data) throw new Error('The transaction did not revert')
  const decoded = decodeErrorResult({ abi: swapGuardAbi, data })
  // Error(string) is decoded too (viem knows it), though the ABI does not list it.
  const name: string = decoded.errorName
  return name === 'Error' ? String((decoded.args as readonly unknown[] | undefined)?.[0]) : name
}

/** The executor's balances of the fixture's tokens and of ETH. */
const executorHoldings = (fixture: SwapFixture) =>
  Promise.all(
    (['TKA', 'TKB', 'USDC', 'ETH'] as const).map((symbol) =>
      fixture.balanceOf(symbol, swapGuardExecutorAddress),
    ),
  )

describe.each(['swap', 'swapWithPermit2'] as const)('%s: the confused-deputy refusals', (entry) => {
  /** A plain TKA → TKB swap through the ChaosRouter (which pulls the input and pays the output). */
  function base(fixture: SwapFixture): GuardSwap {
    const { TKA, TKB } = fixture.tokens
    const amountIn = parseEther('10')
    return {
      token0: TKA.address,
      amountIn,
      token1: TKB.address,
      minAmountOut: amountIn,
      recipient: fixture.accounts.user.address,
      spender: chaos,
      router: chaos,
      data: chaosData([
        { kind: 'pull', token: TKA.address, amount: amountIn },
        { kind: 'pay', token: TKB.address, to: fixture.accounts.user.address, amount: amountIn },
      ]),
    }
  }

  // What the router's calldata would do if the executor made the call: take what Permit2 or the
  // guard hold on the users' behalf.
  const permit2Call = encodeFunctionData({
    abi: parseAbi(['function transferFrom(address from, address to, uint160 amount, address token)']),
    functionName: 'transferFrom',
    args: [swapGuardAddress, zeroAddress, 1n, zeroAddress],
  })

  test.each([
    ['router = Permit2', (s: GuardSwap) => ({ ...s, router: permit2Address, data: permit2Call })],
    ['router = the guard', (s: GuardSwap) => ({ ...s, router: swapGuardAddress })],
    ['router = the executor', (s: GuardSwap) => ({ ...s, router: swapGuardExecutorAddress })],
    ['router = token0', (s: GuardSwap) => ({ ...s, router: s.token0 })],
    ['router = token1', (s: GuardSwap) => ({ ...s, router: s.token1 })],
    ['spender = Permit2', (s: GuardSwap) => ({ ...s, spender: permit2Address })],
    ['spender = the guard', (s: GuardSwap) => ({ ...s, spender: swapGuardAddress })],
    ['spender = the executor', (s: GuardSwap) => ({ ...s, spender: swapGuardExecutorAddress })],
  ])('%s: InvalidSwap in simulation and mined, nothing moved', async (_, change) => {
    const fixture = evm.fixture
    const { user } = fixture.accounts
    // The unchanged swap passes (so the refusal is the change's).
    const ok = await fixture.publicClient.call({
      account: user.address,
      to: swapGuardAddress,
      data: await guardCall(fixture, entry, base(fixture)),
    })
    expect(ok.data).toMatch(/^0x/)

    const data = await guardCall(fixture, entry, change(base(fixture)))
    const simulated = await fixture.publicClient
      .call({ account: user.address, to: swapGuardAddress, data })
      .catch((e: unknown) => e)
    expect(simulated).toBeInstanceOf(BaseError)
    const raw = (simulated as BaseError).walk(
      (e) => typeof (e as { data?: unknown }).data === 'string',
    ) as unknown as { data: Hex }
    expect(decodeErrorResult({ abi: swapGuardAbi, data: raw.data }).errorName).toBe('InvalidSwap')
    const before = await Promise.all([
      fixture.balanceOf('TKA', user.address),
      fixture.balanceOf('TKB', user.address),
      executorHoldings(fixture),
    ])
    const receipt = await receiptOf(
      fixture,
      fixture.userClient.sendTransaction({ to: swapGuardAddress, data, gas }),
    )
    expect(receipt.status).toBe('reverted')
    expect(await revertName(fixture, receipt.transactionHash)).toBe('InvalidSwap')
    expect(
      await Promise.all([
        fixture.balanceOf('TKA', user.address),
        fixture.balanceOf('TKB', user.address),
        executorHoldings(fixture),
      ]),
    ).toEqual(before)
  })
})

describe.each(['swap', 'swapWithPermit2'] as const)('%s: nothing left behind in the executor', (entry) => {
  test('the route leaves token0, token1 and native in the executor: token0 and native go back to the payer, token1 to the recipient; the executor ends as it began', async () => {
    const fixture = evm.fixture
    const { user, recipient } = fixture.accounts
    const TKA = fixture.tokens.TKA.address
    const TKB = fixture.tokens.TKB.address
    const amountIn = parseEther('10')
    const actions: ChaosAction[] = [
      { kind: 'pull', token: TKA, amount: amountIn },
      // A refund of part of the input, the output paid to the executor (part of it), a native tip there too.
      { kind: 'pay', token: TKA, to: swapGuardExecutorAddress, amount: parseEther('3') },
      { kind: 'pay', token: TKB, to: swapGuardExecutorAddress, amount: parseEther('12') },
      { kind: 'pay', token: TKB, to: recipient.address, amount: parseEther('2') },
      {
        kind: 'pay',
        token: fixture.tokens.ETH.address,
        to: swapGuardExecutorAddress,
        amount: parseEther('0.5'),
      },
    ]
    const holdings = async () => ({
      executor: await executorHoldings(fixture),
      payer: await Promise.all([
        fixture.balanceOf('TKA', user.address),
        fixture.balanceOf('ETH', user.address),
      ]),
      recipient: await fixture.balanceOf('TKB', recipient.address),
    })
    const before = await holdings()
    const receipt = await mined(
      fixture,
      fixture.userClient.sendTransaction({
        to: swapGuardAddress,
        gas,
        data: await guardCall(fixture, entry, {
          token0: TKA,
          amountIn,
          token1: TKB,
          minAmountOut: parseEther('14'),
          recipient: recipient.address,
          spender: chaos,
          router: chaos,
          data: chaosData(actions),
        }),
      }),
    )
    const after = await holdings()
    expect(after.executor).toEqual(before.executor)
    expect(after.payer).toEqual([
      before.payer[0] - parseEther('7'),
      before.payer[1] + parseEther('0.5') - receipt.gasUsed * receipt.effectiveGasPrice,
    ])
    expect(after.recipient).toBe(before.recipient + parseEther('14'))
    expect(guardedSwaps(receipt)).toEqual([
      {
        payer: user.address,
        recipient: recipient.address,
        token0: TKA,
        token1: TKB,
        amountIn: parseEther('7'),
        amountOut: parseEther('14'),
      },
    ])
  })

  test('native token1 landed in the executor goes to the recipient; funds already in the executor are not handed to the swap', async () => {
    const fixture = evm.fixture
    const { user, recipient } = fixture.accounts
    const TKA = fixture.tokens.TKA.address
    const TKB = fixture.tokens.TKB.address
    const ETH = fixture.tokens.ETH.address
    // Stray funds someone sent the executor: no swap's to take, and none to hand out.
    await mint(fixture, TKA, swapGuardExecutorAddress, 5n)
    await mint(fixture, TKB, swapGuardExecutorAddress, 6n)
    await fixture.testClient.setBalance({ address: swapGuardExecutorAddress, value: 7n })
    const amountIn = parseEther('10')
    const before = await Promise.all([
      executorHoldings(fixture),
      fixture.balanceOf('ETH', recipient.address),
      fixture.balanceOf('TKA', user.address),
    ])
    const receipt = await mined(
      fixture,
      fixture.userClient.sendTransaction({
        to: swapGuardAddress,
        gas,
        data: await guardCall(fixture, entry, {
          token0: TKA,
          amountIn,
          token1: ETH,
          minAmountOut: parseEther('1'),
          recipient: recipient.address,
          spender: chaos,
          router: chaos,
          data: chaosData([
            { kind: 'pull', token: TKA, amount: parseEther('4') },
            { kind: 'pay', token: ETH, to: swapGuardExecutorAddress, amount: parseEther('1') },
            { kind: 'pay', token: TKB, to: swapGuardExecutorAddress, amount: 100n },
          ]),
        }),
      }),
    )
    const [executor, recipientEth, userTka] = await Promise.all([
      executorHoldings(fixture),
      fixture.balanceOf('ETH', recipient.address),
      fixture.balanceOf('TKA', user.address),
    ])
    // TKB is no swap token here: it stays (see the README: a third token cannot be enumerated on chain).
    const [tka, tkb, usdc, eth] = before[0]
    expect(executor).toEqual([tka, (tkb ?? 0n) + 100n, usdc, eth])
    expect(recipientEth).toBe(before[1] + parseEther('1'))
    expect(userTka).toBe(before[2] - parseEther('4'))
    expect(guardedSwaps(receipt)[0]).toMatchObject({ amountIn: parseEther('4'), amountOut: parseEther('1') })
  })

  test('a recipient that loses token1 during the swap: AmountOutTooLow even with a floor of 0 (found by the invariant test)', async () => {
    const fixture = evm.fixture
    const TKA = fixture.tokens.TKA.address
    const TKB = fixture.tokens.TKB.address
    // The recipient is the router itself, which pays its own TKB away: its TKB goes down.
    const data = await guardCall(fixture, entry, {
      token0: TKA,
      amountIn: parseEther('1'),
      token1: TKB,
      minAmountOut: 0n,
      recipient: chaos,
      spender: chaos,
      router: chaos,
      data: chaosData([
        { kind: 'pull', token: TKA, amount: parseEther('1') },
        { kind: 'pay', token: TKB, to: fixture.accounts.deployer.address, amount: parseEther('5') },
      ]),
    })
    const before = await fixture.balanceOf('TKB', chaos)
    const receipt = await receiptOf(
      fixture,
      fixture.userClient.sendTransaction({ to: swapGuardAddress, data, gas }),
    )
    expect(receipt.status).toBe('reverted')
    expect(await revertName(fixture, receipt.transactionHash)).toBe('AmountOutTooLow')
    expect(await fixture.balanceOf('TKB', chaos)).toBe(before)
  })

  test("a nested swap (the router re-entering the guard with its own funds) takes back only its own, the user's swap is exact", async () => {
    const fixture = evm.fixture
    const { user } = fixture.accounts
    const TKA = fixture.tokens.TKA.address
    const TKB = fixture.tokens.TKB.address
    const USDC = fixture.tokens.USDC.address
    await mined(
      fixture,
      fixture.deployerClient.writeContract({
        address: chaos,
        abi: chaosRouterAbi,
        functionName: 'approve',
        args: [TKA, swapGuardAddress, maxUint256],
      }),
    )
    const amountIn = parseEther('10')
    // The router's own swap, in the middle of the user's: 1 TKA of its own in, left unused in the
    // executor (where the user's TKA also is), and 1 USDC out, paid to the executor for the deployer.
    const nested = guardSwapData({
      token0: TKA,
      amountIn: parseEther('1'),
      token1: USDC,
      minAmountOut: 0n,
      recipient: fixture.accounts.deployer.address,
      spender: zeroAddress,
      router: chaos,
      data: chaosData([{ kind: 'pay', token: USDC, to: swapGuardExecutorAddress, amount: 1n }]),
    })
    const before = await Promise.all([
      executorHoldings(fixture),
      fixture.balanceOf('TKA', user.address),
      fixture.balanceOf('TKA', chaos),
    ])
    const receipt = await mined(
      fixture,
      fixture.userClient.sendTransaction({
        to: swapGuardAddress,
        gas,
        data: await guardCall(fixture, entry, {
          token0: TKA,
          amountIn,
          token1: TKB,
          minAmountOut: parseEther('20'),
          recipient: user.address,
          spender: chaos,
          router: chaos,
          data: chaosData([
            { kind: 'call', to: swapGuardAddress, data: nested },
            { kind: 'pull', token: TKA, amount: parseEther('6') },
            { kind: 'pay', token: TKB, to: swapGuardExecutorAddress, amount: parseEther('20') },
          ]),
        }),
      }),
    )
    expect(guardedSwaps(receipt)).toEqual([
      {
        payer: chaos,
        recipient: fixture.accounts.deployer.address,
        token0: TKA,
        token1: USDC,
        amountIn: 0n,
        amountOut: 1n,
      },
      {
        payer: user.address,
        recipient: user.address,
        token0: TKA,
        token1: TKB,
        amountIn: parseEther('6'),
        amountOut: parseEther('20'),
      },
    ])
    const [executor, userTka, chaosTka] = await Promise.all([
      executorHoldings(fixture),
      fixture.balanceOf('TKA', user.address),
      fixture.balanceOf('TKA', chaos),
    ])
    expect(executor).toEqual(before[0])
    expect(userTka).toBe(before[1] - parseEther('6'))
    expect(chaosTka).toBe(before[2] + parseEther('6'))
  })
})
