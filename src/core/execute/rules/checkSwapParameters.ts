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
import { isQuoteSpent } from './spentQuotes.js'

/** Checks both clients and returns them with the wallet's account address. */
export function resolveClients({
  walletClient,
  publicClient,
}: ExecutionClients): ExecutionClients & { owner: Address } {
  ensure(
    typeof walletClient?.sendTransaction === 'function' && typeof walletClient.getChainId === 'function',
    'walletClient',
    'must be a viem WalletClient',
    walletClient,
  )
  const owner = walletClient.account?.address
  ensure(
    owner,
    'walletClient.account',
    'must be set: connect a wallet (or give the client an account) first',
    undefined,
  )
  ensure(
    typeof publicClient?.call === 'function' && typeof publicClient.waitForTransactionReceipt === 'function',
    'publicClient',
    'must be a viem PublicClient',
    publicClient,
  )
  return { walletClient, publicClient, owner: owner as Address }
}

/** The parameters of a swap, checked: the clients, the recipient and the user's floor resolved. */
export type CheckedParameters = ReturnType<typeof checkSwapParameters>

/**
 * Checks every parameter of a swap before anything is read or sent (an
 * `InvalidParameterError` naming the first bad one) and resolves the clients,
 * the recipient (default: the wallet's account) and the user's floor.
 *
 * @example
 * const checked = checkSwapParameters(parameters) // checked.floor, checked.owner, checked.to
 */
export function checkSwapParameters(parameters: ExecuteSwapParameters) {
  assertObject(parameters)
  const clients = resolveClients(parameters)
  assertRouteParameters(parameters)
  const { token0, token1, trustedAddresses, dangerouslyTrustAnyAddress } = parameters
  ensure(!isAddressEqual(token0, token1), 'token1', 'must differ from token0', token1)
  const to = parameters.to ?? clients.owner
  assertAddress('to', to)
  if (parameters.slippage !== undefined) assertSlippage('slippage', parameters.slippage)
  if (parameters.deadline !== undefined) assertDeadline('deadline', parameters.deadline)
  if (parameters.minAmountOut !== undefined) assertAmount('minAmountOut', parameters.minAmountOut)
  for (const [name, values] of [
    ['approval', ['exact', 'infinite']],
    ['floorEnforcement', ['onchain', 'simulation']],
    ['batch', ['auto', 'never', 'require']],
  ] as const) {
    const value = parameters[name]
    ensure(
      value === undefined || (values as readonly unknown[]).includes(value),
      name,
      `must be '${values.join("' or '")}'`,
      value,
    )
  }
  assertTrustedAddresses(trustedAddresses, dangerouslyTrustAnyAddress)
  for (const name of ['receiptTimeoutMs', 'batchTimeoutMs'] as const)
    ensure(
      parameters[name] === undefined ||
        (Number.isFinite(parameters[name]) && (parameters[name] as number) > 0),
      name,
      'must be a positive number of milliseconds',
      parameters[name],
    )
  ensure(
    parameters.chainId === undefined || (Number.isSafeInteger(parameters.chainId) && parameters.chainId > 0),
    'chainId',
    'must be a positive integer',
    parameters.chainId,
  )
  return { ...parameters, ...clients, to, ...userFloor(parameters) }
}

/** The allowlist: required unless waived by name, keyed by chain id, each an array of addresses. */
function assertTrustedAddresses(
  trustedAddresses: ExecuteSwapParameters['trustedAddresses'],
  waived: boolean | undefined,
) {
  ensure(
    trustedAddresses !== undefined || waived === true,
    'trustedAddresses',
    'is required: the routers and spenders you trust, per chain ({ [chainId]: [router, spender] })',
    undefined,
  )
  if (trustedAddresses !== undefined) {
    assertObject(trustedAddresses, 'trustedAddresses')
    for (const [chainId, addresses] of Object.entries(trustedAddresses)) {
      ensure(
        /^[1-9]\d*$/.test(chainId),
        'trustedAddresses',
        'must be keyed by chain id ({ [chainId]: [router, spender] })',
        chainId,
      )
      ensure(
        Array.isArray(addresses),
        `trustedAddresses[${chainId}]`,
        'must be an array of addresses',
        addresses,
      )
      for (const [index, address] of addresses.entries())
        assertAddress(`trustedAddresses[${chainId}][${index}]`, address)
    }
  }
}

/**
 * The least token1 the user accepts: `minAmountOut`, or the accepted quote less
 * the slippage (then `acceptedAmount` is that quote's amount).
 */
function userFloor(parameters: ExecuteSwapParameters): { floor: bigint; acceptedAmount?: bigint } {
  if (parameters.minAmountOut !== undefined) return { floor: parameters.minAmountOut }
  const accepted = parameters.acceptedQuote
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
  ensure(
    !isQuoteSpent(accepted),
    'acceptedQuote',
    'was already swapped (the pool and the balances moved): take a fresh quote',
    amount,
  )
  const quoted = accepted.quotedFor
  const same = (a: unknown, b: string) => typeof a === 'string' && a.toLowerCase() === b.toLowerCase()
  ensure(
    quoted === undefined ||
      (same(quoted.token0, parameters.token0) &&
        same(quoted.token1, parameters.token1) &&
        quoted.amountIn === parameters.amountIn),
    'acceptedQuote',
    `is the quote for ${quoted?.amountIn} of ${quoted?.token0} to ${quoted?.token1}: a quote for another amount cannot set the floor (a stale one?)`,
    quoted,
  )
  return { floor: getMinAmountOut(amount, parameters.slippage ?? defaultSlippage), acceptedAmount: amount }
}

/**
 * Refuses a router or spender outside the chain's `trustedAddresses` (or,
 * without an allowlist, one of the swapped tokens or the zero address).
 *
 * @example
 * checkAddresses(checked, swapInfo, serviceSpender, chain.id)
 */
export function checkAddresses(
  parameters: Pick<ExecuteSwapParameters, 'token0' | 'token1' | 'trustedAddresses'>,
  swapInfo: SwapInfo,
  spender: Address | undefined,
  chainId: number,
) {
  const { token0, token1 } = parameters
  const trusted = parameters.trustedAddresses?.[chainId]
  for (const [role, address] of [
    ['transferAddress', swapInfo.transferAddress],
    ['approvalAddress', spender],
  ] as const) {
    if (!address) continue
    const refuse = (reason: string) => {
      throw new UntrustedAddressError({ address, role, reason, chainId })
    }
    if (parameters.trustedAddresses) {
      if (!trusted) refuse('no trustedAddresses for this chain')
      if (!trusted?.some((item) => isAddressEqual(item, address))) refuse('not in trustedAddresses')
    } else if (isAddressEqual(address, token0) || isAddressEqual(address, token1)) refuse('a swapped token')
    if (isAddressEqual(address, zeroAddress)) refuse('the zero address')
  }
}

/**
 * Refuses native value beyond what the swap may spend: `amountIn` for a
 * native input, none for an ERC-20 one (the outcome check would refuse it
 * too; refused here first, with a plain reason).
 *
 * @example
 * checkValue(checked, swapInfo)
 */
export function checkValue({ token0, amountIn }: CheckedParameters, swapInfo: SwapInfo) {
  const maxValue = isNativeToken(token0) ? amountIn : 0n
  if (swapInfo.transferValue > maxValue)
    throw new UnsafeSwapDataError({
      reason: `it sends ${swapInfo.transferValue} wei of native value, at most ${maxValue} allowed`,
    })
}
