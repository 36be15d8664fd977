import { type Address, createPublicClient, custom, type Hex, InsufficientFundsError, parseEther } from 'viem'
import { describe, expect, test } from 'vitest'
import { setupSwapHarness } from '../../../test/evm/swapHarness.js'
import { WalletError } from '../errors/execute.js'
import { InvalidParameterError } from '../errors/parameter.js'
import { executeSwap } from './executeSwap.js'
import { gasPriceOracleAddress, getMaxAmount } from './getMaxAmount.js'

const h = setupSwapHarness()
const user = () => h.fixture.accounts.user.address
const trusted = () => ({ [h.fixture.chain.id]: [h.fixture.router, h.fixture.spender] })

/** A public client that records every method it is asked for. */
function recordingClient() {
  const methods: string[] = []
  const publicClient = createPublicClient({
    chain: h.fixture.chain,
    transport: custom({
      request({ method, params }: { method: string; params?: unknown }) {
        methods.push(method)
        return h.fixture.publicClient.request({ method, params } as never)
      },
    }),
  })
  return { publicClient, methods }
}

const max = (parameters: Partial<Parameters<typeof getMaxAmount>[1]> = {}) =>
  getMaxAmount(h.swapClient(), {
    publicClient: h.fixture.publicClient,
    walletClient: h.wallet().walletClient,
    account: user(),
    token0: h.address('ETH'),
    token1: h.address('USDC'),
    trustedAddresses: trusted(),
    ...parameters,
  })

const swap = (amountIn: bigint, wallet = h.wallet()) =>
  executeSwap(h.swapClient(), {
    walletClient: wallet.walletClient,
    publicClient: h.fixture.publicClient,
    token0: h.address('ETH'),
    token1: h.address('USDC'),
    amountIn,
    minAmountOut: 1n,
    trustedAddresses: trusted(),
    storage: false,
  })

const setBalance = (value: bigint) => h.fixture.testClient.setBalance({ address: user(), value })

