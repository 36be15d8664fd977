import { type Account, type Address, type Chain, type TransactionReceipt, withTimeout } from 'viem'
import { getCallsStatus, getCapabilities, sendCalls, waitForCallsStatus } from 'viem/actions'
import { BatchFailedError } from '../../errors/execute.js'
import type { PendingSwapStatus } from '../rules/standing.js'
import type { ExecuteSwapParameters, SwapCall } from '../types.js'
import { assertChain, type ExecutionClients } from './chain.js'
import { findCause, walletStep } from './walletErrors.js'

/** What the wallet reports it can do for the account on the chain (EIP-5792 `wallet_getCapabilities`). */
export type WalletCapabilities = {
  /** Atomic batches: `atomic.status` `'supported'` or `'ready'`, or the older `atomicBatch.supported`. */
  atomic: boolean
  /** An ERC-7677 paymaster can sponsor the batch's gas (`paymasterService.supported`). */
  paymaster: boolean
}

/**
 * What the wallet reports it can do for the account on the chain; one without `wallet_getCapabilities`,
 * failing, or silent for `timeoutMs` (default 3 s: some leave it pending) can do neither.
 * @example const { atomic } = await readWalletCapabilities({ walletClient }, account, 1)
 */
export async function readWalletCapabilities(
  { walletClient }: Pick<ExecutionClients, 'walletClient'>,
  account: Address,
  chainId: number,
  timeoutMs = 3_000,
): Promise<WalletCapabilities> {
  // At least 1 ms: viem's withTimeout sets no limit at 0.
  const capabilities = (await withTimeout(() => getCapabilities(walletClient, { account, chainId }), {
    timeout: Math.max(1, timeoutMs),
  }).catch(() => undefined)) as
    | {
        atomic?: { status?: string }
        atomicBatch?: { supported?: boolean }
        paymasterService?: { supported?: boolean }
      }
    | undefined
  const status = capabilities?.atomic?.status
  return {
    atomic: status === 'supported' || status === 'ready' || capabilities?.atomicBatch?.supported === true,
    paymaster: capabilities?.paymasterService?.supported === true,
  }
}

/**
 * Whether the wallet reports atomic batches for the account on the chain
 * (`readWalletCapabilities(…).atomic`).
 *
 * @example
 * const atomic = await supportsAtomicBatch({ walletClient }, account, 1)
 */
export async function supportsAtomicBatch(
  clients: Pick<ExecutionClients, 'walletClient'>,
  account: Address,
  chainId: number,
  timeoutMs?: number | undefined,
): Promise<boolean> {
  return (await readWalletCapabilities(clients, account, chainId, timeoutMs)).atomic
}

/**
 * Whether a failed `wallet_sendCalls` is the user declining the upgrade to a smart account (EIP-5792 5750) or
 * the wallet unable to batch atomically (5760): the same calls can go one after the other.
 * @example if (isBatchDeclined(error)) sendOneByOne()
 */
export const isBatchDeclined = (error: unknown): boolean =>
  !!findCause(error, ({ code }) => code === 5750 || code === 5760)

type BatchResult = { batchId: string; receipts: TransactionReceipt[] }

/**
 * Sends the calls as one atomic `wallet_sendCalls` pinned to `chain` (never viem's fallback to separate
 * transactions), waits for its status and returns its receipts; `BatchFailedError` unless it succeeded.
 * @example const { receipts } = await sendBatch(clients, chain, calls, { timeoutMs: 300_000 })
 */
export async function sendBatch(
  clients: ExecutionClients,
  chain: Chain,
  calls: readonly SwapCall[],
  options: {
    timeoutMs: number
    onSent?: (batchId: string) => void | Promise<void>
    paymaster?: ExecuteSwapParameters['paymaster']
  },
): Promise<BatchResult> {
  const { walletClient } = clients
  const { paymaster } = options
  await assertChain(walletClient, chain.id, 'swap', 'wallet')
  const { id } = await walletStep('swap', () =>
    sendCalls(walletClient, {
      account: walletClient.account as Account,
      chain,
      calls: calls.map(({ to, data, value }) => ({ to, data, value })),
      forceAtomic: true,
      ...(paymaster && { capabilities: { paymasterService: paymaster } }),
    }),
  )
  await options.onSent?.(id)
  return waitForBatch(clients, id, options.timeoutMs)
}

/**
 * Waits for a batch the wallet accepted (also one sent before a reload); `BatchFailedError` unless it
 * succeeded.
 * @example const { receipts } = await waitForBatch(clients, batchId)
 */
export async function waitForBatch(
  { walletClient }: ExecutionClients,
  batchId: string,
  timeoutMs = 300_000,
): Promise<BatchResult> {
  const {
    status,
    statusCode,
    atomic,
    receipts: reported,
  } = await walletStep('swap', () =>
    waitForCallsStatus(walletClient, { id: batchId, timeout: timeoutMs, throwOnFailure: false }),
  )
  const receipts = (reported ?? []) as unknown as TransactionReceipt[]
  if (status !== 'success' || receipts.some((receipt) => receipt.status !== 'success'))
    throw new BatchFailedError({ batchId, statusCode, atomic, receipts })
  return { batchId, receipts }
}

/**
 * A batch's status now, with its receipts once it ended; `'unknown'` when the wallet no longer knows it
 * (EIP-5792 5730, or no `wallet_getCallsStatus`).
 * @example const { status } = await readBatch(clients, batchId)
 */
export async function readBatch(
  { walletClient }: ExecutionClients,
  batchId: string,
): Promise<{
  status: Exclude<PendingSwapStatus, 'resumable' | 'dropped'>
  receipts?: TransactionReceipt[]
}> {
  try {
    const { status, receipts } = await getCallsStatus(walletClient, { id: batchId })
    if (status !== 'success' && status !== 'failure') return { status: 'pending' }
    return {
      status: status === 'success' ? 'confirmed' : 'reverted',
      receipts: (receipts ?? []) as unknown as TransactionReceipt[],
    }
  } catch (error) {
    const { code } = findCause(error, (cause) => typeof cause.code === 'number') ?? {}
    if (code === 5730 || code === -32601 || code === 4200) return { status: 'unknown' }
    throw error
  }
}
