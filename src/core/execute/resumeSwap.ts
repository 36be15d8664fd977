import { type Address, type Hex, isAddressEqual, type TransactionReceipt } from 'viem'
import type { SwapClient } from '../client.js'
import {
  BatchFailedError,
  OutcomeUnknownError,
  SwapInProgressError,
  TransactionReplacedError,
  TransactionRevertedError,
} from '../errors/execute.js'
import { ensure } from '../errors/parameter.js'
import { readBatch, waitForBatch } from './batch.js'
import { type ExecutionClients, ensureChain, resolveClients, waitForSuccess } from './chain.js'
import { checkSwapParameters } from './checkSwapParameters.js'
import { classifyFailure } from './classifyFailure.js'
import type { ExecuteSwapParameters, ExecuteSwapReturnType } from './executeSwap.js'
import { viewOf } from './journal.js'
import {
  claimPendingSwap,
  getPendingSwaps,
  isPendingSwap,
  journalOf,
  type PendingSwap,
  removePendingSwap,
  resolveStorage,
  type SwapStorage,
  withJournal,
} from './pendingSwaps.js'
import { isSwapReceipt, readStanding, transactionState } from './readStanding.js'
import { createSwapRun, NonceTakenError, runSwap } from './runSwap.js'
import { walletStep } from './walletErrors.js'

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

/** Forgets the record, whatever the storage does: settled on chain, a record it fails to forget settles again later. */
async function settled(
  storage: SwapStorage | undefined,
  record: PendingSwap,
  status: 'confirmed' | 'reverted' | 'dropped',
  receipt?: TransactionReceipt | undefined,
): Promise<ResumeSwapReturnType> {
  if (storage) await removePendingSwap(storage, record.id).catch(() => {})
  return { resumed: 'settled', status, receipt }
}

/** The stored record, on its chain: whatever it sent is waited for and settled; an approval alone, resumed. */
async function resume(
  client: SwapClient,
  rest: Omit<ResumeSwapParameters, 'record'>,
  record: PendingSwap,
  clients: ExecutionClients,
): Promise<ResumeSwapReturnType> {
  const storage = resolveStorage(rest.storage)
  // The record's chain first: anything read elsewhere would say nothing about it.
  await ensureChain(clients, record.chainId, 'chain')
  const journal = journalOf(record)
  const view = viewOf(journal)
  if (view.batchId) return resumeBatch(rest, record, clients, view.batchId)
  // A swap sent is only waited for, never sent again.
  if (view.step === 'swapping' && view.swapHash) {
    const { status, receipt } = await waitFor(rest, record, clients, view.swapHash, 'swap')
    return settled(storage, record, status, receipt)
  }
  const trusted = rest.trustedAddresses?.[record.chainId] ?? []
  let current = journal
  // An approval in flight: waited for (a hash no node shows, sped up while the page was closed,
  // would only run out: the chain says).
  if (view.step === 'approving' && (view.approvalHash ?? view.resetHash)) {
    const hash = (view.approvalHash ?? view.resetHash) as Hex
    if ((await transactionState(clients, hash)).status === 'dropped') {
      const { status } = await readStanding(clients, record, trusted)
      return status === 'dropped'
        ? settled(storage, record, 'dropped')
        : { resumed: 'nothing', status: 'unknown' }
    }
    const waited = await waitFor(rest, record, clients, hash, 'approval')
    if (waited.status !== 'confirmed') return settled(storage, record, waited.status, waited.receipt)
    const step = view.approvalHash ? 'approve' : 'reset'
    current = [...journal, { step, event: 'mined', hash: waited.receipt?.transactionHash, at: Date.now() }]
  }
  const mined = withJournal(record, current)
  const state = await readStanding(clients, mined, trusted)
  if (state.status === 'pending' || state.status === 'unknown')
    return { resumed: 'nothing', status: state.status }
  if (state.status !== 'resumable')
    return settled(
      storage,
      record,
      state.status === 'confirmed' || state.status === 'reverted' ? state.status : 'dropped',
      state.receipt,
    )
  return resumeSwapStep(client, rest, mined, clients, state.nonce as number)
}

/**
 * The swap after a mined approval, at the nonce the scan proved free: it can
 * only replace a swap sent before the reload that no node showed yet, never
 * follow it (checked again right before it is sent).
 */
