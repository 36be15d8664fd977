import type { DefaultError, QueryKey, UseQueryOptions, UseQueryResult } from '@tanstack/react-query'

/**
 * The TanStack options a hook accepts under `query`: everything but what the
 * factory owns (key, function, hash).
 */
export type UseQueryParameters<
  queryFnData = unknown,
  error = DefaultError,
  data = queryFnData,
  queryKey extends QueryKey = QueryKey,
> = Omit<
  UseQueryOptions<queryFnData, error, data, queryKey>,
  'queryFn' | 'queryHash' | 'queryKey' | 'queryKeyHashFn'
>

/** TanStack's result, plus the key the hook used. */
export type UseQueryReturnType<
  data = unknown,
  error = DefaultError,
  queryKey extends QueryKey = QueryKey,
> = UseQueryResult<data, error> & { queryKey: queryKey }

/** What a provider's `queryDefaults` may set for one resource. */
export type QueryDefaultsOverride = Partial<
  Pick<
    UseQueryOptions,
    | 'staleTime'
    | 'gcTime'
    | 'refetchInterval'
    | 'refetchIntervalInBackground'
    | 'refetchOnWindowFocus'
    | 'refetchOnReconnect'
    | 'refetchOnMount'
    | 'retry'
    | 'retryDelay'
    | 'networkMode'
  >
>
