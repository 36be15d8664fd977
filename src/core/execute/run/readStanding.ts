import {
  type Address,
  erc20Abi,
  type Hex,
  hexToNumber,
  isAddressEqual,
  type PublicClient,
  parseEventLogs,
  type Transaction,
  type TransactionReceipt,
} from 'viem'
import { walk } from '../../errors/base.js'
import {
  BatchFailedError,
  OutcomeUnknownError,
  TransactionReplacedError,
  TransactionRevertedError,
} from '../../errors/execute.js'
import { journalOf, type PendingSwap } from '../records/pendingSwaps.js'
import {
  decideStanding,
  type ScanResult,
  type ScanStart,
  type Standing,
  type StandingFacts,
  type TransactionState,
} from '../rules/decideStanding.js'
import { readAllowance } from './approvals.js'
import { readBatch, waitForBatch } from './batch.js'
import { type ExecutionClients, NonceTakenError, waitForSuccess } from './chain.js'
import { walletStep } from './walletErrors.js'

/**
 * With `wait`, what is in flight is waited for instead of read as pending:
 * a transaction's receipt, a batch's status (a wait that runs out is an
 * `OutcomeUnknownError`: it may still be mined).
 */
export type StandingWait = {
  confirmations?: number | undefined
  receiptTimeoutMs?: number | undefined
  batchTimeoutMs?: number | undefined
}

/**
 * Where a record stands, read from the chain: `decideStanding` asks for each
 * fact it needs (a batch's status, a transaction's receipt, the account's
 * transactions after a point, the allowance), and this reads it, until the
 * decision is taken; with `wait`, a transaction or batch in flight is waited
 * for. Sends nothing. `trusted`: addresses whose successful calls after the
 * approval are taken for the swap.
 *
 * @example
 * const { status } = await readStanding({ walletClient, publicClient }, record, trusted)
 */
export async function readStanding(
  clients: ExecutionClients,
  record: PendingSwap,
  trusted: readonly Address[] = [],
  wait?: StandingWait | undefined,
): Promise<Standing> {
  const journal = journalOf(record)
  const facts: StandingFacts = {}
  for (;;) {
    const decision = decideStanding(journal, BigInt(record.amountIn), facts)
    if (!('need' in decision)) return decision
    if (decision.need === 'batch') facts.batch = await batchState(clients, decision.batchId, wait)
    else if (decision.need === 'transaction')
      facts.transaction = await transactionState(clients, decision.hash, wait && { ...wait, record, trusted })
    else if (decision.need === 'scan') facts.scan = await scanFrom(clients, record, trusted, decision.start)
    else facts.allowance = await allowanceOf(clients, record)
  }
}

/** A batch's status from the wallet; with `wait`, one still pending is waited for. */
async function batchState(clients: ExecutionClients, batchId: string, wait: StandingWait | undefined) {
  const batch = await walletStep('swap', () => readBatch(clients, batchId))
  if (batch.status !== 'pending' || !wait) return batch
  try {
    const { receipts } = await waitForBatch(clients, batchId, wait.batchTimeoutMs ?? 300_000)
    return { status: 'success' as const, receipt: receipts.at(-1) }
  } catch (error) {
    if (error instanceof BatchFailedError)
      return { status: 'failure' as const, receipt: error.receipts.at(-1) }
    throw new OutcomeUnknownError({ stage: 'swap', batchId, cause: error })
  }
}

async function allowanceOf({ publicClient }: ExecutionClients, { token0, account, spender }: PendingSwap) {
  return spender ? walletStep('approval', () => readAllowance(publicClient, token0, account, spender)) : 0n
}

/**
 * A recorded transaction as the chain shows it. Only the node's "not found"
 * means not found: any other failure (a node down, a rate limit) says
 * nothing and rejects. By name: the client may come from another copy of viem
 * than this library's. With `wait`, one still pending is waited for: a
 * replacement that is the swap (sent before a reload) reads as its success,
 * any other as `'replaced'`; a wait that runs out is an `OutcomeUnknownError`.
 *
 * @example
 * const { status, receipt } = await transactionState({ walletClient, publicClient }, hash)
 */
