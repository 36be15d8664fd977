import { type QueryKey, useQuery } from '@tanstack/react-query'
import type { QueryResource } from '../../query/defaults.js'
import { withRateLimitPause } from '../../query/utils.js'
import { useSwapContext } from '../hooks/useSwapClient.js'
import type { UseQueryParameters, UseQueryReturnType } from '../types.js'

type FactoryOptions<queryKey extends QueryKey> = {
  queryKey: queryKey
  queryFn: (...args: never[]) => unknown
  enabled: boolean
  [option: string]: unknown
}

/**
 * Runs a factory's query with the provider's QueryClient. Precedence: the
 * factory's defaults, then the provider's `queryDefaults[resource]`, then the
 * hook's `query`. The factory keeps its key and function; a query is enabled
 * only when both the factory (valid input) and the caller allow it; polling
 * waits while the client is paused by a 429.
 */
export function useSwapQuery<queryFnData, data, error, queryKey extends QueryKey>(
  hook: string,
  resource: QueryResource,
  factory: FactoryOptions<queryKey>,
  query: Partial<UseQueryParameters<queryFnData, error, data, queryKey>> = {},
): UseQueryReturnType<data, error, queryKey> {
  const { client, queryClient, queryDefaults } = useSwapContext(hook)
  const { enabled = true, ...rest } = query
  const options: Record<string, unknown> = {
    ...factory,
    ...queryDefaults[resource],
    ...rest,
    queryKey: factory.queryKey,
    queryFn: factory.queryFn,
    queryKeyHashFn: factory.queryKeyHashFn,
    enabled:
      typeof enabled === 'function'
        ? (q: Parameters<typeof enabled>[0]) => factory.enabled && enabled(q)
        : factory.enabled && enabled,
  }
  options.refetchInterval = withRateLimitPause(client, options.refetchInterval as number | undefined)
  const result = useQuery(options as never, queryClient) as UseQueryReturnType<data, error, queryKey>
  result.queryKey = factory.queryKey
  return result
}
