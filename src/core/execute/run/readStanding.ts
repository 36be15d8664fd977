import { type Address, type Hex, isAddressEqual, type PublicClient, type Transaction } from 'viem'
import {
  BatchFailedError,
  OutcomeUnknownError,
  TransactionReplacedError,
  TransactionRevertedError,
} from '../../errors/execute.js'
import { type Journal, stepHash } from '../records/journal.js'
import { journalOf, type PendingSwap } from '../records/pendingSwaps.js'
import { classifyTransaction, type TransactionSubject } from '../rules/classifyTransaction.js'
import type {
  Scan,
  ScannedTransaction,
  ScanStart,
  Standing,
  StandingFacts,
  TransactionFact,
} from '../rules/standing.js'
import { decideStanding, scanKey } from '../rules/standing.js'
import type { ExecutionClients } from '../types.js'
import { readBatch, waitForBatch } from './batch.js'
import { pendingCount, readAllowance, waitForTransaction } from './chain.js'
import { walletStep } from './walletErrors.js'

/**
 * With `wait`, what is in flight is waited for instead of read as pending (a wait that runs out:
 * `OutcomeUnknownError`).
 */
type StandingWait = {
  confirmations?: number | undefined
  receiptTimeoutMs?: number | undefined
  batchTimeoutMs?: number | undefined
}

/** A recorded execution as the chain is read for it: its journal, and what tells its transactions apart. */
export type StandingSubject = TransactionSubject & {
  journal: Journal
  amountIn: bigint
  /** The record's chain: the wallet's pending count is taken only on it. */
  chainId?: number | undefined
}

type Waiting = StandingWait & { subject: StandingSubject; trusted: readonly Address[] }

/**
 * The subject of a stored record.
 * @example await readStanding(clients, subjectOf(record))
 */
export function subjectOf(record: PendingSwap): StandingSubject {
  return { ...record, journal: journalOf(record), amountIn: BigInt(record.amountIn) }
}

/**
 * Where a recorded execution stands: each fact `decideStanding` asks for, read from the chain (with `wait`,
 * what is in flight waited for). `trusted`: addresses whose successful calls are taken for the swap.
 * @example const { status } = await readStanding({ walletClient, publicClient }, subjectOf(record), trusted)
 */
export async function readStanding(
  clients: ExecutionClients,
  subject: StandingSubject,
  trusted: readonly Address[] = [],
  wait?: StandingWait | undefined,
): Promise<Standing> {
  const transactions: Record<string, TransactionFact> = {}
  const scans: Record<string, Scan | 'unknown'> = {}
  const facts: StandingFacts = { transactions, scans }
  const { account, token0, spender } = subject
  for (;;) {
    const decision = decideStanding(subject.journal, subject.amountIn, facts)
    if (!('need' in decision)) return decision
    if (decision.need === 'batch') facts.batch = await batchFact(clients, decision.batchId, wait)
    else if (decision.need === 'transaction')
      transactions[decision.hash.toLowerCase()] = await transactionFact(
        clients,
        decision.hash,
        wait && { ...wait, subject, trusted },
      )
    else if (decision.need === 'scan')
      scans[scanKey(decision.start)] = await scanFrom(clients, subject, trusted, decision.start)
    else
      facts.allowance = spender
        ? await walletStep('approval', () => readAllowance(clients.publicClient, token0, account, spender))
        : 0n
  }
}

/** A batch's status from the wallet, with its receipts; with `wait`, one still pending is waited for. */
async function batchFact(clients: ExecutionClients, batchId: string, wait: StandingWait | undefined) {
  const batch = await walletStep('swap', () => readBatch(clients, batchId))
  if (batch.status !== 'pending' || !wait) return batch
  return waitForBatch(clients, batchId, wait.batchTimeoutMs).then(
    ({ receipts }) => ({ status: 'confirmed' as const, receipts }),
    (error: unknown) => {
      if (error instanceof BatchFailedError) return { status: 'reverted' as const, receipts: error.receipts }
      throw new OutcomeUnknownError({ stage: 'swap', batchId, cause: error })
    },
  )
}

/**
 * A recorded transaction as the chain shows it: only the node's "not found" is `'unknown'` (any other failure
 * rejects). With `wait`, one still pending is waited for: a replacement that is the swap reads as confirmed,
 * any other as `'dropped'`; a wait that runs out is an `OutcomeUnknownError`.
 */
