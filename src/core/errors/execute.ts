import type { Address, Hex, TransactionReceipt } from 'viem'
import type { QuoteRequest, SwapInfo } from '../schemas.js'
import { BaseError, type BaseErrorParameters } from './base.js'

/** Where in the swap flow an error happened. */
export type ExecuteSwapStage = 'quote' | 'chain' | 'approval' | 'simulation' | 'swap' | 'revoke'

/** The stage of a call that was sent (or simulated as sent): an approval or the swap. */
export type SentStage = Extract<ExecuteSwapStage, 'approval' | 'swap'>

/** An allowance an approval of the flow left behind because the swap did not happen. */
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

const unsigned = 'Nothing was signed.'
const nothingAfter = 'Nothing after it was sent.'
const hashLine = (hash: Hex | undefined) => `Hash: ${hash}`

/**
 * The base of the errors `executeSwap` ends with. `leftoverAllowance` is set when an approval of the flow was
 * mined and the swap then did not happen (revoke it with `revokeAllowance`, or pass `revokeOnFailure: true`).
 * @example
 * if (error instanceof ExecuteSwapError && error.leftoverAllowance?.amount)
 *   await revokeAllowance({ walletClient, publicClient, ...error.leftoverAllowance })
 */
export class ExecuteSwapError extends BaseError {
  override name = 'ExecuteSwapError'
  leftoverAllowance: LeftoverAllowance | undefined = undefined
  /**
   * The last `onStep` snapshot before this error (set by `executeSwap` and `resumeSwap`): from
   * `'checking-allowance'` on, the router and spender had passed `trustedAddresses`.
   */
  step: { status: string; action: string } | undefined = undefined

  /** Each field of `parameters` but the base ones is set on the error; `meta` adds lines. */
  constructor(
    shortMessage: string,
    { cause, details, metaMessages = [], ...fields }: BaseErrorParameters & Record<string, unknown> = {},
    ...meta: string[]
  ) {
    const lines = [...metaMessages, ...meta]
    super(shortMessage, { cause, details, metaMessages: lines.length ? lines : undefined })
    Object.assign(this, fields)
  }
}

/**
 * Records on `error` the allowance a failed flow left, and says so in its message; any other error is wrapped
 * in an `ExecuteSwapError` with its `shortMessage` and as its `cause`.
 * @example throw noteLeftoverAllowance(error, { chainId, token, owner, spender, amount })
 */
export function noteLeftoverAllowance(error: unknown, leftover: LeftoverAllowance): ExecuteSwapError {
  // A library error's shortMessage, by shape (another copy of the library's), else the message.
  const { shortMessage, message } = (error ?? {}) as { shortMessage?: unknown; message?: unknown }
  const text = [shortMessage, message, 'The swap was not sent.'].find((m) => typeof m === 'string') as string
  const noted = error instanceof ExecuteSwapError ? error : new ExecuteSwapError(text, { cause: error })
  noted.leftoverAllowance = leftover
  const line = leftover.amount
    ? `Allowance left: ${leftover.amount} for ${leftover.spender} on ${leftover.token} (revokeAllowance).`
    : leftover.revokeHash
      ? `The approval was revoked (${leftover.revokeHash}).`
      : 'No allowance is left.'
  noted.metaMessages = [...(noted.metaMessages ?? []), line]
  noted.message += `\n\n${line}`
  return noted
}

type Role = 'approvalAddress' | 'transferAddress'
/** `UntrustedAddressError`, its `name` a literal type: a union of errors narrows on `error.name`. */
export type UntrustedAddressErrorType = UntrustedAddressError & { name: 'UntrustedAddressError' }

/**
 * The service named a spender or router outside the chain's `trustedAddresses` (or a swapped token, the zero
 * address). Nothing was signed.
 * @example if (error instanceof UntrustedAddressError) report(error.address, error.role, error.chainId)
 */
export class UntrustedAddressError extends ExecuteSwapError {
  override name = 'UntrustedAddressError' as const
  declare address: Address
  declare role: Role
  declare chainId: number
  /** Why it was refused. */
  declare reason: string

  constructor(p: { address: Address; role: Role; reason: string; chainId: number }) {
    super(`Refused to use ${p.address} as ${p.role} on chain ${p.chainId}: ${p.reason}.`, p, unsigned)
  }
}

/** `UnsafeSwapDataError`, its `name` a literal type: a union of errors narrows on `error.name`. */
export type UnsafeSwapDataErrorType = UnsafeSwapDataError & { name: 'UnsafeSwapDataError' }

