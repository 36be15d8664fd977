import type { SwapClient } from '../core/client.js'
import { ensure } from '../core/errors/parameter.js'
import {
  type ExecuteSwapParameters,
  type ExecuteSwapReturnType,
  executeSwap,
} from '../core/execute/executeSwap.js'
import { type SlippageSetting, slippageFor } from '../core/slippage/slippageFor.js'
import { withoutUndefined } from '../core/utils/withoutUndefined.js'

/** What `execute` takes: the swap; clients and settings not given come from the defaults. */
export type ExecuteSwapVariables = Omit<ExecuteSwapParameters, 'walletClient' | 'publicClient'> &
  Partial<Pick<ExecuteSwapParameters, 'walletClient' | 'publicClient'>>

/**
 * Settings every swap of these options shares (clients, allowlist, approval
 * policy…); `slippage` may be one per pair.
 */
export type ExecuteSwapDefaults = Partial<
  Omit<ExecuteSwapParameters, 'token0' | 'token1' | 'amountIn' | 'slippage'> & { slippage: SlippageSetting }
>

/** What `executeSwapMutationOptions` returns: the mutation's key and function, for `useMutation`. */
export type ExecuteSwapMutationOptions = {
  mutationKey: readonly ['executeSwap', { baseUrl: string }]
  mutationFn: (variables: ExecuteSwapVariables) => Promise<ExecuteSwapReturnType>
}

/**
 * Mutation options for `executeSwap`, as wagmi's `sendTransactionMutationOptions`:
 * give them to `useMutation` (or `queryClient.getMutationCache().build`), and
 * `mutate({ token0, token1, amountIn, acceptedQuote })`. A variable that is
 * `undefined` falls back to `defaults`.
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
): ExecuteSwapMutationOptions {
  return {
    mutationKey: ['executeSwap', { baseUrl: client.baseUrl }],
    mutationFn(variables) {
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
      return executeSwap(client, parameters as ExecuteSwapParameters)
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
