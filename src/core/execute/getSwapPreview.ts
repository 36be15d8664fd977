import type { Address, Chain, PublicClient, Transport } from 'viem'
import { erc20Abi, formatUnits } from 'viem'
import { estimateGas, simulateBlocks } from 'viem/actions'
import { getSwapInfo } from '../actions/getSwapInfo.js'
import { getTokenPrice } from '../actions/getTokenPrice.js'
import type { SwapClient } from '../client.js'
import { isNativeToken, nativeTokenAddress } from '../constants.js'
import { ensure } from '../errors/parameter.js'
import {
  isKnownPrice,
  type PriceImpact,
  type PriceImpactThresholds,
  priceImpactOf,
  type ValueGap,
} from '../prices/priceImpact.js'
import type { SwapInfo } from '../schemas.js'
import { readDecimals } from '../tokens/readDecimals.js'
import { assertAddress, assertRouteParameters } from '../utils/validate.js'
import { checkAddresses } from './rules/checkSwapParameters.js'
import type { BatchMode, SwapPlan, SwapStepKind } from './rules/planSwap.js'
import { approvalSpender, planSwap } from './rules/planSwap.js'
import { asSimulatedCalls, type SwapCall } from './run/checkSwapOutcome.js'
import { readSwapFacts } from './run/readSwapFacts.js'
import { gasLimit as guardGasLimit } from './run/sendSteps.js'
import { runCallsRequest } from './run/stateOverrides.js'
import { toMissingTokenError } from './run/walletErrors.js'
import type { ExecuteSwapParameters, ExecutionClients } from './types.js'

/**
 * What the preview is for: the swap and the options `executeSwap` will be given, the user, and what the
 * caller already has.
 */
export type GetSwapPreviewParameters = Pick<
  ExecuteSwapParameters,
  | 'token0'
  | 'token1'
  | 'amountIn'
  | 'slippage'
  | 'deadline'
  | 'approval'
  | 'permit2'
  | 'resetAllowance'
  | 'floorEnforcement'
  // The click's allowlist, which the preview applies before any chain read: a router or spender
  // outside it fails the preview with `UntrustedAddressError`, as the click would (without one, and
  // without `dangerouslyTrustAnyAddress`, only the swapped tokens and the zero address are refused).
  | 'trustedAddresses'
  | 'dangerouslyTrustAnyAddress'
> & {
  /** Reads balances, allowances, decimals and simulates (the user's `usePublicClient()`). */
  publicClient: ExecutionClients['publicClient']
  /** The wallet, to tell whether approval and swap will go as one batch. */
  walletClient?: ExecutionClients['walletClient'] | undefined
  /** The user; and the recipient (default: `account`). */
  account: Address
  to?: Address | undefined
  /** The floor written into the guard's call, as `executeSwap` will (the fee does not depend on it). Default 0. */
  minAmountOut?: bigint | undefined
  /** `'never'` never counts on a batch. Default `'auto'`. */
  batch?: BatchMode | undefined
  /** The quote and when it was fetched (epoch ms, default now), when the caller has them: no request then. */
  swapInfo?: SwapInfo | undefined
  quotedAt?: number | undefined
  /** How long a quote stays good (the quote's `staleTime`). Default 10 000 ms. */
  quoteTtlMs?: number | undefined
  /**
   * The USD prices the caller already has (the swapped tokens', the native coin's): a key given is not
   * fetched, even `undefined` (no price).
   */
  prices?:
    | { token0?: number | undefined; token1?: number | undefined; native?: number | undefined }
    | undefined
  priceImpactThresholds?: PriceImpactThresholds | undefined
  /** The chain's wrapped native token (WETH), priced for the fee when the native sentinel has no price. */
  wrappedNativeToken?: Address | undefined
  /** The fee's share of the input's USD value at or above which `networkFee.warning` is `'high'`. Default 0.1 (10 %). */
  networkFeeThreshold?: number | undefined
}

