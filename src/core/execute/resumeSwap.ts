import {
  type Address,
  erc20Abi,
  type Hex,
  hexToNumber,
  isAddressEqual,
  type PublicClient,
  parseEventLogs,
  type Transaction,
  TransactionNotFoundError,
  type TransactionReceipt,
  TransactionReceiptNotFoundError,
} from 'viem'
import type { SwapClient } from '../client.js'
import {
  BatchFailedError,
  ChainMismatchError,
  OutcomeUnknownError,
  SwapInProgressError,
  TransactionReplacedError,
  TransactionRevertedError,
} from '../errors/execute.js'
import { ensure } from '../errors/parameter.js'
import { readBatch, waitForBatch } from './batch.js'
import { type ExecutionClients, ensureChain, resolveClients, waitForSuccess } from './chain.js'
import {
  type ExecuteSwapParameters,
  type ExecuteSwapReturnType,
  pinnedNonceTaken,
  runSwap,
  type TrustedAddresses,
} from './executeSwap.js'
import {
  claimPendingSwap,
  getDefaultStorage,
  getPendingSwaps,
  isPendingSwap,
  isPendingSwapRunning,
  type PendingSwap,
  removePendingSwap,
  resolveStorage,
  type SwapStorage,
} from './pendingSwaps.js'
import { walletStep } from './walletErrors.js'

/**
 * Where a recorded execution stands, read from the chain (nothing is sent). An
 * execution still running in this page is `'pending'` (and `settlePendingSwaps`
 * skips it):
 * `'confirmed'`, `'reverted'` (its recorded transaction's receipt) or
 * `'dropped'` (the approval it made no longer covers the swap and nothing
 * after it was the swap, or a transaction it recorded was replaced by one
 * that is not the swap) have settled; `'pending'` waits
 * for a transaction or a batch in flight (for a record at `'approved'`: a
 * transaction of the account after the approval, not mined yet, which may be
 * the swap; the pending count is the larger of the public client's and the
 * wallet's own); `'resumable'` has a mined approval and, on chain, no swap
 * after it: `resumeSwap` sends the swap; `'unknown'` could not be read
 * soundly: transactions after the approval that could not all be told apart
 * from the swap (a node without the old state, too many of them, a record
 * without its router), an approval sent by another address (a relayer, a
 * bundler), a recorded transaction no node shows (it may still be on its way,
 * or have been sped up), a batch the wallet cannot report. Never resumed nor
 * removed: the user settles it by hand (the allowance left can be revoked,
 * the record dismissed). A mined transaction of the account after the
 * approval is taken for the swap when token0 leaves the account in it (an
 * ERC-20 `Transfer` from it), or when it calls the record's router or
 * spender, or any of `trustedAddresses` when given, successfully.
 */
export type PendingSwapStatus = 'confirmed' | 'reverted' | 'dropped' | 'pending' | 'resumable' | 'unknown'

export type CheckPendingSwapReturnType = {
  status: PendingSwapStatus
  receipt?: TransactionReceipt | undefined
}

/**
 * Reads where a recorded execution stands: the receipt of its last
 * transaction (or its batch's status), and for an approved swap, whether the
 * allowance still covers it. Sends nothing. A public client on another chain
 * than the record's is a `ChainMismatchError` (its reads would say nothing
 * about the record).
 *
 * @example
 * const { status } = await checkPendingSwap({ walletClient, publicClient }, record)
 * if (status === 'resumable') await resumeSwap(client, { walletClient, publicClient, record, trustedAddresses })
 */
export async function checkPendingSwap(
  clients: ExecutionClients & {
    /** Calls to these (as well as to the record's router and spender) after the approval are taken for the swap. */
    trustedAddresses?: TrustedAddresses | undefined
  },
  record: PendingSwap,
): Promise<CheckPendingSwapReturnType> {
  if (isPendingSwapRunning(record.id)) return { status: 'pending' }
  await assertReadsChain(clients, record.chainId)
  const { status, receipt } = await readPendingSwap(
    clients,
    record,
    clients.trustedAddresses?.[record.chainId],
  )
  return { status, receipt }
}

