'use client'

import { hashKey, useQuery } from '@tanstack/react-query'
import { useMemo } from 'react'
import type { BaseError as ViemBaseError } from 'viem'
import type { GetSwapInfoErrorType } from '../../core/actions/getSwapInfo.js'
import type { InvalidParameterErrorType } from '../../core/errors/parameter.js'
import type { MaxAmount } from '../../core/execute/getMaxAmount.js'
import { slippageFor } from '../../core/slippage/slippageFor.js'
import {
  type GetMaxAmountOptions,
  type GetMaxAmountQueryKey,
  getMaxAmountQueryOptions,
} from '../../query/getMaxAmount.js'
import type { UseQueryParameters, UseQueryReturnType } from '../types.js'
import { useSwapContext } from './useSwapClient.js'
import { bothEnabled } from './useSwapQuery.js'

/**
 * The swap "Max" is for (each part optional: the hook waits), defaulting to the provider's clients and
 * execution options as `useSwapPreview` does, and TanStack Query options.
 */
export type UseMaxAmountParameters<selectData = MaxAmount> = GetMaxAmountOptions & {
  /** TanStack Query options (`select`, `refetchInterval`, `enabled`…). */
  query?:
    | Partial<UseQueryParameters<MaxAmount, UseMaxAmountErrorType, selectData, GetMaxAmountQueryKey>>
    | undefined
}

/**
 * What "Max" fails with: an `InvalidParameterError` (a malformed parameter), the errors of
 * `/swap/info` (the chain's coin: the quote of the calls to price), or a chain read as viem threw it.
 */
export type UseMaxAmountErrorType = InvalidParameterErrorType | GetSwapInfoErrorType | ViemBaseError

/** TanStack Query's result, `data` being `getMaxAmount`'s answer (or `select`'s). */
export type UseMaxAmountReturnType<selectData = MaxAmount> = UseQueryReturnType<
  selectData,
  UseMaxAmountErrorType,
  GetMaxAmountQueryKey
>

/**
 * What a "Max" button should fill in (`getMaxAmount`): the balance for an
 * ERC-20; for the chain's coin the balance less the fee of the exact calls
 * the swap will send, priced at the next block's base fee × 1.2 plus the
 * priority fee (plus the L1 data fee on OP-stack chains), never below 0
 * (`amount: 0n` with a `reason`). Read again every block (the chain's
 * `blockTime`, else every 12 s), so it follows the base fee. Waits quietly
 * until `token0`, `token1`, the account and a public client are there; a
 * malformed parameter is an `InvalidParameterError`, and nothing is sent.
 *
 * @example
 * import { useMaxAmount } from 'token-swap-hooks'
 *
 * const max = useMaxAmount({ token0, token1 })
 * // The Max button: disabled while `max.data?.amount` is 0n (`max.data.reason` says why).
 * const onMax = () => max.data && setAmountIn(max.data.amount)
 */
export function useMaxAmount<selectData = MaxAmount>(
  parameters: UseMaxAmountParameters<selectData> = {},
): UseMaxAmountReturnType<selectData> {
  const { client, queryClient, execution } = useSwapContext()
  const { query, token0, token1, to, deadline, approval, permit2, resetAllowance, minAmountOut } = parameters
  const walletClient = parameters.walletClient ?? execution.walletClient
  const publicClient = parameters.publicClient ?? execution.publicClient
  const account = parameters.account ?? walletClient?.account?.address
  const slippage = parameters.slippage ?? slippageFor(execution.slippage, parameters)
  const batch = parameters.batch ?? execution.batch
  const floorEnforcement = parameters.floorEnforcement ?? execution.floorEnforcement
  const trustedAddresses = parameters.trustedAddresses ?? execution.trustedAddresses
  const dangerouslyTrustAnyAddress =
    parameters.dangerouslyTrustAnyAddress ?? execution.dangerouslyTrustAnyAddress
  const options = useMemo(() => {
    const built = getMaxAmountQueryOptions(client, {
      ...{ publicClient, walletClient, account, token0, token1, to, slippage, deadline },
      ...{ approval, permit2, resetAllowance, minAmountOut, batch, floorEnforcement },
      ...{ trustedAddresses, dangerouslyTrustAnyAddress },
    })
    return { ...built, queryHash: hashKey(built.queryKey) }
  }, [
    client,
    publicClient,
    walletClient,
    account,
    token0,
    token1,
    to,
    slippage,
    deadline,
    approval,
    permit2,
    resetAllowance,
    minAmountOut,
    batch,
    floorEnforcement,
    trustedAddresses,
    dangerouslyTrustAnyAddress,
  ])
  const result = useQuery(
    {
      ...options,
      ...query,
      queryKey: options.queryKey,
      queryFn: options.queryFn,
      queryHash: options.queryHash,
      enabled: bothEnabled(options.enabled, query?.enabled),
    },
    queryClient,
  ) as UseMaxAmountReturnType<selectData>
  result.queryKey = options.queryKey
  return result
}