/** One step's part of the network fee (a batch's calls one by one): its simulated gas, times the fee per gas. */
export type NetworkFeeStep = { kind: SwapStepKind; gas: bigint; wei: bigint }

/**
 * The flow's network fee: the simulation's gas used (never the gas limit) times the fee per gas a
 * transaction sent now should pay, in the chain's coin, in USD, and against the input's USD value.
 */
export type NetworkFee = {
  /** `gas × gasPrice`, in the chain's coin's smallest unit. */
  wei: bigint
  /** The whole flow's gas used, as simulated. */
  gas: bigint
  /**
   * The fee per gas: on an EIP-1559 chain the next block's base fee (`eth_feeHistory`) plus the
   * priority fee viem estimates, what a transaction mined next pays (its `effectiveGasPrice`); else the
   * legacy gas price.
   */
  gasPrice: bigint
  method: 'eth_simulateV1' | 'eth_estimateGas'
  /** The swap's gas limit, when the guard's swap was simulated. */
  gasLimit?: bigint | undefined
  /** Each step's gas and fee, in order (`eth_simulateV1` only: `eth_estimateGas` measures the total). */
  steps: NetworkFeeStep[] | undefined
  /** In USD at the native coin's price (the sentinel's, else the wrapped token's); `undefined` without one. */
  usd: number | undefined
  /** `usd` ÷ the input's USD value; `undefined` without both prices. */
  share: number | undefined
  /** `'high'` when `share` is at or above `networkFeeThreshold` (default 0.1); `'unknown'` without it. */
  warning: 'none' | 'high' | 'unknown'
}

/** A step `executeSwap` will ask the wallet for: a reset, an approval, a permit, the swap, or a batch. */
export type SwapPreviewStep = SwapStepKind

/**
 * What `getSwapPreview` resolves to: the balance and allowance, the steps and calls, the fee, the price
 * impact, the quote.
 */
export type SwapPreview = {
  /** The account's token0 balance, in its smallest unit. */
  balance: bigint
  insufficientBalance: boolean
  /** The approval target's allowance; `undefined` for a native input. */
  allowance: bigint | undefined
  needsApproval: boolean
  /** The allowance must go to 0 first (USDT-style tokens). */
  needsReset: boolean
  /** What `executeSwap` will ask the wallet for, in order. */
  steps: SwapPreviewStep[]
  /** The exact calls of those steps, in order (through Permit2, the guard's `swap` until the signature). */
  calls: SwapCall[]
  /** Who the approval goes to (the guard, the service's spender, Permit2); `undefined` for a native input. */
  approvalTarget: Address | undefined
  /** `'onchain'`: whether the genuine guard is deployed (`false`: `executeSwap` would refuse); else `undefined`. */
  guardDeployed: boolean | undefined
  /** The flow's fee: each call's gas, simulated in order, times the fee per gas; `undefined` when they cannot run yet. */
  networkFee: NetworkFee | undefined
  /** 1 − (value out ÷ value in) at the service's USD prices, with its warning level; `undefined` without both. */
  priceImpact: PriceImpact | undefined
  /** The same, stated either way: `{ status: 'known', ...priceImpact }` or `{ status: 'unknown', missing }`. */
  valueGap: ValueGap
  /** The token decimals read on chain (the native coin's from the chain, else 18). */
  decimals: { token0: number; token1: number }
  swapInfo: SwapInfo
  /** When the quote was fetched, and when it should be refreshed (epoch ms). */
  quotedAt: number
  expiresAt: number
  /** Milliseconds since the quote was fetched. */
  quoteAge: number
}

/**
 * Everything a swap button needs before the click, for the current quote and
 * account: balance and `insufficientBalance`, allowance, `needsApproval`,
 * `needsReset`, the `steps` `executeSwap` will take (`['approve', 'swap']`,
 * `['swap']`, `['batch']`), the whole flow's `networkFee` (per step, in the
 * chain's coin and in USD, flagged against the input's value), the
 * `priceImpact` against `/overview/token/price` with a warning level (and
 * `valueGap`, the same stated as known or unknown), and the quote's age.
 * Chain reads go through the user's public client; the quote and the prices
 * are fetched only when not given.
 *
 * @example
 * import { getSwapPreview } from 'token-swap-hooks/core'
 *
 * const preview = await getSwapPreview(client, { publicClient, walletClient, account, token0, token1, amountIn })
 * if (preview.insufficientBalance) return 'Insufficient balance'
 * return preview.needsApproval ? `Approve ${symbol}` : 'Swap'
 */