/** Refuses a public client that reads another chain than `chainId`. */
async function assertReadsChain({ publicClient }: Pick<ExecutionClients, 'publicClient'>, chainId: number) {
  const actual = await walletStep('chain', () => publicClient.getChainId())
  if (actual !== chainId)
    throw new ChainMismatchError({ expectedChainId: chainId, actualChainId: actual, client: 'public' })
}

/** A read status, and for `'resumable'` the account's nonce the scan proved free. */
type ReadPendingSwap = CheckPendingSwapReturnType & { nonce?: number | undefined }

/** `checkPendingSwap` once the public client is known to read the record's chain. */
async function readPendingSwap(
  clients: ExecutionClients,
  record: PendingSwap,
  trusted: readonly Address[] = [],
): Promise<ReadPendingSwap> {
  const { publicClient } = clients
  const unknown = { status: 'unknown' as const }
  if (record.step === 'batching' && record.batchId) {
    const batch = await walletStep('swap', () => readBatch(clients, record.batchId as string))
    if (batch.status === 'success') return { status: 'confirmed', receipt: batch.receipts.at(-1) }
    if (batch.status === 'failure') return { status: 'reverted', receipt: batch.receipts.at(-1) }
    // A wallet that cannot report the batch (another connector, no wallet_getCallsStatus) says
    // nothing about it: it may well be mined.
    return batch.status === 'pending' ? { status: 'pending' } : unknown
  }
  const allowance = async () =>
    record.spender
      ? await walletStep('approval', () =>
          publicClient.readContract({
            address: record.token0,
            abi: erc20Abi,
            functionName: 'allowance',
            args: [record.account, record.spender as `0x${string}`],
          }),
        )
      : 0n
  const hash = record.step === 'swapping' ? record.swapHash : (record.approvalHash ?? record.resetHash)
  if (record.step !== 'approved') {
    if (!hash) return { status: 'dropped' }
    const transaction = await transactionState(clients, hash)
    // A recorded transaction the page's node does not know may be on its way (the wallet's node
    // has it), sped up, or replaced at its nonce (by the swap sent before a reload, when it was a
    // resume's): it is never settled as dropped from here. A swap with an approval before it: what
    // followed the approval says what happened; anything else is unknown.
    if (transaction.status === 'dropped') {
      if (record.step !== 'swapping' || !(record.approvalHash ?? record.resetHash)) return unknown
      const after = await sentAfterApproval(clients, record, trusted, record.approvalHash ?? record.resetHash)
      return after.status === 'confirmed' || after.status === 'pending' ? after : unknown
    }
    if (transaction.status !== 'success') return transaction as CheckPendingSwapReturnType
    if (record.step === 'swapping') return { status: 'confirmed', receipt: transaction.receipt }
  }
  // Whether the swap went out after the approval is read from the chain, not from the record: the
  // page may have closed before the swap's hash came back, or before it was recorded. A reset whose
  // approval was never recorded: from the reset (the approval, and maybe the swap, came after it).
  const after = await sentAfterApproval(clients, record, trusted, record.approvalHash ?? record.resetHash)
  // Only a scan that found nothing lets the allowance speak: an unknown one stays unknown.
  if (after.status !== 'none') return after
  if ((await allowance()) < BigInt(record.amountIn)) return { status: 'dropped' }
  return { status: 'resumable', nonce: after.nonce }
}

/** Whether a receipt shows token0 leaving the record's account (an ERC-20 Transfer from it). */
function spendsToken0(receipt: TransactionReceipt, record: PendingSwap): boolean {
  return parseEventLogs({ abi: erc20Abi, eventName: 'Transfer', logs: receipt.logs, strict: false }).some(
    (log) =>
      isAddressEqual(log.address, record.token0) &&
      !!log.args.from &&
      isAddressEqual(log.args.from, record.account),
  )
}

/** Whether `to` is the record's router or spender, or one of `trusted`. */
function callsNamed(
  to: Address | null | undefined,
  record: PendingSwap,
  trusted: readonly Address[],
): boolean {
  return (
    !!to &&
    [record.router, record.spender, ...trusted].some((address) => !!address && isAddressEqual(address, to))
  )
}

