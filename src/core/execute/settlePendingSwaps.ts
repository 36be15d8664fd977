import type { TransactionReceipt } from 'viem'
import type { TrustedAddresses } from './executeSwap.js'
import { isPendingSwapRunning } from './records/claims.js'
import type { PendingSwap, SwapStorage } from './records/pendingSwaps.js'
import { getDefaultStorage, getPendingSwaps, removePendingSwap } from './records/pendingSwaps.js'
import { isSettled, type PendingSwapStatus } from './rules/standing.js'
import { assertChain, type ExecutionClients, resolveClients } from './run/chain.js'
import { readStanding, subjectOf } from './run/readStanding.js'

/** The parameters of `settlePendingSwaps`: the clients, the storage, the chain, the trusted addresses. */
export type SettlePendingSwapsParameters = ExecutionClients & {
  /** Default: `localStorage` in a browser, memory elsewhere (as `executeSwap`'s). */
  storage?: SwapStorage | undefined
  /** Default: the public client's chain. */
  chainId?: number | undefined
  /** Calls to these (as well as to a record's router and spender) after its approval are taken for its swap. */
  trustedAddresses?: TrustedAddresses | undefined
}

/** Each record checked, with its status and, when a transaction of it was mined, its receipt. */
export type SettlePendingSwapsReturnType = {
  record: PendingSwap
  status: PendingSwapStatus
  receipt?: TransactionReceipt | undefined
}[]

/**
 * The account's recorded executions on the chain, each checked on chain (nothing sent); the settled ones are
 * removed and reported once; those this page runs are left out.
 * @example const checked = await settlePendingSwaps({ walletClient, publicClient }) // [{ record, status }]
 */
export async function settlePendingSwaps(
  parameters: SettlePendingSwapsParameters,
): Promise<SettlePendingSwapsReturnType> {
  const clients = resolveClients(parameters)
  const storage = parameters.storage ?? getDefaultStorage()
  // Records of one chain, read on another, would all look dropped.
  const chainId = await assertChain(clients.publicClient, parameters.chainId)
  // An execution of this page runs the skipped ones: they are not interrupted.
  const records = (await getPendingSwaps(storage, { account: clients.owner, chainId })).filter(
    (record) => !isPendingSwapRunning(record.id),
  )
  // Every record is read before any is removed: a read that fails ends the call with nothing
  // removed, so no settled record is forgotten unreported.
  const checked = await Promise.all(
    records.map(async (record) => {
      const { status, receipt } = await readStanding(
        clients,
        subjectOf(record),
        parameters.trustedAddresses?.[chainId],
      )
      return { record, status, receipt }
    }),
  )
  for (const { record, status } of checked) {
    // Unless a resume of this page took it over meanwhile: that one settles it.
    // A storage that fails to forget it leaves it listed: it settles again next time.
    if (isSettled(status) && !isPendingSwapRunning(record.id))
      await removePendingSwap(storage, record.id).catch(() => {})
  }
  return checked
}