export async function getSwapPreview(
  client: SwapClient,
  parameters: GetSwapPreviewParameters,
): Promise<SwapPreview> {
  // An object with valid tokens and amount (assertRouteParameters checks the object too).
  assertRouteParameters(parameters)
  const { publicClient, account, token0, token1, amountIn } = parameters
  assertAddress('account', account)
  const { wrappedNativeToken: wrapped, networkFeeThreshold: threshold } = parameters
  if (wrapped !== undefined) assertAddress('wrappedNativeToken', wrapped)
  ensure(
    threshold === undefined || threshold >= 0,
    'networkFeeThreshold',
    'must be a number of at least 0',
    threshold,
  )
  const reads = typeof publicClient?.readContract === 'function'
  ensure(reads, 'publicClient', 'must be a viem PublicClient', publicClient)
  const to = parameters.to ?? account
  const quotedAt = parameters.quotedAt ?? Date.now()
  const { slippage, deadline } = parameters
  const swapInfo =
    parameters.swapInfo ?? (await getSwapInfo(client, { token0, token1, amountIn, to, slippage, deadline }))
  const chainId = publicClient.chain?.id ?? (await publicClient.getChainId())
  // The click's allowlist, before anything is read: the preview fails as the click would.
  if (!parameters.dangerouslyTrustAnyAddress)
    checkAddresses(parameters, swapInfo, approvalSpender(token0, swapInfo), chainId)
  const { balance, facts, decimals, prices } = await readPreview(
    client,
    { ...parameters, to },
    swapInfo,
    chainId,
  )
  const plan = planSwap(facts, chainId)
  const { approvals } = plan
  const insufficientBalance = balance < amountIn
  // What the steps send, in order: a batch's calls (a reset after the swap included).
  const calls = plan.steps.flatMap((step) =>
    'calls' in step ? step.calls : 'call' in step ? [step.call] : [],
  )
  const guardDeployed = facts.guard && facts.guard === 'verified'
  const fee =
    insufficientBalance || guardDeployed === false
      ? undefined
      : await estimateFee(publicClient, account, plan, calls)
  return {
    ...{ balance, insufficientBalance, allowance: facts.allowance, needsApproval: approvals.length > 0 },
    ...{ needsReset: approvals.length > 1, steps: plan.steps.map((step) => step.kind), calls },
    ...{ approvalTarget: plan.approvalTarget, guardDeployed },
    ...valuesOf(parameters, fee, prices, [decimals.token0, decimals.token1], swapInfo.estimateAmount),
    ...{ decimals, swapInfo, quotedAt, expiresAt: quotedAt + (parameters.quoteTtlMs ?? 10_000) },
    quoteAge: Math.max(0, Date.now() - quotedAt),
  }
}

/**
 * What the swap is worth at the service's USD prices: the fee in USD and its share of the input (unknown
 * without both prices), flagged from `networkFeeThreshold`; the price impact (`priceImpactOf`, the one
 * rule) and the value gap, the same stated as known or unknown.
 */
