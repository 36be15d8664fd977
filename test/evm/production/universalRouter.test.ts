import {
  type Address,
  decodeErrorResult,
  decodeFunctionData,
  erc20Abi,
  type Hex,
  parseEther,
  parseUnits,
} from 'viem'
import { privateKeyToAccount } from 'viem/accounts'
import { describe, expect, test } from 'vitest'
import {
  createSwapClient,
  executeSwap,
  getSwapInfo,
  getSwapRoute,
  SwapGuardIncompatibleError,
  SwapSimulationError,
  swapGuardAbi,
  swapGuardAddress,
  UnsafeSwapOutcomeError,
} from '../../../src/exports/core.js'
import { anvilPrivateKeys } from '../fixture.js'
import { permit2Abi, universalRouterAbi } from './abis.js'
import { setupProduction } from './setup.js'

/*
 * The Universal Router's own way to take an ERC-20: the user approves
 * Permit2, signs a PermitSingle for the router, and the calldata carries that
 * signature in a PERMIT2_PERMIT command followed by the swap with
 * `payerIsUser`, which pulls token0 through Permit2 from the router's caller.
 * The reference service answers with such calldata here, signed with the
 * user's own key (as a front end asks its user before calling a routing API).
 *
 * What happens, measured below: the library cannot run it in either mode, and
 * refuses before anything is signed. Through the guard it reverts (the
 * router's caller is the guard's executor), while sent as built it runs: a
 * SwapGuardIncompatibleError, carrying the guarded revert. The opt-out refuses
 * it as an approval the user would grant (Permit2's Permit of the router).
 */

const user = privateKeyToAccount(anvilPrivateKeys[1])
const evm = setupProduction({ service: { universalRouter: { signer: user } } })

const cases = [
  { protocol: 'v3', commands: '0x0a00', amountIn: parseEther('1000'), token0: 'TKB', token1: 'USDC' },
  { protocol: 'v2', commands: '0x0a08', amountIn: parseEther('500'), token0: 'TKA', token1: 'TKB' },
] as const

type Case = (typeof cases)[number]

/** What the refused flow must have left untouched: the user's nonce, balances and every allowance. */
async function untouched(c: Case) {
  const { uniswap } = evm
  const { universalRouter, permit2 } = uniswap.contracts
  const token0 = uniswap.address(c.token0)
  const allowances = await Promise.all(
    ([swapGuardAddress, permit2, universalRouter] as Address[]).map((spender) =>
      uniswap.publicClient.readContract({
        address: token0,
        abi: erc20Abi,
        functionName: 'allowance',
        args: [user.address, spender],
      }),
    ),
  )
  const [permitted, , permitNonce] = await uniswap.publicClient.readContract({
    address: permit2,
    abi: permit2Abi,
    functionName: 'allowance',
    args: [user.address, token0, universalRouter],
  })
  return {
    nonce: await uniswap.publicClient.getTransactionCount({ address: user.address }),
    balances: [
      await uniswap.balanceOf(c.token0, user.address),
      await uniswap.balanceOf(c.token1, user.address),
      await uniswap.balanceOf('ETH', user.address),
    ],
    allowances,
    permit2: [permitted, permitNonce],
  }
}

/** executeSwap as an app calls it, with the router and Permit2 (the spender the service names) trusted. */
async function run(c: Case, floorEnforcement?: 'onchain' | 'simulation') {
  const { uniswap, service } = evm
  const [token0, token1] = [uniswap.address(c.token0), uniswap.address(c.token1)]
  const client = createSwapClient({ baseUrl: `${service.url}?protocols=${c.protocol}` })
  const route = await getSwapRoute(client, { token0, token1, amountIn: c.amountIn })
  return executeSwap(client, {
    walletClient: uniswap.userClient,
    publicClient: uniswap.publicClient,
    token0,
    token1,
    amountIn: c.amountIn,
    slippage: 0.01,
    acceptedQuote: route,
    trustedAddresses: { [uniswap.chain.id]: [uniswap.contracts.universalRouter, uniswap.contracts.permit2] },
    ...(floorEnforcement ? { floorEnforcement } : {}),
  }).then(
    () => undefined,
    (error: unknown) => error,
  )
}

