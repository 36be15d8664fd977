'use client'

import {
  type MutationStatus,
  type UseMutationOptions,
  type UseMutationResult,
  useMutation,
} from '@tanstack/react-query'
import { useCallback, useState } from 'react'
import type { TransactionReceipt } from 'viem'
import type {
  ExecuteSwapErrorType,
  ExecuteSwapReturnType,
  ExecuteSwapStatus,
  ExecuteSwapStep,
} from '../../core/execute/executeSwap.js'
import { withoutUndefined } from '../../core/utils/withoutUndefined.js'
import {
  both,
  type ExecuteSwapDefaults,
  type ExecuteSwapVariables,
  executeSwapMutationOptions,
} from '../../query/executeSwap.js'
import { pendingSwapsQueryName } from '../../query/pendingSwaps.js'
import { refreshAfterSwap } from '../../query/refreshAfterSwap.js'
import { useSingleFlight } from './useSingleFlight.js'
import { useSwapContext } from './useSwapClient.js'

/** The settings every swap of the hook shares (the provider's by default), and TanStack's callbacks. */
export type UseExecuteSwapParameters = ExecuteSwapDefaults & {
  /** TanStack mutation callbacks (`onSuccess`, `onError`, `onSettled`…). */
  mutation?:
    | Omit<
        UseMutationOptions<ExecuteSwapReturnType, ExecuteSwapErrorType, ExecuteSwapVariables>,
        'mutationFn' | 'mutationKey'
      >
    | undefined
}

/**
 * TanStack's mutation result, with `execute` and `executeAsync` in place of `mutate` and `mutateAsync`, the
 * flow's latest `step` and its `stage`.
 */
export type UseExecuteSwapReturnType = Omit<
  UseMutationResult<ExecuteSwapReturnType, ExecuteSwapErrorType, ExecuteSwapVariables>,
  'mutate' | 'mutateAsync'
> & {
  /** Starts a swap. A call while one is in flight does nothing. */
  execute: (variables: ExecuteSwapVariables) => void
  /** Starts a swap and resolves with its result. A call while one is in flight returns the same promise. */
  executeAsync: (variables: ExecuteSwapVariables) => Promise<ExecuteSwapReturnType>
  /**
   * The latest snapshot of the flow: `step.status` (`'quoting' | 'approving' | 'swapping' | 'success'`),
   * the current action, the simulated outcome and every hash so far; kept after success or error.
   */
  step: ExecuteSwapStep | undefined
  /**
   * Where the flow stands, for a button label: TanStack's `'idle'`, `'success'`
   * or `'error'`, and while it runs, its own stage (`'quoting'` until the first
   * step, then `'approving'`, `'swapping'`).
   */
  stage: Exclude<MutationStatus, 'pending'> | ExecuteSwapStatus
}

/**
 * Approve-then-swap through viem, without trusting the service with funds.
 * Every `execute` fetches a fresh `/swap/info`, refuses addresses outside the
 * chain's `trustedAddresses`, simulates the exact calls to sign and refuses
 * unless the user's floor and `amountIn` hold, approves only what is needed
 * (and waits for it), sends the swap pinned to the chain and waits for its
 * receipt. A double click sends nothing twice. Wallet, public client and
 * allowlist come from the call, the hook or the provider, in that order.
 * Returns TanStack's mutation result (without the raw `mutate`), plus
 * `execute`, `executeAsync`, `step` and `stage`.
 *
 * @example
 * import { useExecuteSwap } from 'token-swap-hooks'
 * import { usePublicClient, useWalletClient } from 'wagmi'
 *
 * const { data: walletClient } = useWalletClient()
 * const publicClient = usePublicClient()
 * const { execute, isPending, stage, error } = useExecuteSwap({
 *   walletClient,
 *   publicClient,
 *   trustedAddresses: { [mainnet.id]: [ROUTER, SPENDER] },
 * })
 *
 * const button = (
 * <button disabled={isPending}
 *   onClick={() => execute({ token0, token1, amountIn, slippage: 0.01, acceptedQuote: route })}>
 *   {stage === 'approving' ? 'Approving…' : stage === 'swapping' ? 'Swapping…' : 'Swap'}
 * </button>
 * )
 */
export function useExecuteSwap(parameters: UseExecuteSwapParameters = {}): UseExecuteSwapReturnType {
  const { client, queryClient, execution } = useSwapContext()
  const [step, setStep] = useState<ExecuteSwapStep>()
  const { mutation: mutationParameters, onStep, ...defaults } = parameters
  const settings = {
    ...withoutUndefined(execution),
    ...withoutUndefined(defaults),
    // The provider's onEvent (analytics for every button) and the hook's both run.
    onEvent: both(execution.onEvent, defaults.onEvent),
    onStep(next: ExecuteSwapStep) {
      setStep(next)
      onStep?.(next)
    },
  }

  const {
    mutate: _,
    mutateAsync,
    reset: resetMutation,
    ...mutation
  } = useMutation(
    {
      ...mutationParameters,
      async onSettled(...args) {
        const [data, error, variables] = args
        // The execution's record may have changed: usePendingSwaps reads it again.
        void queryClient.invalidateQueries({ queryKey: [pendingSwapsQueryName] })
        // What the swap changed is read again at its block before the mutation settles (isPending
        // until then): the old preview is gone, so the same swap cannot be offered again on it.
        const receipt = data?.receipt ?? (error as { receipt?: TransactionReceipt } | null)?.receipt
        await refreshAfterSwap(queryClient, {
          // Its tokens as the swap's; the chain it ran on, when it settled.
          ...{ ...variables, chainId: data?.chainId },
          account: receipt?.from ?? (variables.walletClient ?? settings.walletClient)?.account?.address,
          blockNumber: receipt?.blockNumber,
          publicClient: variables.publicClient ?? settings.publicClient,
        })
        return mutationParameters?.onSettled?.(...args)
      },
      ...executeSwapMutationOptions(client, settings, { queryClient }),
      // The latest step on the running mutation, for the devtools panel (its simulated outcome).
      meta: { ...mutationParameters?.meta, step },
    },
    queryClient,
  )

  const executeAsync = useSingleFlight(
    useCallback(
      (variables: ExecuteSwapVariables) => {
        setStep(undefined)
        return mutateAsync(variables)
      },
      [mutateAsync],
    ),
  )
  const execute = useCallback(
    (variables: ExecuteSwapVariables) => {
      executeAsync(variables).catch(() => {})
    },
    [executeAsync],
  )
  const reset = useCallback(() => {
    resetMutation()
    setStep(undefined)
  }, [resetMutation])

  // Between the flow's last step and TanStack's success, the swap is still being settled.
  const stage = !mutation.isPending
    ? mutation.status
    : !step
      ? 'quoting'
      : step.status === 'success'
        ? 'swapping'
        : step.status
  return { ...mutation, reset, execute, executeAsync, step, stage } as UseExecuteSwapReturnType
}
