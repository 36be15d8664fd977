import {
  type Account,
  type Address,
  type Chain,
  erc20Abi,
  formatUnits,
  type PublicClient,
  type Transport,
  type WalletClient,
} from 'viem'
import { estimateGas, simulateBlocks } from 'viem/actions'
import { getSwapInfo } from '../actions/getSwapInfo.js'
import { getTokenPrice } from '../actions/getTokenPrice.js'
import type { SwapClient } from '../client.js'
import { isNativeToken } from '../constants.js'
import { ensure } from '../errors/parameter.js'
import type { SwapInfo } from '../schemas.js'
import { assertAddress, assertRouteParameters } from '../utils/validate.js'
import {
  type BatchMode,
  type FloorEnforcement,
  type Permit2Mode,
  planSwap,
  planSwapCall,
  type SwapPlan,
  type SwapStepKind,
} from './rules/planSwap.js'
import { asSimulatedCalls, type SwapCall } from './run/checkSwapOutcome.js'
import { readSwapFacts } from './run/readSwapFacts.js'
import { runCallsRequest } from './run/stateOverrides.js'
import { toMissingTokenError } from './run/walletErrors.js'

/** Price impact at or above `high` warns; at or above `blocking` the UI should not let the user swap. */
export type PriceImpactThresholds = { high: number; blocking: number }

/** Uniswap's interface levels: warn from 5%, block from 15%. */
export const defaultPriceImpactThresholds: PriceImpactThresholds = { high: 0.05, blocking: 0.15 }

export type GetSwapPreviewParameters = {
  /** Reads balances, allowances, decimals and simulates (the user's `usePublicClient()`). */
  publicClient: PublicClient<Transport, Chain | undefined>
  /** The wallet, to tell whether approval and swap will go as one batch. Optional. */
  walletClient?: WalletClient<Transport, Chain | undefined, Account | undefined> | undefined
  /** The user. */
  account: Address
  token0: Address
  token1: Address
  /** In token0's smallest unit. */
  amountIn: bigint
  /** The recipient. Default: `account`. */
  to?: Address | undefined
  slippage?: number | undefined
  /** As `executeSwap`'s: passed to `/swap/info` as is. */
  deadline?: number | bigint | undefined
  /**
   * The user's floor, as `executeSwap` will get it: written into the guard's
   * call, so that the previewed calls are exactly the ones sent. Default 0
   * (the floor does not change the fee).
   */
  minAmountOut?: bigint | undefined
  /** The quote, when the caller has it (the swap info cache): no request then. */
  swapInfo?: SwapInfo | undefined
  /** When `swapInfo` was fetched (epoch ms). Default: now. */
  quotedAt?: number | undefined
  /** How long a quote stays good (the quote's `staleTime`). Default 10 000 ms. */
  quoteTtlMs?: number | undefined
  /** The USD prices, when the caller has them (the price cache): no request then. */
  prices?: { token0?: number | undefined; token1?: number | undefined } | undefined
  /** As `executeSwap`'s `batch`: `'never'` never counts on a batch. Default `'auto'`. */
  batch?: BatchMode | undefined
  /** As `executeSwap`'s `approval`: the approval the steps and the fee are for. Default `'exact'`. */
  approval?: 'exact' | 'infinite' | undefined
  /** As `executeSwap`'s `permit2`: whether the guarded swap goes through a Permit2 signature. Default `'if-approved'`. */
  permit2?: Permit2Mode | undefined
  /** As `executeSwap`'s `resetAllowance`: a reset to 0 first, detected when omitted. */
  resetAllowance?: boolean | undefined
  /**
   * As `executeSwap`'s `floorEnforcement`: `'onchain'` (default), the swap
   * goes through the guard and the user approves the guard; `'simulation'`,
   * the service's call as it is and its spender.
   */
  floorEnforcement?: FloorEnforcement | undefined
  priceImpactThresholds?: PriceImpactThresholds | undefined
}

export type SwapPreviewStep = SwapStepKind

