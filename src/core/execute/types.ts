// The executor's types, at the bottom of src/core/execute: every other module of the folder may
// import them; they import nothing of the folder.
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
import type {
  BatchFailedErrorType,
  BatchUnsupportedErrorType,
  ChainMismatchErrorType,
  InsufficientAllowanceErrorType,
  LeftoverAllowance,
  OutcomeUnknownErrorType,
  QuoteBelowMinimumErrorType,
  QuoteChangedErrorType,
  SimulationUnavailableErrorType,
  SwapInProgressErrorType,
  SwapOutcome,
  SwapSimulationErrorType,
  TransactionNotSeenErrorType,
  TransactionReplacedErrorType,
  TransactionRevertedErrorType,
  UnsafeSwapDataErrorType,
  UnsafeSwapOutcomeErrorType,
  UntrustedAddressErrorType,
  UserRejectedErrorType,
  WalletErrorType,
} from '../errors/execute.js'
import type {
  PermitRefusedErrorType,
  SwapGuardCodeMismatchErrorType,
  SwapGuardIncompatibleErrorType,
  SwapGuardNotDeployedErrorType,
} from '../errors/guard.js'
import type { QuoteRequest, SwapInfo } from '../schemas.js'

export type ExecutionClients = {
  /** Signs and sends; must carry an account (`useWalletClient().data` in wagmi). */
  walletClient: WalletClient<Transport, Chain | undefined, Account | undefined>
  /** Reads, simulates and waits for receipts (`usePublicClient()` in wagmi). */
  publicClient: PublicClient<Transport, Chain | undefined>
}

/**
 * Where executions record their progress: the Web Storage shape
 * (`localStorage`, `sessionStorage`), or anything with the same three
 * methods, synchronous or not (IndexedDB wrappers, React Native's AsyncStorage).
 */
export type SwapStorage = {
  getItem(key: string): string | null | undefined | Promise<string | null | undefined>
  setItem(key: string, value: string): unknown
  removeItem(key: string): unknown
}

/** One transaction the user would sign. */
export type SwapCall = { to: Address; data: Hex; value?: bigint | undefined }

/**
 * Where the user's bounds hold: `'onchain'`, in the mined transaction (the
 * swap goes through the SwapGuard contract, which reverts it below them);
 * `'simulation'`, only in the simulation of the service's calldata, signed
 * as it is.
 */
export type FloorEnforcement = 'onchain' | 'simulation'

/**
 * How the guarded swap may take token0 through Permit2: `'if-approved'`
 * where the account's Permit2 allowance already covers it, `'approve'` also
 * after asking for that one-time approval, `'never'` not at all.
 */
export type Permit2Mode = 'if-approved' | 'approve' | 'never'

/** How the approval and the swap are sent: one atomic batch where the wallet can, or one transaction after the other. */
export type BatchMode = 'auto' | 'never' | 'require'

/**
 * The kinds of step a swap takes: approve(target, 0) first (USDT-style
 * tokens), the approval, the Permit2 signature (nothing sent: the swap
 * carries it), the swap, or the transactions in one EIP-5792 batch.
 */
export type SwapStepKind = 'reset' | 'approve' | 'permit' | 'swap' | 'batch'

/** What a mined swap paid against the service's estimate at signing. */
export type SwapShortfall = {
  /** The service's `estimateAmount` the swap was signed on. */
  estimate: bigint
  /** token1 the recipient got (`realized.amountOut`). */
  received: bigint
  /** How far below the estimate, in basis points (0 at or above it). */
  bps: number
}

/** How the steps go: one atomic EIP-5792 batch, or one transaction after the other. */
export type SwapMode = 'sequential' | 'batch'

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
  /** `'batch'` when approval and swap go as one atomic `wallet_sendCalls`. */
  mode?: SwapMode | undefined
  /** The approve(spender, 0) sent first for tokens that refuse to change a non-zero allowance. */
  resetHash?: Hex | undefined
  approvalHash?: Hex | undefined
  swapHash?: Hex | undefined
  /** The EIP-5792 batch id, when the calls went as one batch. */
  batchId?: string | undefined
  receipt?: TransactionReceipt | undefined
}