/** Whether a mined transaction is the record's swap: token0 left the account, or a successful call to its router, spender or a trusted address. */
function isSwapReceipt(
  receipt: TransactionReceipt,
  record: PendingSwap,
  trusted: readonly Address[],
): boolean {
  return (
    spendsToken0(receipt, record) || (receipt.status === 'success' && callsNamed(receipt.to, record, trusted))
  )
}

/** How many transactions of the account after the approval are looked at for the swap. */
const maxScanned = 8

/**
 * The account's pending nonce, as the wallet's own node sees it (it broadcast
 * what the wallet sent); `undefined` for a wallet that does not answer it.
 */
async function walletPendingCount({ walletClient }: ExecutionClients, account: Address) {
  try {
    const count = await walletClient.request(
      { method: 'eth_getTransactionCount', params: [account, 'pending'] } as never,
      { retryCount: 0 },
    )
    return typeof count === 'string' ? hexToNumber(count as Hex) : undefined
  } catch {
    return undefined
  }
}

/**
 * The account's pending nonce: the larger of the public client's and the
 * wallet's (a swap the wallet broadcast may not have reached the page's node).
 */
async function pendingCount(clients: ExecutionClients, account: Address) {
  const [read, wallet] = await Promise.all([
    clients.publicClient.getTransactionCount({ address: account, blockTag: 'pending' }),
    walletPendingCount(clients, account),
  ])
  return Math.max(read, wallet ?? 0)
}

/**
 * What the account sent after the record's approval, read from the chain:
 * `'none'` when nothing, or only transactions that are not the swap, were
 * mined after it and nothing of the account is pending (with `nonce`, the
 * account's next nonce); else `'confirmed'` with the swap's receipt,
 * `'pending'` (a transaction after the approval not mined yet), or
 * `'unknown'` (it could not be read). A mined transaction is the swap when
 * `isSwapReceipt` says so; a reverted call to the router spent nothing and
 * settles nothing.
 */
async function sentAfterApproval(
  clients: ExecutionClients,
  record: PendingSwap,
  trusted: readonly Address[],
  /** The last recorded transaction before the swap: the approval, or the reset before it. */
  approvalHash: Hex | undefined,
): Promise<CheckPendingSwapReturnType | { status: 'none'; nonce: number }> {
  const publicClient = clients.publicClient as PublicClient
  const unknown = { status: 'unknown' as const }
  if (!approvalHash) return unknown
  const account = record.account
  try {
    const approval = await publicClient.getTransaction({ hash: approvalHash })
    if (approval.blockNumber === null || approval.blockNumber === undefined) return unknown
    // Sent by someone else (a relayer, a bundler): its nonce says nothing of the account's.
    if (!isAddressEqual(approval.from, account)) return unknown
    const first = approval.nonce + 1
    const [latest, pending, head] = await Promise.all([
      publicClient.getTransactionCount({ address: account, blockTag: 'latest' }),
      pendingCount(clients, account),
      publicClient.getBlockNumber({ cacheTime: 0 }),
    ])
    // A node behind the approval it returned as mined cannot tell what came after it.
    if (latest < first || latest - first > maxScanned) return unknown
    let low = approval.blockNumber
    for (let nonce = first; nonce < latest; nonce++) {
      const transaction = await transactionAt(publicClient, account, nonce, low, head)
      if (!transaction) return unknown
      low = transaction.blockNumber as bigint
      const receipt = await publicClient.getTransactionReceipt({ hash: transaction.hash })
      if (isSwapReceipt(receipt, record, trusted)) return { status: 'confirmed', receipt }
      // A reverted call to the router spent nothing and settles nothing (it may be another tab's);
      // the swap may still come at a later nonce, which the resumed swap is pinned to. Any other
      // transaction is not the swap, unless an older record without its router cannot tell.
      if (!callsNamed(transaction.to, record, trusted) && !record.router) return unknown
    }
    // Sent after the approval and not mined yet: it may be the swap.
    if (pending > latest) return { status: 'pending' }
    return { status: 'none', nonce: latest }
  } catch {
    // Nothing read says nothing was sent.
    return unknown
  }
}