function valuesOf(
  parameters: GetSwapPreviewParameters,
  fee: Omit<NetworkFee, 'usd' | 'share' | 'warning'> | undefined,
  prices: readonly (number | undefined)[],
  decimals: [number, number],
  amountOut: bigint,
): Pick<SwapPreview, 'networkFee' | 'priceImpact' | 'valueGap'> {
  const { amountIn, publicClient, priceImpactThresholds: thresholds } = parameters
  const [price0, , native] = prices
  const priceImpact = priceImpactOf({ amountIn, amountOut, prices, decimals, thresholds })
  const usd =
    fee && isKnownPrice(native)
      ? Number(formatUnits(fee.wei, publicClient.chain?.nativeCurrency.decimals ?? 18)) * native
      : undefined
  const share =
    usd === undefined || !isKnownPrice(price0)
      ? undefined
      : usd / (Number(formatUnits(amountIn, decimals[0])) * price0)
  const high = share! >= (parameters.networkFeeThreshold ?? 0.1)
  return {
    networkFee: fee && {
      ...fee,
      usd,
      share,
      warning: share === undefined ? 'unknown' : high ? 'high' : 'none',
    },
    priceImpact,
    valueGap: priceImpact
      ? { status: 'known', ...priceImpact }
      : {
          status: 'unknown',
          missing: (['token0', 'token1'] as const).filter((_, i) => !isKnownPrice(prices[i])),
        },
  }
}

/**
 * Every read of a preview at once (a failure reported in this order, token0 first, whichever came first): the
 * balance, the facts `executeSwap` plans from (read the same way), the decimals and the prices.
 */
async function readPreview(
  client: SwapClient,
  parameters: GetSwapPreviewParameters & { to: Address },
  swapInfo: SwapInfo,
  chainId: number,
) {
  const { publicClient, walletClient, account, token0, token1, to } = parameters
  const missing = (parameter: string, token: Address) => (error: unknown) => {
    throw toMissingTokenError(error, parameter, token, chainId)
  }
  const decimalsOf = (token: Address, parameter: string) =>
    readDecimals(publicClient, token).catch(missing(parameter, token))
  // 'require' with a wallet that cannot batch: executeSwap refuses; the preview shows the two
  // transactions and does not throw. Without a wallet, no batch is counted on.
  const batch = parameters.batch === 'require' ? 'auto' : (parameters.batch ?? 'auto')
  const [balance, facts, decimals0, decimals1, prices] = await allInOrder([
    isNativeToken(token0)
      ? publicClient.getBalance({ address: account })
      : publicClient
          .readContract({ address: token0, abi: erc20Abi, functionName: 'balanceOf', args: [account] })
          .catch(missing('token0', token0)),
    // Its token0, amount, approval, permit2 and resetAllowance as the preview's.
    readSwapFacts(
      { publicClient, walletClient },
      {
        ...{ ...parameters, owner: account, chainId, recipient: to, swapInfo },
        ...{
          enforcement: parameters.floorEnforcement ?? 'onchain',
          minAmountOut: parameters.minAmountOut ?? 0n,
        },
        batchMode: walletClient ? batch : 'never',
      },
    ),
    decimalsOf(token0, 'token0'),
    decimalsOf(token1, 'token1'),
    pricesOf(client, parameters),
  ] as const)
  return { balance, facts, decimals: { token0: decimals0, token1: decimals1 }, prices }
}

/**
 * The USD prices of token0, token1 and the native coin (the sentinel's, from the swapped tokens' when one
 * is native, else the wrapped token's), each fetched unless given; `undefined` where there is none.
 */
async function pricesOf(client: SwapClient, parameters: GetSwapPreviewParameters) {
  const { token0, token1 } = parameters
  const given = parameters.prices ?? {}
  const priceOf = (address: Address | undefined, key?: keyof typeof given) =>
    key && key in given ? given[key] : address && getTokenPrice(client, { address }).catch(() => undefined)
  const native = isNativeToken(token0) ? 0 : isNativeToken(token1) ? 1 : 2
  const prices = await Promise.all([
    priceOf(token0, 'token0'),
    priceOf(token1, 'token1'),
    native > 1 && priceOf(nativeTokenAddress, 'native'),
  ])
  return [prices[0], prices[1], prices[native] || (await priceOf(parameters.wrappedNativeToken))] as const
}

/** `Promise.all`, but a failure reported is the first in argument order, whichever settled first. */
async function allInOrder<const values extends readonly unknown[]>(
  values: values,
): Promise<{ -readonly [index in keyof values]: Awaited<values[index]> }> {
  const settled = await Promise.allSettled(values)
  for (const result of settled) if (result.status === 'rejected') throw result.reason
  return settled.map((result) => (result as PromiseFulfilledResult<unknown>).value) as never
}

