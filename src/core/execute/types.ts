// The executor's types, at the bottom of src/core/execute: they import nothing of the folder.
import type {
  Account,
  Address,
  Chain,
  Hex,
  PublicClient,
  TransactionReceipt,
  Transport,
  WalletClient,
} from 'viem'
import type { GetSwapInfoErrorType } from '../actions/getSwapInfo.js'
import type * as errors from '../errors/execute.js'
import type { ExecuteSwapStage, LeftoverAllowance, SwapOutcome } from '../errors/execute.js'
import type * as guard from '../errors/guard.js'
import type { QuoteRequest, SwapInfo } from '../schemas.js'

export type ExecutionClients = {
  /** Signs and sends; must carry an account (`useWalletClient().data` in wagmi). */
  walletClient: WalletClient<Transport, Chain | undefined, Account | undefined>
  /** Reads, simulates and waits for receipts (`usePublicClient()` in wagmi). */
  publicClient: PublicClient<Transport, Chain | undefined>
}

/** Where executions record their progress: `localStorage`'s three methods, synchronous or not. */
export type SwapStorage = {
  getItem(key: string): string | null | undefined | Promise<string | null | undefined>
  setItem(key: string, value: string): unknown
  removeItem(key: string): unknown
}

/** One transaction the user would sign. */
export type SwapCall = { to: Address; data: Hex; value?: bigint | undefined }

/** Where the user's bounds hold: on chain, through the SwapGuard contract, or in the simulation only. */
export type FloorEnforcement = 'onchain' | 'simulation'

/** How the guarded swap may take token0 through a Permit2 signature (see `permit2`). */
export type Permit2Mode = 'if-approved' | 'approve' | 'never'

/** How the approval and the swap are sent: one atomic batch where the wallet can, or one after the other. */
export type BatchMode = 'auto' | 'never' | 'require'

/**
 * A step of a swap: approve(target, 0) first (USDT-style), the approval, the Permit2 signature, the swap, or
 * one EIP-5792 batch.
 */
export type SwapStepKind = 'reset' | 'approve' | 'permit' | 'swap' | 'batch'

/**
 * What happened to a step: `'sending'` (written before the wallet is asked), `'sent'` (its hash or batch id
 * came back), `'mined'`, `'reverted'`, `'replaced'` (another transaction took its nonce), `'rejected'` (the
 * wallet sent nothing), `'unknown'` (it may be on its way, its outcome not read).
 */
export type JournalEvent = 'sending' | 'sent' | 'mined' | 'reverted' | 'replaced' | 'rejected' | 'unknown'

/** How the steps go: one atomic EIP-5792 batch, or one transaction after the other. */
export type SwapMode = 'sequential' | Extract<SwapStepKind, 'batch'>

/** What a mined swap paid against the service's estimate at signing. */
export type SwapShortfall = {
  /** The service's `estimateAmount` the swap was signed on. */
  estimate: bigint
  /** token1 the recipient got (`realized.amountOut`). */
  received: bigint
  /** How far below the estimate, in basis points (0 at or above it). */
  bps: number
}

/** Where the flow is, for a button label. */
export type ExecuteSwapStatus = 'quoting' | 'approving' | 'swapping' | 'success'

/** What the flow is doing inside its status. */
export type ExecuteSwapAction =
  | 'fetching-quote'
  | 'checking-chain'
  | 'checking-allowance'
  | 'simulating'
  | 'resetting-allowance'
  | 'approving'
  | 'waiting-for-approval'
  | 'signing-permit'
  | 'sending-swap'
  | 'waiting-for-swap'
  | 'sending-batch'
  | 'waiting-for-batch'
  | 'revoking'
  | 'done'

/** A snapshot of the flow, passed to `onStep` at every change. */
export type ExecuteSwapStep = {
  status: ExecuteSwapStatus
  action: ExecuteSwapAction
  /** The fresh quote being executed, once fetched. */
  swapInfo?: SwapInfo | undefined
  /** What the simulation of the calls to sign predicts, once simulated. */
  simulated?: SwapOutcome | undefined
  mode?: SwapMode | undefined
  /** The approve(spender, 0) sent first for tokens that refuse to change a non-zero allowance. */
  resetHash?: Hex | undefined
  approvalHash?: Hex | undefined
  swapHash?: Hex | undefined
  /** The EIP-5792 batch id, when the calls went as one batch. */
  batchId?: string | undefined
  receipt?: TransactionReceipt | undefined
}