/** The account's mined transaction at `nonce`, searched between blocks `low` and `high`. */
async function transactionAt(
  publicClient: PublicClient,
  account: Address,
  nonce: number,
  low: bigint,
  high: bigint,
): Promise<Transaction | undefined> {
  // The first block after which the account's nonce is past `nonce` holds it.
  const countAt = (blockNumber: bigint) => publicClient.getTransactionCount({ address: account, blockNumber })
  if ((await countAt(high)) <= nonce) return undefined
  while (low < high) {
    const middle = (low + high) / 2n
    if ((await countAt(middle)) > nonce) high = middle
    else low = middle + 1n
  }
  const block = await publicClient.getBlock({ blockNumber: low, includeTransactions: true })
  return block.transactions.find(
    (transaction) => isAddressEqual(transaction.from, account) && transaction.nonce === nonce,
  )
}

async function transactionState(
  { publicClient }: ExecutionClients,
  hash: Hex,
): Promise<{ status: 'success' | 'reverted' | 'pending' | 'dropped'; receipt?: TransactionReceipt }> {
  // Only the node's "not found" means not found: any other failure (a node down, a rate limit)
  // says nothing about the transaction, and must not settle the record.
  // By name too: the public client may come from another copy of viem than this library's.
  const unlessNotFound = (error: unknown) => {
    const name = (error as { name?: unknown })?.name
    if (
      error instanceof TransactionReceiptNotFoundError ||
      error instanceof TransactionNotFoundError ||
      name === 'TransactionReceiptNotFoundError' ||
      name === 'TransactionNotFoundError'
    )
      return undefined
    throw error
  }
  const receipt = await walletStep('swap', () =>
    publicClient.getTransactionReceipt({ hash }).catch(unlessNotFound),
  )
  if (receipt) return { status: receipt.status === 'success' ? 'success' : 'reverted', receipt }
  const transaction = await walletStep('swap', () =>
    publicClient.getTransaction({ hash }).catch(unlessNotFound),
  )
  return { status: transaction ? 'pending' : 'dropped' }
}

export type SettlePendingSwapsParameters = ExecutionClients & {
  /** Default: `localStorage` in a browser, memory elsewhere (as `executeSwap`'s). */
  storage?: SwapStorage | undefined
  /** Default: the public client's chain. */
  chainId?: number | undefined
  /** Calls to these (as well as to a record's router and spender) after its approval are taken for its swap. */
  trustedAddresses?: TrustedAddresses | undefined
}

export type SettlePendingSwapsReturnType = {
  record: PendingSwap
  status: PendingSwapStatus
  receipt?: TransactionReceipt | undefined
}[]

/**
 * The wallet account's recorded executions on the chain, each checked on
 * chain (nothing is sent); the settled ones (`'confirmed'`, `'reverted'`,
 * `'dropped'`) are removed from the storage and reported once. Executions
 * still running in this page (`executeSwap`, `resumeSwap`) are not
 * interrupted: they are left out, untouched. A public client that reads
 * another chain than `chainId` is a `ChainMismatchError`, and nothing is
 * removed.
 *
 * @example
 * for (const { record, status } of await settlePendingSwaps({ walletClient, publicClient }))
 *   if (status === 'resumable') offerToResume(record)
 */