/**
 * The service's swap transaction carries more native value than the swap's input allows. Nothing was signed.
 * @example if (error instanceof UnsafeSwapDataError) reportCompromisedQuote(error)
 */
export class UnsafeSwapDataError extends ExecuteSwapError {
  override name = 'UnsafeSwapDataError' as const

  constructor({ reason }: { reason: string }) {
    super(`Refused to sign the swap: ${reason}.`, {}, unsigned)
  }
}

/** What a set of calls does to the user's funds, as simulated or as mined. */
export type SwapOutcome = {
  /** token0 that left the user, in its smallest unit. */
  amountIn: bigint
  /** token1 that reached the recipient, in its smallest unit. */
  amountOut: bigint
  /** `eth_simulateV1` (balances and every log), `eth_call` (token0 and token1 only) or `receipt` (mined). */
  method: 'eth_simulateV1' | 'eth_call' | 'receipt'
  /** Gas each simulated call used, in order (`eth_simulateV1` only). */
  gasUsed?: readonly bigint[] | undefined
}

/** One way the calls would move the user's funds other than the swap asked for. */
export type SwapOutcomeViolation =
  /** token0 would leave the user beyond `amountIn`. */
  | { type: 'overspent'; token: Address; amount: bigint; limit: bigint }
  /** token1 would reach the recipient below the floor. */
  | { type: 'underpaid'; token: Address; amount: bigint; limit: bigint }
  /** Another asset (native coin, ERC-20, NFT) would leave the user; `amount` is the value or token id. */
  | { type: 'outflow'; token: Address; amount: bigint }
  /** The user would grant an approval (ERC-20/721, operator, Permit2) the swap does not need. */
  | { type: 'approval'; token: Address; spender: Address }
  /** Another token would stay in the guard's executor, for the next caller to take. */
  | { type: 'stranded'; token: Address; amount: bigint }

/** `UnsafeSwapOutcomeError`, its `name` a literal type: a union of errors narrows on `error.name`. */
export type UnsafeSwapOutcomeErrorType = UnsafeSwapOutcomeError & { name: 'UnsafeSwapOutcomeError' }

/**
 * The exact calls to sign would move the user's funds other than asked (`stage: 'simulation'`: nothing was
 * signed), or the mined swap broke the floor (`stage: 'receipt'`, with its `hash` and `receipt`).
 * @example if (error instanceof UnsafeSwapOutcomeError) console.warn(error.violations)
 */
export class UnsafeSwapOutcomeError extends ExecuteSwapError {
  override name = 'UnsafeSwapOutcomeError' as const
  declare violations: readonly SwapOutcomeViolation[]
  declare outcome: SwapOutcome
  declare stage: Extract<ExecuteSwapStage, 'simulation'> | 'receipt'
  declare hash: Hex | undefined
  declare receipt: TransactionReceipt | undefined

  constructor(
    p: Pick<UnsafeSwapOutcomeError, 'violations' | 'outcome' | 'stage'> & { receipt?: TransactionReceipt },
  ) {
    const { violations, outcome, stage, receipt } = p
    const signed = stage !== 'simulation'
    super(
      signed
        ? 'The mined swap did not do what was asked.'
        : 'Refused to sign: the swap would not do what was asked.',
      { ...p, receipt, hash: receipt?.transactionHash },
      ...violations.map(describeViolation),
      `Measured with ${outcome.method}: ${outcome.amountIn} in, ${outcome.amountOut} out.`,
      signed ? hashLine(receipt?.transactionHash) : unsigned,
    )
  }
}

/**
 * A violation in one line: its type, the amount and token (the spender for an approval), the limit.
 * @example
 * describeViolation({ type: 'underpaid', token, amount: 90n, limit: 95n }) // 'underpaid: 90 of 0x… (limit 95)'
 */
export const describeViolation = (v: SwapOutcomeViolation): string =>
  v.type === 'approval'
    ? `approval: ${v.spender} on ${v.token}`
    : `${v.type}: ${v.amount} of ${v.token}${'limit' in v ? ` (limit ${v.limit})` : ''}`

/** `QuoteBelowMinimumError`, its `name` a literal type: a union of errors narrows on `error.name`. */
export type QuoteBelowMinimumErrorType = QuoteBelowMinimumError & { name: 'QuoteBelowMinimumError' }

/**
 * The fresh quote fetched right before signing is below the user's floor. Nothing was signed.
 * @example if (error instanceof QuoteBelowMinimumError) setQuote(error.estimateAmount)
 */
