import type { Address, Hex, TransactionReceipt } from 'viem'
import type { QuoteRequest, SwapInfo } from '../schemas.js'
import { BaseError } from './base.js'

/** Where in the swap flow an error happened. */
export type ExecuteSwapStage = 'quote' | 'chain' | 'approval' | 'simulation' | 'swap' | 'revoke'

/**
 * An allowance an approval of this flow left behind because the swap did not
 * happen (rejected, refused or reverted after the approval was mined).
 */
export type LeftoverAllowance = {
  chainId: number
  /** The ERC-20 token (the swap's token0). */
  token: Address
  owner: Address
  spender: Address
  /** The allowance left, read after the failure (0 once revoked). */
  amount: bigint
  /** The `approve(spender, 0)` transaction, when `revokeOnFailure` revoked it. */
  revokeHash?: Hex | undefined
}

/**
 * The base of the errors `executeSwap` ends with. `leftoverAllowance` is set
 * when an approval of the flow was mined and the swap then did not happen:
 * revoke it with `revokeAllowance({ walletClient, publicClient, ...error.leftoverAllowance })`,
 * or pass `revokeOnFailure: true` to have the flow do it.
 *
 * @example
 * if (error instanceof ExecuteSwapError && error.leftoverAllowance?.amount)
 *   await revokeAllowance({ walletClient, publicClient, ...error.leftoverAllowance })
 */
export class ExecuteSwapError extends BaseError {
  override name = 'ExecuteSwapError'
  leftoverAllowance: LeftoverAllowance | undefined = undefined
  /**
   * Where the flow was when it ended with this error: the last snapshot
   * `onStep` got (`ExecuteSwapStep`). Its `action` says how far it went: from
   * `'checking-allowance'` on, the router and spender had passed
   * `trustedAddresses`. Set by `executeSwap` and `resumeSwap`.
   */
  step: { status: string; action: string } | undefined = undefined
}

/**
 * Records on `error` the allowance a failed flow left, and says so in its
 * message. An error that is not an `ExecuteSwapError` (a `/swap/info` failure
 * in a resumed flow, say) is wrapped in one, with the same `shortMessage` and
 * the original as its `cause`, so that `error instanceof ExecuteSwapError &&
 * error.leftoverAllowance` holds for every error such a flow ends with.
 *
 * @example
 * throw noteLeftoverAllowance(error, { chainId, token, owner, spender, amount })
 */
export function noteLeftoverAllowance(error: unknown, leftover: LeftoverAllowance): ExecuteSwapError {
  const noted =
    error instanceof ExecuteSwapError ? error : new ExecuteSwapError(shortMessageOf(error), { cause: error })
  noted.leftoverAllowance = leftover
  const line =
    leftover.amount === 0n
      ? leftover.revokeHash
        ? `The approval was revoked (${leftover.revokeHash}).`
        : 'No allowance is left.'
      : `Allowance left: ${leftover.amount} for ${leftover.spender} on ${leftover.token} (revokeAllowance).`
  noted.metaMessages = [...(noted.metaMessages ?? []), line]
  noted.message = `${noted.message}\n\n${line}`
  return noted
}

/** A library error's `shortMessage` (by shape: it may come from another copy of the library), else the message. */
function shortMessageOf(error: unknown): string {
  const { shortMessage, message } = (error ?? {}) as { shortMessage?: unknown; message?: unknown }
  if (typeof shortMessage === 'string') return shortMessage
  return typeof message === 'string' ? message : 'The swap was not sent.'
}

export type UntrustedAddressErrorType = UntrustedAddressError & { name: 'UntrustedAddressError' }

/**
 * The service asked for an approval or a transaction to an address that is
 * not in `trustedAddresses` for the swap's chain, or to a token contract or
 * the zero address. Nothing was signed: a compromised service must not obtain
 * an approval for an arbitrary spender.
 *
 * @example
 * <SwapProvider baseUrl={url} trustedAddresses={{ [mainnet.id]: [ROUTER, SPENDER] }}>…</SwapProvider>
 */
