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
 * `settlePendingSwaps`' parameters with the clients optional: the query waits for both clients, an account
 * and a storage.
 */
export type PendingSwapsQueryParameters = Partial<ExecutionClients> & {
  storage: SwapStorage | undefined
  chainId: number | undefined
  trustedAddresses?: TrustedAddresses | undefined
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
  const { walletClient, publicClient, storage, chainId } = parameters
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
