import { type Address, erc20Abi, parseEther, parseUnits, type TransactionReceipt } from 'viem'
import { describe, expect, test } from 'vitest'
import {
  createSwapClient,
  executeSwap,
  getSwapRoute,
  swapGuardAddress,
  swapGuardExecutorAddress,
} from '../../../src/exports/core.js'
import { setupProduction } from './setup.js'
import type { UniswapTokenSymbol } from './uniswap.js'

/*
 * A new user's guarded swaps on the production routers: a route from the
 * reference service, accepted as shown, then executeSwap with its default
 * on-chain floor (the swap goes through the SwapGuard) and the router the
 * service names as the only trusted address. Every balance that could move is
 * read before and after, and must have moved by exactly what the result says.
 */

const evm = setupProduction()

type Case = {
  name: string
  protocol: 'v2' | 'v3'
  token0: UniswapTokenSymbol
  token1: UniswapTokenSymbol
  amountIn: bigint
  /** The path the service must choose (ETH shown as WETH). */
  path: UniswapTokenSymbol[]
  /** Who receives token1: another account, or the user (the library's default `to`). */
  recipient: 'recipient' | 'user'
  /** An allowance the user already gave the guard, too small: USDT-style tokens need a reset first. */
  staleAllowance?: bigint
}

const cases: Case[] = [
  {
    name: 'V2, ERC-20 → ERC-20, one hop (Router02 swapExactTokensForTokens)',
    protocol: 'v2',
    ...{
      token0: 'TKA',
      token1: 'TKB',
      amountIn: parseEther('250'),
      path: ['TKA', 'TKB'],
      recipient: 'recipient',
    },
  },
  {
    name: 'V2, ERC-20 (18 decimals) → USDT-style (6 decimals), two hops through WETH',
    protocol: 'v2',
    ...{ token0: 'TKA', token1: 'USDT', amountIn: parseEther('300'), path: ['TKA', 'WETH', 'USDT'] },
    recipient: 'recipient',
  },
  {
    name: 'V2, native in (swapExactETHForTokens with value)',
    protocol: 'v2',
    ...{
      token0: 'ETH',
      token1: 'TKA',
      amountIn: parseEther('1.5'),
      path: ['WETH', 'TKA'],
      recipient: 'recipient',
    },
  },
  {
    name: 'V2, USDT-style in with a stale allowance (reset to 0 first), native out (swapExactTokensForETH)',
    protocol: 'v2',
    ...{ token0: 'USDT', token1: 'ETH', amountIn: parseUnits('4500', 6), path: ['USDT', 'WETH'] },
    recipient: 'recipient',
    staleAllowance: parseUnits('1', 6),
  },
  {
    name: 'V3, ERC-20 (18 decimals) → 6-decimals token, one hop (SwapRouter02 exactInputSingle)',
    protocol: 'v3',
    ...{
      token0: 'TKB',
      token1: 'USDC',
      amountIn: parseEther('1000'),
      path: ['TKB', 'USDC'],
      recipient: 'recipient',
    },
  },
  {
    name: 'V3, ERC-20 → USDT-style, two hops (exactInput, 0.3% then 0.05%)',
    protocol: 'v3',
    ...{ token0: 'TKB', token1: 'USDT', amountIn: parseEther('2000'), path: ['TKB', 'USDC', 'USDT'] },
    recipient: 'recipient',
  },
  {
    name: 'V3, 6 decimals → 6 decimals, USDT-style out (exactInputSingle, 0.05%)',
    protocol: 'v3',
    ...{
      token0: 'USDC',
      token1: 'USDT',
      amountIn: parseUnits('777.5', 6),
      path: ['USDC', 'USDT'],
      recipient: 'user',
    },
  },
  {
    name: 'V3, native in (multicall with value)',
    protocol: 'v3',
    ...{
      token0: 'ETH',
      token1: 'USDC',
      amountIn: parseEther('2'),
      path: ['WETH', 'USDC'],
      recipient: 'recipient',
    },
  },
  {
    name: 'V3, native out to the user themself (multicall: exactInputSingle to the router, unwrapWETH9 to the user)',
    protocol: 'v3',
    ...{
      token0: 'USDC',
      token1: 'ETH',
      amountIn: parseUnits('6000', 6),
      path: ['USDC', 'WETH'],
      recipient: 'user',
    },
  },
]

/** What the swap's transactions cost the user in gas, in wei. */
const gasPaid = (receipts: TransactionReceipt[]) =>
  receipts.reduce((sum, receipt) => sum + receipt.gasUsed * receipt.effectiveGasPrice, 0n)