export class QuoteBelowMinimumError extends ExecuteSwapError {
  override name = 'QuoteBelowMinimumError' as const
  declare estimateAmount: bigint
  declare minAmountOut: bigint

  constructor(p: { estimateAmount: bigint; minAmountOut: bigint }) {
    super(`The fresh quote ${p.estimateAmount} is below the minimum ${p.minAmountOut}.`, p, unsigned)
  }
}

/** `QuoteChangedError`, its `name` a literal type: a union of errors narrows on `error.name`. */
export type QuoteChangedErrorType = QuoteChangedError & { name: 'QuoteChangedError' }

/**
 * The fresh quote is worse than the accepted one by more than the slippage. Nothing was signed: show
 * `newQuote`, and execute again with it accepted.
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
  /** The floor it missed: the accepted amount less the slippage. */
  declare minAmountOut: bigint

  constructor(p: Pick<QuoteChangedError, 'acceptedAmount' | 'newQuote' | 'minAmountOut'>) {
    const quote = `${p.acceptedAmount} to ${p.newQuote.estimateAmount}, below ${p.minAmountOut}`
    super(`The quote fell from ${quote}: accept the new one to swap.`, p, unsigned)
  }
}

/** `BatchUnsupportedError`, its `name` a literal type: a union of errors narrows on `error.name`. */
export type BatchUnsupportedErrorType = BatchUnsupportedError & { name: 'BatchUnsupportedError' }

/**
 * `batch: 'require'`, and the wallet reports no atomic batches for the chain. Nothing was signed.
 * @example if (error instanceof BatchUnsupportedError) execute({ ...variables, batch: 'never' })
 */
export class BatchUnsupportedError extends ExecuteSwapError {
  override name = 'BatchUnsupportedError' as const
  declare chainId: number

  constructor(p: { chainId: number; cause?: unknown }) {
    super(`The wallet cannot batch atomically on chain ${p.chainId} (batch: 'require').`, p, unsigned)
  }
}

/** `BatchFailedError`, its `name` a literal type: a union of errors narrows on `error.name`. */
export type BatchFailedErrorType = BatchFailedError & { name: 'BatchFailedError' }

/**
 * The atomic batch did not succeed: `statusCode` is the wallet's EIP-5792 status (400 off chain, 500
 * reverted, 600 partly).
 * @example if (error instanceof BatchFailedError) console.log(error.batchId, error.statusCode, error.receipts)
 */
export class BatchFailedError extends ExecuteSwapError {
  override name = 'BatchFailedError' as const
  declare batchId: string
  declare statusCode: number
  declare atomic: boolean
  declare receipts: readonly TransactionReceipt[]

  constructor(p: Pick<BatchFailedError, 'batchId' | 'statusCode' | 'atomic' | 'receipts'>) {
    const reverted = p.statusCode === 500 && p.atomic
    super(
      `The batch ${reverted ? 'reverted (atomic)' : `failed (status ${p.statusCode})`}.`,
      p,
      `Batch: ${p.batchId}`,
    )
  }
}

/** `ChainMismatchError`, its `name` a literal type: a union of errors narrows on `error.name`. */
export type ChainMismatchErrorType = ChainMismatchError & { name: 'ChainMismatchError' }

/**
 * A client is on another chain than the swap's (a switch did not help, or the wallet moved): nothing was sent
 * from then on, unless `hash` is set, a transaction the wallet sent on `actualChainId`.
 * @example if (error instanceof ChainMismatchError) promptSwitchTo(error.expectedChainId)
 */
export class ChainMismatchError extends ExecuteSwapError {
  override name = 'ChainMismatchError' as const
  declare expectedChainId: number
  declare actualChainId: number | undefined
  declare client: 'wallet' | 'public'
  /** A transaction the wallet sent on `actualChainId` instead of the swap's chain. */
  declare hash: Hex | undefined

  constructor(p: {
    expectedChainId: number
    actualChainId: number | undefined
    client: 'wallet' | 'public'
    hash?: Hex | undefined
    cause?: unknown
  }) {
    const { expectedChainId: expected, actualChainId, hash } = p
    const actual = actualChainId === undefined ? 'another chain' : `chain ${actualChainId}`
    super(
      `The ${hash ? 'wallet sent the transaction' : `${p.client} client is`} on ${actual}, not chain ${expected}.`,
      { ...p, hash },
      hash ? hashLine(hash) : 'Nothing was sent from then on.',
    )
  }
}

