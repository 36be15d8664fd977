import type { SwapClient } from '../core/client.js'
import { InvalidParameterError } from '../core/errors/parameter.js'
import {
  type ExecuteSwapParameters,
  type ExecuteSwapReturnType,
  executeSwap,
} from '../core/execute/executeSwap.js'
import { withoutUndefined } from '../core/utils/withoutUndefined.js'

/** What `execute` takes: the swap; clients and settings not given come from the defaults. */
export type ExecuteSwapVariables = Omit<ExecuteSwapParameters, 'walletClient' | 'publicClient'> &
  Partial<Pick<ExecuteSwapParameters, 'walletClient' | 'publicClient'>>

/** Settings every swap of these options shares (clients, allowlist, approval policy…). */
export type ExecuteSwapDefaults = Partial<Omit<ExecuteSwapParameters, 'token0' | 'token1' | 'amountIn'>>

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
      const parameters: Record<string, unknown> = { ...defaults, ...withoutUndefined(variables) }
      for (const name of ['walletClient', 'publicClient'])
        if (!parameters[name])
          throw new InvalidParameterError({
            parameter: name,
            rule: 'is required: pass it to execute, to useExecuteSwap or to <SwapProvider>',
            value: undefined,
          })
      return executeSwap(client, parameters as ExecuteSwapParameters)
    },
  }
}
