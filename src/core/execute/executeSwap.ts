import {
  type Address,
  type Chain,
  erc20Abi,
  type Hex,
  isAddressEqual,
  type TransactionReceipt,
  zeroAddress,
} from 'viem'
import { type GetSwapInfoErrorType, getSwapInfo } from '../actions/getSwapInfo.js'
import type { SwapClient } from '../client.js'
import { isNativeToken } from '../constants.js'
import {
  BatchFailedError,
  type BatchFailedErrorType,
  BatchUnsupportedError,
  type BatchUnsupportedErrorType,
  type ChainMismatchErrorType,
  InsufficientAllowanceError,
  type InsufficientAllowanceErrorType,
  type LeftoverAllowance,
  noteLeftoverAllowance,
  OutcomeUnknownError,
  type OutcomeUnknownErrorType,
  QuoteBelowMinimumError,
  type QuoteBelowMinimumErrorType,
  QuoteChangedError,
  type QuoteChangedErrorType,
  type SwapOutcome,
  SwapSimulationError,
  type SwapSimulationErrorType,
  TransactionReplacedError,
  type TransactionReplacedErrorType,
  TransactionRevertedError,
  type TransactionRevertedErrorType,
  UnsafeSwapDataError,
  type UnsafeSwapDataErrorType,
  UnsafeSwapOutcomeError,
  type UnsafeSwapOutcomeErrorType,
  UntrustedAddressError,
  type UntrustedAddressErrorType,
  UserRejectedError,
  type UserRejectedErrorType,
  type WalletErrorType,
} from '../errors/execute.js'
import { SwapGuardIncompatibleError, SwapGuardNotDeployedError } from '../errors/guard.js'
import { ensure } from '../errors/parameter.js'
import type { QuoteRequest, SwapInfo } from '../schemas.js'
import { getMinAmountOut } from '../utils/getMinAmountOut.js'
import {
  assertAddress,
  assertAmount,
  assertDeadline,
  assertObject,
  assertRouteParameters,
  assertSlippage,
} from '../utils/validate.js'
import { approveCall, planApprovals } from './approvals.js'
import { type BatchMode, sendBatch, supportsAtomicBatch } from './batch.js'
import { type ExecutionClients, ensureChain, resolveClients, sendPinned, waitForSuccess } from './chain.js'
import {
  type CheckSwapOutcomeParameters,
  checkSwapOutcome,
  findViolations,
  type SwapCall,
} from './checkSwapOutcome.js'
import {
  claimPendingSwap,
  newPendingSwapId,
  type PendingSwap,
  removePendingSwap,
  resolveStorage,
  type SwapStorage,
  savePendingSwap,
} from './pendingSwaps.js'
import { type FloorEnforcement, planSwapCall } from './planSwapCall.js'
import { realizedOutcome } from './realizedOutcome.js'
import { revokeAllowance } from './revokeAllowance.js'
import { deterministicDeployerAddress, swapGuardAddress } from './swapGuard.js'
import { walletStep } from './walletErrors.js'

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
  mode?: 'sequential' | 'batch' | undefined
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
  /** Accepted slippage, 0 to 1 (0.01 is 1%). Not sent when omitted (the service uses 0.05). */
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
   * then its amount less `slippage` (default 0.05). A fresh quote below it is a
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
}

