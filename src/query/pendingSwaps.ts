import type { SwapClient } from '../core/client.js'
import type { TrustedAddresses } from '../core/execute/executeSwap.js'
import type { PendingSwap, SwapStorage } from '../core/execute/records/pendingSwaps.js'
import {
  type ResumeSwapParameters,
  type ResumeSwapReturnType,
  resumeSwap,
} from '../core/execute/resumeSwap.js'
import type { ExecutionClients } from '../core/execute/run/chain.js'
import { type SettlePendingSwapsReturnType, settlePendingSwaps } from '../core/execute/settlePendingSwaps.js'
import { type SlippageSetting, slippageFor } from '../core/slippage/slippageFor.js'

/** The first element of every pending-swaps check's key: an execution's end invalidates them all. */
export const pendingSwapsQueryName = 'pendingSwaps'

/** `['pendingSwaps', { baseUrl, account, chainId }]`: the key of an account's check on a chain. */
export type PendingSwapsQueryKey = readonly [
  typeof pendingSwapsQueryName,
  { baseUrl: string; account: string | undefined; chainId: number | undefined },
]

/**
 * The key of the pending-swaps check of an account on a chain: under
 * `pendingSwapsQueryName`, which `useExecuteSwap` invalidates when a swap ends.
 *
 * @example
 * queryClient.invalidateQueries({ queryKey: getPendingSwapsQueryKey(client, { account, chainId }) })
 */
export function getPendingSwapsQueryKey(
  client: SwapClient,
  { account, chainId }: { account: string | undefined; chainId: number | undefined },
): PendingSwapsQueryKey {
  return [pendingSwapsQueryName, { baseUrl: client.baseUrl, account, chainId }]
}

/**
 * `settlePendingSwaps`' parameters with the clients optional (the query waits for both clients, an
 * account and a storage), and how often to check again.
 */
export type PendingSwapsQueryParameters = Partial<ExecutionClients> & {
  storage: SwapStorage | undefined
  chainId: number | undefined
  trustedAddresses?: TrustedAddresses | undefined
  /**
   * While a record is `'pending'` (a transaction in flight) or `'unknown'`, check again on
   * its own: after `initial` ms, then 1.5 times longer each check, at most
   * `max` ms apart; never while the page is hidden (it checks again when
   * shown), never once nothing is pending. `false`: only on mount, focus and
   * `refresh()`. Default `{ initial: 2_000, max: 30_000 }`.
   */
  recheck?: PendingSwapsRecheck | false | undefined
}

/** The delays of the re-checks while a record is pending, in milliseconds. */
export type PendingSwapsRecheck = { initial: number; max: number }

const defaultRecheck: PendingSwapsRecheck = { initial: 2_000, max: 30_000 }

/**
 * When the pending-swaps check runs again (ms), or `false`: only while one of
 * the records it found is `'pending'` (or `'unknown'`: a transaction no node
 * shows yet), backing off from `initial` by ×1.5 per
 * check already made (`checks`, at least 1), never more than `max` apart.
 *
 * @example
 * pendingSwapsRecheckDelay([{ status: 'pending' }], 3) // 4_500
 */
export function pendingSwapsRecheckDelay(
  found: readonly { status: SettlePendingSwapsReturnType[number]['status'] }[] | undefined,
  checks: number,
  recheck: PendingSwapsRecheck | false = defaultRecheck,
): number | false {
  if (!recheck || !found?.some(({ status }) => status === 'pending' || status === 'unknown')) return false
  return Math.round(Math.min(recheck.max, recheck.initial * 1.5 ** Math.max(0, checks - 1)))
}

/**
 * Query options that check the wallet account's recorded executions on chain
 * (`settlePendingSwaps`: nothing is sent, the settled ones are removed and
 * reported once); enabled once there are both clients, an account and a
 * storage. Never cached: each check reads the chain again.
 *
 * @example
 * const check = useQuery(pendingSwapsQueryOptions(client, { walletClient, publicClient, storage, chainId }))
 */
export function pendingSwapsQueryOptions(client: SwapClient, parameters: PendingSwapsQueryParameters) {
  const { walletClient, publicClient, storage, chainId, recheck } = parameters
  const account = walletClient?.account?.address
  return {
    queryKey: getPendingSwapsQueryKey(client, { account, chainId }),
    // Run only with both clients (enabled): settlePendingSwaps reads its own fields of the parameters.
    queryFn: (): Promise<SettlePendingSwapsReturnType> =>
      settlePendingSwaps(parameters as PendingSwapsQueryParameters & ExecutionClients),
    enabled: !!walletClient && !!publicClient && !!account && !!storage,
    staleTime: 0,
    gcTime: 0,
    retry: false,
    // A pending transaction settles on its own: check again, backing off, while one is in flight.
    refetchInterval: (query: {
      state: { data?: SettlePendingSwapsReturnType | undefined; dataUpdateCount: number }
    }) => pendingSwapsRecheckDelay(query.state.data, query.state.dataUpdateCount, recheck),
    refetchIntervalInBackground: false,
  } as const
}

/** What a resume takes: the record, and what the user confirms now (see `ResumeSwapParameters`). */
export type ResumeSwapVariables = { record: PendingSwap } & Partial<
  Pick<ResumeSwapParameters, 'minAmountOut' | 'acceptedQuote' | 'slippage' | 'to'>
>

/**
 * Mutation options for `resumeSwap`, with the clients and settings every
 * resume of these options shares (`slippage` may be one per pair: the
 * record's tokens pick it, unless the resume gives its own);
 * `mutate({ record, minAmountOut })`.
 *
 * @example
 * const resume = useMutation(resumeSwapMutationOptions(client, { walletClient, publicClient, trustedAddresses }))
 * resume.mutate({ record, minAmountOut })
 */
export function resumeSwapMutationOptions(
  client: SwapClient,
  defaults: Omit<ResumeSwapParameters, 'record' | 'slippage'> & { slippage?: SlippageSetting | undefined },
) {
  return {
    mutationKey: ['resumeSwap', { baseUrl: client.baseUrl }] as const,
    mutationFn: (variables: ResumeSwapVariables): Promise<ResumeSwapReturnType> =>
      resumeSwap(client, {
        ...defaults,
        ...variables,
        slippage: variables.slippage ?? slippageFor(defaults.slippage, variables.record),
      }),
  }
}
