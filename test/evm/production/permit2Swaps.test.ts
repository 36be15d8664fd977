import {
  type Address,
  createPublicClient,
  decodeFunctionData,
  erc20Abi,
  type Hex,
  http,
  maxUint256,
  parseAbi,
  parseEther,
  parseUnits,
} from 'viem'
import { describe, expect, test } from 'vitest'
import {
  createSwapClient,
  type ExecuteSwapParameters,
  executeSwap,
  getSwapRoute,
  PermitRefusedError,
  permit2Address,
  SwapGuardCodeMismatchError,
  swapGuardAbi,
  swapGuardAddress,
  swapGuardExecutorAddress,
  UserRejectedError,
} from '../../../src/exports/core.js'
import { compileContracts } from '../compile.js'
import { jsonRpc } from '../rpc.js'
import { createTestWallet, type TestWalletOptions } from '../wallet.js'
import { setupProduction } from './setup.js'
import type { UniswapTokenSymbol } from './uniswap.js'

/*
 * One signature, one transaction: guarded swaps through the production routers
 * that take token0 through Permit2 (at its canonical address, compiled from its
 * published source), with a wallet that signs EIP-712 as an extension does
 * (eth_signTypedData_v4 over anvil). Every balance moves by exactly what the
 * result says; the executor keeps nothing; refused paths send nothing.
 */

const evm = setupProduction()
const permit2Abi = parseAbi(['function invalidateUnorderedNonces(uint256 wordPos, uint256 mask)'])

type Case = {
  name: string
  protocol: 'v2' | 'v3'
  token0: UniswapTokenSymbol
  token1: UniswapTokenSymbol
  amountIn: bigint
}

const cases: Case[] = [
  {
    name: 'V2, ERC-20 → ERC-20, one hop',
    protocol: 'v2',
    token0: 'TKA',
    token1: 'TKB',
    amountIn: parseEther('250'),
  },
  {
    name: 'V2, two hops to a 6-decimals USDT-style token',
    protocol: 'v2',
    token0: 'TKA',
    token1: 'USDT',
    amountIn: parseEther('300'),
  },
  {
    name: 'V2, USDT-style in, native out',
    protocol: 'v2',
    token0: 'USDT',
    token1: 'ETH',
    amountIn: parseUnits('4500', 6),
  },
  {
    name: 'V3, one hop, 18 → 6 decimals',
    protocol: 'v3',
    token0: 'TKB',
    token1: 'USDC',
    amountIn: parseEther('1000'),
  },
  { name: 'V3, two hops', protocol: 'v3', token0: 'TKB', token1: 'USDT', amountIn: parseEther('2000') },
  {
    name: 'V3, native out (unwrapWETH9)',
    protocol: 'v3',
    token0: 'USDC',
    token1: 'ETH',
    amountIn: parseUnits('6000', 6),
  },
]

const wallet = (options: Omit<TestWalletOptions, 'rpcUrl' | 'account'> = {}) =>
  createTestWallet({ rpcUrl: evm.anvil.rpcUrl, account: evm.uniswap.accounts.user.address, ...options })

async function approvePermit2(token: Address, amount = maxUint256) {
  const { uniswap } = evm
  const hash = await uniswap.userClient.writeContract({
    address: token,
    abi: erc20Abi,
    functionName: 'approve',
    args: [permit2Address, amount],
  })
  await uniswap.publicClient.waitForTransactionReceipt({ hash })
}

const allowance = (token: Address, spender: Address) =>
  evm.uniswap.publicClient.readContract({
    address: token,
    abi: erc20Abi,
    functionName: 'allowance',
    args: [evm.uniswap.accounts.user.address, spender],
  })

async function swap(
  c: Case,
  walletClient: ExecuteSwapParameters['walletClient'],
  extra: Partial<ExecuteSwapParameters> = {},
) {
  const { uniswap, service } = evm
  const router = c.protocol === 'v2' ? uniswap.contracts.v2Router : uniswap.contracts.swapRouter02
  const client = createSwapClient({ baseUrl: `${service.url}?protocols=${c.protocol}` })
  const [token0, token1] = [uniswap.address(c.token0), uniswap.address(c.token1)]
  const route = await getSwapRoute(client, { token0, token1, amountIn: c.amountIn })
  return executeSwap(client, {
    walletClient,
    publicClient: uniswap.publicClient,
    ...{ token0, token1, amountIn: c.amountIn, slippage: 0.01, acceptedQuote: route },
    trustedAddresses: { [uniswap.chain.id]: [router] },
    storage: false,
    ...extra,
  })
}

