import { type QueryKey, useQuery } from '@tanstack/react-query'
import { useMemo } from 'react'
import type { QueryResource } from '../../query/defaults.js'
import { withRateLimitPause } from '../../query/utils.js'
import { useSwapContext } from '../hooks/useSwapClient.js'
import type { UseQueryParameters, UseQueryReturnType } from '../types.js'

const noOptions = {}

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
  query: Partial<UseQueryParameters<queryFnData, error, data, queryKey>> = noOptions,
): UseQueryReturnType<data, error, queryKey> {
  const { client, queryClient, queryDefaults } = useSwapContext(hook)
  const defaults = queryDefaults[resource]
  // Rebuilt only when an input changes, so re-renders of many readers stay cheap.
  const options = useMemo(() => {
    const { enabled = true, ...rest } = query
    const merged: Record<string, unknown> = {
      ...factory,
      ...defaults,
      ...rest,
      queryKey: factory.queryKey,
      queryFn: factory.queryFn,
      queryKeyHashFn: factory.queryKeyHashFn,
      queryHash: factory.queryHash,
      enabled:
        typeof enabled === 'function'
          ? (q: Parameters<typeof enabled>[0]) => factory.enabled && enabled(q)
          : factory.enabled && enabled,
    }
    merged.refetchInterval = withRateLimitPause(client, merged.refetchInterval as number | undefined)
    return merged
  }, [client, factory, defaults, query])
  const result = useQuery(options as never, queryClient) as UseQueryReturnType<data, error, queryKey>
  result.queryKey = factory.queryKey
  return result
}
