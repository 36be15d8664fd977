import type { Account, Address, Chain, TransactionReceipt } from 'viem'
import { getCallsStatus, getCapabilities, sendCalls, waitForCallsStatus } from 'viem/actions'
import { walk } from '../errors/base.js'
import { BatchFailedError, type ExecuteSwapStage } from '../errors/execute.js'
import { assertWalletChain, type ExecutionClients } from './chain.js'
import type { SwapCall } from './checkSwapOutcome.js'
import { walletStep } from './walletErrors.js'

/**
 * Whether the wallet reports atomic batches (EIP-5792 `wallet_getCapabilities`:
 * `atomic.status` `'supported'` or `'ready'`, or the older `atomicBatch.supported`)
 * for the account on the chain. A wallet without `wallet_getCapabilities`, or
 * one that fails it, does not.
 *
 * @example
 * const atomic = await supportsAtomicBatch({ walletClient, publicClient }, account, 1)
 */
export async function supportsAtomicBatch(
  { walletClient }: ExecutionClients,
  account: Address,
  chainId: number,
): Promise<boolean> {
  try {
    const capabilities = (await getCapabilities(walletClient, { account, chainId })) as {
      atomic?: { status?: string }
      atomicBatch?: { supported?: boolean }
    }
    const status = capabilities?.atomic?.status
    return status === 'supported' || status === 'ready' || capabilities?.atomicBatch?.supported === true
  } catch {
    // No wallet_getCapabilities, or it failed: not a batching wallet.
    return false
  }
}

type BatchResult = { batchId: string; receipts: TransactionReceipt[] }

/**
 * Sends the calls as one atomic `wallet_sendCalls` pinned to `chain` (the
 * wallet's chain is re-read first, and the chain id is part of the request),
 * waits for its status and returns its receipts; throws `BatchFailedError`
 * unless it succeeded. Never viem's fallback to separate, unawaited transactions.
 */
export async function sendBatch(
  clients: ExecutionClients,
  chain: Chain,
  calls: readonly SwapCall[],
  options: { timeoutMs: number; onSent?: (batchId: string) => void | Promise<void> },
): Promise<BatchResult> {
  const { walletClient } = clients
  const stage: ExecuteSwapStage = 'swap'
  await assertWalletChain(clients, chain.id, stage)
  const { id } = await walletStep(stage, () =>
    sendCalls(walletClient, {
      account: walletClient.account as Account,
      chain,
      calls: calls.map((call) => ({ to: call.to, data: call.data, value: call.value })),
      forceAtomic: true,
    }),
  )
  await options.onSent?.(id)
  return waitForBatch(clients, id, options.timeoutMs)
}

/** Waits for a batch the wallet accepted (also one sent before a reload) and normalizes its outcome. */
export async function waitForBatch(
  { walletClient }: ExecutionClients,
  batchId: string,
  timeoutMs: number,
): Promise<BatchResult> {
  const status = await walletStep('swap', () =>
    waitForCallsStatus(walletClient, { id: batchId, timeout: timeoutMs, throwOnFailure: false }),
  )
  const receipts = (status.receipts ?? []) as unknown as TransactionReceipt[]
  if (status.status !== 'success' || receipts.some((receipt) => receipt.status !== 'success'))
    throw new BatchFailedError({
      batchId,
      statusCode: status.statusCode,
      atomic: status.atomic,
      receipts,
    })
  return { batchId, receipts }
}

/**
 * A batch's current status without waiting: `'pending'` while the wallet works
 * on it, `'unknown'` when the wallet no longer knows it (EIP-5792 code 5730,
 * or no `wallet_getCallsStatus` at all).
 */
export async function readBatch(
  { walletClient }: ExecutionClients,
  batchId: string,
): Promise<
  { status: 'success' | 'failure'; receipts: TransactionReceipt[] } | { status: 'pending' | 'unknown' }
> {
  try {
    const status = await getCallsStatus(walletClient, { id: batchId })
    if (status.status === 'success' || status.status === 'failure')
      return { status: status.status, receipts: (status.receipts ?? []) as unknown as TransactionReceipt[] }
    return { status: 'pending' }
  } catch (error) {
    const code = (
      walk(error, (e) => typeof (e as { code?: unknown })?.code === 'number') as { code?: number } | null
    )?.code
    if (code === 5730 || code === -32601 || code === 4200) return { status: 'unknown' }
    throw error
  }
}