/**
 * The routers and spenders trusted per chain: `{ [mainnet.id]: [ROUTER, SPENDER] }`.
 * An address trusted on one chain is not trusted on another.
 */
export type TrustedAddresses = { readonly [chainId: number]: readonly Address[] }

export type ExecuteSwapParameters = ExecutionClients & {
  token0: Address
  token1: Address
  /** The input amount in token0's smallest unit. */
  amountIn: bigint
  /** Who receives the output. Default: the wallet's account. */
  to?: Address | undefined
  /** Accepted slippage, 0 to 1 (0.01 is 1%). Default `defaultSlippage` (0.005), sent to `/swap/info` and used for the floor. */
  slippage?: number | undefined
  /** Passed to `/swap/info` as is. */
  deadline?: number | bigint | undefined
  /**
   * The user's floor: the least token1 the recipient must receive. Enforced on
   * the simulated outcome of the exact calls signed, not on the service's
   * estimate. Required unless `acceptedQuote` is given.
   */
  minAmountOut?: bigint | undefined
  /**
   * The quote the user accepted on screen (a SwapInfo or a Route): the floor is
   * then its amount less `slippage` (default 0.005). A fresh quote below it is a
   * `QuoteChangedError` carrying the new quote, to show and accept. A quote the
   * library fetched knows its swap (`quotedFor`): one for other tokens or
   * another `amountIn` (the previous amount's, shown while the next loads) is
   * refused with `InvalidParameterError`, nothing sent.
   */
  acceptedQuote?:
    | { estimateAmount: bigint; quotedFor?: QuoteRequest | undefined }
    | { amountOut: bigint; quotedFor?: QuoteRequest | undefined }
    | undefined
  /** The chain the swap is for. Default: the public client's chain. */
  chainId?: number | undefined
  /**
   * The only spenders and routers the flow will approve or call, per chain
   * (any letter case). Required unless `dangerouslyTrustAnyAddress` is set.
   */
  trustedAddresses?: TrustedAddresses | undefined
  /**
   * Approve and call whatever addresses the service names, relying on the
   * outcome check alone. Never set this in an app: it exists for tests and for
   * services whose contracts change faster than a release.
   */
  dangerouslyTrustAnyAddress?: boolean | undefined
  /**
   * On a node without `eth_simulateV1`, check the calls through the guard
   * with one `eth_call`, in which the guard measures token0 spent and token1
   * received: another asset leaving the user, or an approval granted, would
   * go unseen. Default `false`: such a node is refused
   * (`SimulationUnavailableError`), nothing signed; with
   * `floorEnforcement: 'simulation'` it is refused whatever this says. Prefer
   * an RPC that serves `eth_simulateV1`.
   */
  dangerouslyAllowBalancesOnlySimulation?: boolean | undefined
  /**
   * Where the user's bounds (token0 spent ≤ `amountIn`, token1 reaching the
   * recipient ≥ the floor) are enforced. `'onchain'` (default): the swap goes
   * through the library's `SwapGuard` contract (`swapGuardAddress`, the same
   * on every chain), which reverts the mined transaction below the bounds,
   * whatever code the service's calldata reaches and whatever the state at
   * inclusion; the user approves the guard, never the service's spender. The
   * guard must be deployed on the chain (`SwapGuardNotDeployedError`
   * otherwise: `deploySwapGuard` from `token-swap-hooks/guard`, one
   * transaction anyone can send). `'simulation'`: the service's calldata is
   * signed as it is and the bounds hold in the simulation only. A contract
   * on the swap's path can tell a simulation from the mined transaction (gas
   * price and base fee read 0 there) and take the difference when mined;
   * only the calldata's own floor, if it has one, then binds. Use it only for
   * a router the guard cannot call (`SwapGuardIncompatibleError`).
   */
  floorEnforcement?: FloorEnforcement | undefined
  /** `'exact'` (default) approves amountIn; `'infinite'` approves 2^256 - 1. */
  approval?: 'exact' | 'infinite' | undefined
  /**
   * How the guarded swap may take token0 through Permit2
   * (`0x000000000022D473030F116dDEE9F6B43aC78BA3`): one signature and one
   * transaction, no approval of the guard. The signature binds the whole swap
   * (Permit2 binds token0, `amountIn`, a nonce and a deadline 10 minutes
   * ahead; its witness the router, spender, calldata, value, token1, floor and
   * recipient), so whoever sends it can change nothing. `'if-approved'`
   * (default): where the account's allowance of token0 for Permit2 already
   * covers `amountIn` (most active wallets gave it once, to Uniswap or 0x);
   * else an exact approval of the guard. `'approve'`: Permit2 wherever it can,
   * asking first, where it is missing, for the one-time approval of Permit2
   * (2^256 - 1: every later swap of the token through any Permit2 app then
   * needs only a signature; revoke it with `revokeAllowance`). `'never'`:
   * always an exact approval of the guard. Ignored for a native input and with
   * `floorEnforcement: 'simulation'`.
   */
  permit2?: Permit2Mode | undefined
  /** Set the allowance to 0 before approving (USDT style); detected automatically when omitted. */
  resetAllowance?: boolean | undefined
  /**
   * When an approval is needed: `'auto'` (default) sends approval and swap as
   * one atomic EIP-5792 batch when the wallet reports atomic batching for the
   * chain, else as two transactions, each awaited; `'never'` always sends two;
   * `'require'` refuses (`BatchUnsupportedError`) a wallet that cannot batch.
   */
  batch?: BatchMode | undefined
  /**
   * How long to wait for a batch's status. Default 300 000 ms. When it runs
   * out, the flow ends with `OutcomeUnknownError` and the execution stays
   * recorded: the batch may still be mined.
   */
  batchTimeoutMs?: number | undefined
  /**
   * How long to wait for each transaction's receipt. Default 180 000 ms
   * (viem's). When it runs out after the swap was sent, the flow ends with
   * `OutcomeUnknownError` and the execution stays recorded: the swap may still
   * be mined, and must not be sent again.
   */
  receiptTimeoutMs?: number | undefined
  /**
   * When the swap does not happen after an approval of this flow was mined,
   * send approve(spender, 0). Default `false`: the allowance left is reported on
   * the error (`leftoverAllowance`).
   */
  revokeOnFailure?: boolean | undefined
  /** Blocks to wait for each transaction. Default 1. */
  confirmations?: number | undefined
  /**
   * Where the progress of the execution is recorded, so that a reload does
   * not lose it (`getPendingSwaps`, `resumeSwap`): the chain, the account, the
   * swap, the floor, the step and its hashes; never keys or headers. Default:
   * `localStorage` in a browser, memory elsewhere; `false` records nothing.
   */
  storage?: SwapStorage | false | undefined
  /** Called at every step with a snapshot of the flow. */
  onStep?: ((step: ExecuteSwapStep) => void) | undefined
  /**
   * Called with each thing that happened, for analytics and logs (a
   * function that throws is ignored): approval and swap (or batch) sent and
   * mined, the success, and the failure with its stable `code`.
   */
  onEvent?: ((event: SwapEvent) => void) | undefined
  /**
   * How long the wallet is given to answer `wallet_getCapabilities`. Default
   * 3 000 ms: a wallet that does not answer in time is taken for one that does
   * not batch (some leave the request pending).
   */
  capabilitiesTimeoutMs?: number | undefined
  /**
   * A hash no node has seen after this long ends the wait with
   * `TransactionNotSeenError` (a contract wallet's own id for a transaction
   * still in its queue). Default 60 000 ms.
   */
  notSeenTimeoutMs?: number | undefined
  /**
   * An ERC-7677 paymaster service to sponsor the batch's gas: passed to
   * `wallet_sendCalls` only where the wallet reports `paymasterService` for
   * the chain, never elsewhere.
   */
  paymaster?: { url: string; context?: Record<string, unknown> | undefined } | undefined
}

