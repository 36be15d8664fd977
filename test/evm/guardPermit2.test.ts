/**
 * The swap guard's Permit2 entry on a real chain, with Uniswap's Permit2 (compiled from its
 * published source, at its canonical address): the user approves Permit2 once, then each swap is
 * one signature and one transaction, with no approval of the guard. The signature's witness binds
 * the whole swap: changing any field after signing makes the transaction revert on chain with
 * nothing moved; a used nonce and an expired deadline revert; and whoever submits the user's
 * signature gets exactly the user's swap.
 */
import {
  type Address,
  decodeErrorResult,
  encodeFunctionData,
  type Hex,
  maxUint256,
  parseAbi,
  parseEther,
} from 'viem'
import { beforeAll, describe, expect, test } from 'vitest'
import { encodeSwapWithPermit2 } from '../../src/core/execute/guard/encodeSwapWithPermit2.js'
import {
  permit2Address,
  swapGuardAbi,
  swapGuardAddress,
  swapGuardExecutorAddress,
} from '../../src/core/execute/guard/swapGuard.js'
import type { SwapPermitWitness } from '../../src/core/execute/guard/swapPermitTypedData.js'
import { testRouterAbi } from './abis.js'
import { compileContracts } from './compile.js'
import type { SwapFixture } from './fixture.js'
import {
  allowance,
  approve,
  attackerAccount,
  deploy,
  ensurePermit2,
  type GuardPermitSwap,
  guardedSwaps,
  mined,
  mint,
  receiptOf,
  revertDataOf,
  routerSwapData,
  signSwapPermit,
  type TestWalletClient,
  walletFor,
} from './guardKit.js'
import { setupSwapFixture } from './setup.js'

const evm = setupSwapFixture()

/** Permit2's errors, and its nonce bitmap. */
const permit2Abi = parseAbi([
  'error InvalidSigner()',
  'error InvalidSignature()',
  'error InvalidNonce()',
  'error SignatureExpired(uint256 signatureDeadline)',
  'error InvalidAmount(uint256 maxAmount)',
  'function nonceBitmap(address owner, uint256 wordPos) view returns (uint256)',
])

const gas = 1_500_000n
let attackerClient: TestWalletClient
let pairRouter: Address

beforeAll(async () => {
  const fixture = evm.fixture
  await ensurePermit2(fixture)
  attackerClient = walletFor(fixture, attackerAccount)
  pairRouter = await deploy(fixture, (await compileContracts()).PairRouter)
  // The user's one approval: Permit2, for everything, once per token. Never the guard.
  await approve(fixture, fixture.userClient, fixture.tokens.TKA.address, permit2Address, maxUint256)
}, 120_000)

/** A TKA → TKB swap of 100 TKA to the user through the TestRouter, as the user signs it. */
async function userPermit(fixture: SwapFixture, nonce = 7n): Promise<GuardPermitSwap & { expected: bigint }> {
  const { user } = fixture.accounts
  const TKA = fixture.tokens.TKA.address
  const TKB = fixture.tokens.TKB.address
  const amountIn = parseEther('100')
  const expected = await fixture.publicClient.readContract({
    address: fixture.router,
    abi: testRouterAbi,
    functionName: 'getAmountOut',
    args: [[TKA, TKB], amountIn],
  })
  const deadline = (await fixture.publicClient.getBlock()).timestamp + 3600n
  return {
    token0: TKA,
    amountIn,
    nonce,
    deadline,
    expected,
    witness: {
      token1: TKB,
      minAmountOut: expected,
      recipient: user.address,
      spender: fixture.spender,
      router: fixture.router,
      data: routerSwapData({ path: [TKA, TKB], amountIn, to: user.address, deadline }),
    },
  }
}

/** What must not move when a transaction reverts: the user's and the attacker's tokens, the guard's and executor's holdings, the user's nonce word. */
async function state(fixture: SwapFixture) {
  const { user } = fixture.accounts
  const holders = [
    user.address,
    attackerAccount.address,
    fixture.accounts.recipient.address,
    swapGuardAddress,
    swapGuardExecutorAddress,
  ]
  return {
    tokens: await Promise.all(
      (['TKA', 'TKB', 'USDC'] as const).flatMap((symbol) =>
        holders.map((holder) => fixture.balanceOf(symbol, holder)),
      ),
    ),
    executorEth: await fixture.balanceOf('ETH', swapGuardExecutorAddress),
    nonces: await fixture.publicClient.readContract({
      address: permit2Address,
      abi: permit2Abi,
      functionName: 'nonceBitmap',
      args: [user.address, 0n],
    }),
  }
}

