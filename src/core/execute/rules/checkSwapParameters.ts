import { type Address, isAddressEqual, zeroAddress } from 'viem'
import { defaultSlippage, isNativeToken } from '../../constants.js'
import { UnsafeSwapDataError, UntrustedAddressError } from '../../errors/execute.js'
import { ensure } from '../../errors/parameter.js'
import type { SwapInfo } from '../../schemas.js'
import { getMinAmountOut } from '../../utils/getMinAmountOut.js'
import {
  assertAddress,
  assertAmount,
  assertDeadline,
  assertObject,
  assertRouteParameters,
  assertSlippage,
} from '../../utils/validate.js'
import type { ExecuteSwapParameters, ExecutionClients } from '../types.js'

/**
 * Checks both clients and returns them with the wallet's account address.
 * @example const { owner } = resolveClients({ walletClient, publicClient })
 */
export function resolveClients({
  walletClient,
  publicClient,
}: ExecutionClients): ExecutionClients & { owner: Address } {
  const isClient =
    typeof walletClient?.sendTransaction === 'function' && typeof walletClient.getChainId === 'function'
  ensure(isClient, 'walletClient', 'must be a viem WalletClient', walletClient)
  const owner = walletClient.account?.address as Address
  ensure(owner, 'walletClient.account', 'must be set: connect a wallet first', undefined)
  const reads =
    typeof publicClient?.call === 'function' && typeof publicClient.waitForTransactionReceipt === 'function'
  ensure(reads, 'publicClient', 'must be a viem PublicClient', publicClient)
  return { walletClient, publicClient, owner }
}

/** The parameters of a swap, checked: the clients, the recipient and the user's floor resolved. */
export type CheckedParameters = ReturnType<typeof checkSwapParameters>

const options = {
  approval: ['exact', 'infinite'],
  floorEnforcement: ['onchain', 'simulation'],
  batch: ['auto', 'never', 'require'],
} as const

/**
 * Checks every parameter of a swap before anything is read or sent (an `InvalidParameterError` naming the
 * first bad one) and resolves the clients, the recipient (default: the wallet's account) and the floor.
 * @example const checked = checkSwapParameters(parameters) // checked.floor, checked.owner, checked.to
 */
export function checkSwapParameters(parameters: ExecuteSwapParameters) {
  assertObject(parameters)
  const clients = resolveClients(parameters)
  assertRouteParameters(parameters)
  const p = parameters
  ensure(!isAddressEqual(p.token0, p.token1), 'token1', 'must differ from token0', p.token1)
  const to = p.to ?? clients.owner
  assertAddress('to', to)
  if (p.slippage !== undefined) assertSlippage('slippage', p.slippage)
  if (p.deadline !== undefined) assertDeadline('deadline', p.deadline)
  if (p.minAmountOut !== undefined) assertAmount('minAmountOut', p.minAmountOut)
  for (const [name, values] of Object.entries(options))
    ensure(
      [undefined, ...values].includes(p[name as 'batch']),
      name,
      `must be '${values.join("' or '")}'`,
      p[name as 'batch'],
    )
  assertTrustedAddresses(p)
  for (const name of ['receiptTimeoutMs', 'batchTimeoutMs'] as const) {
    const ms = p[name]
    ensure(
      ms === undefined || (Number.isFinite(ms) && ms > 0),
      name,
      'must be a positive number of milliseconds',
      ms,
    )
  }
  const { chainId } = p
  ensure(
    chainId === undefined || (Number.isSafeInteger(chainId) && chainId > 0),
    'chainId',
    'must be a positive integer',
    chainId,
  )
  return { ...p, ...clients, to, ...userFloor(p) }
}

/** The allowlist: required unless waived by name, keyed by chain id, each an array of addresses. */
function assertTrustedAddresses({
  trustedAddresses: trusted,
  dangerouslyTrustAnyAddress,
}: ExecuteSwapParameters) {
  const shape = '({ [chainId]: [router, spender] })'
  ensure(
    trusted !== undefined || dangerouslyTrustAnyAddress === true,
    'trustedAddresses',
    `is required: the routers and spenders you trust, per chain ${shape}`,
    undefined,
  )
  if (trusted === undefined) return
  assertObject(trusted, 'trustedAddresses')
  for (const [chainId, addresses] of Object.entries(trusted)) {
    ensure(/^[1-9]\d*$/.test(chainId), 'trustedAddresses', `must be keyed by chain id ${shape}`, chainId)
    const name = `trustedAddresses[${chainId}]`
    ensure(Array.isArray(addresses), name, 'must be an array of addresses', addresses)
    for (const [index, address] of addresses.entries()) assertAddress(`${name}[${index}]`, address)
  }
}