export type ExecuteSwapReturnType = {
  swapInfo: SwapInfo
  chainId: number
  /** `'batch'`: approval and swap went as one atomic `wallet_sendCalls`. */
  mode: 'sequential' | 'batch'
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
  | WalletErrorType

/**
 * Executes a swap without trusting the service with the user's funds: fetches
 * a fresh `/swap/info` (a `QuoteChangedError` when it is worse than the quote
 * the user accepted by more than the slippage); refuses a spender or router
 * outside the chain's `trustedAddresses` and excess native value; simulates the
 * exact calls the wallet will sign (approvals and swap) and refuses unless
 * token0 leaves the user by at most `amountIn`, token1 reaches the recipient
 * by at least the user's floor, and nothing else leaves the user; then either
 * sends approval and swap as one atomic EIP-5792 batch (wallets that can), or
 * approves exactly what is needed (resetting USDT-style tokens first), waits
 * for it, simulates the swap again on the new state and sends it; every
 * transaction is pinned to the chain; reports the realized amounts. Nothing is
 * signed after a failed check, a rejection or a revert; an allowance left
 * behind is reported (or revoked with `revokeOnFailure`); the progress is
 * recorded in `storage` so that a reload does not lose it.
 *
 * @example
 * import { createSwapClient } from 'token-swap-hooks/core'
 * import { executeSwap } from 'token-swap-hooks/core/execute'
 * import { createPublicClient, createWalletClient, custom, http, parseEther } from 'viem'
 * import { mainnet } from 'viem/chains'
 *
 * const [account] = await window.ethereum.request({ method: 'eth_requestAccounts' })
 * const { swapHash, realized } = await executeSwap(createSwapClient({ baseUrl }), {
 *   walletClient: createWalletClient({ account, chain: mainnet, transport: custom(window.ethereum) }),
 *   publicClient: createPublicClient({ chain: mainnet, transport: http() }),
 *   token0: WETH,
 *   token1: USDC,
 *   amountIn: parseEther('1'),
 *   slippage: 0.01,
 *   acceptedQuote: route, // what the user saw; the floor is its amountOut less 1%
 *   trustedAddresses: { [mainnet.id]: [ROUTER, SPENDER] },
 * })
 */
export async function executeSwap(
  client: SwapClient,
  parameters: ExecuteSwapParameters,
): Promise<ExecuteSwapReturnType> {
  return runSwap(client, parameters, undefined)
}

/**
 * Where a resumed flow's first transaction goes: at `nonce`, the account's
 * nonce the chain scan proved free, so that it can only replace a swap sent
 * before the reload (and still unseen), never follow it. `check` runs right
 * before that send and throws to send nothing (a transaction of the account
 * showed up meanwhile). The first send is then never batched.
 */
export type SwapNoncePin = { nonce: number; check: () => Promise<void> }

/**
 * Errors of a resumed flow whose pinned transaction was refused (not by the
 * user) or replaced at its nonce: the swap sent before the reload may hold
 * that nonce. Nothing was settled or revoked; `resumeSwap` checks the chain.
 */
export const pinnedNonceTaken = /* @__PURE__ */ new WeakSet<object>()

/**
 * The flow, continuing the record `resumed` when there is one (its approval
 * was mined before a reload; `resumeSwap` calls it so, with `pin`).
 */
export async function runSwap(
  client: SwapClient,
  parameters: ExecuteSwapParameters,
  resumed: PendingSwap | undefined,
  pin?: SwapNoncePin | undefined,
): Promise<ExecuteSwapReturnType> {
  // The record this flow creates runs here until the flow ends (a resumed one is the caller's).
  const claim: { release?: (() => void) | undefined } = {}
  try {
    return await swapFlow(client, parameters, resumed, claim, pin)
  } finally {
    claim.release?.()
  }
}

async function swapFlow(
  client: SwapClient,
  parameters: ExecuteSwapParameters,
  resumed: PendingSwap | undefined,
  claim: { release?: (() => void) | undefined },
  pin: SwapNoncePin | undefined,
): Promise<ExecuteSwapReturnType> {
  const checked = checkParameters(parameters)
  const { owner, token0, token1, amountIn, to, floor } = checked
  const enforcement = checked.floorEnforcement ?? 'onchain'

  let step: ExecuteSwapStep = { status: 'quoting', action: 'fetching-quote' }
  // Once something was sent, the flow goes on to its outcome whatever the user's onStep does.
  let sent = false
  const emit = (patch: Partial<ExecuteSwapStep>) => {
    step = { ...step, ...patch }
    try {
      parameters.onStep?.(step)
    } catch (error) {
      if (!sent) throw error
    }
  }

  // What a failure must know, set as the flow goes.
  let chain: Chain | undefined
  let spender: Address | undefined
  let router: Address | undefined
  let approved = false
  // What was sent and not yet seen mined or failed: while it is set, a failure leaves the outcome unknown.
  let inFlight: { stage: 'approval' | 'swap'; hash?: Hex; batchId?: string } | undefined

  // The progress, recorded once something is sent, so that a reload does not lose it. A write that
  // fails leaves the stored record behind: whether the swap went out after its approval is then
  // read from the chain (checkPendingSwap), never from the record alone.
  const storage = resolveStorage(parameters.storage)
  let record: PendingSwap | undefined = resumed
  // The record as last written to the storage.
  let saved: PendingSwap | undefined = resumed
  const progress = async (patch: Partial<PendingSwap>): Promise<unknown> => {
    if (!storage) return
    const now = Date.now()
    if (!record) {
      const id = newPendingSwapId()
      claim.release = claimPendingSwap(id)
      record = {
        id,
        version: 1,
        chainId: (chain as Chain).id,
        account: owner,
        baseUrl: client.baseUrl,
        token0,
        token1,
        amountIn: amountIn.toString(),
        to,
        minAmountOut: floor.toString(),
        slippage: parameters.slippage,
        step: 'approving',
        createdAt: now,
        updatedAt: now,
      }
    }
    // The spender and router of this flow (a resumed one's fresh quote may name other trusted ones),
    // and the recipient and floor it runs with (a resumed one's, as the caller confirmed them).
    const next: PendingSwap = {
      ...record,
      to,
      minAmountOut: floor.toString(),
      spender,
      router,
      ...patch,
      updatedAt: now,
    }
    record = next
    try {
      await savePendingSwap(storage, next)
      saved = next
      return undefined
    } catch (error) {
      return error
    }
  }
  const settle = async () => {
    if (storage && record) await removePendingSwap(storage, record.id).catch(() => {})
  }
  const readAllowance = (of: Address) =>
    walletStep('approval', () =>
      checked.publicClient.readContract({
        address: token0,
        abi: erc20Abi,
        functionName: 'allowance',
        args: [owner, of],
      }),
    )
  // The first transaction of a resumed flow, at the nonce its scan proved free, checked again
  // ('checking'), then sent ('sending') and until the next one ('sent'): its nonce may be taken by
  // the swap sent before the reload, so its failure says nothing was swapped twice, not that
  // nothing was swapped.
  let pinned: 'checking' | 'sending' | 'sent' | undefined
  const nextNonce = async () => {
    const first = pin
    pin = undefined
    if (!first) {
      pinned = undefined
      return undefined
    }
    pinned = 'checking'
    await first.check()
    pinned = 'sending'
    return first.nonce
  }
  const confirm = (hash: Hex, stage: 'approval' | 'swap') =>
    waitForSuccess(checked, {
      hash,
      stage,
      confirmations: parameters.confirmations,
      timeoutMs: parameters.receiptTimeoutMs,
    })

  let mined: {
    swapInfo: SwapInfo
    chain: Chain
    swapCall: SwapCall
    bounds: Omit<CheckSwapOutcomeParameters, 'calls' | 'approvals'>
    batch: boolean
    receipts: TransactionReceipt[]
  }
  try {
    emit({})

    // 1. A fresh quote, right before anything is signed.
    const swapInfo = await getSwapInfo(client, {
      token0,
      token1,
      amountIn,
      to,
      slippage: parameters.slippage,
      deadline: parameters.deadline,
    })
    emit({ swapInfo })
    if (swapInfo.estimateAmount < floor)
      throw checked.acceptedAmount === undefined
        ? new QuoteBelowMinimumError({ estimateAmount: swapInfo.estimateAmount, minAmountOut: floor })
        : new QuoteChangedError({
            acceptedAmount: checked.acceptedAmount,
            newQuote: swapInfo,
            minAmountOut: floor,
          })

    // 2. The chain, as the wallet itself reports it; every transaction is pinned to it.
    emit({ action: 'checking-chain' })
    chain = await ensureChain(checked, parameters.chainId, 'chain')

    // 3. Addresses and value, against the chain's allowlist; the call the user signs, through the
    // guard unless the app opted out: then the user approves the guard, not the service's spender.
    const planned = planSwapCall({
      enforcement,
      token0,
      token1,
      amountIn,
      minAmountOut: floor,
      recipient: to,
      swapInfo,
    })
    checkAddresses(checked, swapInfo, planned.serviceSpender, chain.id)
    if (enforcement === 'onchain') await assertGuardDeployed(checked.publicClient, chain.id)
    spender = planned.approvalTarget
    const swapCall = planned.call
    router = swapCall.to

    // 4. The approvals the swap needs (as getSwapPreview shows them).
    let approvals: SwapCall[] = []
    let mustReset = false
    if (spender) {
      emit({ action: 'checking-allowance' })
      const { id: chainId } = chain
      const plan = await walletStep('approval', () =>
        planApprovals(checked.publicClient, {
          owner,
          token0,
          spender: spender as Address,
          amountIn,
          approval: parameters.approval,
          resetAllowance: parameters.resetAllowance,
          chainId,
        }),
      )
      approvals = plan.calls
      mustReset = plan.needsReset
    }

    // 5. The exact calls the wallet will sign, simulated together on the current state.
    const bounds = {
      account: owner,
      token0,
      token1,
      recipient: to,
      maxAmountIn: amountIn,
      minAmountOut: floor,
      spender,
      dangerouslyAllowBalancesOnlySimulation: parameters.dangerouslyAllowBalancesOnlySimulation,
    }
    const simulate = (calls: SwapCall[], count: number) =>
      walletStep('simulation', () =>
        checkSwapOutcome(checked.publicClient, { ...bounds, calls, approvals: count }),
      )
    emit({ action: 'simulating' })
    const simulated = await simulate([...approvals, swapCall], approvals.length).catch(async (error) => {
      // A revert through the guard: when the service's own calls would pass, the calldata cannot
      // run through the guard (it names the user as payer, say): said so, never downgraded.
      if (enforcement === 'onchain' && error instanceof SwapSimulationError && error.stage === 'swap')
        await explainGuardRevert(checked, bounds, swapInfo, error)
      throw error
    })

    // 6. One atomic batch where the wallet can, else one transaction after the other.
    const batchMode = parameters.batch ?? 'auto'
    // A batch cannot be pinned to a nonce: a resumed flow sends one transaction after the other.
    const batch =
      approvals.length > 0 &&
      batchMode !== 'never' &&
      !pin &&
      (await supportsAtomicBatch(checked, owner, chain.id))
    if (batchMode === 'require' && approvals.length > 0 && !batch)
      throw new BatchUnsupportedError({ chainId: chain.id })
    emit({ simulated, mode: batch ? 'batch' : 'sequential' })

    let receipts: TransactionReceipt[]
    if (batch) {
      emit({ status: 'swapping', action: 'sending-batch' })
      const result = await sendBatch(checked, chain, [...approvals, swapCall], {
        timeoutMs: parameters.batchTimeoutMs ?? 300_000,
        onSent: async (batchId) => {
          sent = true
          inFlight = { stage: 'swap', batchId }
          await progress({ step: 'batching', batchId })
          emit({ batchId, action: 'waiting-for-batch' })
        },
      })
      if (!result.receipts.length)
        throw new Error('The wallet reported the batch done, without its receipts.')
      receipts = result.receipts
    } else {
      // Approvals, each confirmed before the next step.
      const minedApprovals: TransactionReceipt[] = []
      let approvalHash: Hex | undefined
      for (const [index, call] of approvals.entries()) {
        const isReset = mustReset && index === 0
        emit({ status: 'approving', action: isReset ? 'resetting-allowance' : 'approving' })
        const hash = await sendPinned(checked, chain, 'approval', { ...call, nonce: await nextNonce() })
        if (pinned) pinned = 'sent'
        sent = true
        inFlight = { stage: 'approval', hash }
        await progress(
          isReset ? { step: 'approving', resetHash: hash } : { step: 'approving', approvalHash: hash },
        )
        emit(isReset ? { resetHash: hash } : { approvalHash: hash, action: 'waiting-for-approval' })
        const receipt = await confirm(hash, 'approval')
        minedApprovals.push(receipt)
        inFlight = undefined
        approved = true
        // The mined transaction's hash (a sped-up approval's replacement): the chain check of the
        // record finds what was sent after it from it.
        if (!isReset) approvalHash = receipt.transactionHash
      }
      if (approvals.length) {
        await progress({ step: 'approved', approvalHash })
        // Never swap without a confirmed, sufficient allowance.
        const allowance = await readAllowance(spender as Address)
        if (allowance < amountIn)
          throw new InsufficientAllowanceError({ allowance, required: amountIn, spender: spender as Address })
      }

      // The swap alone, simulated again on the state the approvals left: then signed, pinned to the chain.
      emit({ status: 'swapping', action: 'simulating' })
      if (approvals.length) emit({ simulated: await simulate([swapCall], 0) })
      emit({ action: 'sending-swap' })
      // The stored record names the router before the swap is sent: a reload before its hash is
      // recorded finds the swap on chain by it. Not sent unless that is written.
      if (storage && saved && !(saved.router && isAddressEqual(saved.router, swapCall.to))) {
        const failed = await progress({})
        if (failed) throw failed
      }
      const swapHash = await sendPinned(checked, chain, 'swap', { ...swapCall, nonce: await nextNonce() })
      if (pinned) pinned = 'sent'
      sent = true
      inFlight = { stage: 'swap', hash: swapHash }
      await progress({ step: 'swapping', swapHash })
      emit({ swapHash, action: 'waiting-for-swap' })
      receipts = [...minedApprovals, await confirm(swapHash, 'swap')]
    }
    inFlight = undefined
    mined = { swapInfo, chain, swapCall, bounds, batch, receipts }
  } catch (error) {
    // The resume's pin refused the send (the account sent something meanwhile, maybe the swap):
    // nothing was sent, and nothing is settled or revoked.
    if (pinned === 'checking') throw error
    // The pinned transaction refused (but not by the user: its nonce taken, or underpriced against
    // a transaction at it), or replaced by another at its nonce: that one may be the swap sent
    // before the reload. The record stays, unrevoked, for the chain check to settle.
    if (
      (pinned === 'sending' && !(error instanceof UserRejectedError)) ||
      (pinned === 'sent' && error instanceof TransactionReplacedError)
    ) {
      if (typeof error === 'object' && error) pinnedNonceTaken.add(error)
      throw error
    }
    // Sent, and no definite outcome (a receipt, a batch status): it may still be mined. The record
    // stays for settlePendingSwaps, and nothing is revoked (the swap may still spend the allowance).
    const failed = error instanceof TransactionRevertedError || error instanceof TransactionReplacedError
    if (inFlight && !(failed || error instanceof BatchFailedError))
      throw new OutcomeUnknownError({ ...inFlight, cause: error })
    // A swap that did not go out after a mined approval (this flow's, or the resumed record's)
    // stays recorded: it can be resumed. Anything else that failed has settled.
    // A batch that failed without atomicity may have left its approval behind.
    const partial = error instanceof BatchFailedError && !error.atomic
    const hasApproval = approved || resumed !== undefined || partial
    const resumable = hasApproval && !step.swapHash && !failed
    if (!resumable) await settle()
    const approvedSpender = record?.spender ?? spender
    if (!hasApproval || !approvedSpender) throw error
    throw await leftover(error, approvedSpender)
  }

  // 7. The swap was mined and succeeded: from here on nothing may report it failed (the user would
  // swap again), but for the floor broken on chain.
  await settle()
  const { swapInfo, swapCall, bounds, batch, receipts } = mined
  const receipt = receipts[receipts.length - 1] as TransactionReceipt
  // Measuring cannot fail the mined swap: through the guard, its event says what it measured; else
  // token0 spent is read from the logs, always checked, and a native output needs balance reads,
  // retried, that may leave it unknown.
  const measured = await realizedOutcome(checked.publicClient, {
    receipts: batch ? receipts : [receipt],
    owner,
    token0,
    token1,
    recipient: to,
    value: swapCall.value ?? 0n,
    guard: enforcement === 'onchain',
  })
  const realized: SwapOutcome | undefined =
    measured.amountOut === undefined
      ? undefined
      : { amountIn: measured.amountIn, amountOut: measured.amountOut, method: 'receipt' }
  const realizedError = measured.amountOutError
  // Without the output, only the overspend can be checked (its amountOut is then reported as 0).
  const outcome: SwapOutcome = realized ?? { amountIn: measured.amountIn, amountOut: 0n, method: 'receipt' }
  const violations = findViolations(
    bounds,
    realized ?? { ...outcome, amountOut: bounds.minAmountOut },
    0n,
    [],
  )
  if (violations.length) throw new UnsafeSwapOutcomeError({ violations, outcome, stage: 'receipt', receipt })
  try {
    emit({ status: 'success', action: 'done', receipt, swapHash: receipt.transactionHash })
  } catch {
    // An onStep that throws does not undo a mined swap.
  }
  return {
    swapInfo,
    chainId: mined.chain.id,
    mode: batch ? 'batch' : 'sequential',
    resetHash: step.resetHash,
    approvalHash: step.approvalHash,
    swapHash: receipt.transactionHash,
    receipt,
    batchId: step.batchId,
    transactionHashes: receipts.map((item) => item.transactionHash),
    receipts,
    simulated: step.simulated as SwapOutcome,
    realized,
    floorEnforcement: enforcement,
    ...(realized ? {} : { realizedError }),
  }

  /**
   * Reads (and with `revokeOnFailure`, revokes) the allowance the approval of this flow (or of
   * the resumed record) left for `of`, and notes it on the error.
   */
  async function leftover(error: unknown, of: Address) {
    const chainId = chain?.id ?? (resumed as PendingSwap).chainId
    const note: LeftoverAllowance = { chainId, token: token0, owner, spender: of, amount: 0n }
    try {
      note.amount = await readAllowance(of)
      if (note.amount > 0n && parameters.revokeOnFailure) {
        emit({ action: 'revoking' })
        const { hash } = await revokeAllowance({
          walletClient: checked.walletClient,
          publicClient: checked.publicClient,
          token: token0,
          spender: of,
          chainId,
          confirmations: parameters.confirmations,
        })
        note.revokeHash = hash
        note.amount = await readAllowance(of)
        await settle()
      }
    } catch {
      // The note says what is known; the original error is what the caller needs.
    }
    return noteLeftoverAllowance(error, note)
  }
}

type CheckedParameters = ReturnType<typeof checkParameters>

function checkParameters(parameters: ExecuteSwapParameters) {
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
  ensure(
    parameters.approval === undefined ||
      parameters.approval === 'exact' ||
      parameters.approval === 'infinite',
    'approval',
    "must be 'exact' or 'infinite'",
    parameters.approval,
  )
  ensure(
    parameters.floorEnforcement === undefined ||
      parameters.floorEnforcement === 'onchain' ||
      parameters.floorEnforcement === 'simulation',
    'floorEnforcement',
    "must be 'onchain' or 'simulation'",
    parameters.floorEnforcement,
  )
  ensure(
    parameters.batch === undefined || ['auto', 'never', 'require'].includes(parameters.batch),
    'batch',
    "must be 'auto', 'never' or 'require'",
    parameters.batch,
  )
  ensure(
    trustedAddresses !== undefined || dangerouslyTrustAnyAddress === true,
    'trustedAddresses',
    'is required: the routers and spenders you trust, per chain ({ [chainId]: [router, spender] }). The service is not trusted with funds',
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
    'is required (or acceptedQuote): the least token1 the user accepts, checked against what the signed calls do',
    undefined,
  )
  const amount = 'estimateAmount' in accepted ? accepted.estimateAmount : accepted.amountOut
  ensure(
    typeof amount === 'bigint',
    'acceptedQuote',
    'must hold a bigint estimateAmount or amountOut',
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
    `is the quote for ${quoted?.amountIn} of ${quoted?.token0} → ${quoted?.token1}: a quote for another amount cannot set the floor (the previous one, shown while the next loads?)`,
    quoted,
  )
  return { floor: getMinAmountOut(amount, parameters.slippage ?? 0.05), acceptedAmount: amount }
}

function checkAddresses(
  parameters: CheckedParameters,
  swapInfo: SwapInfo,
  spender: Address | undefined,
  chainId: number,
) {
  const { token0, token1, amountIn } = parameters
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
      if (!trusted) refuse(`no trustedAddresses are configured for chain ${chainId}`)
      if (!trusted?.some((item) => isAddressEqual(item, address))) refuse('it is not in trustedAddresses')
    } else if (isAddressEqual(address, token0) || isAddressEqual(address, token1))
      refuse('it is one of the swapped tokens')
    if (isAddressEqual(address, zeroAddress)) refuse('it is the zero address')
  }
  // More would fail the outcome check anyway (native value leaving beyond amountIn, or at all for
  // an ERC-20 input); refused here first, with a plain reason.
  const maxValue = isNativeToken(token0) ? amountIn : 0n
  if (swapInfo.transferValue > maxValue)
    throw new UnsafeSwapDataError({
      reason: `it would send ${swapInfo.transferValue} wei of native value, at most ${maxValue} expected`,
    })
}