/** The revert of a mined transaction, decoded with the guard's and Permit2's errors. */
async function revertName(fixture: SwapFixture, hash: Hex): Promise<string> {
  const data = await revertDataOf(fixture, hash)
  if (!data) throw new Error('The transaction did not revert')
  const decoded = decodeErrorResult({ abi: [...swapGuardAbi, ...permit2Abi], data })
  // Error(string) is decoded too (viem knows it), though the ABI does not list it.
  const name: string = decoded.errorName
  return name === 'Error' ? String((decoded.args as readonly unknown[] | undefined)?.[0]) : name
}

/** Sends guard calldata from `client` with a fixed gas limit (mined even if it reverts). */
async function send(fixture: SwapFixture, client: TestWalletClient, data: Hex, value = 0n) {
  return receiptOf(fixture, client.sendTransaction({ to: swapGuardAddress, data, value, gas }))
}

describe('one signature, one transaction', () => {
  test('the user approved Permit2 once, signs the swap and sends it: exact amounts, no approval of the guard, nothing left in the executor', async () => {
    const fixture = evm.fixture
    const { user } = fixture.accounts
    const permit = await userPermit(fixture)
    const signature = await signSwapPermit(fixture, user, permit)
    const nonce = await fixture.publicClient.getTransactionCount({ address: user.address })
    const [tka, tkb] = await Promise.all([
      fixture.balanceOf('TKA', user.address),
      fixture.balanceOf('TKB', user.address),
    ])

    const receipt = await send(
      fixture,
      fixture.userClient,
      encodeSwapWithPermit2({ ...permit, owner: user.address, signature }),
    )
    expect(receipt.status).toBe('success')
    // One transaction: the signature was the only other thing the user did.
    expect(await fixture.publicClient.getTransactionCount({ address: user.address })).toBe(nonce + 1)
    expect(
      await Promise.all([fixture.balanceOf('TKA', user.address), fixture.balanceOf('TKB', user.address)]),
    ).toEqual([tka - permit.amountIn, tkb + permit.expected])
    expect(guardedSwaps(receipt)).toEqual([
      {
        payer: user.address,
        recipient: user.address,
        token0: permit.token0,
        token1: permit.witness.token1,
        amountIn: permit.amountIn,
        amountOut: permit.expected,
      },
    ])
    expect(await allowance(fixture, permit.token0, user.address, swapGuardAddress)).toBe(0n)
    expect(await allowance(fixture, permit.token0, swapGuardExecutorAddress, fixture.spender)).toBe(0n)
    const after = await state(fixture)
    // The guard and the executor hold nothing (the last two holders of each token), nor ETH.
    expect([
      after.tokens[3],
      after.tokens[4],
      after.tokens[8],
      after.tokens[9],
      after.tokens[13],
      after.tokens[14],
    ]).toEqual(Array(6).fill(0n))
    expect(after.executorEth).toBe(0n)
  })

  test("a third party submitting the user's signature gets exactly the user's swap: the user pays and receives, the submitter only pays gas", async () => {
    const fixture = evm.fixture
    const { user } = fixture.accounts
    const permit = await userPermit(fixture)
    const signature = await signSwapPermit(fixture, user, permit)
    const before = await state(fixture)
    const receipt = await send(
      fixture,
      attackerClient,
      encodeSwapWithPermit2({ ...permit, owner: user.address, signature }),
    )
    expect(receipt.status).toBe('success')
    expect(guardedSwaps(receipt)).toEqual([
      expect.objectContaining({
        payer: user.address,
        recipient: user.address,
        amountIn: permit.amountIn,
        amountOut: permit.expected,
      }),
    ])
    const after = await state(fixture)
    // TKA: the user −amountIn; TKB: the user +expected; the attacker, the recipient, the guard and its executor: unchanged.
    expect(after.tokens).toEqual(
      before.tokens.map((balance, i) =>
        i === 0 ? balance - permit.amountIn : i === 5 ? balance + permit.expected : balance,
      ),
    )
    expect(after.nonces).toBe(before.nonces | (1n << 7n))
  })

  test('the same swap through a V2-like router that is its own spender (PairRouter)', async () => {
    const fixture = evm.fixture
    const { user } = fixture.accounts
    const { TKA, TKB } = fixture.tokens
    await mint(fixture, TKA.address, pairRouter, parseEther('100000'))
    await mint(fixture, TKB.address, pairRouter, parseEther('100000'))
    await mined(
      fixture,
      fixture.deployerClient.writeContract({
        address: pairRouter,
        abi: parseAbi([
          'function setPair(address tokenA, address tokenB, uint256 reserveA, uint256 reserveB)',
        ]),
        functionName: 'setPair',
        args: [TKA.address, TKB.address, parseEther('100000'), parseEther('100000')],
      }),
    )
    const base = await userPermit(fixture)
    const permit: GuardPermitSwap = {
      ...base,
      witness: {
        ...base.witness,
        minAmountOut: 1n,
        spender: pairRouter,
        router: pairRouter,
        data: encodeFunctionData({
          abi: parseAbi([
            'function swapExactTokensForTokens(uint256 amountIn, uint256 amountOutMin, address[] path, address to, uint256 deadline)',
          ]),
          functionName: 'swapExactTokensForTokens',
          args: [base.amountIn, 1n, [TKA.address, TKB.address], user.address, base.deadline],
        }),
      },
    }
    const signature = await signSwapPermit(fixture, user, permit)
    const receipt = await send(
      fixture,
      fixture.userClient,
      encodeSwapWithPermit2({ ...permit, owner: user.address, signature }),
    )
    expect(receipt.status).toBe('success')
    expect(guardedSwaps(receipt)[0]).toMatchObject({ payer: user.address, amountIn: base.amountIn })
    expect(await allowance(fixture, TKA.address, swapGuardExecutorAddress, pairRouter)).toBe(0n)
  })
})