describe('guarded swaps through the production routers (executeSwap, floorEnforcement: onchain)', () => {
  test.each(cases)('$name: balances move by exactly what the result reports', async (c) => {
    const { uniswap, service } = evm
    const { user, recipient: other } = uniswap.accounts
    const chainId = uniswap.chain.id
    const router = c.protocol === 'v2' ? uniswap.contracts.v2Router : uniswap.contracts.swapRouter02
    const [token0, token1] = [uniswap.address(c.token0), uniswap.address(c.token1)]
    const recipient = c.recipient === 'user' ? user.address : other.address

    if (c.staleAllowance) {
      const hash = await uniswap.userClient.writeContract({
        address: token0,
        abi: erc20Abi,
        functionName: 'approve',
        args: [swapGuardAddress, c.staleAllowance],
      })
      await uniswap.publicClient.waitForTransactionReceipt({ hash })
    }

    // The app narrows the service to one protocol through its base URL (sent with every request).
    const client = createSwapClient({ baseUrl: `${service.url}?protocols=${c.protocol}` })
    const route = await getSwapRoute(client, { token0, token1, amountIn: c.amountIn })
    expect(route.path).toEqual(c.path.map(uniswap.address))

    // Every balance the swap could touch: the user's, the recipient's, the guard's and its executor's.
    const holders: Partial<Record<'user' | 'recipient' | 'guard' | 'executor', Address>> = {
      user: user.address,
      ...(c.recipient === 'user' ? {} : { recipient }),
      guard: swapGuardAddress,
      executor: swapGuardExecutorAddress,
    }
    const watched: UniswapTokenSymbol[] = [
      ...new Set<UniswapTokenSymbol>([c.token0, c.token1, 'WETH', 'ETH']),
    ]
    const read = async () => {
      const out = new Map<string, bigint>()
      for (const [who, address] of Object.entries(holders) as [string, Address][])
        for (const symbol of watched) out.set(`${who} ${symbol}`, await uniswap.balanceOf(symbol, address))
      return out
    }
    const before = await read()

    const result = await executeSwap(client, {
      walletClient: uniswap.userClient,
      publicClient: uniswap.publicClient,
      token0,
      token1,
      amountIn: c.amountIn,
      ...(c.recipient === 'user' ? {} : { to: recipient }),
      slippage: 0.01,
      acceptedQuote: route,
      trustedAddresses: { [chainId]: [router] },
    })
    const after = await read()

    // What the library asked the service: the swap, the recipient, the slippage, the base URL's filter.
    expect(service.requests.filter((request) => request.path === '/swap/info').at(-1)?.query).toEqual({
      protocols: [c.protocol],
      token0: [token0],
      token1: [token1],
      amount_in: [String(c.amountIn)],
      to: [recipient],
      slippage: ['0.01'],
    })
    expect(result.floorEnforcement).toBe('onchain')
    expect(result.receipt.status).toBe('success')
    expect(result.receipt.to?.toLowerCase()).toBe(swapGuardAddress.toLowerCase())
    expect(result.swapInfo.transferAddress).toBe(router)
    expect(result.swapInfo.hopsCount).toBe(c.path.length - 1)
    const realized = result.realized
    if (!realized) throw new Error(`realized not measured: ${String(result.realizedError)}`)
    // Exact input: the user spent all of amountIn, and the chain paid what the pools quoted (same state).
    expect(realized.amountIn).toBe(c.amountIn)
    expect(realized.amountOut).toBe(result.swapInfo.estimateAmount)
    expect(realized.amountOut).toBe(route.amountOut)
    expect(realized.amountOut).toBeGreaterThanOrEqual((route.amountOut * 99n) / 100n)
    // Approvals as the flow needed them: a reset for a stale USDT-style allowance, none for native input.
    expect(result.resetHash !== undefined).toBe(c.staleAllowance !== undefined)
    expect(result.approvalHash !== undefined).toBe(c.token0 !== 'ETH')
    expect(result.leftoverAllowance).toBeUndefined()

    // The expected change of every watched balance; anything not named must not move at all.
    const expected = new Map<string, bigint>()
    const change = (who: 'user' | 'recipient', symbol: UniswapTokenSymbol, amount: bigint) =>
      expected.set(`${who} ${symbol}`, (expected.get(`${who} ${symbol}`) ?? 0n) + amount)
    change('user', c.token0, -realized.amountIn)
    change(c.recipient, c.token1, realized.amountOut)
    change('user', 'ETH', -gasPaid(result.receipts))
    for (const [key, value] of before)
      expect(`${key}: ${(after.get(key) as bigint) - value}`).toBe(`${key}: ${expected.get(key) ?? 0n}`)
    // And the guard's executor holds none of the swap's tokens (nor WETH, nor ETH) after it.
    for (const symbol of watched) expect(await uniswap.balanceOf(symbol, swapGuardExecutorAddress)).toBe(0n)
    // Nothing the user approved is left standing: the guard's allowance was exactly amountIn, spent.
    if (c.token0 !== 'ETH')
      expect(
        await uniswap.publicClient.readContract({
          address: token0,
          abi: erc20Abi,
          functionName: 'allowance',
          args: [user.address, swapGuardAddress as Address],
        }),
      ).toBe(0n)
  })
})