export class UntrustedAddressError extends ExecuteSwapError {
  override name = 'UntrustedAddressError' as const
  declare address: Address
  declare role: 'approvalAddress' | 'transferAddress'
  declare chainId: number

  constructor({
    address,
    role,
    reason,
    chainId,
  }: { address: Address; role: 'approvalAddress' | 'transferAddress'; reason: string; chainId: number }) {
    super(`Refused to use ${address} as ${role} on chain ${chainId}: ${reason}.`, {
      metaMessages: ['Nothing was signed.'],
    })
    this.address = address
    this.role = role
    this.chainId = chainId
  }
}

export type UnsafeSwapDataErrorType = UnsafeSwapDataError & { name: 'UnsafeSwapDataError' }

/**
 * The swap transaction the service built carries more native value than the
 * swap's input allows. Nothing was signed.
 *
 * @example
 * if (error instanceof UnsafeSwapDataError) reportCompromisedQuote(error)
 */
export class UnsafeSwapDataError extends ExecuteSwapError {
  override name = 'UnsafeSwapDataError' as const

  constructor({ reason }: { reason: string }) {
    super(`Refused to sign the swap: ${reason}.`, { metaMessages: ['Nothing was signed.'] })
  }
}

/** What a set of calls does to the user's funds, as simulated or as mined. */
export type SwapOutcome = {
  /** token0 that left the user, in its smallest unit. */
  amountIn: bigint
  /** token1 that reached the recipient, in its smallest unit. */
  amountOut: bigint
  /**
   * How it was measured: `eth_simulateV1` (balances and every log), `eth_call`
   * (the fallback for nodes without it: token0, token1 and native balances
   * only) or `receipt` (after the swap was mined).
   */
  method: 'eth_simulateV1' | 'eth_call' | 'receipt'
  /** Gas each simulated call used, in order (`eth_simulateV1` only). */
  gasUsed?: readonly bigint[] | undefined
}

/** One way the simulated (or mined) calls would move the user's funds other than the swap they asked for. */
export type SwapOutcomeViolation =
  /** token0 would leave the user beyond `amountIn`. */
  | { type: 'overspent'; token: Address; amount: bigint; limit: bigint }
  /** token1 would reach the recipient below the user's floor (`minAmountOut`). */
  | { type: 'underpaid'; token: Address; amount: bigint; limit: bigint }
  /** Another asset (native coin, ERC-20, NFT) would leave the user; `amount` is the value or token id. */
  | { type: 'outflow'; token: Address; amount: bigint }
  /** The user would grant an approval (ERC-20/721, operator, Permit2) the swap does not need. */
  | { type: 'approval'; token: Address; spender: Address }
  /**
   * A token other than the swap's would be left in the guard's executor
   * (a router paying part of the output in another token): the next caller
   * could take it. `amount` is what would stay.
   */
  | { type: 'stranded'; token: Address; amount: bigint }

export type UnsafeSwapOutcomeErrorType = UnsafeSwapOutcomeError & { name: 'UnsafeSwapOutcomeError' }

/**
 * Simulating the exact calls the wallet would sign showed them moving the
 * user's funds in a way the swap does not allow: token1 to someone else or
 * below the user's floor, more token0 than `amountIn`, another asset leaving,
 * or an approval granted. Whatever the service said, nothing was signed
 * (`stage: 'simulation'`). With `stage: 'receipt'` the swap was mined and the
 * realized amounts broke the floor (the state moved between simulation and
 * mining); `hash` and `receipt` say which transaction.
 *
 * @example
 * if (error instanceof UnsafeSwapOutcomeError) console.warn(error.violations)
 */
export class UnsafeSwapOutcomeError extends ExecuteSwapError {
  override name = 'UnsafeSwapOutcomeError' as const
  declare violations: readonly SwapOutcomeViolation[]
  declare outcome: SwapOutcome
  declare stage: 'simulation' | 'receipt'
  declare hash: Hex | undefined
  declare receipt: TransactionReceipt | undefined