describe('getMaxAmount on anvil', () => {
  test('the chain’s coin: the balance less the fee of the guarded swap; spending exactly that succeeds', async () => {
    await setBalance(parseEther('2'))
    const result = await max()
    const { amount, balance, fee = 0n, gas = 0n, feePerGas = 0n } = result
    expect(balance).toBe(parseEther('2'))
    expect(result.reason).toBeUndefined()
    expect(result.l1Fee).toBeUndefined() // anvil is no OP-stack chain: the oracle has no code
    expect(fee).toBe(gas * feePerGas)
    expect(amount).toBe(balance - fee)
    // The fee per gas is the next block's base fee × 1.2 + the priority fee: at least the base fee.
    const block = await h.fixture.publicClient.getBlock()
    expect(feePerGas).toBeGreaterThanOrEqual(block.baseFeePerGas ?? 0n)

    const wallet = h.wallet()
    const swapped = await swap(amount, wallet)
    expect(swapped.realized?.amountIn).toBe(amount)
    // What is left is what the fee reserved less what the swap paid for gas: never below 0.
    const paid = swapped.receipt.gasUsed * swapped.receipt.effectiveGasPrice
    expect(await h.balance('ETH')).toBe(balance - amount - paid)
    expect(paid).toBeLessThanOrEqual(fee)
    // The swap's gas limit (the guard's, from executeSwap's own simulation of that amount) is within the one reserved.
    const sent = await h.fixture.publicClient.getTransaction({ hash: swapped.swapHash })
    expect(sent.gas).toBeLessThanOrEqual(gas)
    expect(Number(sent.gas)).toBeGreaterThan(Number(gas) / 1.25)
  })

  test('1% more than the max fails for lack of funds, and nothing is sent', async () => {
    await setBalance(parseEther('2'))
    const { amount } = await max()
    const wallet = h.wallet()
    const nonce = await h.nonce()
    const error = await swap((amount * 101n) / 100n, wallet).catch((caught: unknown) => caught)
    expect(error).toBeInstanceOf(Error)
    // executeSwap's own simulation of the swap, at the wallet's fees, finds the funds short: a WalletError
    // of the simulation stage, viem's InsufficientFundsError as its cause; no transaction was asked for.
    expect(error).toBeInstanceOf(WalletError)
    expect(error).toMatchObject({ stage: 'simulation' })
    expect((error as WalletError).walk((cause) => cause instanceof InsufficientFundsError)).toBeInstanceOf(
      InsufficientFundsError,
    )
    expect(wallet.sendRequests()).toEqual([])
    expect(await h.nonce()).toBe(nonce)
    expect(await h.balance('ETH')).toBe(parseEther('2'))
  })

  test('an ERC-20: the balance, no fee, no quote', async () => {
    const before = h.server.service.count()
    const result = await max({ token0: h.address('TKA'), token1: h.address('TKB') })
    expect(result).toEqual({
      amount: await h.balance('TKA'),
      balance: await h.balance('TKA'),
      fee: undefined,
    })
    expect(h.server.service.count()).toBe(before)
  })

  test('a balance below the fee: 0 with fee-exceeds-balance; no balance: 0 with no-balance and no request', async () => {
    // Below what any transaction costs (21 000 gas): no quote is asked for.
    await setBalance(1000n)
    const quotes = h.server.service.count('/swap/info')
    const dust = await max()
    expect(dust).toMatchObject({ amount: 0n, balance: 1000n, gas: 21_000n, reason: 'fee-exceeds-balance' })
    expect(dust.fee).toBe(21_000n * (dust.feePerGas ?? 0n))
    expect(h.server.service.count('/swap/info')).toBe(quotes)
    // Above that, below the swap's fee: the swap's calls are priced, and the fee is still too much.
    const { feePerGas = 0n } = dust
    await setBalance(50_000n * feePerGas)
    const short = await max()
    expect(short).toMatchObject({ amount: 0n, balance: 50_000n * feePerGas, reason: 'fee-exceeds-balance' })
    expect(short.fee).toBeGreaterThan(short.balance)
    expect(short.gas).toBeGreaterThan(50_000n)

    await setBalance(0n)
    const before = h.server.service.count()
    expect(await max()).toEqual({ amount: 0n, balance: 0n, fee: undefined, reason: 'no-balance' })
    expect(h.server.service.count()).toBe(before)
    await h.fixture.testClient.setBalance({ address: user(), value: parseEther('10000') })
  })

  test('a wallet that batches (EIP-5792): a native input has no approval to batch, the same max', async () => {
    await setBalance(parseEther('2'))
    const wallet = h.wallet({ eip5792: {} })
    const batching = await max({ walletClient: wallet.walletClient })
    const plain = await max()
    expect(batching).toEqual(plain)
    expect(wallet.requests.map(({ method }) => method)).not.toContain('wallet_getCapabilities')
    // An ERC-20 through a batching wallet or Permit2: still the balance (its fee is paid in the coin).
    const tka = await max({ walletClient: wallet.walletClient, token0: h.address('TKA'), permit2: 'approve' })
    expect(tka.amount).toBe(await h.balance('TKA'))
  })

  test('an OP-stack GasPriceOracle that answers: its L1 data fee × 1.2 is reserved too', async () => {
    await setBalance(parseEther('2'))
    // getL1Fee(bytes) of any transaction: 10^12 wei (PUSH5 1e12, MSTORE at 0, RETURN 32 bytes).
    const code: Hex = '0x64e8d4a5100060005260206000f3'
    await h.fixture.testClient.setCode({ address: gasPriceOracleAddress, bytecode: code })
    const result = await max()
    expect(result.l1Fee).toBe(1_200_000_000_000n)
    expect(result.fee).toBe((result.gas ?? 0n) * (result.feePerGas ?? 0n) + 1_200_000_000_000n)
    expect(result.amount).toBe(parseEther('2') - (result.fee ?? 0n))
    await h.fixture.testClient.setCode({ address: gasPriceOracleAddress, bytecode: '0x' })
  })

  test('a malformed parameter is an InvalidParameterError before any request', async () => {
    const { publicClient, methods } = recordingClient()
    const before = h.server.service.count()
    for (const bad of [
      { token0: 'ETH' as Address },
      { token1: '0x1234' as Address },
      { account: 'me' as Address },
      { publicClient: {} as never },
    ]) {
      const error = await max({ publicClient, ...bad }).catch((caught: unknown) => caught)
      expect(error).toBeInstanceOf(InvalidParameterError)
    }
    expect(methods).toEqual([])
    expect(h.server.service.count()).toBe(before)
  })
})
