'use client'

import { type QueryClient, useMutation, useQuery } from '@tanstack/react-query'
import { useCallback, useEffect, useMemo } from 'react'
import type { TransactionReceipt } from 'viem'
import { ensure } from '../../core/errors/parameter.js'
import type { ExecuteSwapErrorType } from '../../core/execute/executeSwap.js'
import {
  type PendingSwap,
  removePendingSwap,
  resolveStorage,
} from '../../core/execute/records/pendingSwaps.js'
import type { ResumeSwapParameters, ResumeSwapReturnType } from '../../core/execute/resumeSwap.js'
import { isSettled } from '../../core/execute/rules/standing.js'
import type { SettlePendingSwapsReturnType } from '../../core/execute/settlePendingSwaps.js'
import type { SlippageSetting } from '../../core/slippage/slippageFor.js'
import { isObject } from '../../core/utils/validate.js'
import { withoutUndefined } from '../../core/utils/withoutUndefined.js'
import {
  pendingSwapsQueryOptions,
  type ResumeSwapVariables,
  resumeSwapMutationOptions,
} from '../../query/pendingSwaps.js'
import { type RefreshAfterSwapParameters, refreshAfterSwap } from '../../query/refreshAfterSwap.js'
import { useSingleFlight } from './useSingleFlight.js'
import { useSwapContext } from './useSwapClient.js'

export type UsePendingSwapsParameters = Partial<Omit<ResumeSwapParameters, 'record' | 'onStep'>> & {
  /** Default: the provider's chain, else the public client's. */
  chainId?: number | undefined
  /** Called at every step of a resumed execution. */
  onStep?: ResumeSwapParameters['onStep']
}

/**
 * What the user confirms when resuming: the floor (`minAmountOut`, or
 * `acceptedQuote` and `slippage`) and the recipient (`to`, default the
 * wallet's account). A stored record cannot set them: show its
 * `minAmountOut` and `to` to the user, or quote again.
 */
export type ResumeConfirmation = Pick<
  ResumeSwapParameters,
  'minAmountOut' | 'acceptedQuote' | 'slippage' | 'to'
>

export type UsePendingSwapsReturnType = {
  /** The unsettled executions of the wallet's account on the chain: `'resumable'` or `'pending'`. */
  pendingSwaps: SettlePendingSwapsReturnType
  /** What the last check settled (confirmed, reverted, dropped) and removed from the storage. */
  settled: SettlePendingSwapsReturnType
  /** The check of the records against the chain is running. */
  isChecking: boolean
  /**
   * Continues a record from its last confirmed step, with the floor (and
   * recipient) the user confirms now: never the stored record's. A call
   * while a resume is in flight does nothing. Never throws: a call without
   * `confirmed` (an object) is an `InvalidParameterError` naming it, in
   * `resumeState.error`, nothing read or sent.
   */
  resume: (record: PendingSwap, confirmed: ResumeConfirmation) => void
  /** As `resume`, resolving with what happened (rejecting with what `resumeState.error` shows). */
  resumeAsync: (record: PendingSwap, confirmed: ResumeConfirmation) => Promise<ResumeSwapReturnType>
  /** The running (or last) resume: TanStack's mutation state. */
  resumeState: {
    status: 'idle' | 'pending' | 'success' | 'error'
    data: ResumeSwapReturnType | undefined
    error: ExecuteSwapErrorType | null
  }
  /** Forgets a record (the user does not want to resume it). */
  dismiss: (record: PendingSwap) => Promise<void>
  /** Checks the records again. */
  refresh: () => void
}

/**
 * The executions a reload interrupted, for the connected account and chain.
 * On mount it reads them from the storage and checks each on chain (receipts,
 * batch status, the allowance), sending nothing: the settled ones (confirmed,
 * reverted, dropped) are removed and reported once in `settled`; the others
 * are `pendingSwaps`, `'pending'` (a transaction in flight) or `'resumable'`
 * (an approval mined, no swap sent): `resume(record, { minAmountOut })` sends
 * the swap with the floor the user confirms now (and `to`, default the
 * account: never the stored record's), after a fresh quote and every check
 * of `useExecuteSwap`. A swap already sent is never sent again.
 *
 * @example
 * import { usePendingSwaps } from 'token-swap-hooks'
 *
 * const { pendingSwaps, resume, dismiss } = usePendingSwaps()
 * return pendingSwaps.map(({ record, status }) => (
 *   <p key={record.id}>
 *     A swap of {record.amountIn} was interrupted ({status}).
 *     {status === 'resumable' && (
 *       <button onClick={() => resume(record, { minAmountOut: BigInt(record.minAmountOut) })}>
 *         Finish it: at least {record.minAmountOut} out, to you
 *       </button>
 *     )}
 *     <button onClick={() => dismiss(record)}>Dismiss</button>
 *   </p>
 * ))
 */
