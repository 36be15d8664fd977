import type { Address, Hex, TransactionReceipt } from 'viem'
import { BaseError } from './base.js'

/** Where in the swap flow an error happened. */
export type ExecuteSwapStage = 'quote' | 'chain' | 'approval' | 'simulation' | 'swap'

export type UntrustedAddressErrorType = UntrustedAddressError & { name: 'UntrustedAddressError' }

/**
 * The service asked for an approval or a transaction to an address that is
 * not in `trustedAddresses`, or to the token contract itself. Nothing was
 * signed: a compromised API must not obtain an approval for an arbitrary spender.
 *
 * @example
 * <SwapProvider baseUrl={url} trustedAddresses={[ROUTER, SPENDER]}>…</SwapProvider>
 */
export class UntrustedAddressError extends BaseError {
  override name = 'UntrustedAddressError' as const
  address: Address
  role: 'approvalAddress' | 'transferAddress'

  constructor({
    address,
    role,
    reason,
  }: { address: Address; role: 'approvalAddress' | 'transferAddress'; reason: string }) {
    super(`Refused to use ${address} as ${role}: ${reason}.`, {
      metaMessages: ['Nothing was signed.'],
    })
    this.address = address
    this.role = role
  }
}

export type UnsafeSwapDataErrorType = UnsafeSwapDataError & { name: 'UnsafeSwapDataError' }

/**
 * The swap transaction the service built would move funds in a way a swap
 * never does: an ERC-20 transfer or approve as calldata, or more native value
 * than the swap's input. Nothing was signed.
 *
 * @example
 * if (error instanceof UnsafeSwapDataError) reportCompromisedQuote(error)
 */
export class UnsafeSwapDataError extends BaseError {
  override name = 'UnsafeSwapDataError' as const

  constructor({ reason }: { reason: string }) {
    super(`Refused to send the swap transaction: ${reason}.`, { metaMessages: ['Nothing was signed.'] })
  }
}

export type QuoteBelowMinimumErrorType = QuoteBelowMinimumError & { name: 'QuoteBelowMinimumError' }

/**
 * The fresh quote fetched right before signing promises less than the minimum
 * the caller accepted (`minAmountOut`, or the accepted quote at its slippage).
 * Nothing was signed; show the new quote and ask again.
 *
 * @example
 * if (error instanceof QuoteBelowMinimumError) setQuote(error.estimateAmount)
 */
export class QuoteBelowMinimumError extends BaseError {
  override name = 'QuoteBelowMinimumError' as const
  estimateAmount: bigint
  minAmountOut: bigint

  constructor({ estimateAmount, minAmountOut }: { estimateAmount: bigint; minAmountOut: bigint }) {
    super('The price moved: the fresh quote is below the accepted minimum.', {
      metaMessages: [
        `Fresh estimate: ${estimateAmount}`,
        `Accepted minimum: ${minAmountOut}`,
        'Nothing was signed.',
      ],
    })
    this.estimateAmount = estimateAmount
    this.minAmountOut = minAmountOut
  }
}

export type ChainMismatchErrorType = ChainMismatchError & { name: 'ChainMismatchError' }

/**
 * The wallet (or the public client) is on another chain than the swap's, and
 * switching did not help. Nothing was signed.
 *
 * @example
 * if (error instanceof ChainMismatchError) promptSwitchTo(error.expectedChainId)
 */
export class ChainMismatchError extends BaseError {
  override name = 'ChainMismatchError' as const
  expectedChainId: number
  actualChainId: number
  client: 'wallet' | 'public'

  constructor({
    expectedChainId,
    actualChainId,
    client,
    cause,
  }: { expectedChainId: number; actualChainId: number; client: 'wallet' | 'public'; cause?: unknown }) {
    super(
      client === 'wallet'
        ? `The wallet is on chain ${actualChainId}, the swap needs chain ${expectedChainId}.`
        : `The public client reads chain ${actualChainId}, the swap needs chain ${expectedChainId}.`,
      { metaMessages: ['Nothing was signed.'], cause },
    )
    this.expectedChainId = expectedChainId
    this.actualChainId = actualChainId
    this.client = client
  }
}

