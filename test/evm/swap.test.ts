import fc from 'fast-check'
import { type Address, encodeFunctionData, type Hex, parseEther, parseEventLogs, parseUnits } from 'viem'
import { describe, expect, test } from 'vitest'
import { getAmountOut } from '../../src/mock/amm.js'
import { swapRouterAbi } from '../../src/mock/routerAbi.js'
import { revertingRouterAbi, testErc20Abi, testRouterAbi, testSpenderAbi } from './abis.js'
import {
  defaultPools,
  defaultUserBalances,
  type PoolTokenSymbol,
  poolAddress,
  type SwapFixture,
} from './fixture.js'
import { getRevertReason, revertReasonOf } from './revert.js'
import { setupSwapFixture } from './setup.js'

const evm = setupSwapFixture()

/** The quote a mock market built from `fixture.market` gives: amm.ts hop by hop over the initial reserves. */
function quote(fixture: SwapFixture, path: readonly PoolTokenSymbol[], amountIn: bigint): bigint {
  let amount = amountIn
  for (let i = 0; i + 1 < path.length; i++) {
    const tokenIn = fixture.tokens[path[i] as PoolTokenSymbol].address
    const tokenOut = fixture.tokens[path[i + 1] as PoolTokenSymbol].address
    const pool = fixture.market.pools.find(
      (p) =>
        (p.token0 === tokenIn && p.token1 === tokenOut) || (p.token0 === tokenOut && p.token1 === tokenIn),
    )
    if (!pool) throw new Error(`No pool ${path[i]}/${path[i + 1]}`)
    const forward = pool.token0 === tokenIn
    amount = getAmountOut({
      amountIn: amount,
      reserveIn: forward ? pool.reserve0 : pool.reserve1,
      reserveOut: forward ? pool.reserve1 : pool.reserve0,
      feeBps: pool.feeBps,
    })
  }
  return amount
}

const addresses = (fixture: SwapFixture, path: readonly PoolTokenSymbol[]): Address[] =>
  path.map((symbol) => fixture.tokens[symbol].address)

async function deadlineIn(fixture: SwapFixture, seconds: bigint): Promise<bigint> {
  const block = await fixture.publicClient.getBlock()
  return block.timestamp + seconds
}

type SwapCall = {
  path: readonly PoolTokenSymbol[]
  amountIn: bigint
  minAmountOut?: bigint
  to?: Address
  deadline?: bigint
}

/** Calldata as the service's /swap/info returns it: viem's encodeFunctionData over swapRouterAbi. */
async function swapCalldata(fixture: SwapFixture, call: SwapCall): Promise<Hex> {
  return encodeFunctionData({
    abi: swapRouterAbi,
    functionName: 'swap',
    args: [
      addresses(fixture, call.path),
      call.amountIn,
      call.minAmountOut ?? 0n,
      call.to ?? fixture.accounts.user.address,
      call.deadline ?? (await deadlineIn(fixture, 3600n)),
    ],
  })
}

async function approveSpender(fixture: SwapFixture, symbol: PoolTokenSymbol, amount: bigint) {
  const hash = await fixture.userClient.writeContract({
    address: fixture.tokens[symbol].address,
    abi: testErc20Abi,
    functionName: 'approve',
    args: [fixture.spender, amount],
  })
  const receipt = await fixture.publicClient.waitForTransactionReceipt({ hash })
  expect(receipt.status).toBe('success')
}

async function allowanceOf(fixture: SwapFixture, symbol: PoolTokenSymbol) {
  return fixture.publicClient.readContract({
    address: fixture.tokens[symbol].address,
    abi: testErc20Abi,
    functionName: 'allowance',
    args: [fixture.accounts.user.address, fixture.spender],
  })
}

/** Sends the swap calldata from the user, as a wallet would, and waits for the receipt. */
async function sendSwap(fixture: SwapFixture, data: Hex, value = 0n) {
  const hash = await fixture.userClient.sendTransaction({ to: fixture.router, data, value })
  const receipt = await fixture.publicClient.waitForTransactionReceipt({ hash })
  expect(receipt.status).toBe('success')
  return { receipt, gasCost: receipt.gasUsed * receipt.effectiveGasPrice }
}