export async function settlePendingSwaps(
  parameters: SettlePendingSwapsParameters,
): Promise<SettlePendingSwapsReturnType> {
  const clients = resolveClients(parameters)
  const storage = parameters.storage ?? getDefaultStorage()
  const chainId =
    parameters.chainId ?? parameters.publicClient.chain?.id ?? (await parameters.publicClient.getChainId())
  // Records of one chain, read on another, would all look dropped.
  await assertReadsChain(clients, chainId)
  // An execution of this page runs the skipped ones: they are not interrupted.
  const records = (await getPendingSwaps(storage, { account: clients.owner, chainId })).filter(
    (record) => !isPendingSwapRunning(record.id),
  )
  // Every record is read before any is removed: a read that fails ends the call with nothing
  // removed, so no settled record is forgotten unreported.
  const checked = await Promise.all(
    records.map(async (record) => {
      const { status, receipt } = await readPendingSwap(
        clients,
        record,
        parameters.trustedAddresses?.[chainId],
      )
      return { record, status, receipt }
    }),
  )
  for (const { record, status } of checked) {
    const settled = status === 'confirmed' || status === 'reverted' || status === 'dropped'
    // Unless a resume of this page took it over meanwhile: that one settles it.
    // A storage that fails to forget it leaves it listed: it settles again next time.
    if (settled && !isPendingSwapRunning(record.id))
      await removePendingSwap(storage, record.id).catch(() => {})
  }
  return checked
}

export type ResumeSwapParameters = Omit<
  ExecuteSwapParameters,
  'token0' | 'token1' | 'amountIn' | 'chainId'
> & {
  /** The recorded execution to continue (from `getPendingSwaps` / `usePendingSwaps`). */
  record: PendingSwap
  /**
   * The least token1 the user accepts, confirmed by the user now (or
   * `acceptedQuote` and `slippage`, as for `executeSwap`): required when the
   * swap is sent. Never the stored record's: a storage anyone on the page can
   * write does not set the user's floor.
   */
  minAmountOut?: bigint | undefined
  /** Who receives the output, confirmed now. Default: the wallet's account, never the stored record's `to`. */
  to?: Address | undefined
}

export type ResumeSwapReturnType =
  /** The swap was sent now (after a fresh quote and every check): its result. */
  | ({ resumed: 'swapped' } & ExecuteSwapReturnType)
  /** Nothing was sent: the execution had already settled, or settled while waited for. */
  | {
      resumed: 'settled'
      status: 'confirmed' | 'reverted' | 'dropped'
      receipt?: TransactionReceipt | undefined
    }
  /**
   * Nothing was sent, and the record is left as it is: `'missing'`, the
   * storage no longer holds it (another tab or resume settled it, or the user
   * dismissed it); `'pending'`, a transaction of the account after the
   * approval is not mined yet (it may be the swap); `'unknown'`, transactions
   * after the approval could not be told apart from the swap (see
   * `PendingSwapStatus`).
   */
  | { resumed: 'nothing'; status: 'missing' | 'pending' | 'unknown' }

/**
 * Continues a recorded execution from its last confirmed step, after a
 * reload. A record whose execution still runs in this page (or is being
 * resumed) is refused with `SwapInProgressError`, nothing sent. The record is
 * then read again from the storage by its id, and that stored copy is
 * resumed, never the object passed in (a list shown before another resume or
 * tab moved it on): when the storage no longer holds it, nothing is sent
 * (`{ resumed: 'nothing', status: 'missing' }`, or for a record of a swap
 * already sent, how that swap ended); a storage that cannot be
 * read rejects, nothing sent. The clients are then brought to the record's
 * chain (as `executeSwap` does: a `ChainMismatchError` otherwise, nothing read
 * or removed). A swap or batch already sent is only waited for and settled
 * (never sent twice); an approval in flight is waited for; after a mined
 * approval, the chain is read for a swap sent after it (a reload before its
 * hash was recorded): one found is settled from its receipt, one that cannot
 * be ruled out sends nothing (`{ resumed: 'nothing' }`); else the swap is sent
 * with the recorded tokens and amount, to the recipient and with the floor the
 * caller gives now (`minAmountOut` or `acceptedQuote`; `to`, default the
 * wallet's account: never the stored record's), after a fresh
 * quote and every check of `executeSwap` (the allowlist, the outcome
 * simulation, the chain), never batched, and at the account's nonce the scan
 * proved free (its first transaction): a swap sent before the reload and not
 * yet shown by any node can then only be replaced by it, never followed. The
 * pending count (the public client's and the wallet's) is read again right
 * before that send; a transaction that showed up meanwhile sends nothing
 * (`{ resumed: 'nothing', status: 'pending' }`). A local account signs that
 * nonce; a JSON-RPC wallet gets it in `eth_sendTransaction` and may ignore
 * a nonce the dapp supplies (some let the user edit it, some always pick
 * their own). The record is removed once settled (a storage that
 * fails to remove it does not change the result). With `storage: false` the
 * record passed in is used as it is (the chain checks still apply).
 *
 * @example
 * import { getDefaultStorage, getPendingSwaps, resumeSwap } from 'token-swap-hooks/core/execute'
 *
 * const [record] = await getPendingSwaps(getDefaultStorage(), { account, chainId: 1 })
 * // Shown to the user and confirmed: the floor (and recipient) the swap must still meet now.
 * if (record) await resumeSwap(client, { walletClient, publicClient, record, trustedAddresses, minAmountOut })
 */
