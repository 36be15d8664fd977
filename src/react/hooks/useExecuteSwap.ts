import { type UseMutationOptions, useMutation } from '@tanstack/react-query'
import { useCallback, useRef, useState } from 'react'
import { InvalidParameterError } from '../../core/errors/parameter.js'
import {
  type ExecuteSwapErrorType,
  type ExecuteSwapParameters,
  type ExecuteSwapReturnType,
  type ExecuteSwapStep,
  executeSwap,
} from '../../core/execute/executeSwap.js'
import type { SwapExecutionDefaults } from '../context.js'
import { useSwapContext } from './useSwapClient.js'

/** What `execute` / `executeAsync` take: the swap, and optionally other clients than the hook's. */
export type ExecuteSwapVariables = Omit<ExecuteSwapParameters, 'walletClient' | 'publicClient' | 'onStep'> &
  Partial<Pick<ExecuteSwapParameters, 'walletClient' | 'publicClient'>>

export type UseExecuteSwapParameters = Partial<SwapExecutionDefaults> &
  Pick<
    ExecuteSwapParameters,
    'approval' | 'resetAllowance' | 'revokeOnFailure' | 'confirmations' | 'maxTransferValue'
  > & {
    /** Called at every step of every swap with a snapshot of the flow. */
    onStep?: ((step: ExecuteSwapStep) => void) | undefined
    /** TanStack mutation callbacks (`onSuccess`, `onError`, `onSettled`…). */
    mutation?:
      | Omit<
          UseMutationOptions<ExecuteSwapReturnType, ExecuteSwapErrorType, ExecuteSwapVariables>,
          'mutationFn' | 'mutationKey'
        >
      | undefined
  }

export type UseExecuteSwapStatus = 'idle' | 'quoting' | 'approving' | 'swapping' | 'success' | 'error'

export type UseExecuteSwapReturnType = {
  /** Starts a swap. A call while one is in flight does nothing. */
  execute: (variables: ExecuteSwapVariables) => void
  /** Starts a swap and resolves with its hashes and receipt. A call while one is in flight returns the same promise. */
  executeAsync: (variables: ExecuteSwapVariables) => Promise<ExecuteSwapReturnType>
  status: UseExecuteSwapStatus
  /** The latest snapshot of the flow (hashes, the current action); kept after success or error. */
  step: ExecuteSwapStep | undefined
  data: ExecuteSwapReturnType | undefined
  error: ExecuteSwapErrorType | null
  variables: ExecuteSwapVariables | undefined
  isIdle: boolean
  isPending: boolean
  isSuccess: boolean
  isError: boolean
  /** Clears the result for a new swap. A swap in flight keeps running. */
  reset: () => void
}

/**
 * Approve-then-swap through viem, without trusting the service with funds.
 * Every `execute` fetches a fresh `/swap/info`, refuses addresses outside the
 * chain's `trustedAddresses`, simulates the exact calls to sign and refuses
 * unless the user's floor and `amountIn` hold, approves only what is needed
 * (and waits for it), sends the swap pinned to the chain and waits for its
 * receipt. A double click sends nothing twice. Wallet, public client and
 * allowlist come from the call, the hook or the provider, in that order.
 *
 * @example
 * import { useExecuteSwap } from 'token-swap-hooks'
 * import { usePublicClient, useWalletClient } from 'wagmi'
 *
 * const { data: walletClient } = useWalletClient()
 * const publicClient = usePublicClient()
 * const { execute, status, step, error } = useExecuteSwap({
 *   walletClient,
 *   publicClient,
 *   trustedAddresses: { [mainnet.id]: [ROUTER, SPENDER] },
 * })
 *
 * <button disabled={status === 'approving' || status === 'swapping'}
 *   onClick={() => execute({ token0, token1, amountIn, slippage: 0.01, acceptedQuote: info })}>
 *   Swap
 * </button>
 */
export function useExecuteSwap(parameters: UseExecuteSwapParameters = {}): UseExecuteSwapReturnType {
  const { client, queryClient, execution } = useSwapContext('useExecuteSwap')
  const [step, setStep] = useState<ExecuteSwapStep>()
  const inFlight = useRef<Promise<ExecuteSwapReturnType> | null>(null)
  const latest = useRef({ parameters, execution })
  latest.current = { parameters, execution }

  const mutation = useMutation<ExecuteSwapReturnType, ExecuteSwapErrorType, ExecuteSwapVariables>(
    {
      ...parameters.mutation,
      mutationKey: ['executeSwap', { baseUrl: client.baseUrl }],
      mutationFn: (variables) => {
        const { parameters, execution } = latest.current
        const { mutation: _, onStep, ...hookDefaults } = parameters
        const walletClient = variables.walletClient ?? parameters.walletClient ?? execution.walletClient
        const publicClient = variables.publicClient ?? parameters.publicClient ?? execution.publicClient
        if (!walletClient)
          throw new InvalidParameterError({
            parameter: 'walletClient',
            rule: 'is required: pass it to execute, to useExecuteSwap or to <SwapProvider>',
            value: undefined,
          })
        if (!publicClient)
          throw new InvalidParameterError({
            parameter: 'publicClient',
            rule: 'is required: pass it to execute, to useExecuteSwap or to <SwapProvider>',
            value: undefined,
          })
        return executeSwap(client, {
          ...withoutUndefined(execution),
          ...withoutUndefined(hookDefaults),
          ...(withoutUndefined(variables) as ExecuteSwapVariables),
          walletClient,
          publicClient,
          onStep: (next) => {
            setStep(next)
            onStep?.(next)
          },
        })
      },
    },
    queryClient,
  )

  const { mutateAsync, reset: resetMutation } = mutation
  const executeAsync = useCallback(
    (variables: ExecuteSwapVariables) => {
      // A synchronous guard: a second click in the same tick sees it, unlike React state.
      if (inFlight.current) return inFlight.current
      setStep(undefined)
      const promise = mutateAsync(variables).finally(() => {
        inFlight.current = null
      })
      inFlight.current = promise
      return promise
    },
    [mutateAsync],
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

  const status: UseExecuteSwapStatus = mutation.isPending
    ? step && step.status !== 'success'
      ? step.status
      : 'quoting'
    : mutation.status === 'idle'
      ? 'idle'
      : mutation.status

  return {
    execute,
    executeAsync,
    status,
    step,
    data: mutation.data,
    error: mutation.error,
    variables: mutation.variables,
    isIdle: mutation.isIdle,
    isPending: mutation.isPending,
    isSuccess: mutation.isSuccess,
    isError: mutation.isError,
    reset,
  }
}

function withoutUndefined<value extends object>(value: value): Partial<value> {
  return Object.fromEntries(Object.entries(value).filter(([, v]) => v !== undefined)) as Partial<value>
}