  constructor({
    violations,
    outcome,
    stage,
    receipt,
  }: {
    violations: readonly SwapOutcomeViolation[]
    outcome: SwapOutcome
    stage: 'simulation' | 'receipt'
    receipt?: TransactionReceipt | undefined
  }) {
    super(
      stage === 'simulation'
        ? 'Refused to sign: the swap would not do what was asked.'
        : 'The swap was mined, but it did not do what was asked.',
      {
        metaMessages: [
          ...violations.map(describeViolation),
          `Measured with ${outcome.method}: ${outcome.amountIn} in, ${outcome.amountOut} out.`,
          stage === 'simulation' ? 'Nothing was signed.' : `Hash: ${receipt?.transactionHash}`,
        ],
      },
    )
    this.violations = violations
    this.outcome = outcome
    this.stage = stage
    this.receipt = receipt
    this.hash = receipt?.transactionHash
  }
}

function describeViolation(violation: SwapOutcomeViolation): string {
  switch (violation.type) {
    case 'overspent':
      return `${violation.amount} of ${violation.token} would leave the user, at most ${violation.limit} allowed.`
    case 'underpaid':
      return `${violation.amount} of ${violation.token} would reach the recipient, at least ${violation.limit} required.`
    case 'outflow':
      return `${violation.amount} of ${violation.token} would leave the user; the swap does not spend it.`
    case 'approval':
      return `The user would approve ${violation.spender} on ${violation.token}.`
    case 'stranded':
      return `${violation.amount} of ${violation.token} would stay in the guard's executor, for anyone to take.`
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
export class QuoteBelowMinimumError extends ExecuteSwapError {
  override name = 'QuoteBelowMinimumError' as const
  declare estimateAmount: bigint
  declare minAmountOut: bigint

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

export type QuoteChangedErrorType = QuoteChangedError & { name: 'QuoteChangedError' }

/**
 * The fresh quote fetched at execute is worse than the one the user accepted
 * by more than the slippage. Nothing was signed. Show `newQuote`, and if the
 * user accepts it, execute again with `acceptedQuote: error.newQuote`.
 *
 * @example
 * if (error instanceof QuoteChangedError && confirm(`Accept ${error.newQuote.estimateAmount}?`))
 *   execute({ ...variables, acceptedQuote: error.newQuote })
 */
export class QuoteChangedError extends ExecuteSwapError {
  override name = 'QuoteChangedError' as const
  /** The amount the user accepted (`acceptedQuote`'s `estimateAmount` or `amountOut`). */
  declare acceptedAmount: bigint
  /** The fresh quote: its `estimateAmount` is what the swap would now give. */
  declare newQuote: SwapInfo & { quotedFor: QuoteRequest }
  /** The floor the fresh quote missed: the accepted amount less the slippage. */
  declare minAmountOut: bigint

  constructor({
    acceptedAmount,
    newQuote,
    minAmountOut,
  }: { acceptedAmount: bigint; newQuote: SwapInfo & { quotedFor: QuoteRequest }; minAmountOut: bigint }) {
    super('The quote changed since it was shown: accept the new one to swap.', {
      metaMessages: [
        `Shown: ${acceptedAmount}`,
        `Now: ${newQuote.estimateAmount}, below ${minAmountOut} (the shown quote less slippage)`,
        'Nothing was signed.',
      ],
    })
    this.acceptedAmount = acceptedAmount
    this.newQuote = newQuote
    this.minAmountOut = minAmountOut
  }
}

export type BatchUnsupportedErrorType = BatchUnsupportedError & { name: 'BatchUnsupportedError' }

/**
 * `batch: 'require'` was asked, but the wallet does not report atomic
 * batching (EIP-5792 `wallet_getCapabilities`) for the chain. Nothing was signed.
 *
 * @example
 * if (error instanceof BatchUnsupportedError) execute({ ...variables, batch: 'never' })
 */
export class BatchUnsupportedError extends ExecuteSwapError {
  override name = 'BatchUnsupportedError' as const
  declare chainId: number

  constructor({ chainId, cause }: { chainId: number; cause?: unknown }) {
    super(`The wallet does not support atomic batches on chain ${chainId}.`, {
      metaMessages: ["Use batch: 'auto' or 'never' for two transactions.", 'Nothing was signed.'],
      cause,
    })
    this.chainId = chainId
  }
}

export type BatchFailedErrorType = BatchFailedError & { name: 'BatchFailedError' }

/**
 * The atomic batch (approval and swap in one `wallet_sendCalls`) did not
 * succeed: `statusCode` is the wallet's EIP-5792 status (400 off chain, 500
 * reverted on chain, 600 partly). An atomic batch that reverted left nothing
 * behind, the approval included.
 *
 * @example
 * if (error instanceof BatchFailedError) console.log(error.batchId, error.statusCode, error.receipts)
 */
export class BatchFailedError extends ExecuteSwapError {
  override name = 'BatchFailedError' as const
  declare batchId: string
  declare statusCode: number
  declare atomic: boolean
  declare receipts: readonly TransactionReceipt[]

  constructor({
    batchId,
    statusCode,
    atomic,
    receipts,
  }: { batchId: string; statusCode: number; atomic: boolean; receipts: readonly TransactionReceipt[] }) {
    super(
      statusCode === 500 && atomic
        ? 'The batch reverted (atomic, as the wallet reports it).'
        : `The batch failed (status ${statusCode}).`,
      { metaMessages: [`Batch: ${batchId}`] },
    )
    this.batchId = batchId
    this.statusCode = statusCode
    this.atomic = atomic
    this.receipts = receipts
  }
}

export type ChainMismatchErrorType = ChainMismatchError & { name: 'ChainMismatchError' }

/**
 * The wallet (or the public client) is on another chain than the swap's, and
 * switching did not help, or the wallet moved to another chain during the
 * flow. Nothing was sent from then on, except when `hash` is set: the wallet
 * moved right as it was asked to send, ignored the chain id in the request,
 * and sent that transaction on `actualChainId`. It is not waited for on the
 * swap's chain (it is not there): look it up on the chain it went to.
 *
 * @example
 * if (error instanceof ChainMismatchError) promptSwitchTo(error.expectedChainId)
 */
export class ChainMismatchError extends ExecuteSwapError {
  override name = 'ChainMismatchError' as const
  declare expectedChainId: number
  declare actualChainId: number | undefined
  declare client: 'wallet' | 'public'
  /** A transaction the wallet sent on `actualChainId` instead of the swap's chain. */
  declare hash: Hex | undefined

  constructor({
    expectedChainId,
    actualChainId,
    client,
    hash,
    cause,
  }: {
    expectedChainId: number
    actualChainId: number | undefined
    client: 'wallet' | 'public'
    hash?: Hex | undefined
    cause?: unknown
  }) {
    const actual = actualChainId === undefined ? 'another chain' : `chain ${actualChainId}`
    super(
      hash
        ? `The wallet sent the transaction on ${actual}, not on chain ${expectedChainId}.`
        : `The ${client} client is on ${actual}, the swap needs chain ${expectedChainId}.`,
      {
        metaMessages: [hash ? `Hash: ${hash}` : 'Nothing was sent on any chain from then on.'],
        cause,
      },
    )
    this.expectedChainId = expectedChainId
    this.actualChainId = actualChainId
    this.client = client
    this.hash = hash
  }
}

export type UserRejectedErrorType = UserRejectedError & { name: 'UserRejectedError' }

/**
 * The user declined a request in the wallet. Nothing after that step was sent.
 *
 * @example
 * if (error instanceof UserRejectedError) return // not worth an error toast
 */
export class UserRejectedError extends ExecuteSwapError {
  override name = 'UserRejectedError' as const
  declare stage: ExecuteSwapStage

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
export class TransactionRevertedError extends ExecuteSwapError {
  override name = 'TransactionRevertedError' as const
  declare hash: Hex
  declare stage: ExecuteSwapStage
  declare receipt: TransactionReceipt

  constructor({ hash, stage, receipt }: { hash: Hex; stage: ExecuteSwapStage; receipt: TransactionReceipt }) {
    super(`The ${stage} transaction reverted.`, { metaMessages: [`Hash: ${hash}`] })
    this.hash = hash
    this.stage = stage
    this.receipt = receipt
  }
}

export type TransactionReplacedErrorType = TransactionReplacedError & { name: 'TransactionReplacedError' }

/**
 * The transaction was never mined: the wallet mined another one at its nonce
 * instead, a cancellation (`reason: 'cancelled'`, no value sent to the user's
 * own address) or another call (`'replaced'`). Nothing after it was sent. A
 * speed-up (the same call at a higher fee, viem's `'repriced'`) is not this:
 * it counts as the transaction, with its new hash.
 *
 * @example
 * if (error instanceof TransactionReplacedError) console.log(error.hash, 'was', error.reason, 'by', error.replacementHash)
 */
export class TransactionReplacedError extends ExecuteSwapError {
  override name = 'TransactionReplacedError' as const
  /** The transaction the flow sent (never mined). */
  declare hash: Hex
  /** The transaction mined at its nonce instead. */
  declare replacementHash: Hex
  declare reason: 'cancelled' | 'replaced'
  declare stage: ExecuteSwapStage
  /** The replacement's receipt. */
  declare receipt: TransactionReceipt

  constructor({
    hash,
    reason,
    stage,
    receipt,
  }: { hash: Hex; reason: 'cancelled' | 'replaced'; stage: ExecuteSwapStage; receipt: TransactionReceipt }) {
    super(`The ${stage} transaction was ${reason} in the wallet: it was not mined.`, {
      metaMessages: [
        `Hash: ${hash}`,
        `Mined instead: ${receipt.transactionHash}`,
        'Nothing after it was sent.',
      ],
    })
    this.hash = hash
    this.replacementHash = receipt.transactionHash
    this.reason = reason
    this.stage = stage
    this.receipt = receipt
  }
}

export type SwapSimulationErrorType = SwapSimulationError & { name: 'SwapSimulationError' }

/**
 * Simulating the calls the wallet would sign reverted, so the wallet was never
 * asked to sign them. `stage` says which call (`'approval'` or `'swap'`);
 * `reason` is the decoded revert reason when there is one.
 *
 * @example
 * if (error instanceof SwapSimulationError) toast(`Swap would fail: ${error.reason ?? 'reverted'}`)
 */
export class SwapSimulationError extends ExecuteSwapError {
  override name = 'SwapSimulationError' as const
  declare reason: string | undefined
  declare data: Hex | undefined
  declare stage: 'approval' | 'swap'

  constructor({
    reason,
    data,
    stage = 'swap',
    cause,
  }: { reason: string | undefined; data: Hex | undefined; stage?: 'approval' | 'swap'; cause?: unknown }) {
    super(`The ${stage} would revert${reason ? `: ${reason}` : ''}.`, {
      metaMessages: ['Nothing was signed.'],
      cause,
    })
    this.reason = reason
    this.data = data
    this.stage = stage
  }
}

export type SimulationUnavailableErrorType = SimulationUnavailableError & {
  name: 'SimulationUnavailableError'
}

/**
 * The public client's node does not serve `eth_simulateV1` (it answered that
 * request with "method not found"), so what the calls would do to every asset
 * of the user cannot be measured: nothing was signed. Use a node that serves
 * it, or, for a swap through the guard, opt in by name to the balances-only
 * fallback (`dangerouslyAllowBalancesOnlySimulation: true`), in which the
 * guard measures token0 and token1 but no other asset leaving and no
 * approval granted is seen.
 *
 * @example
 * if (error instanceof SimulationUnavailableError) toast('Your RPC cannot simulate the swap: switch to another one.')
 */
export class SimulationUnavailableError extends ExecuteSwapError {
  override name = 'SimulationUnavailableError' as const

  constructor() {
    super('The node cannot simulate the swap (no eth_simulateV1): nothing was signed.')
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
export class InsufficientAllowanceError extends ExecuteSwapError {
  override name = 'InsufficientAllowanceError' as const
  declare allowance: bigint
  declare required: bigint

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
export class WalletError extends ExecuteSwapError {
  override name = 'WalletError' as const
  declare stage: ExecuteSwapStage

  constructor({ stage, cause }: { stage: ExecuteSwapStage; cause: unknown }) {
    super(`The ${stage} step failed in the wallet or node.`, {
      metaMessages: ['Nothing after it was sent.'],
      cause,
    })
    this.stage = stage
  }
}

export type OutcomeUnknownErrorType = OutcomeUnknownError & { name: 'OutcomeUnknownError' }

/**
 * A transaction (or an EIP-5792 batch) was sent, but its outcome could not be
 * read: the wait for its receipt ran out (`receiptTimeoutMs`, `batchTimeoutMs`)
 * or the node or wallet failed. It may still be mined, so it must not be sent
 * again: the execution stays recorded, nothing is revoked, and
 * `settlePendingSwaps` (`usePendingSwaps`) settles it from the chain later.
 *
 * @example
 * if (error instanceof OutcomeUnknownError) toast('Your swap was sent and may still go through: do not retry it.')
 */
export class OutcomeUnknownError extends ExecuteSwapError {
  /** `'TransactionNotSeenError'` for the one kind of unknown outcome that has its own class. */
  override name: 'OutcomeUnknownError' | 'TransactionNotSeenError' = 'OutcomeUnknownError'
  declare stage: 'approval' | 'swap'
  /** The transaction sent; `undefined` for a batch. */
  declare hash: Hex | undefined
  /** The EIP-5792 batch sent, in batch mode. */
  declare batchId: string | undefined

  constructor({
    stage,
    hash,
    batchId,
    cause,
  }: { stage: 'approval' | 'swap'; hash?: Hex | undefined; batchId?: string | undefined; cause: unknown }) {
    super(
      stage === 'swap'
        ? 'The swap was sent, but its outcome is not known yet: do not send it again.'
        : 'The approval was sent, but its outcome is not known yet.',
      {
        metaMessages: [
          hash ? `Hash: ${hash}` : `Batch: ${batchId}`,
          'It may still be mined: settlePendingSwaps (usePendingSwaps) settles it later.',
        ],
        cause,
      },
    )
    this.stage = stage
    this.hash = hash
    this.batchId = batchId
  }
}

export type TransactionNotSeenErrorType = TransactionNotSeenError & { name: 'TransactionNotSeenError' }

/**
 * The wallet returned a hash that no node has seen since: a smart-contract
 * wallet (a Safe) returns its own id for a transaction its owners have yet
 * to sign and execute, or the wallet never broadcast it. Its outcome is
 * unknown (an `OutcomeUnknownError`): check the wallet's queue (the Safe app,
 * the wallet's activity); do not send the swap again from here. The
 * execution stays recorded, and settles from the chain if it is executed.
 *
 * @example
 * if (error instanceof TransactionNotSeenError) toast('Confirm the swap in your wallet’s queue')
 */
export class TransactionNotSeenError extends OutcomeUnknownError {
  override name = 'TransactionNotSeenError' as const

  constructor({ hash, stage, afterMs }: { hash: Hex; stage: ExecuteSwapStage; afterMs: number }) {
    const seconds = `${Math.round(afterMs / 1000)} s`
    super({
      stage: stage === 'approval' ? 'approval' : 'swap',
      hash,
      cause: new Error(`No node has seen ${hash} after ${seconds}.`),
    })
    this.shortMessage = `No node has seen the hash in ${seconds}: check the wallet's queue (a contract wallet executes later); do not send it again.`
    this.message = `${this.shortMessage}\n\nHash: ${hash}`
  }
}

export type SwapInProgressErrorType = SwapInProgressError & { name: 'SwapInProgressError' }

/**
 * The recorded execution is still running in this page (its flow has not
 * ended, e.g. the wallet is showing its prompt), or, with
 * `token-swap-hooks/tabs`, in another tab of the origin: it is not
 * interrupted, and resuming it would send a second swap. Nothing was sent.
 *
 * @example
 * if (error instanceof SwapInProgressError) return // the page's own swap is on its way
 */
export class SwapInProgressError extends ExecuteSwapError {
  override name = 'SwapInProgressError' as const
  declare recordId: string

  constructor({ recordId }: { recordId: string }) {
    super('This swap is still running in this page or another tab: it was not resumed.', {
      metaMessages: [`Record: ${recordId}`, 'Nothing was sent.'],
    })
    this.recordId = recordId
  }
}