/** `SwapGuardNotDeployedError` unless the guard has code on the chain (and whether it can be deployed there). */
async function assertGuardDeployed(publicClient: CheckedParameters['publicClient'], chainId: number) {
  const codeAt = (address: Address) =>
    walletStep('chain', () => publicClient.getCode({ address })).then((code) => !!code && code !== '0x')
  if (await codeAt(swapGuardAddress)) return
  throw new SwapGuardNotDeployedError({
    chainId,
    address: swapGuardAddress,
    deployerAvailable: await codeAt(deterministicDeployerAddress),
  })
}

/**
 * After the guarded calls reverted in simulation: the service's own calls
 * (approving its spender, calling its router) simulated with the same
 * bounds. When they pass, the calldata cannot run through the guard, and the
 * user gets `SwapGuardIncompatibleError` (nothing signed, no silent
 * downgrade); otherwise the guarded revert stands.
 */
async function explainGuardRevert(
  parameters: CheckedParameters,
  bounds: Omit<CheckSwapOutcomeParameters, 'calls' | 'approvals'>,
  swapInfo: SwapInfo,
  guarded: SwapSimulationError,
) {
  const direct = planSwapCall({
    enforcement: 'simulation',
    token0: parameters.token0,
    token1: parameters.token1,
    amountIn: parameters.amountIn,
    minAmountOut: parameters.floor,
    recipient: parameters.to,
    swapInfo,
  })
  const approvals = direct.serviceSpender
    ? [approveCall(parameters.token0, direct.serviceSpender, parameters.amountIn)]
    : []
  const passes = await checkSwapOutcome(parameters.publicClient, {
    ...bounds,
    spender: direct.serviceSpender,
    calls: [...approvals, direct.call],
    approvals: approvals.length,
  }).then(
    () => true,
    () => false,
  )
  if (passes) throw new SwapGuardIncompatibleError({ reason: guarded.reason, cause: guarded })
}