export type SwapPreview = {
  /** The account's token0 balance (native or ERC-20), in its smallest unit. */
  balance: bigint
  insufficientBalance: boolean
  /** The allowance the swap's spender has; `undefined` for a native input or when none is needed. */
  allowance: bigint | undefined
  needsApproval: boolean
  /** The allowance must go to 0 first (USDT-style tokens refuse non-zero to non-zero). */
  needsReset: boolean
  /** What `executeSwap` will ask the wallet for, in order. */
  steps: SwapPreviewStep[]
  /**
   * The exact calls of those steps, in order (a batch's calls in it), as
   * `executeSwap` plans them; through Permit2 the swap's is the guard's `swap`
   * of the same swap, until the signature makes it `swapWithPermit2`.
   */
  calls: SwapCall[]
  /** Who the approval goes to: the swap guard (`'onchain'`) or the service's spender; `undefined` for a native input. */
  approvalTarget: Address | undefined
  /**
   * With `floorEnforcement: 'onchain'`, whether the genuine guard is deployed
   * on the chain (its code hashes: a look-alike makes the preview fail with
   * `SwapGuardCodeMismatchError`, as `executeSwap` would): `false` means
   * `executeSwap` would refuse (`SwapGuardNotDeployedError`) until someone
   * deploys it (`deploySwapGuard`); `undefined` otherwise.
   */
  guardDeployed: boolean | undefined
  /**
   * The whole flow's network fee in wei: gas of every call (measured by
   * simulating them in order, the approval first, so the swap is measured
   * with the allowance it will have; through Permit2, plus
   * `permit2SignatureGas` for the signature's check and nonce) times the
   * node's gas price. `gasLimit`: the limit the flow sets on the guarded swap
   * (its gas + 30% + 30,000). `undefined` when the calls cannot be simulated
   * yet (an insufficient balance, say).
   */
  networkFee:
    | {
        wei: bigint
        gas: bigint
        gasPrice: bigint
        method: 'eth_simulateV1' | 'eth_estimateGas'
        gasLimit?: bigint | undefined
      }
    | undefined
  /**
   * 1 − (value out ÷ value in) at the service's USD prices; `undefined`
   * without both prices. `warning` follows the thresholds.
   */
  priceImpact:
    | { value: number; valueIn: number; valueOut: number; warning: 'none' | 'high' | 'blocking' }
    | undefined
  /** The token decimals read on chain (the native coin's from the chain, else 18). */
  decimals: { token0: number; token1: number }
  swapInfo: SwapInfo
  /** When the quote was fetched, and when it should be refreshed (epoch ms). */
  quotedAt: number
  expiresAt: number
  /** Milliseconds since the quote was fetched, at the time of the preview. */
  quoteAge: number
}

/**
 * Everything a swap button needs before the click, for the current quote and
 * account: balance and `insufficientBalance`, allowance, `needsApproval`,
 * `needsReset`, the `steps` `executeSwap` will take (`['approve', 'swap']`,
 * `['swap']`, `['batch']`), the whole flow's `networkFee`, the `priceImpact`
 * against `/overview/token/price` with a warning level, and the quote's age.
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
  ensure(
    typeof publicClient?.readContract === 'function',
    'publicClient',
    'must be a viem PublicClient',
    publicClient,
  )
  const to = parameters.to ?? account
  const quotedAt = parameters.quotedAt ?? Date.now()
  const swapInfo =
    parameters.swapInfo ??
    (await getSwapInfo(client, {
      ...{ token0, token1, amountIn, to },
      ...{ slippage: parameters.slippage, deadline: parameters.deadline },
    }))
  const chainId = publicClient.chain?.id ?? (await publicClient.getChainId())
  const { balance, facts, decimals, prices, plan } = await readPreview(client, parameters, swapInfo, chainId)
  const { approvals } = plan
  const insufficientBalance = balance < amountIn
  // What the steps send, in order: a batch's calls (a reset after the swap included).
  const calls = plan.steps.flatMap((step) =>
    step.kind === 'batch' ? step.calls : step.kind === 'permit' ? [] : [step.call],
  )
  const guardDeployed = facts.guard && facts.guard === 'verified'
  const ttl = parameters.quoteTtlMs ?? 10_000
  return {
    balance,
    insufficientBalance,
    allowance: facts.allowance,
    needsApproval: approvals.length > 0,
    needsReset: approvals.length > 1,
    steps: plan.steps.map((step) => step.kind),
    calls,
    approvalTarget: plan.approvalTarget,
    guardDeployed,
    networkFee:
      insufficientBalance || guardDeployed === false
        ? undefined
        : await estimateFee(publicClient, account, plan, calls),
    priceImpact: priceImpact({
      amountIn,
      amountOut: swapInfo.estimateAmount,
      decimals: [decimals.token0, decimals.token1],
      prices,
      thresholds: parameters.priceImpactThresholds ?? defaultPriceImpactThresholds,
    }),
    decimals,
    swapInfo,
    quotedAt,
    expiresAt: quotedAt + ttl,
    quoteAge: Math.max(0, Date.now() - quotedAt),
  }
}

/**
 * Every read of a preview at once (a failure is reported in this order,
 * token0 first, whichever came first), and the plan `executeSwap` would make
 * from them: the same facts, read the same way, the same planner.
 */