/** `UserRejectedError`, its `name` a literal type: a union of errors narrows on `error.name`. */
export type UserRejectedErrorType = UserRejectedError & { name: 'UserRejectedError' }

/**
 * The user declined a request in the wallet. Nothing after that step was sent.
 * @example if (error instanceof UserRejectedError) return // not worth an error toast
 */
export class UserRejectedError extends ExecuteSwapError {
  override name = 'UserRejectedError' as const
  declare stage: ExecuteSwapStage

  constructor(p: { stage: ExecuteSwapStage; cause: unknown }) {
    super(`The request was rejected in the wallet (${p.stage}).`, p, nothingAfter)
  }
}

/** `TransactionRevertedError`, its `name` a literal type: a union of errors narrows on `error.name`. */
export type TransactionRevertedErrorType = TransactionRevertedError & { name: 'TransactionRevertedError' }

/**
 * A transaction was mined but reverted (after a reverted approval, the swap is never sent).
 * @example if (error instanceof TransactionRevertedError) console.log(error.hash, error.stage)
 */
export class TransactionRevertedError extends ExecuteSwapError {
  override name = 'TransactionRevertedError' as const
  declare hash: Hex
  declare stage: ExecuteSwapStage
  declare receipt: TransactionReceipt

  constructor(p: Pick<TransactionRevertedError, 'hash' | 'stage' | 'receipt'>) {
    super(`The ${p.stage} transaction reverted.`, p, hashLine(p.hash))
  }
}

/** `TransactionReplacedError`, its `name` a literal type: a union of errors narrows on `error.name`. */
export type TransactionReplacedErrorType = TransactionReplacedError & { name: 'TransactionReplacedError' }

/**
 * The transaction was never mined: another was mined at its nonce, a cancellation or another call (a speed-up
 * is not this: it counts as the transaction). Nothing after it was sent.
 * @example
 * if (error instanceof TransactionReplacedError) console.log(error.hash, error.reason, error.replacementHash)
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

  constructor(p: Pick<TransactionReplacedError, 'hash' | 'reason' | 'stage' | 'receipt'>) {
    const replacementHash = p.receipt.transactionHash
    super(
      `The ${p.stage} transaction was ${p.reason}: ${replacementHash} was mined instead.`,
      { ...p, replacementHash },
      hashLine(p.hash),
      nothingAfter,
    )
  }
}

/** `SwapSimulationError`, its `name` a literal type: a union of errors narrows on `error.name`. */
export type SwapSimulationErrorType = SwapSimulationError & { name: 'SwapSimulationError' }

/**
 * Simulating the calls to sign reverted (`stage`: which call; `reason`: the decoded revert). Nothing was
 * signed.
 * @example if (error instanceof SwapSimulationError) toast(`Swap would fail: ${error.reason ?? 'reverted'}`)
 */
export class SwapSimulationError extends ExecuteSwapError {
  override name = 'SwapSimulationError' as const
  declare reason: string | undefined
  declare data: Hex | undefined
  declare stage: SentStage

  constructor(p: {
    reason: string | undefined
    data: Hex | undefined
    stage?: SentStage
    cause?: unknown
  }) {
    const { reason, data, stage = 'swap' } = p
    super(`The ${stage} would revert${reason ? `: ${reason}` : ''}.`, { ...p, reason, data, stage }, unsigned)
  }
}

/** `SimulationUnavailableError`, its `name` a literal type: a union of errors narrows on `error.name`. */
export type SimulationUnavailableErrorType = SimulationUnavailableError & {
  name: 'SimulationUnavailableError'
}

/**
 * The node does not serve `eth_simulateV1`, so nothing was signed: use one that does, or for a guarded swap
 * opt in to `dangerouslyAllowBalancesOnlySimulation`.
 * @example if (error instanceof SimulationUnavailableError) toast('Your RPC cannot simulate the swap.')
 */
export class SimulationUnavailableError extends ExecuteSwapError {
  override name = 'SimulationUnavailableError' as const

  constructor() {
    super('The node has no eth_simulateV1: nothing was signed.')
  }
}

/** `InsufficientAllowanceError`, its `name` a literal type: a union of errors narrows on `error.name`. */
export type InsufficientAllowanceErrorType = InsufficientAllowanceError & {
  name: 'InsufficientAllowanceError'
}

/**
 * After the approval was mined, the allowance still does not cover the amount. The swap was not sent.
 * @example if (error instanceof InsufficientAllowanceError) console.log(error.allowance, error.required)
 */