describe('the fixture', () => {
  test('the router holds the reserves of all its pools, and the user the test balances', async () => {
    const { tokens, router, accounts, balanceOf } = evm.fixture
    for (const symbol of Object.keys(tokens) as PoolTokenSymbol[]) {
      const reserves = defaultPools.reduce(
        (sum, pool) =>
          sum + (pool.tokenA === symbol ? pool.reserveA : 0n) + (pool.tokenB === symbol ? pool.reserveB : 0n),
        0n,
      )
      expect(await balanceOf(symbol, router), symbol).toBe(reserves)
    }
    for (const [symbol, amount] of Object.entries(defaultUserBalances)) {
      expect(await balanceOf(symbol as PoolTokenSymbol, accounts.user.address)).toBe(amount)
    }
    expect(await balanceOf('ETH', accounts.user.address)).toBe(parseEther('10000'))
  })

  test('describes tokens and pools as deployed', async () => {
    const { market, tokens, publicClient, router } = evm.fixture
    expect(market.tokens.map(({ symbol, decimals }) => `${symbol}:${decimals}`)).toEqual([
      'ETH:18',
      'TKA:18',
      'TKB:18',
      'USDC:6',
      'USDT:6',
      'BAD:18',
    ])
    expect(tokens.ETH.address).toBe('0xEeeeeEeeeEeEeeEeEeEeeEEEeeeeEeeeeeeeEEeE')
    for (const token of market.tokens.slice(1)) {
      const read = (functionName: 'symbol' | 'decimals') =>
        publicClient.readContract({ address: token.address, abi: testErc20Abi, functionName })
      expect([await read('symbol'), await read('decimals')]).toEqual([token.symbol, token.decimals])
    }
    // Pool ids: one per pair, the same whichever token comes first.
    expect(new Set(market.pools.map((pool) => pool.address)).size).toBe(defaultPools.length)
    for (const pool of market.pools) {
      expect(poolAddress(router, pool.token1, pool.token0)).toBe(pool.address)
      expect(
        await publicClient.readContract({
          address: router,
          abi: testRouterAbi,
          functionName: 'getPool',
          args: [pool.token0, pool.token1],
        }),
      ).toEqual([pool.reserve0, pool.reserve1, BigInt(pool.feeBps)])
    }
  })

  test('snapshot and revert restore the chain state', async () => {
    const { snapshot, revert, deployerClient, publicClient, tokens, accounts, balanceOf } = evm.fixture
    const id = await snapshot()
    const hash = await deployerClient.writeContract({
      address: tokens.TKA.address,
      abi: testErc20Abi,
      functionName: 'mint',
      args: [accounts.recipient.address, 5n],
    })
    await publicClient.waitForTransactionReceipt({ hash })
    expect(await balanceOf('TKA', accounts.recipient.address)).toBe(5n)
    await revert(id)
    expect(await balanceOf('TKA', accounts.recipient.address)).toBe(0n)
  })

  test('only the router can make the spender pull tokens, and the router is set once', async () => {
    const { publicClient, spender, router, tokens, accounts } = evm.fixture
    await approveSpender(evm.fixture, 'TKA', parseEther('1'))
    const pull = publicClient.simulateContract({
      account: accounts.recipient,
      address: spender,
      abi: testSpenderAbi,
      functionName: 'pull',
      args: [tokens.TKA.address, accounts.user.address, accounts.recipient.address, parseEther('1')],
    })
    expect(await revertReasonOf(pull)).toBe('TestSpender: caller is not the router')
    expect(
      await publicClient.readContract({ address: spender, abi: testSpenderAbi, functionName: 'router' }),
    ).toBe(router)
    const setRouter = publicClient.simulateContract({
      account: accounts.deployer,
      address: spender,
      abi: testSpenderAbi,
      functionName: 'setRouter',
      args: [accounts.recipient.address],
    })
    expect(await revertReasonOf(setRouter)).toBe('TestSpender: router already set')
  })

  test('only the owner can set pools', async () => {
    const { publicClient, router, tokens, accounts } = evm.fixture
    const setPool = publicClient.simulateContract({
      account: accounts.user,
      address: router,
      abi: testRouterAbi,
      functionName: 'setPool',
      args: [tokens.TKA.address, tokens.USDT.address, 1n, 1n, 30n],
    })
    expect(await revertReasonOf(setPool)).toBe('TestRouter: not the owner')
  })
})