async function readPreview(
  client: SwapClient,
  parameters: GetSwapPreviewParameters,
  swapInfo: SwapInfo,
  chainId: number,
) {
  const { publicClient, walletClient, account, token0, token1 } = parameters
  const enforcement = parameters.floorEnforcement ?? 'onchain'
  // 'require' with a wallet that cannot batch: executeSwap refuses; the preview shows the two
  // transactions and does not throw. Without a wallet, no batch is counted on.
  const batchMode = !walletClient
    ? 'never'
    : parameters.batch === 'require'
      ? 'auto'
      : (parameters.batch ?? 'auto')
  // Its tokens, amount and approval as the preview's.
  const swap = {
    ...{ ...parameters, enforcement, recipient: parameters.to ?? account, swapInfo },
    minAmountOut: parameters.minAmountOut ?? 0n,
  }
  const { approvalTarget } = planSwapCall(swap)
  const nativeDecimals = publicClient.chain?.nativeCurrency.decimals ?? 18
  const missing = (parameter: string, token: Address) => (error: unknown) => {
    throw toMissingTokenError(error, parameter, token, chainId)
  }
  const decimalsOf = (token: Address, parameter: 'token0' | 'token1') =>
    isNativeToken(token)
      ? nativeDecimals
      : publicClient
          .readContract({ address: token, abi: erc20Abi, functionName: 'decimals' })
          .then(Number, missing(parameter, token))
  const [balance, facts, decimals0, decimals1, prices] = await allInOrder([
    isNativeToken(token0)
      ? publicClient.getBalance({ address: account })
      : publicClient
          .readContract({ address: token0, abi: erc20Abi, functionName: 'balanceOf', args: [account] })
          .catch(missing('token0', token0)),
    readSwapFacts(
      { publicClient, walletClient },
      // Its token0, amount and resetAllowance as the preview's.
      {
        ...{ ...parameters, owner: account, chainId, approvalTarget, batchMode },
        ...{
          guard: enforcement === 'onchain',
          readPermit2:
            enforcement === 'onchain' && parameters.permit2 !== 'never'
              ? (parameters.permit2 ?? 'if-approved')
              : undefined,
        },
      },
    ),
    decimalsOf(token0, 'token0'),
    decimalsOf(token1, 'token1'),
    readPrices(client, parameters),
  ] as const)
  const plan = planSwap({ ...facts, ...swap, batchMode }, chainId)
  return { balance, facts, decimals: { token0: decimals0, token1: decimals1 }, prices, plan }
}

/** `Promise.all`, but a failure reported is the first in argument order, whichever settled first. */
async function allInOrder<const values extends readonly unknown[]>(
  values: values,
): Promise<{ -readonly [index in keyof values]: Awaited<values[index]> }> {
  const settled = await Promise.allSettled(values)
  for (const result of settled) if (result.status === 'rejected') throw result.reason
  return settled.map((result) => (result as PromiseFulfilledResult<unknown>).value) as never
}

