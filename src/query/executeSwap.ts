import type { SwapClient } from '../core/client.js'
import { ensure } from '../core/errors/parameter.js'
import {
  type ExecuteSwapParameters,
  type ExecuteSwapReturnType,
  executeSwap,
} from '../core/execute/executeSwap.js'
import { checkPriceImpact } from '../core/prices/checkPriceImpact.js'
import type { PriceImpactThresholds } from '../core/prices/priceImpact.js'
import { type SlippageSetting, slippageFor } from '../core/slippage/slippageFor.js'
import { withoutUndefined } from '../core/utils/withoutUndefined.js'
import { getTokenPriceQueryOptions } from './getTokenPrice.js'

/**
 * The price-impact limit an execution of an `acceptedQuote` is held to, as
 * the preview's (`checkPriceImpact`): default `defaultPriceImpactThresholds`
 * (block from 15%); `false` turns it off.
 */
export type PriceImpactLimit = { priceImpactThresholds?: PriceImpactThresholds | false | undefined }

/** What the execution uses of a TanStack `QueryClient` (structural): the prices its cache holds. */
export type PriceCache = {
  fetchQuery(options: ReturnType<typeof getTokenPriceQueryOptions>): Promise<number>
}

/** What `execute` takes: the swap; clients and settings not given come from the defaults. */
export type ExecuteSwapVariables = Omit<ExecuteSwapParameters, 'walletClient' | 'publicClient'> &
  Partial<Pick<ExecuteSwapParameters, 'walletClient' | 'publicClient'>> &
  PriceImpactLimit

/**
 * Settings every swap of these options shares (clients, allowlist, approval
 * policy…); `slippage` may be one per pair.
 */
export type ExecuteSwapDefaults = Partial<
  Omit<ExecuteSwapParameters, 'token0' | 'token1' | 'amountIn' | 'slippage'> & { slippage: SlippageSetting }
> &
  PriceImpactLimit

/** What `executeSwapMutationOptions` returns: the mutation's key and function, for `useMutation`. */
export type ExecuteSwapMutationOptions = {
  mutationKey: readonly ['executeSwap', { baseUrl: string }]
  mutationFn: (variables: ExecuteSwapVariables) => Promise<ExecuteSwapReturnType>
}

/**
 * Mutation options for `executeSwap`, as wagmi's `sendTransactionMutationOptions`:
 * give them to `useMutation` (or `queryClient.getMutationCache().build`), and
 * `mutate({ token0, token1, amountIn, acceptedQuote })`. A variable that is
 * `undefined` falls back to `defaults`. An `acceptedQuote` (a first one or a
 * changed one the user accepts) is first held to the preview's price-impact
 * limit (`checkPriceImpact`: `PriceImpactTooHighError`, nothing signed), at the
 * prices `queryClient`'s cache holds where given.
 *
 * @example
 * import { useMutation } from '@tanstack/react-query'
 * import { executeSwapMutationOptions } from 'token-swap-hooks/query'
 *
 * const swap = useMutation(
 *   executeSwapMutationOptions(client, { walletClient, publicClient, trustedAddresses: { 1: [ROUTER, SPENDER] } }),
 * )
 * swap.mutate({ token0, token1, amountIn, acceptedQuote: route })
 */
export function executeSwapMutationOptions(
  client: SwapClient,
  defaults: ExecuteSwapDefaults = {},
  { queryClient }: { queryClient?: PriceCache | undefined } = {},
): ExecuteSwapMutationOptions {
  return {
    mutationKey: ['executeSwap', { baseUrl: client.baseUrl }],
    async mutationFn({ priceImpactThresholds: limit, ...variables }) {
      const parameters = {
        ...defaults,
        ...withoutUndefined(variables),
        slippage: variables.slippage ?? slippageFor(defaults.slippage, variables),
        // A call's onStep and onEvent run beside the defaults' (a hook's tracking, the provider's
        // analytics), never instead of them.
        onStep: both(defaults.onStep, variables.onStep),
        onEvent: both(defaults.onEvent, variables.onEvent),
      }
      for (const name of ['walletClient', 'publicClient'] as const)
        ensure(
          parameters[name],
          name,
          'is required: pass it to execute, to useExecuteSwap or to <SwapProvider>',
          undefined,
        )
      const { priceImpactThresholds, ...swap } = parameters as ExecuteSwapParameters & PriceImpactLimit
      const thresholds = limit ?? priceImpactThresholds
      if (swap.acceptedQuote && thresholds !== false) {
        // The prices the preview showed (the same cache entries, fetched there once); without a
        // QueryClient, checkPriceImpact fetches them itself.
        const cached = (cache: PriceCache, address: ExecuteSwapParameters['token0']) =>
          cache.fetchQuery(getTokenPriceQueryOptions(client, { address })).catch(() => undefined)
        const prices = queryClient && {
          token0: await cached(queryClient, swap.token0),
          token1: await cached(queryClient, swap.token1),
        }
        await checkPriceImpact(client, {
          ...{ publicClient: swap.publicClient, token0: swap.token0, token1: swap.token1 },
          ...{ amountIn: swap.amountIn, quote: swap.acceptedQuote, thresholds, prices },
        })
      }
      return executeSwap(client, swap)
    },
  }
}

/** One callback that calls both, where both are given (the second even when the first throws). */
export function both<value>(
  first: ((value: value) => void) | undefined,
  second: ((value: value) => void) | undefined,
): ((value: value) => void) | undefined {
  return first && second
    ? (value) => {
        try {
          first(value)
        } finally {
          second(value)
        }
      }
    : (first ?? second)
}
