import type { Address, Chain, PublicClient, Transport } from 'viem'
import { Eip1559FeesNotSupportedError, erc20Abi } from 'viem'
import { estimateFeesPerGas } from 'viem/actions'
import { estimateL1Fee } from 'viem/op-stack'
import type { SwapClient } from '../client.js'
import { isNativeToken } from '../constants.js'
import { ensure } from '../errors/parameter.js'
import { assertAddress, isObject } from '../utils/validate.js'
import { type GetSwapPreviewParameters, getSwapPreview } from './getSwapPreview.js'
import type { SwapCall } from './types.js'

/**
 * The swap "Max" is for: the preview's parameters without an amount (the balance is the amount) and
 * without the quote, the prices or the price-impact limits (the fee does not depend on them).
 */
export type GetMaxAmountParameters = Omit<
  GetSwapPreviewParameters,
  'amountIn' | 'swapInfo' | 'quotedAt' | 'quoteTtlMs' | 'prices' | 'priceImpactThresholds'
>

/**
 * Why `amount` is 0: `'no-balance'` (nothing held), `'fee-exceeds-balance'` (the chain's coin, and the
 * fee reserved is at least the balance), `'fee-unknown'` (the chain's coin, and the swap's calls could
 * not be simulated: a guard not deployed, a call that reverts; nothing is offered rather than a Max
 * that leaves no gas).
 */
export type MaxAmountReason = 'no-balance' | 'fee-exceeds-balance' | 'fee-unknown'

/** What `getMaxAmount` resolves to. */
export type MaxAmount = {
  /** What "Max" should fill in, in token0's smallest unit: the balance, less the fee for the chain's coin; never negative. */
  amount: bigint
  /** The account's token0 balance. */
  balance: bigint
  /** The wei reserved for the swap's fee (the chain's coin only; `undefined` for an ERC-20, or with no balance). */
  fee: bigint | undefined
  /** The parts of `fee`: the gas reserved, the fee per gas it is priced at, the OP-stack L1 data fee (`undefined` elsewhere). */
  gas?: bigint | undefined
  feePerGas?: bigint | undefined
  l1Fee?: bigint | undefined
  /** Set when `amount` is 0. */
  reason?: MaxAmountReason | undefined
}

/**
 * The OP-stack predeploy that prices a transaction's L1 data (`getL1Fee(bytes)`); on other chains it has no
 * code, and the read fails.
 */
export const gasPriceOracleAddress: Address = '0x420000000000000000000000000000000000000F'

/** The margin on the gas limit and on the L1 data fee: 20% (the amount and floor the swap is sent with differ a little from the balance's). */
const margin = { numerator: 12n, denominator: 10n }

/**
 * The most of `token0` the account can swap for `token1`. For an ERC-20 it is
 * the balance. For the chain's coin it is the balance less the fee of the
 * exact calls `executeSwap` will send (`getSwapPreview`'s, for the whole
 * balance: the gas of a swap barely depends on its amount), priced for
 * prices that move:
 *
 * - gas: the limit the wallet will be held to, × 1.2: the guarded swap's own
 *   gas limit (what `executeSwap` sends: the gas simulated + 30% + 30 000),
 *   else the gas simulated (what the wallet estimates);
 * - per gas: viem's `estimateFeesPerGas`: the next block's base fee × 1.2
 *   (the chain's `fees.baseFeeMultiplier` where it has one) + the priority
 *   fee, or the legacy gas price × 1.2 where blocks have no base fee;
 * - on OP-stack chains, plus the L1 data fee the chain's GasPriceOracle
 *   (`0x42…0F`) quotes for the calls, × 1.2 (skipped where it does not answer).
 *
 * Never negative: a fee at or above the balance is `amount: 0n` with
 * `reason: 'fee-exceeds-balance'` (a balance below a plain transfer's fee,
 * 21 000 gas, without asking for a quote). One `/swap/info` for the balance
 * (the calls to simulate), no price request; a malformed parameter is an
 * `InvalidParameterError` before any request.
 *
 * @example
 * import { getMaxAmount } from 'token-swap-hooks/core'
 *
 * const { amount, reason } = await getMaxAmount(client, { publicClient, walletClient, account, token0, token1 })
 * setAmountIn(amount) // 0n with a reason when nothing is spendable
 */