describe('the signature binds the whole swap: a field changed after signing reverts on chain, nothing moved', () => {
  /** Signs the user's permit, then sends it (from the attacker) with one change; returns the revert. */
  async function tampered(
    fixture: SwapFixture,
    change: (permit: GuardPermitSwap) => { permit: GuardPermitSwap; owner?: Address; value?: bigint },
  ) {
    const { user } = fixture.accounts
    const signed = await userPermit(fixture)
    const signature = await signSwapPermit(fixture, user, signed)
    const { permit, owner = user.address, value = 0n } = change(signed)
    const before = await state(fixture)
    const receipt = await send(
      fixture,
      attackerClient,
      encodeSwapWithPermit2({ ...permit, owner, signature }),
      value,
    )
    expect(receipt.status).toBe('reverted')
    expect(await state(fixture)).toEqual(before)
    return revertName(fixture, receipt.transactionHash)
  }

  const witness = (permit: GuardPermitSwap, change: Partial<SwapPermitWitness>) => ({
    permit: { ...permit, witness: { ...permit.witness, ...change } },
  })

  test.each([
    ['router', (p: GuardPermitSwap) => witness(p, { router: pairRouter })],
    ['spender', (p: GuardPermitSwap) => witness(p, { spender: pairRouter })],
    [
      'calldata (the router pays the attacker)',
      (p: GuardPermitSwap) =>
        witness(p, {
          data: routerSwapData({
            path: [p.token0, p.witness.token1],
            amountIn: p.amountIn,
            to: attackerAccount.address,
            deadline: p.deadline,
          }),
        }),
    ],
    ['token1', (p: GuardPermitSwap) => witness(p, { token1: evm.fixture.tokens.USDC.address })],
    ['floor (minAmountOut lowered to 0)', (p: GuardPermitSwap) => witness(p, { minAmountOut: 0n })],
    ['recipient', (p: GuardPermitSwap) => witness(p, { recipient: attackerAccount.address })],
    ['deadline (extended)', (p: GuardPermitSwap) => ({ permit: { ...p, deadline: p.deadline + 86_400n } })],
    ['amountIn (raised)', (p: GuardPermitSwap) => ({ permit: { ...p, amountIn: p.amountIn + 1n } })],
    ['token0', (p: GuardPermitSwap) => ({ permit: { ...p, token0: evm.fixture.tokens.USDC.address } })],
    ['nonce', (p: GuardPermitSwap) => ({ permit: { ...p, nonce: p.nonce + 1n } })],
    [
      'owner (the submitter names itself)',
      (p: GuardPermitSwap) => ({ permit: p, owner: attackerAccount.address }),
    ],
  ])('%s: Permit2 refuses the signature (InvalidSigner)', async (_, change) => {
    expect(await tampered(evm.fixture, change)).toBe('InvalidSigner')
  })

  test('value: sent with the call, the guard refuses it (InvalidSwap); signed as 1 wei and sent without, Permit2 refuses the signature', async () => {
    const fixture = evm.fixture
    expect(await tampered(fixture, (p) => ({ permit: p, value: 1n }))).toBe('InvalidSwap')
    // The witness binds msg.value: a permit signed for another value fails with the value 0 the call carries.
    const { user } = fixture.accounts
    const signed = await userPermit(fixture)
    const permit = { ...signed, witness: { ...signed.witness, value: 1n } }
    const signature = await signSwapPermit(fixture, user, permit)
    const before = await state(fixture)
    const receipt = await send(
      fixture,
      fixture.userClient,
      encodeSwapWithPermit2({ ...permit, owner: user.address, signature }),
    )
    expect(receipt.status).toBe('reverted')
    expect(await revertName(fixture, receipt.transactionHash)).toBe('InvalidSigner')
    expect((await state(fixture)).tokens).toEqual(before.tokens)
    // And sent with that value, the guard refuses value with an ERC-20 input.
    const again = await send(
      fixture,
      fixture.userClient,
      encodeSwapWithPermit2({ ...permit, owner: user.address, signature }),
      1n,
    )
    expect(await revertName(fixture, again.transactionHash)).toBe('InvalidSwap')
  })

  test('the untampered signature still works after every tampered attempt (nothing used its nonce)', async () => {
    const fixture = evm.fixture
    const { user } = fixture.accounts
    const permit = await userPermit(fixture)
    const signature = await signSwapPermit(fixture, user, permit)
    const bad = await send(
      fixture,
      attackerClient,
      encodeSwapWithPermit2({
        ...permit,
        witness: { ...permit.witness, minAmountOut: 0n },
        owner: user.address,
        signature,
      }),
    )
    expect(bad.status).toBe('reverted')
    const good = await send(
      fixture,
      attackerClient,
      encodeSwapWithPermit2({ ...permit, owner: user.address, signature }),
    )
    expect(good.status).toBe('success')
  })
})