describe('Universal Router calldata carrying the user’s own Permit2 signature', () => {
  test.each(cases)(
    '$protocol, guarded (the default): SwapGuardIncompatibleError before anything is signed: the service names Permit2 as the spender, which the guard never approves (InvalidSwap), while sent as built the calldata runs',
    async (c) => {
      const before = await untouched(c)
      const error = await run(c)

      // The guarded calls revert in simulation: the service names Permit2 as the spender, and the
      // guard never approves Permit2 (nor calls it as the router): InvalidSwap, before the router
      // runs. (Were it approved, the router's PERMIT2_PERMIT would call Permit2.permit with
      // msgSender() = the executor, a contract without ERC-1271, and revert all the same.) Sent by
      // the user, the same calls pass (last test).
      // The library's "does it run as built?" check simulates the direct calls: they run (the
      // embedded permit breaks the user's bounds there, see the next test, but nothing reverts), so
      // it is the guard the calldata cannot run through: SwapGuardIncompatibleError, with the
      // guarded revert as its cause.
      expect(error).toBeInstanceOf(SwapGuardIncompatibleError)
      const simulation = (error as SwapGuardIncompatibleError).cause as SwapSimulationError
      expect(simulation).toBeInstanceOf(SwapSimulationError)
      expect(simulation.stage).toBe('swap')
      expect(decodeErrorResult({ abi: swapGuardAbi, data: simulation.data as Hex }).errorName).toBe(
        'InvalidSwap',
      )
      expect(await untouched(c)).toEqual(before)
    },
  )

  test.each(cases)(
    '$protocol, the opt-out (floorEnforcement: simulation): UnsafeSwapOutcomeError before anything is signed — the embedded permit is an approval of the Universal Router on token0 through Permit2, which the library never lets a swap grant',
    async (c) => {
      const { uniswap } = evm
      const before = await untouched(c)
      const error = await run(c, 'simulation')

      expect(error).toBeInstanceOf(UnsafeSwapOutcomeError)
      const unsafe = error as UnsafeSwapOutcomeError
      expect(unsafe.stage).toBe('simulation')
      // The only violation: Permit2's Permit event (owner = the user) for the router. The amounts
      // were within bounds: all of amountIn in, the quote out.
      expect(unsafe.violations).toEqual([
        { type: 'approval', token: uniswap.address(c.token0), spender: uniswap.contracts.universalRouter },
      ])
      expect(unsafe.outcome.amountIn).toBe(c.amountIn)
      expect(await untouched(c)).toEqual(before)
    },
  )

  test('the same calldata, sent by the user without the library (approve Permit2, send): it swaps, paying exactly the quote — the calldata is sound', async () => {
    const { uniswap, service } = evm
    const { universalRouter, permit2 } = uniswap.contracts
    const [TKB, USDC] = [uniswap.address('TKB'), uniswap.address('USDC')]
    const amountIn = parseEther('1000')
    const client = createSwapClient({ baseUrl: `${service.url}?protocols=v3` })
    const info = await getSwapInfo(client, {
      token0: TKB,
      token1: USDC,
      amountIn,
      to: user.address,
      slippage: 0.01,
    })
    expect(info.transferAddress).toBe(universalRouter)
    expect(info.approvalAddress).toBe(permit2)
    expect(decodeFunctionData({ abi: universalRouterAbi, data: info.data }).args[0]).toBe('0x0a00')

    const before = [await uniswap.balanceOf(TKB, user.address), await uniswap.balanceOf(USDC, user.address)]
    const approval = await uniswap.userClient.writeContract({
      address: TKB,
      abi: erc20Abi,
      functionName: 'approve',
      args: [permit2, amountIn],
    })
    await uniswap.publicClient.waitForTransactionReceipt({ hash: approval })
    const receipt = await uniswap.publicClient.waitForTransactionReceipt({
      hash: await uniswap.userClient.sendTransaction({ to: info.transferAddress, data: info.data }),
    })
    expect(receipt.status).toBe('success')
    expect(await uniswap.balanceOf(TKB, user.address)).toBe((before[0] as bigint) - amountIn)
    expect(await uniswap.balanceOf(USDC, user.address)).toBe((before[1] as bigint) + info.estimateAmount)
    expect(info.estimateAmount).toBeGreaterThan(parseUnits('740', 6))
    // The permit the user signed was used (nonce 1) and spent to zero.
    const [permitted, , nonce] = await uniswap.publicClient.readContract({
      address: permit2,
      abi: permit2Abi,
      functionName: 'allowance',
      args: [user.address, TKB, universalRouter],
    })
    expect([permitted, nonce]).toEqual([0n, 1])
  })
})
