import { type Address, isAddressEqual, type TransactionReceipt } from 'viem'
import type { SwapClient } from '../client.js'
import { SwapInProgressError } from '../errors/execute.js'
import { ensure } from '../errors/parameter.js'
import type { ExecuteSwapParameters, ExecuteSwapReturnType } from './executeSwap.js'
import { claimPendingSwap } from './records/claims.js'
import type { PendingSwap } from './records/pendingSwaps.js'
import { getPendingSwaps, isPendingSwap, removePendingSwap, resolveStorage } from './records/pendingSwaps.js'
import { checkSwapParameters, resolveClients } from './rules/checkSwapParameters.js'
import type { PendingSwapStatus, SettledStatus, Standing } from './rules/standing.js'
import { failureOf, isSettled } from './rules/standing.js'
import { ensureChain } from './run/chain.js'
import { ownEntries } from './run/context.js'
import { readStanding, subjectOf } from './run/readStanding.js'
import { createSwapRun, runSwap } from './run/runSwap.js'
import type { ExecutionClients } from './types.js'

/**
 * `executeSwap`'s parameters but the swap itself, which the record holds, and the floor the user confirms
 * now.
 */
export type ResumeSwapParameters = Omit<
  ExecuteSwapParameters,
  'token0' | 'token1' | 'amountIn' | 'chainId'
> & {
  /** The recorded execution to continue (from `getPendingSwaps` / `usePendingSwaps`). */
  record: PendingSwap
  /**
   * The floor the user confirms now (or `acceptedQuote` and `slippage`): required to send the swap; never the
   * record's.
   */
  minAmountOut?: bigint | undefined
  /** Who receives the output, confirmed now. Default: the wallet's account, never the record's `to`. */
  to?: Address | undefined
}

/** What `resumeSwap` did: swapped (with `executeSwap`'s result), found it settled, or left the record. */
export type ResumeSwapReturnType =
  /** The swap was sent now, after a fresh quote and every check: its result. */
  | ({ resumed: 'swapped' } & ExecuteSwapReturnType)
  /** Nothing was sent: the execution had settled, or settled while waited for. */
  | { resumed: 'settled'; status: SettledStatus; receipt?: TransactionReceipt | undefined }
  /**
   * Nothing was sent and the record is left: `'missing'`, the storage no longer holds it; `'pending'`, a
   * transaction after the approval is in flight; `'unknown'`, transactions after it cannot be told from the
   * swap.
   */
  | { resumed: 'nothing'; status: 'missing' | Exclude<PendingSwapStatus, SettledStatus | 'resumable'> }

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
 * import { getDefaultStorage, getPendingSwaps, resumeSwap } from 'token-swap-hooks/core'
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
  const mine = isPendingSwap(record) && isAddressEqual(record.account, clients.owner)
  ensure(mine, 'record', "must be one of this wallet account's recorded executions", record)
  const { baseUrl } = record
  ensure(
    baseUrl === client.baseUrl,
    'record',
    `was recorded with ${baseUrl}, not this client's service`,
    baseUrl,
  )
  // An execution of this page still runs it (or another resume does): resuming would send it twice.
  const release = await claimPendingSwap(record.id)
  if (!release) throw new SwapInProgressError({ recordId: record.id })
  try {
    // The stored copy, read once claimed: the one passed in may be behind.
    const storage = resolveStorage(rest.storage)
    const stored = storage ? (await getPendingSwaps(storage)).find((item) => item.id === record.id) : record
    // Gone (settled or dismissed elsewhere): nothing is sent; a swap the record says was sent is
    // still read from the chain, to report how it ended.
    if (!stored)
      return record.step === 'swapping' || record.step === 'batching'
        ? await resume(client, rest, record, clients)
        : { resumed: 'nothing', status: 'missing' }
    const same = isAddressEqual(stored.account, record.account) && stored.chainId === record.chainId
    ensure(
      same && stored.baseUrl === baseUrl,
      'record',
      'differs from the stored record (account, chain or service)',
      stored,
    )
    return await resume(client, rest, stored, clients)
  } finally {
    release()
  }
}

/** The stored record, on its chain: settled from the chain, or its swap sent at the nonce the scan proved free. */
async function resume(
  client: SwapClient,
  rest: Omit<ResumeSwapParameters, 'record'>,
  record: PendingSwap,
  clients: ExecutionClients,
): Promise<ResumeSwapReturnType> {
  // The record's chain first: anything read elsewhere would say nothing about it.
  await ensureChain(clients, record.chainId, 'chain')
  const storage = resolveStorage(rest.storage)
  /**
   * Nothing sent while in flight or unknown; else settled, the record forgotten (one a storage fails to
   * forget settles again later).
   */
  const conclude = async ({ status, receipt }: Standing): Promise<ResumeSwapReturnType> => {
    if (!isSettled(status)) return { resumed: 'nothing', status: status as 'pending' | 'unknown' }
    if (storage) await removePendingSwap(storage, record.id).catch(() => {})
    return { resumed: 'settled', status, receipt }
  }
  const state = await readStanding(clients, subjectOf(record), rest.trustedAddresses?.[record.chainId], rest)
  if (state.status !== 'resumable') return conclude(state)
  const { chainId, token0, token1 } = record
  const parameters = checkSwapParameters({
    ...rest,
    chainId,
    token0,
    token1,
    amountIn: BigInt(record.amountIn),
  })
  const run = createSwapRun(client, parameters, storage, { resumed: record, pinnedNonce: state.nonce })
  const result = await runSwap(run)
  if ('swapped' in result) return { resumed: 'swapped', ...result.swapped }
  const { stopped, error } = result
  // Nothing sent (the nonce was taken since the scan), or the pinned send lost its nonce: what holds
  // it may be the swap sent before the reload, and the chain's standing is the answer; unless it
  // is one that would have the swap sent again.
  const lost = error === undefined || failureOf(stopped, ownEntries(run)).lostNonce
  if (lost && stopped.status !== 'dropped' && stopped.status !== 'resumable') return conclude(stopped)
  throw error
}