export async function resumeSwap(
  client: SwapClient,
  parameters: ResumeSwapParameters,
): Promise<ResumeSwapReturnType> {
  const { record, ...rest } = parameters
  const clients = resolveClients(rest)
  ensure(
    isPendingSwap(record) && isAddressEqual(record.account, clients.owner),
    'record',
    'must be one of this wallet account’s recorded executions',
    record,
  )
  ensure(
    record.baseUrl === client.baseUrl,
    'record',
    `was recorded with ${record.baseUrl}, not this client’s service`,
    record.baseUrl,
  )
  // An execution of this page still runs it (or another resume does): resuming would send it twice.
  const release = claimPendingSwap(record.id)
  if (!release) throw new SwapInProgressError({ recordId: record.id })
  try {
    // The stored copy, read once claimed: the one passed in may be behind (resumed already, or
    // moved on by another tab).
    const storage = resolveStorage(rest.storage)
    const stored = storage ? (await getPendingSwaps(storage)).find((item) => item.id === record.id) : record
    // Gone (settled or dismissed elsewhere): nothing is sent; a swap the record says was sent is
    // still read from the chain, to report how it ended.
    if (!stored)
      return record.step === 'swapping' || record.step === 'batching'
        ? await resume(client, rest, record, clients)
        : { resumed: 'nothing', status: 'missing' }
    ensure(
      isAddressEqual(stored.account, record.account) &&
        stored.chainId === record.chainId &&
        stored.baseUrl === record.baseUrl,
      'record',
      'differs from the stored record of the same id (account, chain or service)',
      stored,
    )
    return await resume(client, rest, stored, clients)
  } finally {
    release()
  }
}

