import type { QueryKey } from '@tanstack/react-query'
import { useMemo } from 'react'
import type { SwapClient } from '../../core/client.js'
import { hashFn } from '../../query/utils.js'

/**
 * A factory's options, rebuilt only when the client or a parameter changes,
 * with the key's hash computed once (`queryHash`), so a thousand components
 * reading one quote do not validate and hash it on every render.
 */
export function useFactoryOptions<options extends { queryKey: QueryKey }>(
  client: SwapClient,
  parameters: object,
  make: () => options,
): options & { queryHash: string } {
  const key = parametersKey(parameters)
  // biome-ignore lint/correctness/useExhaustiveDependencies: `key` stands for the parameters `make` reads.
  return useMemo(() => {
    const options = make()
    return { ...options, queryHash: hashFn(options.queryKey) }
  }, [client, key])
}

/** A cheap identity for a parameters object: its entries, arrays joined, bigints as digits. */
function parametersKey(parameters: object): string {
  let key = ''
  for (const [name, value] of Object.entries(parameters))
    key += `${name}=${Array.isArray(value) ? `[${value.join('\u0000')}]` : typeof value === 'string' ? JSON.stringify(value) : String(value)};`
  return key
}