/** The routers and spenders trusted per chain: `{ [mainnet.id]: [ROUTER, SPENDER] }`. */
export type TrustedAddresses = { readonly [chainId: number]: readonly Address[] }

/**
 * The parameters of `executeSwap`: the clients, the swap (tokens, amount, recipient) and its safety options.
 */
export type ExecuteSwapParameters = ExecutionClients & {
  token0: Address
  token1: Address
  /** The input amount in token0's smallest unit. */
  amountIn: bigint
  /** Who receives the output. Default: the wallet's account. */
  to?: Address | undefined
  /** Accepted slippage, 0 to 1, sent to `/swap/info` and used for the floor. Default 0.005. */
  slippage?: number | undefined
  /** Passed to `/swap/info` as is. */
  deadline?: number | bigint | undefined
  /** The user's floor: the least token1 the recipient must receive. Required unless `acceptedQuote` is given. */
  minAmountOut?: bigint | undefined
  /**
   * The quote the user accepted (a SwapInfo or a Route): the floor is its amount less `slippage`, and a fresh
   * quote below it a `QuoteChangedError`. One fetched for other tokens or another `amountIn` is refused.
   */
  acceptedQuote?:
    | { estimateAmount: bigint; quotedFor?: QuoteRequest | undefined }
    | { amountOut: bigint; quotedFor?: QuoteRequest | undefined }
    | undefined
  /** The chain the swap is for. Default: the public client's chain. */
  chainId?: number | undefined
  /**
   * The only spenders and routers the flow will approve or call, per chain. Required unless
   * `dangerouslyTrustAnyAddress`.
   */
  trustedAddresses?: TrustedAddresses | undefined
  /** Approve and call whatever the service names, relying on the outcome check alone (tests only). */
  dangerouslyTrustAnyAddress?: boolean | undefined
  /**
   * On a node without `eth_simulateV1`, check a guarded swap with one `eth_call` in which the guard measures
   * token0 and token1 only (other assets and approvals go unseen). Default `false`: such a node is refused.
   */
  dangerouslyAllowBalancesOnlySimulation?: boolean | undefined
  /**
   * `'onchain'` (default): the swap goes through the SwapGuard contract, which reverts the mined transaction
   * below the bounds; `'simulation'`: the service's calldata is signed as it is, the bounds held in the
   * simulation only.
   */
  floorEnforcement?: FloorEnforcement | undefined
  /** `'exact'` (default) approves amountIn; `'infinite'` approves 2^256 - 1. */
  approval?: 'exact' | 'infinite' | undefined
  /**
   * Take token0 through one Permit2 signature binding the whole swap: `'if-approved'` (default) where the
   * account's Permit2 allowance covers it, `'approve'` also after asking for that one-time approval,
   * `'never'`.
   */
  permit2?: Permit2Mode | undefined
  /** Set the allowance to 0 before approving (USDT style); detected when omitted. */
  resetAllowance?: boolean | undefined
  /** `'auto'` (default): one atomic batch where the wallet can; `'never'`; `'require'`: refuse a wallet that cannot. */
  batch?: BatchMode | undefined
  /** How long to wait for a batch's status. Default 300 000 ms, then `OutcomeUnknownError`. */
  batchTimeoutMs?: number | undefined
  /** How long to wait for each receipt. Default 180 000 ms (viem's), then `OutcomeUnknownError`. */
  receiptTimeoutMs?: number | undefined
  /**
   * Revoke an approval of this flow when the swap does not happen. Default `false`: reported as
   * `leftoverAllowance`.
   */
  revokeOnFailure?: boolean | undefined
  /** Blocks to wait for each transaction. Default 1. */
  confirmations?: number | undefined
  /**
   * Where the execution is recorded for a reload. Default: `localStorage` in a browser, memory elsewhere;
   * `false`: nowhere.
   */
  storage?: SwapStorage | false | undefined
  /** Called at every step with a snapshot of the flow. */
  onStep?: ((step: ExecuteSwapStep) => void) | undefined
  /** Called with each thing that happened, for analytics (a function that throws is ignored). */
  onEvent?: ((event: SwapEvent) => void) | undefined
  /** How long the wallet is given to answer `wallet_getCapabilities`. Default 3 000 ms. */
  capabilitiesTimeoutMs?: number | undefined
  /** A hash no node has seen after this long is a `TransactionNotSeenError`. Default 60 000 ms. */
  notSeenTimeoutMs?: number | undefined
  /** An ERC-7677 paymaster for the batch's gas, where the wallet reports `paymasterService`. */
  paymaster?: { url: string; context?: Record<string, unknown> | undefined } | undefined
}