/**
 * What the signature path adds to the guarded swap it simulates: Permit2's check and nonce bit
 * (bench/guard-gas.json).
 */
const permit2SignatureGas = 13_000n

/**
 * Gas of the plan's calls in order, each on the state the previous left (`eth_simulateV1`; else one
 * `eth_estimateGas` of them run by the call runner, slightly more); through Permit2, the swap paid by an
 * approval of the guard, the approval counted once per approval, plus the signature's. Each step's gas
 * (a batch's calls one by one) and the total, times the fee per gas (`feePerGas`).
 */
async function estimateFee(
  publicClient: PublicClient<Transport, Chain | undefined>,
  account: Address,
  plan: SwapPlan,
  sent: SwapCall[],
) {
  const [gasPrice, used] = await Promise.all([
    feePerGas(publicClient).catch(() => undefined),
    // What is sent; through Permit2, what the signature's swap is simulated as before it exists.
    gasOf(publicClient, account, plan.permit ? plan.simulation.calls : sent),
  ])
  if (gasPrice === undefined || !used) return undefined
  const { method, gas: measured } = used
  const permit = plan.permit ? permit2SignatureGas : 0n
  const [approvalGas = 0n, swapGas = 0n] = permit ? measured : [0n, measured[plan.approvals.length]]
  let call = 0
  const steps =
    method === 'eth_simulateV1'
      ? plan.steps
          .flatMap((step) => (step.kind === 'batch' ? step.kinds : [step.kind]))
          .map((kind) => {
            const gas =
              kind === 'permit'
                ? permit
                : permit
                  ? kind === 'swap'
                    ? swapGas
                    : approvalGas
                  : (measured[call++] as bigint)
            return { kind, gas, wei: gas * gasPrice }
          })
      : undefined
  const gas = steps ? steps.reduce((total, step) => total + step.gas, 0n) : (measured[0] as bigint) + permit
  const gasLimit =
    plan.enforcement === 'onchain' && steps ? guardGasLimit({ gasUsed: [swapGas] }, permit) : undefined
  return { wei: gas * gasPrice, gas, gasPrice, method, gasLimit, steps }
}

/**
 * The fee per gas a transaction sent now should pay, close to its receipt's `effectiveGasPrice`: on an
 * EIP-1559 chain, the next block's base fee as the node computes it (`eth_feeHistory`, its own rules:
 * Ethereum's 1/8 step, an OP Stack chain's) plus the priority fee viem estimates, which is what a wallet
 * filling the fees pays (its max fee only caps base fee + tip); without a base fee, the legacy gas price.
 */
async function feePerGas(publicClient: PublicClient<Transport, Chain | undefined>) {
  const history = await publicClient
    .getFeeHistory({ blockCount: 1, rewardPercentiles: [] })
    .catch(() => undefined)
  const next = history?.baseFeePerGas[1]
  return next ? next + (await publicClient.estimateMaxPriorityFeePerGas()) : publicClient.getGasPrice()
}

/** Each call's gas (`eth_simulateV1`), or their total (`eth_estimateGas`); `undefined` when they cannot run. */
async function gasOf(
  publicClient: PublicClient<Transport, Chain | undefined>,
  account: Address,
  calls: SwapCall[],
) {
  try {
    const [block] = await simulateBlocks(publicClient, {
      blocks: [{ calls: asSimulatedCalls(account, calls) }],
      validation: false,
    })
    const results = block?.calls ?? []
    if (results.length !== calls.length || results.some((result) => result.status !== 'success'))
      return undefined
    return { gas: results.map((result) => result.gasUsed), method: 'eth_simulateV1' as const }
  } catch {
    const total = await estimateGas(publicClient, runCallsRequest(account, calls)).catch(() => undefined)
    return total === undefined ? undefined : { gas: [total], method: 'eth_estimateGas' as const }
  }
}