describe('getAmountOut', () => {
  const paths: readonly (readonly PoolTokenSymbol[])[] = [
    ['ETH', 'USDC'],
    ['USDC', 'ETH'],
    ['TKB', 'TKA'],
    ['TKA', 'TKB', 'USDC'],
    ['ETH', 'TKA', 'TKB', 'USDC', 'USDT'],
  ]

  test('the router view equals amm.ts hop by hop over the market description', async () => {
    const fixture = evm.fixture
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom(...paths),
        fc.bigInt({ min: 0n, max: 10n ** 30n }),
        async (path, amountIn) => {
          const onChain = await fixture.publicClient.readContract({
            address: fixture.router,
            abi: testRouterAbi,
            functionName: 'getAmountOut',
            args: [addresses(fixture, path), amountIn],
          })
          expect(onChain).toBe(quote(fixture, path, amountIn))
        },
      ),
      { numRuns: 60 },
    )
  })
})

describe('swap calldata from encodeFunctionData', () => {
  test('1 hop: pays exactly the amm.ts output, takes exactly amountIn, spends the allowance', async () => {
    const fixture = evm.fixture
    const { accounts, balanceOf, publicClient, router, tokens } = fixture
    const amountIn = parseEther('250')
    const expected = quote(fixture, ['TKA', 'TKB'], amountIn)
    // 250·9970·2,000,000 / (1,000,000·10000 + 250·9970), in wei
    expect(expected).toBe(498_375_779_836_875_658_742n)
    await approveSpender(fixture, 'TKA', amountIn * 3n)

    const userTkaBefore = await balanceOf('TKA', accounts.user.address)
    const data = await swapCalldata(fixture, {
      path: ['TKA', 'TKB'],
      amountIn,
      minAmountOut: expected,
      to: accounts.recipient.address,
    })
    const { receipt } = await sendSwap(fixture, data)

    expect(await balanceOf('TKB', accounts.recipient.address)).toBe(expected)
    expect(await balanceOf('TKA', accounts.user.address)).toBe(userTkaBefore - amountIn)
    expect(await allowanceOf(fixture, 'TKA')).toBe(amountIn * 2n)

    const [swapped] = parseEventLogs({ abi: testRouterAbi, eventName: 'Swapped', logs: receipt.logs })
    expect(swapped?.args).toEqual({
      sender: accounts.user.address,
      to: accounts.recipient.address,
      tokenIn: tokens.TKA.address,
      tokenOut: tokens.TKB.address,
      amountIn,
      amountOut: expected,
    })
    // The pool's reserves moved by what went in and out.
    expect(
      await publicClient.readContract({
        address: router,
        abi: testRouterAbi,
        functionName: 'getPool',
        args: [tokens.TKA.address, tokens.TKB.address],
      }),
    ).toEqual([parseEther('1000000') + amountIn, parseEther('2000000') - expected, 30n])
  })

  test('2 hops: TKA → TKB → USDC pays exactly the chained amm.ts output', async () => {
    const fixture = evm.fixture
    const { accounts, balanceOf } = fixture
    const amountIn = parseEther('100')
    const hop1 = getAmountOut({
      amountIn,
      reserveIn: parseEther('1000000'),
      reserveOut: parseEther('2000000'),
      feeBps: 30,
    })
    const hop2 = getAmountOut({
      amountIn: hop1,
      reserveIn: parseEther('2000000'),
      reserveOut: parseUnits('1000000', 6),
      feeBps: 5,
    })
    expect(quote(fixture, ['TKA', 'TKB', 'USDC'], amountIn)).toBe(hop2)
    await approveSpender(fixture, 'TKA', amountIn)

    const usdcBefore = await balanceOf('USDC', accounts.user.address)
    const tkaBefore = await balanceOf('TKA', accounts.user.address)
    await sendSwap(
      fixture,
      await swapCalldata(fixture, { path: ['TKA', 'TKB', 'USDC'], amountIn, minAmountOut: hop2 }),
    )

    expect(await balanceOf('USDC', accounts.user.address)).toBe(usdcBefore + hop2)
    expect(await balanceOf('TKA', accounts.user.address)).toBe(tkaBefore - amountIn)
    expect(await allowanceOf(fixture, 'TKA')).toBe(0n)
  })

  test('a second swap is priced on the reserves the first one left', async () => {
    const fixture = evm.fixture
    const { accounts, balanceOf } = fixture
    const amountIn = parseUnits('1000', 6)
    await approveSpender(fixture, 'USDC', amountIn * 2n)
    const first = quote(fixture, ['USDC', 'USDT'], amountIn)
    const second = getAmountOut({
      amountIn,
      reserveIn: parseUnits('5000000', 6) + amountIn,
      reserveOut: parseUnits('5000000', 6) - first,
      feeBps: 1,
    })
    expect(second).toBeLessThan(first)
    await sendSwap(fixture, await swapCalldata(fixture, { path: ['USDC', 'USDT'], amountIn }))
    await sendSwap(fixture, await swapCalldata(fixture, { path: ['USDC', 'USDT'], amountIn }))
    expect(await balanceOf('USDT', accounts.user.address)).toBe(defaultUserBalances.USDT + first + second)
  })

  test('native in: value = amountIn, no approval, exact balances net of gas', async () => {
    const fixture = evm.fixture
    const { accounts, balanceOf, router } = fixture
    const amountIn = parseEther('1.5')
    const expected = quote(fixture, ['ETH', 'USDC'], amountIn)
    const ethBefore = await balanceOf('ETH', accounts.user.address)
    const usdcBefore = await balanceOf('USDC', accounts.user.address)
    const routerEthBefore = await balanceOf('ETH', router)

    const data = await swapCalldata(fixture, { path: ['ETH', 'USDC'], amountIn, minAmountOut: expected })
    const { gasCost } = await sendSwap(fixture, data, amountIn)

    expect(gasCost).toBeGreaterThan(0n)
    expect(await balanceOf('ETH', accounts.user.address)).toBe(ethBefore - amountIn - gasCost)
    expect(await balanceOf('USDC', accounts.user.address)).toBe(usdcBefore + expected)
    expect(await balanceOf('ETH', router)).toBe(routerEthBefore + amountIn)
  })

  test('native in over 2 hops: ETH → TKA → TKB to another recipient', async () => {
    const fixture = evm.fixture
    const { accounts, balanceOf } = fixture
    const amountIn = parseEther('2')
    const expected = quote(fixture, ['ETH', 'TKA', 'TKB'], amountIn)
    const data = await swapCalldata(fixture, {
      path: ['ETH', 'TKA', 'TKB'],
      amountIn,
      to: accounts.recipient.address,
    })
    await sendSwap(fixture, data, amountIn)
    expect(await balanceOf('TKB', accounts.recipient.address)).toBe(expected)
  })

  test('native out: USDC → ETH pays ETH to the recipient', async () => {
    const fixture = evm.fixture
    const { accounts, balanceOf } = fixture
    const amountIn = parseUnits('3000', 6)
    const expected = quote(fixture, ['USDC', 'ETH'], amountIn)
    await approveSpender(fixture, 'USDC', amountIn)
    const recipientBefore = await balanceOf('ETH', accounts.recipient.address)
    const userEthBefore = await balanceOf('ETH', accounts.user.address)

    const data = await swapCalldata(fixture, {
      path: ['USDC', 'ETH'],
      amountIn,
      to: accounts.recipient.address,
    })
    const { gasCost } = await sendSwap(fixture, data)

    expect(await balanceOf('ETH', accounts.recipient.address)).toBe(recipientBefore + expected)
    expect(await balanceOf('ETH', accounts.user.address)).toBe(userEthBefore - gasCost)
  })
})