export function usePendingSwaps(parameters: UsePendingSwapsParameters = {}): UsePendingSwapsReturnType {
  const { client, queryClient, execution } = useSwapContext()
  // The provider's slippage may be one per pair: each resume picks the record's (resumeSwapMutationOptions).
  const defaults = { ...withoutUndefined(execution), ...withoutUndefined(parameters) } as Partial<
    Omit<ResumeSwapParameters, 'record' | 'slippage'>
  > & { chainId?: number | undefined; slippage?: SlippageSetting | undefined }
  const storage = resolveStorage(defaults.storage)
  const chainId = defaults.chainId ?? defaults.publicClient?.chain?.id
  const options = pendingSwapsQueryOptions(client, { ...defaults, storage, chainId })
  const check = useQuery(options, queryClient)

  const resumeOptions = resumeSwapMutationOptions(
    client,
    defaults as Parameters<typeof resumeSwapMutationOptions>[1],
  )
  const mutation = useMutation<ResumeSwapReturnType, ExecuteSwapErrorType, ResumeVariables>(
    {
      ...resumeOptions,
      // A resume without a confirmation fails here, so that it shows as every other failure does.
      async mutationFn(variables) {
        ensure(!('confirmed' in variables), 'confirmed', confirmedRule, variables.confirmed)
        return resumeOptions.mutationFn(variables)
      },
      async onSettled(data, error, variables) {
        // Refused before anything was read or sent: nothing to read again.
        if ('confirmed' in variables) return
        const { record } = variables
        void queryClient.invalidateQueries({ queryKey: options.queryKey })
        // As after executeSwap: what the swap changed is read again at its block.
        const receipt =
          data && 'receipt' in data ? data.receipt : (error as { receipt?: TransactionReceipt })?.receipt
        await refreshAfter(queryClient, record, receipt, defaults.publicClient)
      },
    },
    queryClient,
  )
  const { mutateAsync } = mutation
  const resumeAsync = useSingleFlight(
    useCallback(
      // The provider's slippage for the record's pair, where the user confirms none.
      async (record: PendingSwap, confirmed: ResumeConfirmation) =>
        mutateAsync(
          isObject(confirmed)
            ? { ...withoutUndefined(confirmed), record }
            : // A JavaScript caller, or code from before the confirmation was required.
              { record, confirmed },
        ),
      [mutateAsync],
    ),
  )
  const resume = useCallback(
    (record: PendingSwap, confirmed: ResumeConfirmation) =>
      void resumeAsync(record, confirmed).catch(() => {}),
    [resumeAsync],
  )
  const { refetch } = check
  const dismiss = useCallback(
    async (record: PendingSwap) => {
      if (storage) await removePendingSwap(storage, record.id)
      await refetch()
    },
    [storage, refetch],
  )

  const { pendingSwaps, settled } = useMemo(() => {
    const all = check.data ?? []
    return {
      pendingSwaps: all.filter(({ status }) => !isSettled(status)),
      settled: all.filter(({ status }) => isSettled(status)),
    }
  }, [check.data])
  // A swap settled from its record (mined while the page was away) changed balances too.
  const publicClient = defaults.publicClient
  useEffect(() => {
    for (const { record, status, receipt } of settled)
      if (status !== 'dropped') void refreshAfter(queryClient, record, receipt, publicClient)
  }, [settled, queryClient, publicClient])
  const refresh = useCallback(() => void refetch(), [refetch])
  return {
    pendingSwaps,
    settled,
    isChecking: check.isFetching,
    resume,
    resumeAsync,
    resumeState: { status: mutation.status, data: mutation.data, error: mutation.error },
    dismiss,
    refresh,
  }
}

/**
 * A resume's variables: the record and the confirmed fields, or, for a call
 * without a confirmation object, the value given instead (`confirmed`, no
 * field of a confirmation): its mutation refuses them.
 */
type ResumeVariables = ResumeSwapVariables & { confirmed?: unknown }

const confirmedRule = 'is required: { minAmountOut } or { acceptedQuote }'

/** `refreshAfterSwap` for a recorded execution. */
function refreshAfter(
  queryClient: QueryClient,
  record: PendingSwap,
  receipt: TransactionReceipt | undefined,
  publicClient: RefreshAfterSwapParameters['publicClient'],
) {
  // Its tokens, account and chain as the record's.
  return refreshAfterSwap(queryClient, { ...record, publicClient, blockNumber: receipt?.blockNumber })
}