describe('nonces and deadlines', () => {
  test('a used nonce reverts (InvalidNonce), nothing moved', async () => {
    const fixture = evm.fixture
    const { user } = fixture.accounts
    const permit = await userPermit(fixture, 9n)
    const data = encodeSwapWithPermit2({
      ...permit,
      owner: user.address,
      signature: await signSwapPermit(fixture, user, permit),
    })
    expect((await send(fixture, fixture.userClient, data)).status).toBe('success')
    // The same signed swap again, and another swap signed with the same nonce.
    const other = await userPermit(fixture, 9n)
    const otherData = encodeSwapWithPermit2({
      ...other,
      witness: { ...other.witness, minAmountOut: 1n },
      owner: user.address,
      signature: await signSwapPermit(fixture, user, {
        ...other,
        witness: { ...other.witness, minAmountOut: 1n },
      }),
    })
    for (const replay of [data, otherData]) {
      const before = await state(fixture)
      const receipt = await send(fixture, attackerClient, replay)
      expect(receipt.status).toBe('reverted')
      expect(await revertName(fixture, receipt.transactionHash)).toBe('InvalidNonce')
      expect(await state(fixture)).toEqual(before)
    }
  })

  test('an expired deadline reverts (SignatureExpired), nothing moved', async () => {
    const fixture = evm.fixture
    const { user } = fixture.accounts
    const permit = await userPermit(fixture)
    const expired = { ...permit, deadline: (await fixture.publicClient.getBlock()).timestamp - 1n }
    const before = await state(fixture)
    const receipt = await send(
      fixture,
      fixture.userClient,
      encodeSwapWithPermit2({
        ...expired,
        owner: user.address,
        signature: await signSwapPermit(fixture, user, expired),
      }),
    )
    expect(receipt.status).toBe('reverted')
    expect(await revertName(fixture, receipt.transactionHash)).toBe('SignatureExpired')
    expect(await state(fixture)).toEqual(before)
  })

  test('the bounds still bind a valid signature: a floor the router does not meet reverts (AmountOutTooLow) and leaves the nonce unused', async () => {
    const fixture = evm.fixture
    const { user } = fixture.accounts
    const base = await userPermit(fixture)
    const permit = { ...base, witness: { ...base.witness, minAmountOut: base.expected + 1n } }
    const before = await state(fixture)
    const receipt = await send(
      fixture,
      fixture.userClient,
      encodeSwapWithPermit2({
        ...permit,
        owner: user.address,
        signature: await signSwapPermit(fixture, user, permit),
      }),
    )
    expect(receipt.status).toBe('reverted')
    expect(await revertName(fixture, receipt.transactionHash)).toBe('AmountOutTooLow')
    expect(await state(fixture)).toEqual(before)
  })

  test('a native token0 cannot go through Permit2: InvalidSwap', async () => {
    const fixture = evm.fixture
    const { user } = fixture.accounts
    const base = await userPermit(fixture)
    const permit = { ...base, token0: fixture.tokens.ETH.address }
    const receipt = await send(
      fixture,
      fixture.userClient,
      encodeSwapWithPermit2({
        ...permit,
        owner: user.address,
        signature: await signSwapPermit(fixture, user, permit),
      }),
    )
    expect(receipt.status).toBe('reverted')
    expect(await revertName(fixture, receipt.transactionHash)).toBe('InvalidSwap')
  })
})