async function readPrices(client: SwapClient, { token0, token1, prices }: GetSwapPreviewParameters) {
  const read = (address: Address, known: number | undefined) =>
    known ?? getTokenPrice(client, { address }).catch(() => undefined)
  return Promise.all([read(token0, prices?.token0), read(token1, prices?.token1)])
}

/**
 * What the signature path adds to the guarded swap it simulates (there is no
 * signature before the click): Permit2's signature check and its nonce bit,
 * measured on anvil (bench/guard-gas.json; a nonce word used for the first
 * time costs 17,100 more).
 *
 * @example
 * const gas = swapGas + permit2SignatureGas
 */
export const permit2SignatureGas = 13_000n

/**
 * Gas of the plan's calls in order (each on the state the previous left):
 * with `eth_simulateV1`; where the node lacks it, one `eth_estimateGas` of
 * the calls run from the account by the call runner (a state override),
 * which slightly overstates them. Through Permit2, the swap simulated as paid
 * by an approval of the guard, its approval's gas counted once per approval
 * of Permit2, plus `permit2SignatureGas`.
 */
async function estimateFee(
  publicClient: PublicClient<Transport, Chain | undefined>,
  account: Address,
  plan: SwapPlan,
  sent: SwapCall[],
): Promise<SwapPreview['networkFee']> {
  const gasPrice = await publicClient.getGasPrice().catch(() => undefined)
  if (gasPrice === undefined) return undefined
  // What is sent; through Permit2, what the signature's swap is simulated as before it exists.
  const used = await gasOf(publicClient, account, plan.permit ? plan.simulation.calls : sent)
  if (!used) return undefined
  const [approvalGas = 0n, swapGas = 0n] = plan.permit ? used.gas : [0n, used.gas[plan.approvals.length]]
  const gas = plan.permit
    ? approvalGas * BigInt(plan.approvals.length) + swapGas + permit2SignatureGas
    : used.gas.reduce((total, each) => total + each, 0n)
  const guarded = plan.enforcement === 'onchain' && used.method === 'eth_simulateV1'
  const gasLimit = guarded
    ? ((swapGas + (plan.permit ? permit2SignatureGas : 0n)) * 13n) / 10n + 30_000n
    : undefined
  return { wei: gas * gasPrice, gas, gasPrice, method: used.method, gasLimit }
}

/** Each call's gas (`eth_simulateV1`), or their total (`eth_estimateGas`); `undefined` when they cannot run. */
async function gasOf(
  publicClient: PublicClient<Transport, Chain | undefined>,
  account: Address,
  calls: SwapCall[],
): Promise<{ gas: bigint[]; method: 'eth_simulateV1' | 'eth_estimateGas' } | undefined> {
  try {
    const [block] = await simulateBlocks(publicClient, {
      blocks: [{ calls: asSimulatedCalls(account, calls) }],
      validation: false,
    })
    const results = block?.calls ?? []
    if (results.length !== calls.length || results.some((result) => result.status !== 'success'))
      return undefined
    return { gas: results.map((result) => result.gasUsed), method: 'eth_simulateV1' }
  } catch {
    const total = await estimateGas(publicClient, runCallsRequest(account, calls)).catch(() => undefined)
    return total === undefined ? undefined : { gas: [total], method: 'eth_estimateGas' }
  }
}

function priceImpact({
  amountIn,
  amountOut,
  decimals: [decimals0, decimals1],
  prices: [price0, price1],
  thresholds,
}: {
  amountIn: bigint
  amountOut: bigint
  decimals: [number, number]
  prices: (number | undefined)[]
  thresholds: PriceImpactThresholds
}): SwapPreview['priceImpact'] {
  if (price0 === undefined || price1 === undefined || price0 <= 0) return undefined
  const valueIn = Number(formatUnits(amountIn, decimals0)) * price0
  const valueOut = Number(formatUnits(amountOut, decimals1)) * price1
  if (!(valueIn > 0)) return undefined
  const value = 1 - valueOut / valueIn
  const warning = value >= thresholds.blocking ? 'blocking' : value >= thresholds.high ? 'high' : 'none'
  return { value, valueIn, valueOut, warning }
}