/** The user's and the executor's balances of the swap's tokens and the user's nonce. */
async function funds(c: Case) {
  const { uniswap } = evm
  const user = uniswap.accounts.user.address
  return {
    token0: await uniswap.balanceOf(c.token0, user),
    token1: await uniswap.balanceOf(c.token1, user),
    executor0: await uniswap.balanceOf(c.token0, swapGuardExecutorAddress),
    executor1: await uniswap.balanceOf(c.token1, swapGuardExecutorAddress),
    nonce: await uniswap.publicClient.getTransactionCount({ address: user }),
  }
}

describe('through Permit2: one signature, one transaction', () => {
  test.each(cases)('$name: no approval sent, the balances exact, the executor keeps nothing', async (c) => {
    const token0 = evm.uniswap.address(c.token0)
    await approvePermit2(token0)
    const before = await funds(c)
    const w = wallet()
    const result = await swap(c, w.walletClient)
    const after = await funds(c)
    expect(w.signRequests()).toHaveLength(1)
    expect(w.sendRequests()).toHaveLength(1)
    expect(result.approvalHash).toBeUndefined()
    expect(result.transactionHashes).toHaveLength(1)
    expect(after.nonce).toBe(before.nonce + 1)
    const tx = await evm.uniswap.publicClient.getTransaction({ hash: result.swapHash })
    expect(tx.to?.toLowerCase()).toBe(swapGuardAddress.toLowerCase())
    expect(decodeFunctionData({ abi: swapGuardAbi, data: tx.input }).functionName).toBe('swapWithPermit2')
    const realized = result.realized
    if (!realized) throw new Error('not measured')
    expect(realized.amountIn).toBe(c.amountIn)
    expect(realized.amountOut).toBe(result.swapInfo.estimateAmount)
    expect(result.shortfall).toEqual({
      estimate: result.swapInfo.estimateAmount,
      received: realized.amountOut,
      bps: 0,
    })
    expect(before.token0 - after.token0).toBe(c.amountIn)
    if (c.token1 !== 'ETH') expect(after.token1 - before.token1).toBe(realized.amountOut)
    expect(after.executor0).toBe(before.executor0)
    expect(after.executor1).toBe(before.executor1)
    // The guard was never approved; its gas limit was set from the simulation, and held.
    expect(await allowance(token0, swapGuardAddress)).toBe(0n)
    expect(tx.gas).toBeGreaterThan(
      (await evm.uniswap.publicClient.getTransactionReceipt({ hash: result.swapHash })).gasUsed,
    )
  })

  test("permit2: 'approve' asks for the one-time approval of Permit2 first, then one signature and the swap; the next swap is a signature and one transaction", async () => {
    const c = cases[0] as Case
    const w = wallet()
    const first = await swap(c, w.walletClient, { permit2: 'approve' })
    expect(first.approvalHash).toBeDefined()
    expect(w.sendRequests()).toHaveLength(2)
    expect(w.signRequests()).toHaveLength(1)
    const [approval] = w.sendRequests()
    const { args } = decodeFunctionData({
      abi: erc20Abi,
      data: ((approval as { params: unknown }).params as [{ data: Hex }])[0].data,
    })
    expect(args).toEqual([permit2Address, maxUint256])
    const second = await swap(c, w.walletClient)
    expect(second.approvalHash).toBeUndefined()
    expect(w.sendRequests()).toHaveLength(3)
    expect(w.signRequests()).toHaveLength(2)
  })

  test('by default, without a Permit2 allowance: the exact approval of the guard, as before (no infinite approval unless asked)', async () => {
    const c = cases[0] as Case
    const w = wallet()
    const result = await swap(c, w.walletClient)
    expect(w.signRequests()).toHaveLength(0)
    const [approval] = w.sendRequests()
    const { args } = decodeFunctionData({
      abi: erc20Abi,
      data: ((approval as { params: unknown }).params as [{ data: Hex }])[0].data,
    })
    expect(args).toEqual([swapGuardAddress, c.amountIn])
    expect(result.approvalHash).toBeDefined()
  })

  test('an EIP-5792 wallet: the signature, then the Permit2 approval and the guarded swap in one batch', async () => {
    const c = cases[3] as Case
    const before = await funds(c)
    const w = wallet({ eip5792: {} })
    const result = await swap(c, w.walletClient, { permit2: 'approve' })
    expect(result.mode).toBe('batch')
    expect(w.signRequests()).toHaveLength(1)
    expect(w.batchRequests()).toHaveLength(1)
    expect(w.sendRequests()).toHaveLength(0)
    expect(result.receipt.to?.toLowerCase()).toBe(swapGuardAddress.toLowerCase())
    expect(before.token0 - (await funds(c)).token0).toBe(c.amountIn)
  })
})

