/**
 * What a widget meets in production wallets, on anvil: a capability probe
 * that never answers, a user who declines the wallet's upgrade to batch, a
 * contract wallet's hash that never appears, a paymaster only where the
 * wallet reports one, what allowance a swap leaves, and the event stream.
 */
import { decodeFunctionData, erc20Abi, maxUint256, parseEther } from 'viem'
import { describe, expect, test } from 'vitest'
import { setupSwapHarness } from '../../../test/evm/swapHarness.js'
import type { TestWallet, TestWalletOptions } from '../../../test/evm/wallet.js'
import { OutcomeUnknownError, TransactionNotSeenError } from '../errors/execute.js'
import { type ExecuteSwapParameters, executeSwap, type SwapEvent } from './executeSwap.js'
import { swapGuardAddress } from './guard/swapGuard.js'
import { createMemoryStorage, getPendingSwaps } from './records/pendingSwaps.js'

const h = setupSwapHarness()
const amountIn = parseEther('10')

async function run(wallet: TestWallet, extra: Partial<ExecuteSwapParameters> = {}) {
  const token0 = h.address('TKA')
  const token1 = h.address('TKB')
  const events: SwapEvent[] = []
  const outcome = await executeSwap(h.swapClient(), {
    walletClient: wallet.walletClient,
    publicClient: h.fixture.publicClient,
    token0,
    token1,
    amountIn,
    acceptedQuote: h.market.quote({ token0, token1, amountIn }),
    slippage: 0.01,
    trustedAddresses: { [h.fixture.chain.id]: [h.fixture.router, h.fixture.spender] },
    onEvent: (event) => events.push(event),
    ...extra,
  }).then(
    (result) => ({ result, error: undefined }),
    (error: unknown) => ({ result: undefined, error }),
  )
  return { ...outcome, events, sent: wallet.sendRequests(), batches: wallet.batchRequests() }
}

const batching = (eip5792: NonNullable<TestWalletOptions['eip5792']>) => h.wallet({ eip5792 })

describe('wallet capabilities', () => {
  test('a wallet that never answers wallet_getCapabilities: two transactions after the time limit, not a stuck button', async () => {
    const started = Date.now()
    const { result, error, sent, batches } = await run(batching({ hangCapabilities: true }), {
      capabilitiesTimeoutMs: 300,
    })
    expect(error).toBeUndefined()
    expect(result?.mode).toBe('sequential')
    expect(sent).toHaveLength(2)
    expect(batches).toHaveLength(0)
    expect(Date.now() - started).toBeLessThan(15_000)
  })

  test('the user declines the wallet’s upgrade to batch (EIP-5792 5750): the same calls, one after the other', async () => {
    const before = await h.funds()
    const { result, error, sent, batches } = await run(batching({ declineUpgrade: true }))
    expect(error).toBeUndefined()
    expect(batches).toHaveLength(1) // the batch asked for, declined
    expect(sent).toHaveLength(2) // then the approval and the swap
    expect(result?.mode).toBe('sequential')
    const after = await h.funds()
    expect(after.TKA).toBe(before.TKA - amountIn)
    expect(after.allowance).toBe(0n)
  })

  test('a paymaster goes to wallet_sendCalls only where the wallet reports paymasterService', async () => {
    const paymaster = { url: 'https://paymaster.example/rpc', context: { policy: 'swap' } }
    const reported = await run(batching({ paymaster: true }), { paymaster })
    expect(reported.error).toBeUndefined()
    const [request] = (reported.batches[0] as { params: [{ capabilities?: unknown }] }).params
    expect(request.capabilities).toEqual({ paymasterService: paymaster })

    const silent = await run(batching({}), { paymaster })
    expect(silent.error).toBeUndefined()
    const [plain] = (silent.batches[0] as { params: [{ capabilities?: unknown }] }).params
    expect(plain.capabilities).toBeUndefined()
  })
})

describe('contract wallets', () => {
  test('a hash no node ever sees (a Safe’s own id): TransactionNotSeenError, an unknown outcome that says what to check, the record kept', async () => {
    const storage = createMemoryStorage()
    await h.approve('TKA', amountIn) // the swap alone: its hash is the one that never appears
    const started = Date.now()
    const { error } = await run(h.wallet({ neverBroadcast: true }), {
      storage,
      notSeenTimeoutMs: 500,
      receiptTimeoutMs: 120_000,
    })
    expect(error).toBeInstanceOf(TransactionNotSeenError)
    expect(error).toBeInstanceOf(OutcomeUnknownError)
    expect((error as Error).message).toMatch(/wallet's queue/)
    expect(Date.now() - started).toBeLessThan(15_000) // not the receipt timeout
    expect(await getPendingSwaps(storage)).toHaveLength(1)
  })
})

describe('what a swap leaves, and what it tells', () => {
  test('an infinite approval: the allowance left after the receipt is reported on the result', async () => {
    const { result, error } = await run(h.wallet(), { approval: 'infinite' })
    expect(error).toBeUndefined()
    // The token may not spend an infinite allowance down (most do not): at least max - amountIn is left.
    expect(result?.leftoverAllowance?.spender).toBe(swapGuardAddress)
    expect(result?.leftoverAllowance?.amount).toBeGreaterThanOrEqual(maxUint256 - amountIn)
  })

  test('an exact approval the swap spent: nothing left, nothing reported', async () => {
    const { result } = await run(h.wallet())
    expect(result?.leftoverAllowance).toBeUndefined()
  })

  test('signed as it is (floorEnforcement: simulation), a batch sets the spender’s approval back to 0 after the swap', async () => {
    const { result, error, batches } = await run(batching({}), { floorEnforcement: 'simulation' })
    expect(error).toBeUndefined()
    const [{ calls }] = (batches[0] as { params: [{ calls: { to: string; data: `0x${string}` }[] }] }).params
    expect(calls).toHaveLength(3)
    expect(decodeFunctionData({ abi: erc20Abi, data: calls[2]?.data ?? '0x' }).args).toEqual([
      h.fixture.spender,
      0n,
    ])
    expect(result?.leftoverAllowance).toBeUndefined()
  })

  test('onEvent: approval sent and mined, swap sent and mined, success; a failure with its stable code', async () => {
    const { events } = await run(h.wallet())
    expect(events.map((event) => event.type)).toEqual([
      'approval-sent',
      'approval-mined',
      'swap-sent',
      'swap-mined',
      'success',
    ])
    expect(events.at(-1)).toMatchObject({ floorEnforcement: 'onchain', chainId: h.fixture.chain.id })

    const rejected = await run(h.wallet({ reject: (method) => method === 'eth_sendTransaction' }))
    expect(rejected.events).toEqual([{ type: 'failure', code: 'USER_REJECTED', error: rejected.error }])
  })
})
