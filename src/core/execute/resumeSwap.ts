import {
  erc20Abi,
  type Hex,
  isAddressEqual,
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
 * transaction or a batch in flight; `'resumable'` has a mined approval and no
 * swap: `resumeSwap` sends the swap.
 */
export type PendingSwapStatus = 'confirmed' | 'reverted' | 'dropped' | 'pending' | 'resumable'

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
  return { status: allowance >= BigInt(record.amountIn) ? 'resumable' : 'dropped' }
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
      if (settled && !isPendingSwapRunning(record.id)) await removePendingSwap(storage, record.id)
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
 * Continues a recorded execution from its last confirmed step, after a
 * reload. A record whose execution still runs in this page (or is being
 * resumed) is refused with `SwapInProgressError`, nothing sent. The clients
 * are then brought to the record's chain (as `executeSwap` does: a
 * `ChainMismatchError` otherwise, nothing read or removed). A swap already
 * sent is waited for and settled (never sent twice); an approval in flight is waited for; after a mined approval, the swap is
 * sent with the recorded amounts and the user's recorded floor, after a fresh
 * quote and every check of `executeSwap` (the allowlist, the outcome
 * simulation, the chain). The record is removed once settled.
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
    return await resume(client, rest, record, clients)
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
    if (storage) await removePendingSwap(storage, record.id)
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
  if (record.step === 'swapping') {
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
  if (state.status !== 'resumable') return settle('dropped')
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