/** The least token1 the user accepts: `minAmountOut`, or the accepted quote less the slippage. */
function userFloor(p: ExecuteSwapParameters): { floor: bigint; acceptedAmount?: bigint } {
  if (p.minAmountOut !== undefined) return { floor: p.minAmountOut }
  const accepted = p.acceptedQuote
  ensure(
    accepted !== undefined,
    'minAmountOut',
    'is required (or acceptedQuote): the least token1 the user accepts',
    undefined,
  )
  const amount = 'estimateAmount' in accepted ? accepted.estimateAmount : accepted.amountOut
  ensure(
    typeof amount === 'bigint',
    'acceptedQuote',
    'must hold a bigint estimateAmount or amountOut',
    amount,
  )
  ensure(!isQuoteSpent(accepted), 'acceptedQuote', 'was already swapped: take a fresh quote', amount)
  const quoted = accepted.quotedFor
  const same = (a: unknown, b: string) => typeof a === 'string' && a.toLowerCase() === b.toLowerCase()
  ensure(
    quoted === undefined ||
      (same(quoted.token0, p.token0) && same(quoted.token1, p.token1) && quoted.amountIn === p.amountIn),
    'acceptedQuote',
    `is the quote for ${quoted?.amountIn} of ${quoted?.token0} to ${quoted?.token1}: a quote for another amount cannot set the floor`,
    quoted,
  )
  return { floor: getMinAmountOut(amount, p.slippage ?? defaultSlippage), acceptedAmount: amount }
}

/**
 * Refuses a router or spender outside the chain's `trustedAddresses` (or, without an allowlist, a swapped
 * token), and the zero address.
 * @example checkAddresses(checked, swapInfo, serviceSpender, chain.id)
 */
export function checkAddresses(
  { token0, token1, trustedAddresses }: Pick<ExecuteSwapParameters, 'token0' | 'token1' | 'trustedAddresses'>,
  swapInfo: SwapInfo,
  spender: Address | undefined,
  chainId: number,
) {
  const trusted = trustedAddresses?.[chainId]
  for (const [role, address] of [
    ['transferAddress', swapInfo.transferAddress],
    ['approvalAddress', spender],
  ] as const) {
    if (!address) continue
    const is = (other: Address) => isAddressEqual(other, address)
    const reason = trustedAddresses
      ? !trusted
        ? 'no trustedAddresses for this chain'
        : trusted.some(is)
          ? undefined
          : 'not in trustedAddresses'
      : is(token0) || is(token1)
        ? 'a swapped token'
        : undefined
    const refusal = reason ?? (is(zeroAddress) ? 'the zero address' : undefined)
    if (refusal) throw new UntrustedAddressError({ address, role, reason: refusal, chainId })
  }
}

/**
 * Refuses native value beyond what the swap may spend: `amountIn` for a native input, none for an ERC-20.
 * @example checkValue(checked, swapInfo)
 */
export function checkValue({ token0, amountIn }: CheckedParameters, { transferValue }: SwapInfo) {
  const max = isNativeToken(token0) ? amountIn : 0n
  if (transferValue > max)
    throw new UnsafeSwapDataError({
      reason: `it sends ${transferValue} wei of native value, at most ${max} allowed`,
    })
}

/** The quotes a swap was sent for (by object). */
const spent = new WeakSet<object>()

/**
 * Marks the accepted quote as spent once its swap is sent: executing it again is refused, so a second click
 * on a stale screen cannot repeat the swap.
 * @example markQuoteSpent(parameters.acceptedQuote)
 */
export function markQuoteSpent(quote: object | undefined): void {
  if (quote) spent.add(quote)
}

/** Whether a swap was already sent for this accepted quote. */
const isQuoteSpent = (quote: object): boolean => spent.has(quote)