describe('a signature refused, or spoilt before it is sent: nothing sent, nothing left', () => {
  test('a rejected signature is a UserRejectedError: nothing sent', async () => {
    const c = cases[0] as Case
    await approvePermit2(evm.uniswap.address(c.token0))
    const before = await funds(c)
    const w = wallet({ reject: (method) => method === 'eth_signTypedData_v4' })
    const error = await swap(c, w.walletClient).catch((e: unknown) => e)
    expect(error).toBeInstanceOf(UserRejectedError)
    expect(w.sendRequests()).toHaveLength(0)
    expect(await funds(c)).toEqual(before)
  })

  test.each([
    ['the deadline passes while the wallet asks (11 minutes)', 'expired'],
    ['another tab cancels the nonce meanwhile', 'nonce-used'],
  ] as const)('%s: PermitRefusedError (%s), nothing sent', async (_, reason) => {
    const c = cases[0] as Case
    await approvePermit2(evm.uniswap.address(c.token0))
    const rpc = jsonRpc(evm.anvil.rpcUrl)
    const inner = wallet()
    const slow = {
      request: async (args: { method: string; params?: unknown }) => {
        if (args.method === 'eth_signTypedData_v4') {
          if (reason === 'expired') {
            // The rig mines one second per block: the next block is set 11 minutes ahead.
            const { timestamp } = await evm.uniswap.publicClient.getBlock()
            await rpc('evm_setNextBlockTimestamp', [Number(timestamp) + 660])
            await rpc('evm_mine', [])
          } else {
            const hash = await evm.uniswap.userClient.writeContract({
              address: permit2Address,
              abi: permit2Abi,
              functionName: 'invalidateUnorderedNonces',
              args: [0n, maxUint256],
            })
            await evm.uniswap.publicClient.waitForTransactionReceipt({ hash })
          }
        }
        return inner.provider.request(args as never)
      },
    }
    const { createWalletClient, custom } = await import('viem')
    const walletClient = createWalletClient({
      account: evm.uniswap.accounts.user.address,
      transport: custom(slow),
    })
    const before = await funds(c)
    const error = await swap(c, walletClient).catch((e: unknown) => e)
    expect(error).toBeInstanceOf(PermitRefusedError)
    expect(error).toMatchObject({ reason })
    expect(inner.sendRequests()).toHaveLength(0)
    const after = await funds(c)
    expect({ ...after, nonce: 0 }).toEqual({ ...before, nonce: 0 })
  })
})

describe('look-alike code at the guard’s address (honest when simulated, stealing when mined)', () => {
  test.each([
    ['an exact approval, one transaction after the other', 'never', {}],
    ['through Permit2', 'if-approved', {}],
    ['an EIP-5792 batch', 'never', { eip5792: {} }],
  ] as const)(
    '%s: SwapGuardCodeMismatchError, nothing signed, nothing moved',
    async (_, permit2, options) => {
      const c = cases[0] as Case
      const token0 = evm.uniswap.address(c.token0)
      await approvePermit2(token0)
      const { LookAlikeGuard } = await compileContracts()
      // The look-alike's runtime code, placed at the guard's address (a chain whose CREATE2 differs).
      const rpc = jsonRpc(evm.anvil.rpcUrl)
      const deployHash = await evm.uniswap.deployerClient.deployContract({
        abi: LookAlikeGuard.abi,
        bytecode: LookAlikeGuard.bytecode,
        args: [],
      })
      const deployed = (await evm.uniswap.publicClient.waitForTransactionReceipt({ hash: deployHash }))
        .contractAddress as Address
      await rpc('anvil_setCode', [swapGuardAddress, await rpc('eth_getCode', [deployed, 'latest'])])
      const before = await funds(c)
      const w = wallet(options)
      // A page on that chain: its first read of the guard's code (a verified guard is cached per
      // client: on a chain, the code at a CREATE2 address cannot change under it).
      const publicClient = createPublicClient({ chain: evm.uniswap.chain, transport: http(evm.anvil.rpcUrl) })
      const error = await swap(c, w.walletClient, { permit2, publicClient }).catch((e: unknown) => e)
      expect(error).toBeInstanceOf(SwapGuardCodeMismatchError)
      expect(w.signRequests()).toHaveLength(0)
      expect(w.sendRequests()).toHaveLength(0)
      expect(w.batchRequests()).toHaveLength(0)
      expect(await funds(c)).toEqual(before)
      expect(await allowance(token0, swapGuardAddress)).toBe(0n)
    },
  )
})