async function transactionFact(
  clients: ExecutionClients,
  hash: Hex,
  wait?: Waiting | undefined,
): Promise<TransactionFact> {
  const { publicClient } = clients
  // viem names its own errors, whichever copy of viem threw them: only "not found" means not found.
  const read = <value>(fn: () => Promise<value>) =>
    walletStep('swap', () =>
      fn().catch((error: { name?: unknown }) => {
        if (error?.name !== 'TransactionReceiptNotFoundError' && error?.name !== 'TransactionNotFoundError')
          throw error
      }),
    )
  const receipt = await read(() => publicClient.getTransactionReceipt({ hash }))
  if (receipt) return { status: receipt.status === 'success' ? 'confirmed' : 'reverted', receipt }
  const transaction = await read(() => publicClient.getTransaction({ hash }))
  if (!transaction || !wait) return { status: transaction ? 'pending' : 'unknown' }
  const stage = stepHash(wait.subject.journal, 'swap') === hash ? 'swap' : 'approval'
  try {
    const sent = { from: transaction.from, nonce: transaction.nonce }
    const waited = await waitForTransaction(clients, { ...wait, hash, stage, sent })
    // Gone while the wait began, its nonce mined by another transaction: as if read a moment later.
    return waited === 'gone' ? { status: 'unknown' } : { status: 'confirmed', receipt: waited }
  } catch (error) {
    if (error instanceof TransactionRevertedError) return { status: 'reverted', receipt: error.receipt }
    // Replaced at its nonce: by the swap itself (one sent before a reload), or by something else.
    if (error instanceof TransactionReplacedError) {
      const { receipt: replacement } = error
      const kind = classifyTransaction(replacement, replacement, wait.subject, wait.trusted)
      return { status: kind === 'swap' ? 'confirmed' : 'dropped', receipt: replacement }
    }
    throw new OutcomeUnknownError({ stage, hash, cause: error })
  }
}

/**
 * What the account sent from `start` on (after a mined transaction of its own, or from a recorded nonce):
 * each mined transaction told apart, whether more are pending, and the next nonce. A read that fails, more
 * than 8 transactions, or a start the chain cannot anchor is `'unknown'`.
 */
async function scanFrom(
  clients: ExecutionClients,
  subject: StandingSubject,
  trusted: readonly Address[],
  start: ScanStart,
): Promise<Scan | 'unknown'> {
  const publicClient = clients.publicClient as PublicClient
  const { account } = subject
  try {
    let first = typeof start === 'string' ? 0 : start.nonce
    let low = typeof start === 'string' ? 0n : BigInt(start.block)
    if (typeof start === 'string') {
      const anchor = await publicClient.getTransaction({ hash: start })
      // Unmined, or sent by someone else (a relayer): its nonce says nothing of the account's.
      if (anchor.blockNumber == null || !isAddressEqual(anchor.from, account)) return 'unknown'
      first = anchor.nonce + 1
      low = anchor.blockNumber
    }
    const [latest, pending, head] = await Promise.all([
      publicClient.getTransactionCount({ address: account, blockTag: 'latest' }),
      pendingCount(clients, account, subject.chainId),
      publicClient.getBlockNumber({ cacheTime: 0 }),
    ])
    // Too far to look through; or a node behind the transaction it reported. (Behind a recorded
    // nonce, nothing from it is mined yet: what is pending says the rest.)
    if (latest - first > 8 || (latest < first && typeof start === 'string')) return 'unknown'
    const transactions: ScannedTransaction[] = []
    for (let nonce = first; nonce < latest; nonce++) {
      const transaction = await transactionAt(publicClient, account, nonce, low, head)
      if (!transaction) return 'unknown'
      low = transaction.blockNumber as bigint
      const receipt = await publicClient.getTransactionReceipt({ hash: transaction.hash })
      const kind = classifyTransaction(transaction, receipt, subject, trusted)
      transactions.push({ kind, receipt })
      if (kind === 'unclear' || (kind === 'swap' && receipt.status === 'success')) break
    }
    return { transactions, pending: pending > latest, next: latest }
  } catch {
    return 'unknown'
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
  return block.transactions.find(({ from, nonce: at }) => isAddressEqual(from, account) && at === nonce)
}
