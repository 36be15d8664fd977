import {
  type Address,
  createPublicClient,
  createWalletClient,
  custom,
  decodeFunctionData,
  type EIP1193Provider,
  erc20Abi,
  type Hex,
  maxUint256,
  type PublicClient,
  parseEther,
  parseGwei,
  parseUnits,
  type Transaction,
} from 'viem'
import { describe, expect, test } from 'vitest'
import { testErc20Abi, testRouterAbi } from '../../../test/evm/abis.js'
import { jsonRpc } from '../../../test/evm/rpc.js'
import { setupSwapHarness } from '../../../test/evm/swapHarness.js'
import type { TestWallet } from '../../../test/evm/wallet.js'
import { swapRouterAbi } from '../../mock/routerAbi.js'
import { getSwapRoute } from '../actions/getSwapRoute.js'
import type { SwapClient } from '../client.js'
import {
  ChainMismatchError,
  InsufficientAllowanceError,
  QuoteBelowMinimumError,
  QuoteChangedError,
  SwapSimulationError,
  TransactionReplacedError,
  TransactionRevertedError,
  UntrustedAddressError,
  UserRejectedError,
} from '../errors/execute.js'
import { InvalidParameterError } from '../errors/parameter.js'
import { getMinAmountOut } from '../utils/getMinAmountOut.js'
import {
  type ExecuteSwapParameters,
  type ExecuteSwapReturnType,
  type ExecuteSwapStep,
  executeSwap,
} from './executeSwap.js'
import { swapGuardAbi, swapGuardAddress } from './guard/swapGuard.js'
import { createMemoryStorage, getPendingSwaps } from './records/pendingSwaps.js'
import { settlePendingSwaps } from './settlePendingSwaps.js'

const h = setupSwapHarness()

type Swap = Omit<ExecuteSwapParameters, 'walletClient' | 'publicClient'>

/** The user's floor when a test gives none: the market's quote less 1%. */
function defaultFloor(swap: Swap): bigint {
  try {
    return (quote(swap.token0, swap.token1, swap.amountIn).amountOut * 99n) / 100n
  } catch {
    return 1n
  }
}

/** Runs executeSwap with the user's wallet and the fixture's router and spender trusted, recording every step. */
async function run(swap: Swap, wallet: TestWallet = h.wallet(), client: SwapClient = h.swapClient()) {
  const steps: ExecuteSwapStep[] = []
  const outcome = await executeSwap(client, {
    walletClient: wallet.walletClient,
    publicClient: h.fixture.publicClient,
    onStep: (step) => steps.push(step),
    trustedAddresses: { [h.fixture.chain.id]: [h.fixture.router, h.fixture.spender] },
    ...(swap.minAmountOut === undefined && swap.acceptedQuote === undefined
      ? { minAmountOut: defaultFloor(swap) }
      : {}),
    ...swap,
  }).then(
    (result) => ({ result, error: undefined }),
    (error: unknown) => ({ result: undefined, error }),
  )
  return { ...outcome, steps, sent: wallet.sendRequests() }
}

/** What the user holds and may spend, and how many transactions they sent. */
async function state(symbols: ('TKA' | 'TKB' | 'USDC' | 'USDT' | 'BAD' | 'ETH')[] = ['TKA', 'USDC']) {
  const balances = Object.fromEntries(await Promise.all(symbols.map(async (s) => [s, await h.balance(s)])))
  const allowances = Object.fromEntries(
    await Promise.all(symbols.filter((s) => s !== 'ETH').map(async (s) => [s, await h.allowance(s)])),
  )
  return { balances, allowances, nonce: await h.nonce() }
}

/** The arguments of a `SwapGuard.swap` call the wallet was asked to send. */
function guardedSwapOf(data: Hex | undefined) {
  const { args } = decodeFunctionData({ abi: swapGuardAbi, data: data ?? '0x' })
  const [token0, amountIn, token1, minAmountOut, recipient, spender, router, routerData] = args
  return { token0, amountIn, token1, minAmountOut, recipient, spender, router, data: routerData }
}

const quote = (token0: Address, token1: Address, amountIn: bigint) => {
  const result = h.market.quote({ token0, token1, amountIn })
  if (!result) throw new Error('no route')
  return result
}

