import type { GetTokenPriceErrorType } from '../../core/actions/getTokenPrice.js'
import {
  type GetTokenPriceData,
  type GetTokenPriceOptions,
  type GetTokenPriceQueryFnData,
  type GetTokenPriceQueryKey,
  getTokenPriceQueryOptions,
} from '../../query/getTokenPrice.js'
import type { UseQueryParameters, UseQueryReturnType } from '../types.js'
import { useFactoryOptions } from '../utils/useFactoryOptions.js'
import { useSwapQuery } from '../utils/useSwapQuery.js'
import { useSwapContext } from './useSwapClient.js'

export type UseTokenPriceParameters<selectData = GetTokenPriceData> = GetTokenPriceOptions & {
  /** TanStack Query options (`select`, `staleTime`, `enabled`…). */
  query?:
    | Partial<
        UseQueryParameters<
          GetTokenPriceQueryFnData,
          GetTokenPriceErrorType,
          selectData,
          GetTokenPriceQueryKey
        >
      >
    | undefined
}

export type UseTokenPriceReturnType<selectData = GetTokenPriceData> = UseQueryReturnType<
  selectData,
  GetTokenPriceErrorType,
  GetTokenPriceQueryKey
>

/**
 * The USD price of a token from `/overview/token/price`. Disabled until `address`
 * is a valid address.
 *
 * @example
 * const { data: usd } = useTokenPrice({ address: token0 })
 * // usd is a number (USD), fresh for 30 s
 */
export function useTokenPrice<selectData = GetTokenPriceData>(
  parameters: UseTokenPriceParameters<selectData> = {},
): UseTokenPriceReturnType<selectData> {
  const { query, ...rest } = parameters
  const { client } = useSwapContext('useTokenPrice')
  return useSwapQuery(
    'useTokenPrice',
    'tokenPrice',
    useFactoryOptions(client, rest, () => getTokenPriceQueryOptions(client, rest)),
    query,
  )
}