describe('reverts', () => {
  test('without an allowance for the spender (approving the router does not help)', async () => {
    const fixture = evm.fixture
    const { accounts, publicClient, router, userClient, tokens } = fixture
    const data = await swapCalldata(fixture, { path: ['TKA', 'TKB'], amountIn: parseEther('1') })
    const call = () => publicClient.call({ account: accounts.user, to: router, data })
    expect(await revertReasonOf(call())).toBe('TestERC20: insufficient allowance')
    expect(await revertReasonOf(userClient.sendTransaction({ to: router, data }))).toBe(
      'TestERC20: insufficient allowance',
    )

    const hash = await userClient.writeContract({
      address: tokens.TKA.address,
      abi: testErc20Abi,
      functionName: 'approve',
      args: [router, parseEther('1')],
    })
    await publicClient.waitForTransactionReceipt({ hash })
    expect(await revertReasonOf(call())).toBe('TestERC20: insufficient allowance')
  })

  test('slippage: one unit more than the output reverts, the exact output passes', async () => {
    const fixture = evm.fixture
    const { accounts, publicClient, router } = fixture
    const amountIn = parseEther('10')
    const expected = quote(fixture, ['TKA', 'TKB'], amountIn)
    await approveSpender(fixture, 'TKA', amountIn)
    const call = async (minAmountOut: bigint) =>
      publicClient.call({
        account: accounts.user,
        to: router,
        data: await swapCalldata(fixture, { path: ['TKA', 'TKB'], amountIn, minAmountOut }),
      })
    expect(await revertReasonOf(call(expected + 1n))).toBe('TestRouter: slippage')
    const { data } = await call(expected)
    expect(data && BigInt(data)).toBe(expected)
  })

  test('an expired deadline', async () => {
    const fixture = evm.fixture
    const { accounts, publicClient, router } = fixture
    const amountIn = parseEther('1')
    await approveSpender(fixture, 'TKA', amountIn)
    const deadline = await deadlineIn(fixture, -1n)
    const data = await swapCalldata(fixture, { path: ['TKA', 'TKB'], amountIn, deadline })
    expect(await revertReasonOf(publicClient.call({ account: accounts.user, to: router, data }))).toBe(
      'TestRouter: expired',
    )
  })

  test('a missing pool, a wrong value, value sent with a token input', async () => {
    const fixture = evm.fixture
    const { accounts, publicClient, router } = fixture
    const amountIn = parseEther('1')
    await approveSpender(fixture, 'TKA', amountIn)
    const call = async (path: PoolTokenSymbol[], value: bigint) =>
      publicClient.call({
        account: accounts.user,
        to: router,
        value,
        data: await swapCalldata(fixture, { path, amountIn }),
      })
    expect(await revertReasonOf(call(['TKA', 'USDT'], 0n))).toBe('TestRouter: no pool')
    expect(await revertReasonOf(call(['ETH', 'USDC'], amountIn - 1n))).toBe('TestRouter: wrong value')
    expect(await revertReasonOf(call(['TKA', 'TKB'], 1n))).toBe('TestRouter: unexpected value')
  })

  test('RevertingRouter: the reason decodes from simulateContract, call, and a mined transaction', async () => {
    const fixture = evm.fixture
    const { accounts, publicClient, revertingRouter, userClient } = fixture
    const args = [addresses(fixture, ['TKA', 'TKB']), 1n, 0n, accounts.user.address, 2n ** 64n] as const

    const simulation = await publicClient
      .simulateContract({
        account: accounts.user,
        address: revertingRouter,
        abi: swapRouterAbi,
        functionName: 'swap',
        args,
      })
      .catch((error: unknown) => error)
    expect(getRevertReason(simulation)).toBe('RevertingRouter: swap disabled')
    expect((simulation as Error).message).toContain('RevertingRouter: swap disabled')

    const data = encodeFunctionData({ abi: revertingRouterAbi, functionName: 'swap', args })
    expect(
      await revertReasonOf(publicClient.call({ account: accounts.user, to: revertingRouter, data })),
    ).toBe('RevertingRouter: swap disabled')

    // With an explicit gas limit there is no estimate to fail: the transaction is mined and reverts.
    const hash = await userClient.sendTransaction({ to: revertingRouter, data, gas: 100_000n })
    const receipt = await publicClient.waitForTransactionReceipt({ hash })
    expect(receipt.status).toBe('reverted')
  })
})
