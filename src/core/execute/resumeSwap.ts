import {
  type Address,
  erc20Abi,
  type Hex,
  isAddressEqual,
  type PublicClient,
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
import { type ExecuteSwapParameters, type ExecuteSwapReturnType, runSwap } from './executeSwap.js'
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
 * `'confirmed'`, `'reverted'` or `'dropped'` (its transaction is gone, or the
 * approval it made no longer stands) have settled; `'pending'` waits for a
 * transaction or a batch in flight (for a record at `'approved'`: a
 * transaction of the account after the approval, not mined yet, which may be
 * the swap); `'resumable'` has a mined approval and, on chain, no swap after
 * it: `resumeSwap` sends the swap; `'unknown'` has a mined approval and
 * transactions after it that could not all be told apart from the swap
 * (a node without the old state, too many of them, a record without its
 * router): never resumed, the user settles it by hand (the allowance left can
 * be revoked, the record dismissed).
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
  clients: ExecutionClients,
  record: PendingSwap,
): Promise<CheckPendingSwapReturnType> {
  if (isPendingSwapRunning(record.id)) return { status: 'pending' }
  await assertReadsChain(clients, record.chainId)
  return readPendingSwap(clients, record)
}

/** Refuses a public client that reads another chain than `chainId`. */
async function assertReadsChain({ publicClient }: Pick<ExecutionClients, 'publicClient'>, chainId: number) {
  const actual = await walletStep('chain', () => publicClient.getChainId())
  if (actual !== chainId)
    throw new ChainMismatchError({ expectedChainId: chainId, actualChainId: actual, client: 'public' })
}

/** `checkPendingSwap` once the public client is known to read the record's chain. */
async function readPendingSwap(
  clients: ExecutionClients,
  record: PendingSwap,
): Promise<CheckPendingSwapReturnType> {
  const { publicClient } = clients
  if (record.step === 'batching' && record.batchId) {
    const batch = await walletStep('swap', () => readBatch(clients, record.batchId as string))
    if (batch.status === 'success') return { status: 'confirmed', receipt: batch.receipts.at(-1) }
    if (batch.status === 'failure') return { status: 'reverted', receipt: batch.receipts.at(-1) }
    return { status: batch.status === 'pending' ? 'pending' : 'dropped' }
  }
  const hash = record.step === 'swapping' ? record.swapHash : (record.approvalHash ?? record.resetHash)
  if (record.step !== 'approved') {
    if (!hash) return { status: 'dropped' }
    const transaction = await transactionState(clients, hash)
    if (transaction.status !== 'success') return transaction as CheckPendingSwapReturnType
    if (record.step === 'swapping') return { status: 'confirmed', receipt: transaction.receipt }
    // A reset alone (no approval after it) leaves nothing to swap with.
    if (!record.approvalHash) return { status: 'dropped' }
  }
  // Whether the swap went out after the approval is read from the chain, not from the record: the
  // page may have closed before the swap's hash came back, or before it was recorded.
  const after = await sentAfterApproval(publicClient as PublicClient, record)
  if (after && after.status !== 'unknown') return after
  const allowance = record.spender
    ? await walletStep('approval', () =>
        publicClient.readContract({
          address: record.token0,
          abi: erc20Abi,
          functionName: 'allowance',
          args: [record.account, record.spender as `0x${string}`],
        }),
      )
    : 0n
  if (allowance < BigInt(record.amountIn)) return { status: 'dropped' }
  return after ?? { status: 'resumable' }
}

/** How many transactions of the account after the approval are looked at for the swap. */
const maxScanned = 8

/**
 * What the account sent after the record's approval, read from the chain:
 * `undefined` when nothing, or only transactions that are not the swap (calls
 * to neither the record's router nor its spender), were mined after it and
 * nothing of the account is pending; else the swap's status from its receipt
 * (`'confirmed'`, `'reverted'`), `'pending'` (a transaction after the approval
 * not mined yet), or `'unknown'` (it could not be read).
 */
