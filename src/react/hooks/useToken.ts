'use client'

import { useQuery } from '@tanstack/react-query'
import { useMemo } from 'react'
import type { InvalidParameterErrorType } from '../../core/errors/parameter.js'
import type { GetTokenReturnType } from '../../core/tokens/getToken.js'
import { type GetTokenOptions, type GetTokenQueryKey, getTokenQueryOptions } from '../../query/getToken.js'
import type { UseQueryParameters, UseQueryReturnType } from '../types.js'
import { useSwapContext } from './useSwapClient.js'
import { bothEnabled } from './useSwapQuery.js'

/** `getToken`'s parameters, each optional (the provider's public client by default), and TanStack Query's. */
export type UseTokenParameters = GetTokenOptions & {
  /** TanStack Query options (`select`, `enabled`…). */
  query?:
    | Partial<UseQueryParameters<GetTokenReturnType, UseTokenErrorType, GetTokenReturnType, GetTokenQueryKey>>
    | undefined
}

/** The errors `useToken` can report: text that is not an address, or a failed read. */
export type UseTokenErrorType = InvalidParameterErrorType | Error

/** TanStack's query result of the token (`GetTokenReturnType`). */
export type UseTokenReturnType = UseQueryReturnType<GetTokenReturnType, UseTokenErrorType, GetTokenQueryKey>

/**
 * A token pasted by its address, for a picker (`getToken`): its name, symbol
 * and decimals read on chain in one call (`bytes32` ones decoded), what it is
 * (`kind`: a token, a contract that is not one, or nothing there), whether the
 * service lists it, and the `warning` to show (`'unlisted'`: anyone can deploy
 * a token named "USDC"). Quiet while the text is empty; text that is not an
 * address is an `InvalidParameterError`, nothing sent. Read through the
 * `publicClient` parameter, else the provider's.
 *
 * @example
 * import { useToken } from 'token-swap-hooks'
 *
 * const { data: token, error } = useToken({ address: pasted })
 * if (error) return <p>{error.message}</p>
 * if (token?.warning === 'unlisted') return <p>Unknown token {token.symbol}: check its address</p>
 */
export function useToken(parameters: UseTokenParameters = {}): UseTokenReturnType {
  const { client, queryClient, execution } = useSwapContext()
  const { query, address } = parameters
  const publicClient = parameters.publicClient ?? execution.publicClient
  const options = useMemo(
    () => getTokenQueryOptions(client, { publicClient, address }),
    [client, publicClient, address],
  )
  const result = useQuery(
    {
      ...options,
      ...query,
      queryKey: options.queryKey,
      queryFn: options.queryFn,
      enabled: bothEnabled(options.enabled, query?.enabled),
    },
    queryClient,
  ) as UseTokenReturnType
  result.queryKey = options.queryKey
  return result
}
