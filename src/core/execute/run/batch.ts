import { type Account, type Address, type Chain, type TransactionReceipt, withTimeout } from 'viem'
import { getCallsStatus, getCapabilities, sendCalls, waitForCallsStatus } from 'viem/actions'
import { walk } from '../../errors/base.js'
import { BatchFailedError, type ExecuteSwapStage } from '../../errors/execute.js'
import type { SwapCall } from '../types.js'
import { assertWalletChain, type ExecutionClients } from './chain.js'
import { walletStep } from './walletErrors.js'

/** What the wallet reports it can do for the account on the chain (EIP-5792 `wallet_getCapabilities`). */
export type WalletCapabilities = {
  /** Atomic batches: `atomic.status` `'supported'` or `'ready'` (an EIP-7702 upgrade on first use), or the older `atomicBatch.supported`. */
  atomic: boolean
  /** An ERC-7677 paymaster can sponsor the batch's gas (`paymasterService.supported`). */
  paymaster: boolean
}

/** How long the wallet is given to answer `wallet_getCapabilities` by default. */
export const defaultCapabilitiesTimeoutMs = 3_000

/**
 * What the wallet reports it can do for the account on the chain: atomic
 * batches (EIP-5792 `atomic.status` `'supported'` or `'ready'`, or the older
 * `atomicBatch.supported`) and ERC-7677 paymasters. A wallet without
 * `wallet_getCapabilities`, one that fails it, or one that does not answer
 * within `timeoutMs` (default 3 s: some leave it pending) can do neither.
 *
 * @example
 * const { atomic } = await readWalletCapabilities({ walletClient, publicClient }, account, 1)
 */
export async function readWalletCapabilities(
  { walletClient }: Pick<ExecutionClients, 'walletClient'>,
  account: Address,
  chainId: number,
  timeoutMs = defaultCapabilitiesTimeoutMs,
): Promise<WalletCapabilities> {
  try {
    // At least 1 ms: viem's withTimeout sets no limit at 0.
    const capabilities = (await withTimeout(() => getCapabilities(walletClient, { account, chainId }), {
      timeout: Math.max(1, timeoutMs),
    })) as {
      atomic?: { status?: string }
      atomicBatch?: { supported?: boolean }
      paymasterService?: { supported?: boolean }
    }
    const status = capabilities?.atomic?.status
    return {
      atomic: status === 'supported' || status === 'ready' || capabilities?.atomicBatch?.supported === true,
      paymaster: capabilities?.paymasterService?.supported === true,
    }
  } catch {
    // No wallet_getCapabilities, a failure, or no answer in time: the wallet batches nothing.
    return { atomic: false, paymaster: false }
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
 * Whether a failed `wallet_sendCalls` is the user declining the wallet's
 * upgrade to a smart account (EIP-5792 code 5750), or the wallet saying it
 * cannot do the batch atomically after all (5760): the same calls can then go
 * one transaction after the other.
 *
 * @example
 * if (isBatchDeclined(error)) sendOneByOne()
 */
export function isBatchDeclined(error: unknown): boolean {
  return walk(error, (e) => [5750, 5760].includes((e as { code?: unknown })?.code as number)) !== null
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
  options: {
    timeoutMs: number
    onSent?: (batchId: string) => void | Promise<void>
    /** An ERC-7677 paymaster for the batch's gas (only where the wallet reports it can use one). */
    paymaster?: { url: string; context?: Record<string, unknown> | undefined } | undefined
  },
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
      ...(options.paymaster ? { capabilities: { paymasterService: options.paymaster } } : {}),
    }),
  )
  await options.onSent?.(id)
  return waitForBatch(clients, id, options.timeoutMs)
}

/** Waits for a batch the wallet accepted (also one sent before a reload) and normalizes its outcome. */
export async function waitForBatch(
  { walletClient }: ExecutionClients,
  batchId: string,
  timeoutMs = 300_000,
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
 * A batch's current status without waiting, with its receipts once it ended:
 * `'pending'` while the wallet works on it, `'unknown'` when the wallet no
 * longer knows it (EIP-5792 code 5730, or no `wallet_getCallsStatus` at all).
 */
export async function readBatch(
  { walletClient }: ExecutionClients,
  batchId: string,
): Promise<{ status: 'confirmed' | 'reverted' | 'pending' | 'unknown'; receipts?: TransactionReceipt[] }> {
  try {
    const { status, receipts } = await getCallsStatus(walletClient, { id: batchId })
    if (status === 'success' || status === 'failure')
      return {
        status: status === 'success' ? 'confirmed' : 'reverted',
        receipts: (receipts ?? []) as unknown as TransactionReceipt[],
      }
    return { status: 'pending' }
  } catch (error) {
    const code = (
      walk(error, (e) => typeof (e as { code?: unknown })?.code === 'number') as { code?: number } | null
    )?.code
    if (code === 5730 || code === -32601 || code === 4200) return { status: 'unknown' }
    throw error
  }
}