/**
 * What happened, as `onEvent` reports it: a send or a mined step, the success, or the failure with its
 * `code`.
 */
export type SwapEvent =
  | {
      type: `${Extract<ExecuteSwapStage, 'approval'> | Extract<SwapStepKind, 'swap' | 'batch'>}-${Extract<JournalEvent, 'sent' | 'mined'>}`
      chainId: number
      hash?: Hex | undefined
      batchId?: string | undefined
    }
  | {
      type: Extract<ExecuteSwapStatus, 'success'>
      chainId: number
      hash: Hex
      floorEnforcement: FloorEnforcement
      realized: SwapOutcome | undefined
      shortfall: SwapShortfall | undefined
    }
  | { type: 'failure'; code: string; error: unknown }

/**
 * What `executeSwap` resolves to: the quote, the chain, the mode, every hash sent, the receipt and the
 * outcome.
 */
export type ExecuteSwapReturnType = {
  swapInfo: SwapInfo
  chainId: number
  mode: SwapMode
  resetHash?: Hex | undefined
  /** Set when an approval was sent. */
  approvalHash?: Hex | undefined
  /** The swap transaction (in a batch: the swap's). */
  swapHash: Hex
  /** The swap's receipt. */
  receipt: TransactionReceipt
  /** The EIP-5792 batch id, in batch mode. */
  batchId?: string | undefined
  /** Every transaction hash the flow sent, in order. */
  transactionHashes: Hex[]
  /** Every receipt, in order. */
  receipts: TransactionReceipt[]
  /** What the simulation right before signing predicted. */
  simulated: SwapOutcome
  /** What the mined swap did; `undefined` when it could not be measured (`realizedError` says why). */
  realized: SwapOutcome | undefined
  /** Which enforcement of the user's bounds ran (`'onchain'`: the guard measured `realized`). */
  floorEnforcement: FloorEnforcement
  /** Why `realized` is `undefined`. */
  realizedError?: unknown
  /** What the recipient got against the service's estimate at signing; absent when `realized` is. */
  shortfall?: SwapShortfall | undefined
  /** An allowance still standing after the swap (`revokeAllowance` sets it to 0). */
  leftoverAllowance?: LeftoverAllowance | undefined
}

/** The errors `executeSwap` (and `resumeSwap`) can throw, each narrowed on its `name`. */
export type ExecuteSwapErrorType =
  | GetSwapInfoErrorType
  | errors.UntrustedAddressErrorType
  | errors.UnsafeSwapDataErrorType
  | errors.UnsafeSwapOutcomeErrorType
  | errors.QuoteBelowMinimumErrorType
  | errors.QuoteChangedErrorType
  | errors.ChainMismatchErrorType
  | errors.UserRejectedErrorType
  | errors.TransactionRevertedErrorType
  | errors.TransactionReplacedErrorType
  | errors.SwapSimulationErrorType
  | errors.InsufficientAllowanceErrorType
  | errors.BatchUnsupportedErrorType
  | errors.BatchFailedErrorType
  | errors.OutcomeUnknownErrorType
  | errors.TransactionNotSeenErrorType
  | errors.SwapInProgressErrorType
  | errors.SimulationUnavailableErrorType
  | guard.SwapGuardNotDeployedErrorType
  | guard.SwapGuardIncompatibleErrorType
  | guard.SwapGuardCodeMismatchErrorType
  | guard.PermitRefusedErrorType
  | errors.WalletErrorType