async function resume(
  client: SwapClient,
  rest: Omit<ResumeSwapParameters, 'record'>,
  record: PendingSwap,
  clients: ExecutionClients,
): Promise<ResumeSwapReturnType> {
  const storage = resolveStorage(rest.storage)
  const settle = async (status: 'confirmed' | 'reverted' | 'dropped', receipt?: TransactionReceipt) => {
    // Settled on chain whatever the storage does: a record it fails to forget settles again later.
    if (storage) await removePendingSwap(storage, record.id).catch(() => {})
    return { resumed: 'settled' as const, status, receipt }
  }

  // The record's chain first: anything read elsewhere would say nothing about it.
  await ensureChain(clients, record.chainId, 'chain')
  if (record.step === 'batching' && record.batchId) {
    const batchId = record.batchId
    // Only a definite status settles the record; a timeout or a wallet failure leaves it.
    const batch = await walletStep('swap', () => readBatch(clients, batchId))
    if (batch.status === 'success') return settle('confirmed', batch.receipts.at(-1))
    if (batch.status === 'failure') return settle('reverted', batch.receipts.at(-1))
    // A wallet that cannot report the batch says nothing of it: the record stays.
    if (batch.status === 'unknown') return { resumed: 'nothing', status: 'unknown' }
    try {
      const result = await waitForBatch(clients, batchId, rest.batchTimeoutMs ?? 300_000)
      return settle('confirmed', result.receipts.at(-1))
    } catch (error) {
      if (error instanceof BatchFailedError) return settle('reverted', error.receipts.at(-1))
      throw new OutcomeUnknownError({ stage: 'swap', batchId, cause: error })
    }
  }
  // The recorded transaction's own receipt: a revert or a replacement settles the record; a
  // failed wait (a timeout, the node) leaves it, since the transaction may still be mined.
  const waitFor = async (hash: Hex, stage: 'approval' | 'swap') => {
    try {
      return {
        status: 'confirmed' as const,
        receipt: await waitForSuccess(clients, {
          hash,
          stage,
          confirmations: rest.confirmations,
          timeoutMs: rest.receiptTimeoutMs,
        }),
      }
    } catch (error) {
      if (error instanceof TransactionRevertedError)
        return { status: 'reverted' as const, receipt: error.receipt }
      // Replaced at its nonce: by the swap itself (one sent before a reload, when this one was a
      // resume's), or by something else (a cancellation): then this one was dropped.
      if (error instanceof TransactionReplacedError)
        return {
          status: isSwapReceipt(error.receipt, record, rest.trustedAddresses?.[record.chainId] ?? [])
            ? ('confirmed' as const)
            : ('dropped' as const),
          receipt: error.receipt,
        }
      throw new OutcomeUnknownError({ stage, hash, cause: error })
    }
  }
  if (record.step === 'swapping' || record.step === 'batching') {
    // A swap was sent: it is only waited for, never sent again.
    if (!record.swapHash) return settle('dropped')
    const { status, receipt } = await waitFor(record.swapHash, 'swap')
    return settle(status, receipt)
  }
  const trusted = rest.trustedAddresses?.[record.chainId]
  if (record.step === 'approving') {
    const hash = record.approvalHash ?? record.resetHash
    if (!hash) return settle('dropped')
    // Not found (a speed-up replaced it while the page was closed; waiting would only run out):
    // dropped, unless the allowance still covers the swap.
    if ((await transactionState(clients, hash)).status === 'dropped') {
      const { status } = await readPendingSwap(clients, record, trusted)
      return status === 'dropped' ? settle('dropped') : { resumed: 'nothing', status: 'unknown' }
    }
    const { status, receipt } = await waitFor(hash, 'approval')
    if (status !== 'confirmed') return settle(status, receipt)
  }
  const state = await readPendingSwap(clients, { ...record, step: 'approved' }, trusted)
  if (state.status === 'pending' || state.status === 'unknown')
    return { resumed: 'nothing', status: state.status }
  if (state.status !== 'resumable')
    return settle(
      state.status === 'confirmed' || state.status === 'reverted' ? state.status : 'dropped',
      state.receipt,
    )
  // The swap goes at the nonce the scan proved free: it can only replace a swap sent before the
  // reload that no node showed yet, never follow it. Checked again right before it is sent.
  const free = state.nonce as number
  const pin = {
    nonce: free,
    check: async () => {
      if ((await pendingCount(clients, record.account)) !== free) throw new NonceTakenError()
    },
  }
  let result: ExecuteSwapReturnType
  try {
    result = await runSwap(
      client,
      {
        ...rest,
        chainId: record.chainId,
        token0: record.token0,
        token1: record.token1,
        amountIn: BigInt(record.amountIn),
      },
      { ...record, step: 'approved' },
      pin,
    )
  } catch (error) {
    // The account sent something since the scan (it may be the swap): nothing was sent.
    if (error instanceof NonceTakenError) return { resumed: 'nothing', status: 'pending' }
    // The pinned transaction refused or replaced at its nonce: what holds that nonce may be the
    // swap sent before the reload. The chain says; the record was left as it was, unrevoked.
    if (typeof error === 'object' && error && pinnedNonceTaken.has(error)) {
      const after = await readPendingSwap(clients, { ...record, step: 'approved' }, trusted).catch(
        () => undefined,
      )
      if (after?.status === 'confirmed' || after?.status === 'reverted')
        return settle(after.status, after.receipt)
      if (after?.status === 'pending' || after?.status === 'unknown')
        return { resumed: 'nothing', status: after.status }
    }
    throw error
  }
  return { resumed: 'swapped', ...result }
}

/** The nonce the scan proved free is taken (or the count moved) right before the resumed send. */
class NonceTakenError extends Error {}