async function sentAfterApproval(
  publicClient: PublicClient,
  record: PendingSwap,
): Promise<CheckPendingSwapReturnType | undefined> {
  const unknown = { status: 'unknown' as const }
  if (!record.approvalHash) return unknown
  const approvalHash = record.approvalHash
  const account = record.account
  try {
    const approval = await publicClient.getTransaction({ hash: approvalHash })
    if (approval.blockNumber === null || approval.blockNumber === undefined) return unknown
    const first = approval.nonce + 1
    const [latest, pending, head] = await Promise.all([
      publicClient.getTransactionCount({ address: account, blockTag: 'latest' }),
      publicClient.getTransactionCount({ address: account, blockTag: 'pending' }),
      publicClient.getBlockNumber({ cacheTime: 0 }),
    ])
    if (latest - first > maxScanned) return unknown
    const isSwap = (transaction: Transaction) =>
      !!transaction.to &&
      [record.router, record.spender].some(
        (address) => address && isAddressEqual(address, transaction.to as Address),
      )
    let low = approval.blockNumber
    for (let nonce = first; nonce < latest; nonce++) {
      const transaction = await transactionAt(publicClient, account, nonce, low, head)
      if (!transaction) return unknown
      low = transaction.blockNumber as bigint
      if (isSwap(transaction)) {
        const receipt = await publicClient.getTransactionReceipt({ hash: transaction.hash })
        return { status: receipt.status === 'success' ? 'confirmed' : 'reverted', receipt }
      }
      // An older record without its router: a transaction after the approval may be the swap.
      if (!record.router) return unknown
    }
    // Sent after the approval and not mined yet: it may be the swap.
    if (pending > latest) return { status: 'pending' }
    return undefined
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
  return Promise.all(
    records.map(async (record) => {
      const checked = await readPendingSwap(clients, record)
      const settled =
        checked.status === 'confirmed' || checked.status === 'reverted' || checked.status === 'dropped'
      // Unless a resume of this page took it over meanwhile: that one settles it.
      // A storage that fails to forget it leaves it listed: it settles again next time.
      if (settled && !isPendingSwapRunning(record.id))
        await removePendingSwap(storage, record.id).catch(() => {})
      return { record, ...checked }
    }),
  )
}

export type ResumeSwapParameters = Omit<
  ExecuteSwapParameters,
  'token0' | 'token1' | 'amountIn' | 'to' | 'minAmountOut' | 'acceptedQuote' | 'slippage' | 'chainId'
> & {
  /** The recorded execution to continue (from `getPendingSwaps` / `usePendingSwaps`). */
  record: PendingSwap
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
 * with the recorded amounts and the user's recorded floor, after a fresh
 * quote and every check of `executeSwap` (the allowlist, the outcome
 * simulation, the chain). The record is removed once settled (a storage that
 * fails to remove it does not change the result). With `storage: false` the
 * record passed in is used as it is (the chain checks still apply).
 *
 * @example
 * import { getDefaultStorage, getPendingSwaps, resumeSwap } from 'token-swap-hooks/core/execute'
 *
 * const [record] = await getPendingSwaps(getDefaultStorage(), { account, chainId: 1 })
 * if (record) await resumeSwap(client, { walletClient, publicClient, record, trustedAddresses })
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
    if (batch.status === 'unknown') return settle('dropped')
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
      if (error instanceof TransactionReplacedError)
        return { status: 'dropped' as const, receipt: error.receipt }
      throw new OutcomeUnknownError({ stage, hash, cause: error })
    }
  }
  if (record.step === 'swapping' || record.step === 'batching') {
    // A swap was sent: it is only waited for, never sent again.
    if (!record.swapHash) return settle('dropped')
    const { status, receipt } = await waitFor(record.swapHash, 'swap')
    return settle(status, receipt)
  }
  if (record.step === 'approving') {
    const hash = record.approvalHash ?? record.resetHash
    if (!hash) return settle('dropped')
    const { status, receipt } = await waitFor(hash, 'approval')
    if (status !== 'confirmed') return settle(status, receipt)
  }
  const state = await readPendingSwap(clients, { ...record, step: 'approved' })
  if (state.status === 'pending' || state.status === 'unknown')
    return { resumed: 'nothing', status: state.status }
  if (state.status !== 'resumable')
    return settle(
      state.status === 'confirmed' || state.status === 'reverted' ? state.status : 'dropped',
      state.receipt,
    )
  const result = await runSwap(
    client,
    {
      ...rest,
      chainId: record.chainId,
      token0: record.token0,
      token1: record.token1,
      amountIn: BigInt(record.amountIn),
      to: record.to,
      minAmountOut: BigInt(record.minAmountOut),
      slippage: record.slippage,
    },
    { ...record, step: 'approved' },
  )
  return { resumed: 'swapped', ...result }
}
