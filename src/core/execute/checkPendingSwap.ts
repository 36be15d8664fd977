import type { TransactionReceipt } from 'viem'
import type { TrustedAddresses } from './executeSwap.js'
import { isPendingSwapRunning } from './records/claims.js'
import type { PendingSwap } from './records/pendingSwaps.js'
import type { PendingSwapStatus } from './rules/standing.js'
import { assertChain, type ExecutionClients } from './run/chain.js'
import { readStanding, subjectOf } from './run/readStanding.js'

/** Where the record stands (`PendingSwapStatus`) and, when a transaction of it was mined, its receipt. */
export type CheckPendingSwapReturnType = {
  status: PendingSwapStatus
  receipt?: TransactionReceipt | undefined
}

/**
 * Where a recorded execution stands on chain (`'pending'` while this page runs it); sends nothing.
 * @example const { status } = await checkPendingSwap({ walletClient, publicClient }, record)
 */
export async function checkPendingSwap(
  clients: ExecutionClients & {
    /** Calls to these (as well as to the record's router and spender) after the approval are taken for the swap. */
    trustedAddresses?: TrustedAddresses | undefined
  },
  record: PendingSwap,
): Promise<CheckPendingSwapReturnType> {
  if (isPendingSwapRunning(record.id)) return { status: 'pending' }
  await assertChain(clients.publicClient, record.chainId)
  const { status, receipt } = await readStanding(
    clients,
    subjectOf(record),
    clients.trustedAddresses?.[record.chainId],
  )
  return { status, receipt }
}