describe('executeSwap on a real chain', () => {
  test('a fresh approval: exact approve, mined, then the swap; balances move by exactly the quote', async () => {
    const TKA = h.address('TKA')
    const USDC = h.address('USDC')
    const amountIn = parseEther('25')
    const expected = quote(TKA, USDC, amountIn)
    const before = await state()

    const { result, error, steps, sent } = await run({ token0: TKA, token1: USDC, amountIn, slippage: 0.01 })
    expect(error).toBeUndefined()
    expect(result?.approvalHash).toMatch(/^0x[0-9a-f]{64}$/)
    expect(result?.receipt.status).toBe('success')
    expect(result?.swapInfo.estimateAmount).toBe(expected.amountOut)

    const after = await state()
    expect(after.balances.TKA).toBe(before.balances.TKA - amountIn)
    expect(after.balances.USDC).toBe(before.balances.USDC + expected.amountOut)
    expect(after.allowances.TKA).toBe(0n) // exactly amountIn was approved, and spent
    expect(after.nonce).toBe(before.nonce + 2)

    // The wallet was asked for exactly two transactions: approve(guard, amountIn) on the token, then
    // the swap through the guard, which calls the service's router with its calldata.
    expect(sent).toHaveLength(2)
    const [approve, swap] = sent.map((r) => (r.params as [{ to: Address; data: `0x${string}` }])[0])
    expect(approve?.to.toLowerCase()).toBe(TKA.toLowerCase())
    expect(decodeFunctionData({ abi: erc20Abi, data: approve?.data ?? '0x' }).args).toEqual([
      swapGuardAddress,
      amountIn,
    ])
    expect(swap?.to.toLowerCase()).toBe(swapGuardAddress.toLowerCase())
    const guarded = guardedSwapOf(swap?.data)
    expect(guarded.router).toBe(h.fixture.router)
    expect(guarded.spender).toBe(h.fixture.spender)
    expect(guarded.minAmountOut).toBe(getMinAmountOut(expected.amountOut, 0.01))
    expect(decodeFunctionData({ abi: swapRouterAbi, data: guarded.data }).args[0]).toEqual(expected.path)

    expect([...new Set(steps.map((s) => s.status))]).toEqual(['quoting', 'approving', 'swapping', 'success'])
    expect(steps.map((s) => s.action)).toEqual([
      'fetching-quote',
      'fetching-quote',
      'checking-chain',
      'checking-allowance',
      'simulating', // the approval and the swap, together, on the current state
      'simulating',
      'approving',
      'waiting-for-approval',
      'simulating', // the swap again, on the state the approval left
      'simulating',
      'sending-swap',
      'waiting-for-swap',
      'done',
    ])
    // What the simulation predicted is what the chain did; a wallet without EIP-5792 gets two transactions.
    expect(result?.simulated).toMatchObject({
      amountIn,
      amountOut: expected.amountOut,
      method: 'eth_simulateV1',
    })
    expect(result?.realized).toEqual({ amountIn, amountOut: expected.amountOut, method: 'receipt' })
    expect(result?.mode).toBe('sequential')
    expect(result?.transactionHashes).toEqual([result?.approvalHash, result?.swapHash])
  })

  test('a sufficient existing allowance: no approve is sent', async () => {
    const TKA = h.address('TKA')
    const TKB = h.address('TKB')
    await h.approve('TKA', parseEther('100'))
    const amountIn = parseEther('10')
    const expected = quote(TKA, TKB, amountIn)
    const before = await state(['TKA', 'TKB'])

    const { result, error, sent } = await run({ token0: TKA, token1: TKB, amountIn })
    expect(error).toBeUndefined()
    expect(result?.approvalHash).toBeUndefined()
    expect(sent).toHaveLength(1)

    const after = await state(['TKA', 'TKB'])
    expect(after.nonce).toBe(before.nonce + 1)
    expect(after.allowances.TKA).toBe(parseEther('90'))
    expect(after.balances.TKB).toBe(before.balances.TKB + expected.amountOut)
  })

  test('USDT style: a non-zero allowance too small is set to 0 first, then to the amount', async () => {
    const USDT = h.address('USDT')
    const USDC = h.address('USDC')
    await h.approve('USDT', parseUnits('1', 6))
    const amountIn = parseUnits('250', 6)
    const expected = quote(USDT, USDC, amountIn)
    const before = await state(['USDT', 'USDC'])

    const { result, error, sent } = await run({ token0: USDT, token1: USDC, amountIn })
    expect(error).toBeUndefined()
    expect(result?.resetHash).toBeDefined()
    expect(result?.approvalHash).toBeDefined()
    // approve(guard, 0), approve(guard, amountIn), then the swap through the guard.
    const calls = sent.map((r) => (r.params as [{ to: Address; data: `0x${string}` }])[0])
    expect(
      calls.slice(0, 2).map((call) => decodeFunctionData({ abi: erc20Abi, data: call.data }).args),
    ).toEqual([
      [swapGuardAddress, 0n],
      [swapGuardAddress, amountIn],
    ])
    expect(calls[2]?.to.toLowerCase()).toBe(swapGuardAddress.toLowerCase())

    const after = await state(['USDT', 'USDC'])
    expect(after.nonce).toBe(before.nonce + 3)
    expect(after.allowances.USDT).toBe(0n)
    expect(after.balances.USDT).toBe(before.balances.USDT - amountIn)
    expect(after.balances.USDC).toBe(before.balances.USDC + expected.amountOut)
  })

  test('resetAllowance: true forces the reset on any token', async () => {
    await h.approve('TKA', 5n)
    const { result, error } = await run({
      token0: h.address('TKA'),
      token1: h.address('USDC'),
      amountIn: parseEther('1'),
      resetAllowance: true,
    })
    expect(error).toBeUndefined()
    expect(result?.resetHash).toBeDefined()
  })

  test('approval: "infinite" approves 2^256 - 1, only when asked', async () => {
    const { error } = await run({
      token0: h.address('TKA'),
      token1: h.address('USDC'),
      amountIn: parseEther('1'),
      approval: 'infinite',
    })
    expect(error).toBeUndefined()
    expect(await h.allowance('TKA')).toBe(maxUint256)
  })

  test('native in: no approval, the value is sent, balances exact to the wei (gas included)', async () => {
    const ETH = h.address('ETH')
    const USDC = h.address('USDC')
    const amountIn = parseEther('1.5')
    const expected = quote(ETH, USDC, amountIn)
    const before = await state(['ETH', 'USDC'])

    const { result, error, sent } = await run({ token0: ETH, token1: USDC, amountIn })
    expect(error).toBeUndefined()
    expect(result?.approvalHash).toBeUndefined()
    expect(result?.swapInfo.approvalAddress).toBeNull()
    expect(sent).toHaveLength(1)
    expect((sent[0]?.params as [{ value: `0x${string}` }] | undefined)?.[0].value).toBe(
      `0x${amountIn.toString(16)}`,
    )

    const receipt = result?.receipt
    const gas = (receipt?.gasUsed ?? 0n) * (receipt?.effectiveGasPrice ?? 0n)
    const after = await state(['ETH', 'USDC'])
    expect(after.balances.ETH).toBe(before.balances.ETH - amountIn - gas)
    expect(after.balances.USDC).toBe(before.balances.USDC + expected.amountOut)
    expect(after.nonce).toBe(before.nonce + 1)
  })

  test('a reverting swap is caught by simulation: the wallet is never asked, nothing is sent', async () => {
    const other = await h.otherServer({ router: h.fixture.revertingRouter })
    try {
      const before = await state(['ETH', 'USDC'])
      const { error, sent } = await run(
        {
          token0: h.address('ETH'),
          token1: h.address('USDC'),
          amountIn: parseEther('1'),
          trustedAddresses: { [h.fixture.chain.id]: [h.fixture.revertingRouter] },
        },
        h.wallet(),
        other.client,
      )
      expect(error).toBeInstanceOf(SwapSimulationError)
      expect((error as SwapSimulationError).reason).toBe('RevertingRouter: swap disabled')
      expect(sent).toHaveLength(0)
      expect(await state(['ETH', 'USDC'])).toEqual(before)
    } finally {
      await other.stop()
    }
  })

  test('a reverted approval stops the flow: TransactionRevertedError and no swap', async () => {
    const { testClient, deployerClient, publicClient } = h.fixture
    const TKA = h.address('TKA')
    const before = await state()
    await testClient.setAutomine(false)
    try {
      // The approval leaves the wallet; before it is mined, the token starts refusing approvals
      // (a transaction with a higher tip, so it is ordered first in the block).
      const { error, sent } = await run({
        token0: TKA,
        token1: h.address('USDC'),
        amountIn: parseEther('3'),
        onStep: (step) => {
          if (step.action !== 'waiting-for-approval') return
          void (async () => {
            await deployerClient.writeContract({
              address: TKA,
              abi: testErc20Abi,
              functionName: 'setApproveReverts',
              args: [true],
              maxPriorityFeePerGas: parseGwei('100'),
              maxFeePerGas: parseGwei('200'),
            })
            await testClient.mine({ blocks: 1 })
          })()
        },
      })
      expect(error).toBeInstanceOf(TransactionRevertedError)
      expect((error as TransactionRevertedError).stage).toBe('approval')
      const receipt = await publicClient.getTransactionReceipt({
        hash: (error as TransactionRevertedError).hash,
      })
      expect(receipt.status).toBe('reverted')
      expect(sent).toHaveLength(1)
    } finally {
      await testClient.setAutomine(true)
    }
    const after = await state()
    expect(after.nonce).toBe(before.nonce + 1) // the reverted approval, and nothing else
    expect(after.allowances.TKA).toBe(0n)
    expect(after.balances).toEqual(before.balances)
  })

  /**
   * Runs a swap (TKA → USDC unless told) with automine off on a page that logs its node
   * requests; once the flow waits for its first transaction (the pending transaction read),
   * `meanwhile` gets that transaction, then one block is mined and automine is back.
   */
  async function firstTransactionMinedWith(
    meanwhile: (approval: Transaction) => Promise<Hex>,
    token0 = h.address('TKA'),
  ) {
    const { testClient, publicClient } = h.fixture
    const page = h.dyingPage()
    const wallet = h.wallet()
    const storage = createMemoryStorage()
    const amountIn = parseEther('3')
    const token1 = h.address('USDC')
    await testClient.setAutomine(false)
    try {
      const flow = executeSwap(h.swapClient(), {
        walletClient: wallet.walletClient,
        publicClient: page.publicClient,
        token0,
        token1,
        amountIn,
        minAmountOut: defaultFloor({ token0, token1, amountIn }),
        trustedAddresses: { [h.fixture.chain.id]: [h.fixture.router, h.fixture.spender] },
        storage,
      }).catch((error: Error) => error)
      const read = await h.until('the wait read the pending approval', () =>
        page.requests.find((request) => request.method === 'eth_getTransactionByHash'),
      )
      const approval = await publicClient.getTransaction({ hash: (read.params as [Hex])[0] })
      const other = await meanwhile(approval)
      await testClient.mine({ blocks: 1 })
      await testClient.setAutomine(true)
      const outcome = await flow
      return {
        error: outcome instanceof Error ? outcome : undefined,
        result: outcome instanceof Error ? undefined : (outcome as ExecuteSwapReturnType),
        approval,
        other,
        sent: wallet.sendRequests(),
        storage,
        amountIn,
      }
    } finally {
      await testClient.setAutomine(true)
    }
  }

  test('an approval the wallet cancelled (same nonce, higher fee): TransactionReplacedError, no swap', async () => {
    const { userClient, accounts } = h.fixture
    const before = await state()
    // The user cancels the approval in the wallet: nothing sent to themselves at its nonce, for more.
    const { error, approval, other, sent, storage } = await firstTransactionMinedWith((pending) =>
      userClient.sendTransaction({
        to: accounts.user.address,
        value: 0n,
        nonce: pending.nonce,
        maxFeePerGas: (pending.maxFeePerGas ?? 0n) * 2n,
        maxPriorityFeePerGas: (pending.maxPriorityFeePerGas ?? 0n) * 2n + 1n,
      }),
    )
    expect(error).toBeInstanceOf(TransactionReplacedError)
    expect(error).toMatchObject({
      stage: 'approval',
      reason: 'cancelled',
      hash: approval.hash,
      replacementHash: other,
    })
    expect((error as TransactionReplacedError).leftoverAllowance).toBeUndefined()
    expect(sent).toHaveLength(1) // the approval; never the swap
    expect(await getPendingSwaps(storage)).toEqual([]) // settled: its nonce is spent, nothing to resume
    const after = await state()
    expect(after.nonce).toBe(before.nonce + 1)
    expect(after.allowances.TKA).toBe(0n)
    expect(after.balances.TKA).toBe(before.balances.TKA)
    expect(after.balances.USDC).toBe(before.balances.USDC)
  })

  test('a swap sped up in the wallet (the same call at a higher fee): the swap went through, under its new hash', async () => {
    const { userClient } = h.fixture
    const ETH = h.address('ETH')
    const expected = quote(ETH, h.address('USDC'), parseEther('3'))
    const before = await state(['USDC'])
    const { result, error, approval, other, storage } = await firstTransactionMinedWith(
      (pending) =>
        userClient.sendTransaction({
          to: pending.to as Address,
          data: pending.input,
          value: pending.value,
          nonce: pending.nonce,
          // The original's gas: estimated on the pending state, where the original already ran, the
          // same call would fail its 0.5 % floor.
          gas: pending.gas,
          maxFeePerGas: (pending.maxFeePerGas ?? 0n) * 2n,
          maxPriorityFeePerGas: (pending.maxPriorityFeePerGas ?? 0n) * 2n + 1n,
        }),
      ETH,
    )
    expect(error).toBeUndefined()
    expect(other).not.toBe(approval.hash)
    expect(result).toMatchObject({ swapHash: other, receipt: { transactionHash: other, status: 'success' } })
    expect(result?.realized).toEqual({
      amountIn: parseEther('3'),
      amountOut: expected.amountOut,
      method: 'receipt',
    })
    expect(await getPendingSwaps(storage)).toEqual([])
    const after = await state(['USDC'])
    expect(after.nonce).toBe(before.nonce + 1)
    expect(after.balances.USDC).toBe(before.balances.USDC + expected.amountOut)
  })

  test('an allowance gone by the time the approval is mined: InsufficientAllowanceError, no swap', async () => {
    const { userClient } = h.fixture
    const before = await state()
    // Another tab of the same wallet sets the allowance back to 0 in the approval's block, after it.
    const { error, sent, storage, amountIn } = await firstTransactionMinedWith((pending) =>
      userClient.writeContract({
        address: h.address('TKA'),
        abi: erc20Abi,
        functionName: 'approve',
        args: [swapGuardAddress, 0n],
        nonce: pending.nonce + 1,
      }),
    )
    expect(error).toBeInstanceOf(InsufficientAllowanceError)
    expect(error).toMatchObject({ allowance: 0n, required: amountIn })
    expect(sent).toHaveLength(1) // the approval; never the swap
    const after = await state()
    expect(after.nonce).toBe(before.nonce + 2)
    expect(after.allowances.TKA).toBe(0n)
    expect(after.balances).toEqual(before.balances)
    // Nothing to resume: the approval no longer stands. The page that saw the failure read the chain
    // as a reload does (one verdict: dropped), and settled the record then: nothing left to list.
    expect(await getPendingSwaps(storage)).toEqual([])
    expect(
      await settlePendingSwaps({
        walletClient: h.wallet().walletClient,
        publicClient: h.fixture.publicClient,
        storage,
      }),
    ).toEqual([])
  })

  test.each([
    ['simulation', undefined],
    ['onchain', 'the guard’s event'],
  ] as const)(
    'a mined swap on a node without old state (%s): success; realized from %s',
    async (enforcement, measured) => {
      const USDC = h.address('USDC')
      const ETH = h.address('ETH')
      const amountIn = 1_000_000_000n // 1000 USDC
      const expected = quote(USDC, ETH, amountIn)
      // A node that pruned old state: balances at a past block fail, as "missing trie node".
      const forward = jsonRpc(h.fixture.rpcUrl)
      const pruned = createPublicClient({
        chain: h.fixture.chain,
        pollingInterval: 50,
        transport: custom(
          {
            request: ({ method, params }) =>
              method === 'eth_getBalance' && (params as unknown[])[1] !== 'latest'
                ? Promise.reject(Object.assign(new Error('missing trie node'), { code: -32000 }))
                : forward(method, params),
          },
          { retryCount: 0 },
        ),
      }) as PublicClient
      const storage = createMemoryStorage()
      const wallet = h.wallet()
      const before = { USDC: await h.balance('USDC'), nonce: await h.nonce() }
      const outcome = await executeSwap(h.swapClient(), {
        walletClient: wallet.walletClient,
        publicClient: pruned,
        token0: USDC,
        token1: ETH,
        amountIn,
        acceptedQuote: expected,
        trustedAddresses: { [h.fixture.chain.id]: [h.fixture.router, h.fixture.spender] },
        storage,
        floorEnforcement: enforcement,
      }).catch((error: unknown) => error)
      expect(outcome).not.toBeInstanceOf(Error)
      const result = outcome as ExecuteSwapReturnType
      expect(result.receipt.status).toBe('success')
      expect(result.swapHash).toBe(result.receipt.transactionHash)
      expect(result.simulated).toMatchObject({ amountIn, amountOut: expected.amountOut })
      expect(result.floorEnforcement).toBe(enforcement)
      if (measured) {
        // What the guard measured on chain, read from its event: no past balance needed.
        expect(result.realized).toEqual({ amountIn, amountOut: expected.amountOut, method: 'receipt' })
        expect(result.realizedError).toBeUndefined()
      } else {
        expect(result.realized).toBeUndefined()
        expect(result.realizedError).toMatchObject({ details: 'missing trie node' })
      }
      expect(await getPendingSwaps(storage)).toEqual([]) // settled: the swap is mined
      expect(wallet.sendRequests()).toHaveLength(2)
      expect(await h.balance('USDC')).toBe(before.USDC - amountIn)
      expect(await h.nonce()).toBe(before.nonce + 2)
    },
  )

  describe('a swap front-run below the floor after its last simulation (native output)', () => {
    /** USDC → ETH, the service's calldata without a floor; a front-run halves the ETH reserve right before the swap. */
    async function frontRunThenSwap(
      publicClient: PublicClient,
      floorEnforcement: 'onchain' | 'simulation' = 'simulation',
    ) {
      const USDC = h.address('USDC')
      const ETH = h.address('ETH')
      const amountIn = 1_000_000_000n
      const expected = quote(USDC, ETH, amountIn)
      const { deployerClient, router, publicClient: node } = h.fixture
      const wallet = h.wallet()
      let count = 0
      const provider = {
        request: async (args: { method: string; params?: unknown }) => {
          const [call] = (args.params ?? []) as { to?: string; data?: Hex }[]
          const guarded = call?.to?.toLowerCase() === swapGuardAddress.toLowerCase()
          if (
            args.method === 'eth_sendTransaction' &&
            (guarded || call?.to?.toLowerCase() === router.toLowerCase()) &&
            !count++
          ) {
            const routerData = guarded ? guardedSwapOf(call?.data).data : (call?.data as Hex)
            const { args: swapArgs } = decodeFunctionData({ abi: testRouterAbi, data: routerData })
            const path = swapArgs?.[0] as readonly Address[]
            const [a, b] = [path[path.length - 2] as Address, path[path.length - 1] as Address]
            const [ra, rb, fee] = await node.readContract({
              address: router,
              abi: testRouterAbi,
              functionName: 'getPool',
              args: [a, b],
            })
            const hash = await deployerClient.writeContract({
              address: router,
              abi: testRouterAbi,
              functionName: 'setPool',
              args: [a, b, ra, rb / 2n, fee],
            })
            await node.waitForTransactionReceipt({ hash })
          }
          return wallet.provider.request(args as never)
        },
      } as EIP1193Provider
      await h.serveSwap({ token0: USDC, token1: ETH, amountIn })
      return executeSwap(h.swapClient(), {
        walletClient: createWalletClient({
          account: h.fixture.accounts.user.address,
          transport: custom(provider),
          pollingInterval: 50,
        }),
        publicClient,
        token0: USDC,
        token1: ETH,
        amountIn,
        acceptedQuote: expected,
        slippage: 0.01,
        trustedAddresses: { [h.fixture.chain.id]: [h.fixture.router, h.fixture.spender] },
        storage: createMemoryStorage(),
        floorEnforcement,
      }).catch((error: unknown) => error)
    }

    test('through the guard: the mined swap reverts on chain, the user keeps the USDC (only gas spent)', async () => {
      const before = { USDC: await h.balance('USDC'), ETH: await h.balance('ETH'), nonce: await h.nonce() }
      const error = await frontRunThenSwap(h.fixture.publicClient as PublicClient, 'onchain')
      expect(error).toMatchObject({ name: 'TransactionRevertedError', stage: 'swap' })
      expect(await h.balance('USDC')).toBe(before.USDC)
      // The approval was mined, the swap reverted: the guard's allowance is left, and said so (only
      // this account can ever spend it, through the guard, within its own bounds).
      expect(await h.allowance('USDC')).toBe(1_000_000_000n)
      expect((error as UserRejectedError).leftoverAllowance).toMatchObject({
        spender: swapGuardAddress,
        amount: 1_000_000_000n,
      })
      expect(await h.nonce()).toBe(before.nonce + 2)
      const gas = before.ETH - (await h.balance('ETH'))
      expect(gas > 0n && gas < parseEther('0.01')).toBe(true)
    })

    test('signed as it is (floorEnforcement: simulation), a healthy node: UnsafeSwapOutcomeError at the receipt', async () => {
      expect(await frontRunThenSwap(h.fixture.publicClient as PublicClient)).toMatchObject({
        name: 'UnsafeSwapOutcomeError',
        stage: 'receipt',
        violations: [{ type: 'underpaid' }],
      })
    })

    test('a node that fails the past balance read once: retried, still UnsafeSwapOutcomeError', async () => {
      const forward = jsonRpc(h.fixture.rpcUrl)
      let failures = 0
      const flaky = createPublicClient({
        chain: h.fixture.chain,
        pollingInterval: 50,
        transport: custom(
          {
            request: ({ method, params }) =>
              method === 'eth_getBalance' && (params as unknown[])[1] !== 'latest' && failures++ === 0
                ? Promise.reject(Object.assign(new Error('header not found'), { code: -32000 }))
                : forward(method, params),
          },
          { retryCount: 0 },
        ),
      }) as PublicClient
      expect(await frontRunThenSwap(flaky)).toMatchObject({
        name: 'UnsafeSwapOutcomeError',
        stage: 'receipt',
      })
      expect(failures).toBeGreaterThan(1)
    })
  })

  test('a token whose approve always reverts: the simulation sees it, the wallet is never asked', async () => {
    const before = await state(['BAD', 'TKA'])
    const { error, sent } = await run({
      token0: h.address('BAD'),
      token1: h.address('TKA'),
      amountIn: parseEther('1'),
    })
    expect(error).toBeInstanceOf(SwapSimulationError)
    expect(error).toMatchObject({ stage: 'approval', reason: 'TestERC20: approve disabled' })
    expect(sent).toHaveLength(0)
    expect(await state(['BAD', 'TKA'])).toEqual(before)
  })

  test.each([
    ['the approval', 0, 0, 'approval'],
    ['the swap', 1, 1, 'swap'],
  ] as const)(
    'a user rejection at %s: UserRejectedError, nothing after it is sent',
    async (_, rejectAt, mined, stage) => {
      const TKA = h.address('TKA')
      const amountIn = parseEther('2')
      const before = await state()
      const wallet = h.wallet({
        reject: (method, count) => method === 'eth_sendTransaction' && count === rejectAt,
      })
      const { error, sent } = await run({ token0: TKA, token1: h.address('USDC'), amountIn }, wallet)
      expect(error).toBeInstanceOf(UserRejectedError)
      expect((error as UserRejectedError).stage).toBe(stage)
      expect(sent).toHaveLength(rejectAt + 1)
      const after = await state()
      expect(after.nonce).toBe(before.nonce + mined)
      expect(after.balances).toEqual(before.balances)
      expect(after.allowances.TKA).toBe(stage === 'swap' ? amountIn : 0n)
      // After a mined approval, the error says what allowance is left.
      expect((error as UserRejectedError).leftoverAllowance).toEqual(
        stage === 'swap'
          ? {
              chainId: h.fixture.chain.id,
              token: TKA,
              owner: h.fixture.accounts.user.address,
              spender: swapGuardAddress,
              amount: amountIn,
            }
          : undefined,
      )
    },
  )

  test('the wrong chain: ChainMismatchError as the wallet reports it, nothing sent', async () => {
    const before = await state()
    const wallet = h.wallet({ reportedChainId: 1 })
    const { error, sent } = await run(
      { token0: h.address('TKA'), token1: h.address('USDC'), amountIn: parseEther('1') },
      wallet,
    )
    expect(error).toBeInstanceOf(ChainMismatchError)
    expect(error).toMatchObject({ expectedChainId: h.fixture.chain.id, actualChainId: 1, client: 'wallet' })
    expect(wallet.requests.some((r) => r.method === 'wallet_switchEthereumChain')).toBe(true)
    expect(sent).toHaveLength(0)
    expect(await state()).toEqual(before)
  })

  test('the wrong chain, switched by the wallet on request: the swap goes through', async () => {
    const wallet = h.wallet({ reportedChainId: 1, canSwitchChain: true })
    const { error } = await run(
      { token0: h.address('TKA'), token1: h.address('USDC'), amountIn: parseEther('1') },
      wallet,
    )
    expect(error).toBeUndefined()
    expect(wallet.requests.filter((r) => r.method === 'wallet_switchEthereumChain')).toHaveLength(1)
  })

  test('a rejected chain switch is a UserRejectedError', async () => {
    const wallet = h.wallet({
      reportedChainId: 1,
      canSwitchChain: true,
      reject: (method) => method === 'wallet_switchEthereumChain',
    })
    const { error, sent } = await run(
      { token0: h.address('TKA'), token1: h.address('USDC'), amountIn: parseEther('1') },
      wallet,
    )
    expect(error).toBeInstanceOf(UserRejectedError)
    expect((error as UserRejectedError).stage).toBe('chain')
    expect(sent).toHaveLength(0)
  })

  test('an untrusted spender is refused before any signature', async () => {
    const before = await state()
    const { error, sent } = await run({
      token0: h.address('TKA'),
      token1: h.address('USDC'),
      amountIn: parseEther('1'),
      trustedAddresses: { [h.fixture.chain.id]: [h.fixture.router] },
    })
    expect(error).toBeInstanceOf(UntrustedAddressError)
    expect(error).toMatchObject({ role: 'approvalAddress', address: h.fixture.spender })
    expect(sent).toHaveLength(0)
    expect(await state()).toEqual(before)
  })

  test('trusted spender and router (any letter case): the swap goes through', async () => {
    const { error } = await run({
      token0: h.address('TKA'),
      token1: h.address('USDC'),
      amountIn: parseEther('1'),
      trustedAddresses: {
        [h.fixture.chain.id]: [h.fixture.router.toLowerCase() as Address, h.fixture.spender],
      },
    })
    expect(error).toBeUndefined()
  })

  test('a fresh quote below the accepted minimum stops before anything is signed', async () => {
    const TKA = h.address('TKA')
    const USDC = h.address('USDC')
    const amountIn = parseEther('5')
    const expected = quote(TKA, USDC, amountIn)
    const { error, sent } = await run({
      token0: TKA,
      token1: USDC,
      amountIn,
      minAmountOut: expected.amountOut + 1n,
    })
    expect(error).toBeInstanceOf(QuoteBelowMinimumError)
    expect(error).toMatchObject({ estimateAmount: expected.amountOut, minAmountOut: expected.amountOut + 1n })
    expect(sent).toHaveLength(0)

    // An accepted quote at its slippage: a quote seen for more than the market now gives. The error
    // carries both quotes; accepting the new one lets the swap through.
    const shown = (expected.amountOut * 102n) / 100n
    const accepted = await run({
      token0: TKA,
      token1: USDC,
      amountIn,
      slippage: 0.01,
      acceptedQuote: { amountOut: shown },
    })
    expect(accepted.error).toBeInstanceOf(QuoteChangedError)
    expect(accepted.error).toMatchObject({
      acceptedAmount: shown,
      newQuote: { estimateAmount: expected.amountOut },
      minAmountOut: (shown * 99n) / 100n,
    })
    expect(accepted.sent).toHaveLength(0)
    const retried = await run({
      token0: TKA,
      token1: USDC,
      amountIn,
      slippage: 0.01,
      acceptedQuote: (accepted.error as QuoteChangedError).newQuote,
    })
    expect(retried.error).toBeUndefined()
    expect(retried.result?.realized?.amountOut).toBe(expected.amountOut)
  })

  test('a quote fetched for another amount cannot set the floor: refused, nothing sent', async () => {
    const TKA = h.address('TKA')
    const USDC = h.address('USDC')
    // The route on screen while the next amount's loads (TanStack's placeholder): 1 TKA's quote, for 5 TKA
    // a floor five times too low.
    const previous = await getSwapRoute(h.swapClient(), {
      token0: TKA,
      token1: USDC,
      amountIn: parseEther('1'),
    })
    const before = await state()
    for (const swap of [
      { token0: TKA, token1: USDC, amountIn: parseEther('5'), acceptedQuote: previous },
      { token0: TKA, token1: h.address('TKB'), amountIn: parseEther('1'), acceptedQuote: previous },
    ]) {
      const { error, sent } = await run({ ...swap, slippage: 0.01 })
      expect(error).toMatchObject({ name: 'InvalidParameterError', parameter: 'acceptedQuote' })
      expect((error as Error).message).toMatch(/a quote for another amount cannot set the floor/)
      expect(sent).toHaveLength(0)
    }
    expect(await state()).toEqual(before)
    // The route for this very swap (any letter case of the addresses) is accepted.
    const current = await getSwapRoute(h.swapClient(), {
      token0: TKA.toLowerCase() as Address,
      token1: USDC,
      amountIn: parseEther('5'),
    })
    const accepted = await run({
      token0: TKA,
      token1: USDC,
      amountIn: parseEther('5'),
      slippage: 0.01,
      acceptedQuote: current,
    })
    expect(accepted.error).toBeUndefined()
    expect(accepted.result?.realized?.amountOut).toBe(current.amountOut)
  })

  test('bad input never reaches the service or the wallet', async () => {
    const wallet = h.wallet()
    const client = h.swapClient()
    h.server.service.clearLog()
    for (const bad of [
      { token0: 'TKA', token1: h.address('USDC'), amountIn: 1n },
      { token0: h.address('TKA'), token1: h.address('USDC'), amountIn: 0n },
      { token0: h.address('TKA'), token1: h.address('USDC'), amountIn: 1n, slippage: 2 },
      { token0: h.address('TKA'), token1: h.address('USDC'), amountIn: 1n, approval: 'unlimited' },
      {
        token0: h.address('TKA'),
        token1: h.address('USDC'),
        amountIn: 1n,
        trustedAddresses: { 1: ['router'] },
      },
      {
        token0: h.address('TKA'),
        token1: h.address('USDC'),
        amountIn: 1n,
        trustedAddresses: [h.fixture.router],
      },
      { token0: h.address('TKA'), token1: h.address('TKA'), amountIn: 1n },
    ]) {
      const { error } = await run(bad as never, wallet, client)
      expect(error).toBeInstanceOf(InvalidParameterError)
    }
    // No allowlist and no explicit opt-out, or no floor: refused, naming what is missing.
    const swap = { token0: h.address('TKA'), token1: h.address('USDC'), amountIn: 1n }
    const clients = { walletClient: wallet.walletClient, publicClient: h.fixture.publicClient }
    const noAllowlist = await executeSwap(client, { ...clients, ...swap, minAmountOut: 1n }).catch(
      (e: unknown) => e,
    )
    expect(noAllowlist).toMatchObject({ name: 'InvalidParameterError', parameter: 'trustedAddresses' })
    const noFloor = await executeSwap(client, {
      ...clients,
      ...swap,
      trustedAddresses: { [h.fixture.chain.id]: [h.fixture.router, h.fixture.spender] },
    }).catch((e: unknown) => e)
    expect(noFloor).toMatchObject({ name: 'InvalidParameterError', parameter: 'minAmountOut' })
    const noAccount = await executeSwap(client, {
      walletClient: { ...wallet.walletClient, account: undefined } as never,
      publicClient: h.fixture.publicClient,
      token0: h.address('TKA'),
      token1: h.address('USDC'),
      amountIn: 1n,
      minAmountOut: 1n,
      dangerouslyTrustAnyAddress: true,
    }).catch((e: unknown) => e)
    expect(noAccount).toMatchObject({ name: 'InvalidParameterError', parameter: 'walletClient.account' })
    expect(h.server.service.count()).toBe(0)
    expect(wallet.requests).toHaveLength(0)
  })
})