export class InsufficientAllowanceError extends ExecuteSwapError {
  override name = 'InsufficientAllowanceError' as const
  declare allowance: bigint
  declare required: bigint
  declare spender: Address

  constructor(p: Pick<InsufficientAllowanceError, 'allowance' | 'required' | 'spender'>) {
    super(`The allowance for ${p.spender} is ${p.allowance}, below ${p.required}: the swap was not sent.`, p)
  }
}

/** `WalletError`, its `name` a literal type: a union of errors narrows on `error.name`. */
export type WalletErrorType = WalletError & { name: 'WalletError' }

/**
 * The wallet or the node failed a step, not by a rejection (`cause`: viem's error). Nothing after it was
 * sent.
 * @example if (error instanceof WalletError) console.error(error.stage, error.details)
 */
export class WalletError extends ExecuteSwapError {
  override name = 'WalletError' as const
  declare stage: ExecuteSwapStage

  constructor(p: { stage: ExecuteSwapStage; cause: unknown }) {
    super(`The ${p.stage} step failed in the wallet or node.`, p, nothingAfter)
  }
}

/** `OutcomeUnknownError`, its `name` a literal type: a union of errors narrows on `error.name`. */
export type OutcomeUnknownErrorType = OutcomeUnknownError & { name: 'OutcomeUnknownError' }

/**
 * A transaction (or batch) was sent but its outcome could not be read: it may still be mined, so it must not
 * be sent again; the record stays, for `settlePendingSwaps` to settle.
 * @example
 * if (error instanceof OutcomeUnknownError) toast('Your swap was sent and may still go through: do not retry it.')
 */
export class OutcomeUnknownError extends ExecuteSwapError {
  override name: 'OutcomeUnknownError' | 'TransactionNotSeenError' = 'OutcomeUnknownError'
  declare stage: SentStage
  /** The transaction sent; `undefined` for a batch. */
  declare hash: Hex | undefined
  /** The EIP-5792 batch sent, in batch mode. */
  declare batchId: string | undefined

  constructor(p: {
    stage: SentStage
    hash?: Hex | undefined
    batchId?: string | undefined
    cause: unknown
  }) {
    const { hash, batchId } = p
    super(
      `The ${p.stage} was sent; its outcome is not known${p.stage === 'swap' ? ': do not send it again' : ''}.`,
      { ...p, hash, batchId },
      hash ? hashLine(hash) : `Batch: ${batchId}`,
      'It may still be mined: settlePendingSwaps settles it.',
    )
  }
}

/** `TransactionNotSeenError`, its `name` a literal type: a union of errors narrows on `error.name`. */
export type TransactionNotSeenErrorType = TransactionNotSeenError & { name: 'TransactionNotSeenError' }

/**
 * No node has seen the hash the wallet returned (a Safe's own id for a transaction still to execute, one
 * never broadcast): an unknown outcome; check the wallet's queue, do not send it again.
 * @example if (error instanceof TransactionNotSeenError) toast('Confirm the swap in your wallet’s queue')
 */
export class TransactionNotSeenError extends OutcomeUnknownError {
  override name = 'TransactionNotSeenError' as const

  constructor({ hash, stage, afterMs }: { hash: Hex; stage: ExecuteSwapStage; afterMs: number }) {
    const seconds = `${Math.round(afterMs / 1000)} s`
    const cause = new Error(`No node has seen ${hash} after ${seconds}.`)
    super({ stage: stage === 'approval' ? 'approval' : 'swap', hash, cause })
    this.shortMessage = `No node has seen the hash in ${seconds}: check the wallet's queue; do not send it again.`
    this.message = `${this.shortMessage}\n\n${hashLine(hash)}`
  }
}

/** `SwapInProgressError`, its `name` a literal type: a union of errors narrows on `error.name`. */
export type SwapInProgressErrorType = SwapInProgressError & { name: 'SwapInProgressError' }

/**
 * The record's execution still runs in this page (or, with `token-swap-hooks/tabs`, another tab): not
 * resumed, nothing sent.
 * @example if (error instanceof SwapInProgressError) return // the page's own swap is on its way
 */
export class SwapInProgressError extends ExecuteSwapError {
  override name = 'SwapInProgressError' as const
  declare recordId: string

  constructor(p: { recordId: string }) {
    super('This swap still runs in this page or another tab: nothing was sent.', p, `Record: ${p.recordId}`)
  }
}
