import { parseEther, parseUnits } from 'viem'
import { describe, expect, test } from 'vitest'
import { getAmountOut } from '../../src/mock/amm.js'
import { swapRouterAbi } from '../../src/mock/routerAbi.js'
import { testErc20Abi } from './abis.js'
import type { SwapFixture, TokenSymbol } from './fixture.js'
import { revertReasonOf } from './revert.js'
import { setupSwapFixture } from './setup.js'

const evm = setupSwapFixture()

async function approve(fixture: SwapFixture, symbol: TokenSymbol, amount: bigint) {
  const hash = await fixture.userClient.writeContract({
    address: fixture.tokens[symbol].address,
    abi: testErc20Abi,
    functionName: 'approve',
    args: [fixture.spender, amount],
  })
  const receipt = await fixture.publicClient.waitForTransactionReceipt({ hash })
  expect(receipt.status).toBe('success')
}

function simulateApprove(fixture: SwapFixture, symbol: TokenSymbol, amount: bigint) {
  return fixture.publicClient.simulateContract({
    account: fixture.accounts.user,
    address: fixture.tokens[symbol].address,
    abi: testErc20Abi,
    functionName: 'approve',
    args: [fixture.spender, amount],
  })
}

function allowance(fixture: SwapFixture, symbol: TokenSymbol) {
  return fixture.publicClient.readContract({
    address: fixture.tokens[symbol].address,
    abi: testErc20Abi,
    functionName: 'allowance',
    args: [fixture.accounts.user.address, fixture.spender],
  })
}

describe('UsdtLikeToken', () => {
  test('non-zero → non-zero approve reverts with its reason', async () => {
    const fixture = evm.fixture
    await approve(fixture, 'USDT', parseUnits('10', 6))
    expect(await revertReasonOf(simulateApprove(fixture, 'USDT', parseUnits('20', 6)))).toBe(
      'USDT: reset allowance to 0 first',
    )
    expect(await allowance(fixture, 'USDT')).toBe(parseUnits('10', 6))
    // Setting the same non-zero value again is not allowed either.
    expect(await revertReasonOf(simulateApprove(fixture, 'USDT', parseUnits('10', 6)))).toBe(
      'USDT: reset allowance to 0 first',
    )
  })

  test('reset to 0, then set: works, and the swap goes through', async () => {
    const fixture = evm.fixture
    const { accounts, balanceOf, publicClient, userClient, router } = fixture
    const amountIn = parseUnits('500', 6)
    await approve(fixture, 'USDT', 1n)
    await approve(fixture, 'USDT', 0n)
    expect(await allowance(fixture, 'USDT')).toBe(0n)
    await approve(fixture, 'USDT', amountIn)
    expect(await allowance(fixture, 'USDT')).toBe(amountIn)

    const expected = getAmountOut({
      amountIn,
      reserveIn: parseUnits('5000000', 6),
      reserveOut: parseUnits('5000000', 6),
      feeBps: 1,
    })
    const block = await publicClient.getBlock()
    const { request } = await publicClient.simulateContract({
      account: accounts.user,
      address: router,
      abi: swapRouterAbi,
      functionName: 'swap',
      args: [
        [fixture.tokens.USDT.address, fixture.tokens.USDC.address],
        amountIn,
        expected,
        accounts.user.address,
        block.timestamp + 60n,
      ],
    })
    const usdcBefore = await balanceOf('USDC', accounts.user.address)
    const hash = await userClient.writeContract(request)
    expect((await publicClient.waitForTransactionReceipt({ hash })).status).toBe('success')
    expect(await balanceOf('USDC', accounts.user.address)).toBe(usdcBefore + expected)
    expect(await allowance(fixture, 'USDT')).toBe(0n)
  })
})

describe('TestERC20 with approve disabled', () => {
  test('setApproveReverts(true) makes approve revert; false restores it', async () => {
    const fixture = evm.fixture
    const { publicClient, userClient, tokens } = fixture
    const setApproveReverts = async (value: boolean) => {
      const hash = await userClient.writeContract({
        address: tokens.TKA.address,
        abi: testErc20Abi,
        functionName: 'setApproveReverts',
        args: [value],
      })
      await publicClient.waitForTransactionReceipt({ hash })
    }

    await setApproveReverts(true)
    expect(await revertReasonOf(simulateApprove(fixture, 'TKA', parseEther('1')))).toBe(
      'TestERC20: approve disabled',
    )
    // Sent anyway (explicit gas, so no failing estimate), the approval is mined as reverted.
    const hash = await userClient.writeContract({
      address: tokens.TKA.address,
      abi: testErc20Abi,
      functionName: 'approve',
      args: [fixture.spender, parseEther('1')],
      gas: 100_000n,
    })
    expect((await publicClient.waitForTransactionReceipt({ hash })).status).toBe('reverted')
    expect(await allowance(fixture, 'TKA')).toBe(0n)

    await setApproveReverts(false)
    await approve(fixture, 'TKA', parseEther('1'))
    expect(await allowance(fixture, 'TKA')).toBe(parseEther('1'))
  })

  test('the fixture token BAD is deployed with approve disabled', async () => {
    const fixture = evm.fixture
    expect(
      await fixture.publicClient.readContract({
        address: fixture.tokens.BAD.address,
        abi: testErc20Abi,
        functionName: 'approveReverts',
      }),
    ).toBe(true)
    expect(await revertReasonOf(simulateApprove(fixture, 'BAD', 1n))).toBe('TestERC20: approve disabled')
  })
})