export async function getMaxAmount(
  client: SwapClient,
  parameters: GetMaxAmountParameters,
): Promise<MaxAmount> {
  ensure(isObject(parameters), 'parameters', 'must be an object', parameters)
  const { publicClient, account, token0, token1 } = parameters
  assertAddress('token0', token0)
  assertAddress('token1', token1)
  assertAddress('account', account)
  const reads = typeof publicClient?.readContract === 'function'
  ensure(reads, 'publicClient', 'must be a viem PublicClient', publicClient)
  if (!isNativeToken(token0)) {
    const balance = await publicClient.readContract({
      ...{ address: token0, abi: erc20Abi, functionName: 'balanceOf', args: [account] },
    })
    return balance === 0n ? noBalance : { amount: balance, balance, fee: undefined }
  }
  const [balance, feePerGas] = await Promise.all([
    publicClient.getBalance({ address: account }),
    feePerGasOf(publicClient),
  ])
  if (balance === 0n) return noBalance
  // Not even a plain transfer's gas: no quote is asked for.
  if (balance <= transferGas * feePerGas) return priced(balance, transferGas, feePerGas, undefined)
  // The exact calls of the plan for the whole balance, simulated as the preview does. Prices of 0 stand
  // for "not needed": no price request (the price impact is not read).
  const preview = await getSwapPreview(client, {
    ...{ ...parameters, amountIn: balance },
    prices: { token0: 0, token1: 0 },
  })
  const { networkFee } = preview
  if (!networkFee) return { amount: 0n, balance, fee: undefined, reason: 'fee-unknown' }
  // The limit the wallet will be held to (the guard's, else what it estimates), × 1.2.
  const gas = ((networkFee.gasLimit ?? networkFee.gas) * margin.numerator) / margin.denominator
  return priced(balance, gas, feePerGas, await l1FeeOf(publicClient, account, preview.calls))
}

const noBalance: MaxAmount = { amount: 0n, balance: 0n, fee: undefined, reason: 'no-balance' }

/** What any transaction costs at least. */
const transferGas = 21_000n

function priced(balance: bigint, gas: bigint, feePerGas: bigint, l1Fee: bigint | undefined): MaxAmount {
  const fee = gas * feePerGas + (l1Fee ?? 0n)
  const amount = balance > fee ? balance - fee : 0n
  return {
    ...{ amount, balance, fee, gas, feePerGas, l1Fee },
    ...(amount === 0n ? { reason: 'fee-exceeds-balance' as const } : {}),
  }
}

/** viem's `estimateFeesPerGas`: EIP-1559's `maxFeePerGas`, or the legacy gas price where blocks have no base fee. */
async function feePerGasOf(publicClient: PublicClient<Transport, Chain | undefined>): Promise<bigint> {
  try {
    return (await estimateFeesPerGas(publicClient)).maxFeePerGas
  } catch (error) {
    if (!(error instanceof Eip1559FeesNotSupportedError)) throw error
    return (await estimateFeesPerGas(publicClient, { chain: publicClient.chain, type: 'legacy' })).gasPrice
  }
}

/**
 * The L1 data fee of the calls, × 1.2, from the OP-stack GasPriceOracle (viem's `estimateL1Fee`, one
 * `eth_call` each); `undefined` where the oracle has no code or reverts (not an OP-stack chain).
 */
async function l1FeeOf(
  publicClient: PublicClient<Transport, Chain | undefined>,
  account: Address,
  calls: readonly SwapCall[],
): Promise<bigint | undefined> {
  try {
    const fees = await Promise.all(
      calls.map(({ to, data, value }) =>
        estimateL1Fee(publicClient, {
          chain: publicClient.chain,
          account,
          to,
          data,
          value,
          gasPriceOracleAddress,
        }),
      ),
    )
    const total = fees.reduce((sum, each) => sum + each, 0n)
    return (total * margin.numerator) / margin.denominator
  } catch {
    return undefined
  }
}