/**
 * What happened, as `onEvent` reports it: a transaction (or the batch) sent
 * and mined, the swap's success, or the failure with the error's stable
 * `code` (the same on every error class of the library).
 */
export type SwapEvent =
  | {
      type: 'approval-sent' | 'approval-mined' | 'swap-sent' | 'swap-mined' | 'batch-sent' | 'batch-mined'
      chainId: number
      hash?: Hex | undefined
      batchId?: string | undefined
    }
  | {
      type: 'success'
      chainId: number
      hash: Hex
      floorEnforcement: FloorEnforcement
      realized: SwapOutcome | undefined
      shortfall: SwapShortfall | undefined
    }
  | { type: 'failure'; code: string; error: unknown }

export type ExecuteSwapReturnType = {
  swapInfo: SwapInfo
  chainId: number
  /** `'batch'`: approval and swap went as one atomic `wallet_sendCalls`. */
  mode: SwapMode
  resetHash?: Hex | undefined
  /** Set when an approval was sent; absent when the allowance already sufficed or none was needed. */
  approvalHash?: Hex | undefined
  /** The swap transaction (in a batch: the last transaction of the batch). */
  swapHash: Hex
  /** The swap's receipt (in a batch: the last receipt). */
  receipt: TransactionReceipt
  /** The EIP-5792 batch id, in batch mode. */
  batchId?: string | undefined
  /** Every transaction hash the flow sent, in order (the batch's, in batch mode). */
  transactionHashes: Hex[]
  /** Every receipt, in order. */
  receipts: TransactionReceipt[]
  /** What the simulation of the swap, right before it was signed, predicted. */
  simulated: SwapOutcome
  /**
   * What the mined swap did: token0 that left the user, token1 that reached
   * the recipient. `undefined` when it could not be measured after the
   * receipt (the node failed, after retries, a read it needs, e.g. the
   * recipient's native balance at the block before the swap, on a node that
   * pruned it): the swap
   * went through all the same (`receipt`), only the amounts it moved are not
   * known, and `realizedError` says why. The floor was then enforced on the
   * simulation only.
   */
  realized: SwapOutcome | undefined
  /**
   * Which enforcement of the user's bounds ran. `'onchain'`: the swap went
   * through the guard, so the mined transaction itself would have reverted
   * below the floor or above `amountIn`; `realized` is what the guard
   * measured. `'simulation'` (the `floorEnforcement: 'simulation'` opt-out):
   * the bounds held in the simulation, and `realized` was measured after
   * the receipt (a mined swap below the floor is an `UnsafeSwapOutcomeError`
   * then; with `realized` undefined the floor was never checked on the mined
   * swap).
   */
  floorEnforcement: FloorEnforcement
  /** Why `realized` is `undefined`: the error measuring it (absent when measured). */
  realizedError?: unknown
  /**
   * What the recipient got against the service's own estimate when the swap
   * was signed (`swapInfo.estimateAmount`): `bps` short of it (0 at or
   * above). Against a hostile service the floor is what the user gets (it can
   * keep everything above it), so this is how an app tells whether its
   * service pays its quotes. Absent when `realized` is.
   */
  shortfall?: SwapShortfall | undefined
  /**
   * An allowance still standing after the swap (read after the receipt; a
   * router that spent less than approved, or an approval beyond `amountIn`):
   * `revokeAllowance({ walletClient, publicClient, ...leftoverAllowance })`
   * sets it to 0. Absent when none is left.
   */
  leftoverAllowance?: LeftoverAllowance | undefined
}

export type ExecuteSwapErrorType =
  | GetSwapInfoErrorType
  | UntrustedAddressErrorType
  | UnsafeSwapDataErrorType
  | UnsafeSwapOutcomeErrorType
  | QuoteBelowMinimumErrorType
  | QuoteChangedErrorType
  | ChainMismatchErrorType
  | UserRejectedErrorType
  | TransactionRevertedErrorType
  | TransactionReplacedErrorType
  | SwapSimulationErrorType
  | InsufficientAllowanceErrorType
  | BatchUnsupportedErrorType
  | BatchFailedErrorType
  | OutcomeUnknownErrorType
  | TransactionNotSeenErrorType
  | SwapInProgressErrorType
  | SimulationUnavailableErrorType
  | SwapGuardNotDeployedErrorType
  | SwapGuardIncompatibleErrorType
  | SwapGuardCodeMismatchErrorType
  | PermitRefusedErrorType
  | WalletErrorType