export async function transactionState(
  clients: ExecutionClients,
  hash: Hex,
  wait?: (StandingWait & { record: PendingSwap; trusted: readonly Address[] }) | undefined,
): Promise<TransactionState> {
  const { publicClient } = clients
  const unlessNotFound = (error: unknown) => {
    // viem names its own errors (`name`), whichever copy of viem threw them.
    const name = (error as { name?: unknown })?.name
    if (name === 'TransactionReceiptNotFoundError' || name === 'TransactionNotFoundError') return undefined
    throw error
  }
  const receipt = await walletStep('swap', () =>
    publicClient.getTransactionReceipt({ hash }).catch(unlessNotFound),
  )
  if (receipt) return { status: receipt.status === 'success' ? 'success' : 'reverted', receipt }
  const transaction = await walletStep('swap', () =>
    publicClient.getTransaction({ hash }).catch(unlessNotFound),
  )
  if (!transaction) return { status: 'dropped' }
  if (!wait) return { status: 'pending' }
  const stage = wait.record.swapHash === hash ? 'swap' : 'approval'
  try {
    const sent = { from: transaction.from, nonce: transaction.nonce }
    return { status: 'success', receipt: await waitForSuccess(clients, { ...wait, hash, stage, sent }) }
  } catch (error) {
    // Gone while the wait began, its nonce mined by another transaction: as if read a moment later.
    if (walk(error, (cause) => cause instanceof NonceTakenError)) return { status: 'dropped' }
    if (error instanceof TransactionRevertedError) return { status: 'reverted', receipt: error.receipt }
    // Replaced at its nonce: by the swap itself (one sent before a reload, when this one was a
    // resume's), or by something else (a cancellation).
    if (error instanceof TransactionReplacedError)
      return isSwapReceipt(error.receipt, wait.record, wait.trusted)
        ? { status: 'success', receipt: error.receipt }
        : { status: 'replaced', receipt: error.receipt }
    throw new OutcomeUnknownError({ stage, hash, cause: error })
  }
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

/**
 * Whether a mined transaction of the account is the record's swap: token0
 * left the account in it, or it called the record's router, its spender or a
 * trusted address successfully.
 *
 * @example
 * if (isSwapReceipt(receipt, record, trusted)) settle('confirmed')
 */
export function isSwapReceipt(
  receipt: TransactionReceipt,
  record: PendingSwap,
  trusted: readonly Address[],
): boolean {
  return (
    spendsToken0(receipt, record) || (receipt.status === 'success' && callsNamed(receipt.to, record, trusted))
  )
}

/** How many transactions of the account after the starting point are looked at for the swap. */
const maxScanned = 8

/** The account's pending nonce as the wallet's own node sees it; 0 when the wallet does not answer. */
function walletPendingCount({ walletClient }: ExecutionClients, account: Address): Promise<number> {
  return walletClient
    .request({ method: 'eth_getTransactionCount', params: [account, 'pending'] } as never, { retryCount: 0 })
    .then(
      (count) => (typeof count === 'string' ? hexToNumber(count as Hex) : 0),
      () => 0,
    )
}

/**
 * The account's pending nonce: the larger of the public client's and the
 * wallet's (a swap the wallet broadcast may not have reached the page's node).
 *
 * @example
 * const next = await pendingCount(clients, account)
 */
export async function pendingCount(clients: ExecutionClients, account: Address): Promise<number> {
  const [read, wallet] = await Promise.all([
    clients.publicClient.getTransactionCount({ address: account, blockTag: 'pending' }),
    walletPendingCount(clients, account),
  ])
  return Math.max(read, wallet)
}

/**
 * What the account sent from `start` on (after a mined transaction of its
 * own, or from a recorded nonce and block), read from the chain: each mined
 * transaction is the swap when `isSwapReceipt` says so; a reverted call to
 * the router settles nothing (it may be another tab's; the swap may still
 * come later); any other transaction is not the swap, unless an older record
 * without its router cannot tell. Nothing read says nothing was sent:
 * failures are `'unknown'`.
 */
async function scanFrom(
  clients: ExecutionClients,
  record: PendingSwap,
  trusted: readonly Address[],
  start: ScanStart,
): Promise<ScanResult> {
  const publicClient = clients.publicClient as PublicClient
  const account = record.account
  try {
    let first: number
    let low: bigint
    if (typeof start === 'string') {
      const anchor = await publicClient.getTransaction({ hash: start })
      // Unmined, or sent by someone else (a relayer): its nonce says nothing of the account's.
      if (anchor.blockNumber == null || !isAddressEqual(anchor.from, account)) return { status: 'unknown' }
      first = anchor.nonce + 1
      low = anchor.blockNumber
    } else {
      first = start.nonce
      low = BigInt(start.block)
    }
    const [latest, pending, head] = await Promise.all([
      publicClient.getTransactionCount({ address: account, blockTag: 'latest' }),
      pendingCount(clients, account),
      publicClient.getBlockNumber({ cacheTime: 0 }),
    ])
    // A node behind the point it reported cannot tell what came after it.
    if (latest < first || latest - first > maxScanned) return { status: 'unknown' }
    for (let nonce = first; nonce < latest; nonce++) {
      const transaction = await transactionAt(publicClient, account, nonce, low, head)
      if (!transaction) return { status: 'unknown' }
      low = transaction.blockNumber as bigint
      const receipt = await publicClient.getTransactionReceipt({ hash: transaction.hash })
      if (isSwapReceipt(receipt, record, trusted)) return { status: 'confirmed', receipt }
      if (!callsNamed(transaction.to, record, trusted) && !record.router) return { status: 'unknown' }
    }
    // Sent after it and not mined yet: it may be the swap.
    if (pending > latest) return { status: 'pending' }
    return { status: 'none', nonce: latest }
  } catch {
    return { status: 'unknown' }
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