export type UserRejectedErrorType = UserRejectedError & { name: 'UserRejectedError' }

/**
 * The user declined a request in the wallet. Nothing after that step was sent.
 *
 * @example
 * if (error instanceof UserRejectedError) return // not worth an error toast
 */
export class UserRejectedError extends BaseError {
  override name = 'UserRejectedError' as const
  stage: ExecuteSwapStage

  constructor({ stage, cause }: { stage: ExecuteSwapStage; cause: unknown }) {
    super(`The request was rejected in the wallet (${stage}).`, {
      metaMessages: ['Nothing after it was sent.'],
      cause,
    })
    this.stage = stage
  }
}

export type TransactionRevertedErrorType = TransactionRevertedError & { name: 'TransactionRevertedError' }

/**
 * A transaction was mined but reverted. After a reverted approval the swap is
 * never sent.
 *
 * @example
 * if (error instanceof TransactionRevertedError) console.log(error.hash, error.stage)
 */
export class TransactionRevertedError extends BaseError {
  override name = 'TransactionRevertedError' as const
  hash: Hex
  stage: ExecuteSwapStage
  receipt: TransactionReceipt

  constructor({ hash, stage, receipt }: { hash: Hex; stage: ExecuteSwapStage; receipt: TransactionReceipt }) {
    super(`The ${stage} transaction reverted.`, { metaMessages: [`Hash: ${hash}`] })
    this.hash = hash
    this.stage = stage
    this.receipt = receipt
  }
}

export type SwapSimulationErrorType = SwapSimulationError & { name: 'SwapSimulationError' }

/**
 * Simulating the swap (`eth_call`) reverted, so the wallet was never asked to
 * sign it. `reason` is the decoded revert reason when there is one.
 *
 * @example
 * if (error instanceof SwapSimulationError) toast(`Swap would fail: ${error.reason ?? 'reverted'}`)
 */
export class SwapSimulationError extends BaseError {
  override name = 'SwapSimulationError' as const
  reason: string | undefined
  data: Hex | undefined

  constructor({
    reason,
    data,
    cause,
  }: { reason: string | undefined; data: Hex | undefined; cause: unknown }) {
    super(reason ? `The swap would revert: ${reason}.` : 'The swap would revert.', {
      metaMessages: ['The wallet was not asked to sign it.'],
      cause,
    })
    this.reason = reason
    this.data = data
  }
}

export type InsufficientAllowanceErrorType = InsufficientAllowanceError & {
  name: 'InsufficientAllowanceError'
}

/**
 * After the approval was mined, the allowance still does not cover the
 * amount. The swap was not sent.
 *
 * @example
 * if (error instanceof InsufficientAllowanceError) console.log(error.allowance, error.required)
 */
export class InsufficientAllowanceError extends BaseError {
  override name = 'InsufficientAllowanceError' as const
  allowance: bigint
  required: bigint

  constructor({ allowance, required, spender }: { allowance: bigint; required: bigint; spender: Address }) {
    super(`The allowance for ${spender} is ${allowance}, the swap needs ${required}.`, {
      metaMessages: ['The swap was not sent.'],
    })
    this.allowance = allowance
    this.required = required
  }
}

export type WalletErrorType = WalletError & { name: 'WalletError' }

/**
 * The wallet or the node failed a step for another reason than a rejection
 * (`cause` holds viem's error). Nothing after that step was sent.
 *
 * @example
 * if (error instanceof WalletError) console.error(error.stage, error.details)
 */
export class WalletError extends BaseError {
  override name = 'WalletError' as const
  stage: ExecuteSwapStage

  constructor({ stage, cause }: { stage: ExecuteSwapStage; cause: unknown }) {
    super(`The ${stage} step failed in the wallet or node.`, {
      metaMessages: ['Nothing after it was sent.'],
      cause,
    })
    this.stage = stage
  }
}