async function resumeSwapStep(
  client: SwapClient,
  rest: Omit<ResumeSwapParameters, 'record'>,
  record: PendingSwap,
  clients: ExecutionClients,
  nonce: number,
): Promise<ResumeSwapReturnType> {
  const parameters = checkSwapParameters({
    ...rest,
    chainId: record.chainId,
    token0: record.token0,
    token1: record.token1,
    amountIn: BigInt(record.amountIn),
  })
  const run = createSwapRun(client, parameters, { resumed: record, pinnedNonce: nonce })
  try {
    return { resumed: 'swapped', ...(await runSwap(run)) }
  } catch (error) {
    // The account sent something since the scan (it may be the swap): nothing was sent.
    if (error instanceof NonceTakenError) return { resumed: 'nothing', status: 'pending' }
    // The pinned transaction refused or replaced at its nonce: what holds that nonce may be the
    // swap sent before the reload. The chain says; the record was left as it was, unrevoked.
    if (classifyFailure(run.journal, { atomic: undefined }).pinned) {
      const trusted = rest.trustedAddresses?.[record.chainId] ?? []
      const after = await readStanding(clients, withJournal(record, run.journal), trusted).catch(
        () => undefined,
      )
      if (after?.status === 'confirmed' || after?.status === 'reverted')
        return settled(resolveStorage(rest.storage), record, after.status, after.receipt)
      if (after?.status === 'pending' || after?.status === 'unknown')
        return { resumed: 'nothing', status: after.status }
    }
    throw error
  }
}

/** A batch sent before the reload: only a definite status settles it; a timeout or a wallet failure leaves it. */
async function resumeBatch(
  rest: Omit<ResumeSwapParameters, 'record'>,
  record: PendingSwap,
  clients: ExecutionClients,
  batchId: string,
): Promise<ResumeSwapReturnType> {
  const storage = resolveStorage(rest.storage)
  const batch = await walletStep('swap', () => readBatch(clients, batchId))
  if (batch.status === 'success') return settled(storage, record, 'confirmed', batch.receipts.at(-1))
  if (batch.status === 'failure') return settled(storage, record, 'reverted', batch.receipts.at(-1))
  // A wallet that cannot report the batch says nothing of it: the record stays.
  if (batch.status === 'unknown') return { resumed: 'nothing', status: 'unknown' }
  try {
    const result = await waitForBatch(clients, batchId, rest.batchTimeoutMs ?? 300_000)
    return settled(storage, record, 'confirmed', result.receipts.at(-1))
  } catch (error) {
    if (error instanceof BatchFailedError) return settled(storage, record, 'reverted', error.receipts.at(-1))
    throw new OutcomeUnknownError({ stage: 'swap', batchId, cause: error })
  }
}

/**
 * The recorded transaction's own receipt: a revert or a replacement settles
 * the record; a failed wait (a timeout, the node) leaves it, since the
 * transaction may still be mined.
 */
async function waitFor(
  rest: Omit<ResumeSwapParameters, 'record'>,
  record: PendingSwap,
  clients: ExecutionClients,
  hash: Hex,
  stage: 'approval' | 'swap',
): Promise<{ status: 'confirmed' | 'reverted' | 'dropped'; receipt?: TransactionReceipt | undefined }> {
  try {
    const receipt = await waitForSuccess(clients, {
      ...{ hash, stage, confirmations: rest.confirmations },
      timeoutMs: rest.receiptTimeoutMs,
    })
    return { status: 'confirmed', receipt }
  } catch (error) {
    if (error instanceof TransactionRevertedError) return { status: 'reverted', receipt: error.receipt }
    // Replaced at its nonce: by the swap itself (one sent before a reload, when this one was a
    // resume's), or by something else (a cancellation): then this one was dropped.
    if (error instanceof TransactionReplacedError) {
      const trusted = rest.trustedAddresses?.[record.chainId] ?? []
      const swap = isSwapReceipt(error.receipt, record, trusted)
      return { status: swap ? 'confirmed' : 'dropped', receipt: error.receipt }
    }
    throw new OutcomeUnknownError({ stage, hash, cause: error })
  }
}
