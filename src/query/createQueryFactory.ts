import type { SwapClient } from '../core/client.js'
import type { Prettify, RequestOptions } from '../core/types.js'
import { getRetryDelay, isRetryableError, maxAttempts } from '../core/utils/retry.js'
import { isMissing } from '../core/utils/validate.js'
import type { QueryResource, queryDefaults } from './defaults.js'

/** Every parameter optional: a hook may hold incomplete input (no token picked yet). */
export type ExactPartial<type> = { [key in keyof type]?: type[key] | undefined }

/** A parameter as it sits in a query key: bigints become decimal strings, so any QueryClient can hash it. */
export type KeyValue<value> = value extends bigint ? string : value

/**
 * A query key: `[name, { baseUrl, ...parameters }]`, JSON-safe (amounts as
 * decimal strings), so `queryClient.getQueryData(key)` works on any client.
 */
export type QueryKeyOf<name extends string, parameters> = readonly [
  name,
  Prettify<
    { baseUrl: string } & { [key in keyof parameters]?: KeyValue<Exclude<parameters[key], undefined>> }
  >,
]

/**
 * What a factory returns: plain TanStack Query options (structural types, so
 * any `@tanstack/react-query` 5 accepts them).
 */
export type SwapQueryOptions<data, queryKey> = {
  queryKey: queryKey
  queryFn: (context: { signal: AbortSignal }) => Promise<data>
  /** False until every required parameter is given; a given but malformed one errors in `queryFn`, before any request. */
  enabled: boolean
  staleTime: number
  gcTime: number
  refetchInterval?: number | undefined
  retry: (failureCount: number, error: unknown) => boolean
  retryDelay: (failureCount: number, error: unknown) => number
}

type RequiredKeys<type> = { [key in keyof type]-?: undefined extends type[key] ? never : key }[keyof type]

/** Every required parameter of an action, checked by the compiler to be listed. */
export type RequiredParameters<parameters> = { readonly [key in RequiredKeys<parameters>]: true }

/**
 * The key of a request: its name, the base URL and every parameter that is
 * set, whatever it is (nothing is picked by hand, so nothing can be dropped).
 */
export function toQueryKey<name extends QueryResource, parameters>(
  name: name,
  parameters: ExactPartial<parameters> & { baseUrl: string },
): QueryKeyOf<name, parameters> {
  const key: Record<string, unknown> = {}
  for (const [field, value] of Object.entries(parameters) as [string, unknown][])
    if (value !== undefined) key[field] = typeof value === 'bigint' ? value.toString() : value
  return [name, key] as unknown as QueryKeyOf<name, parameters>
}

/**
 * Builds the `getXQueryOptions` / `getXQueryKey` pair of one action. The key
 * holds the base URL and every parameter given (never headers); the query
 * function calls the action with those same parameters, so the key and the
 * request cannot disagree. The query waits (`enabled: false`) while a required
 * parameter is missing (`undefined`, `''`, `0n`); a malformed one is an
 * `InvalidParameterError` from the action, before any request.
 */
export function createQueryFactory<name extends QueryResource, parameters extends object, returnType>(
  name: name,
  action: (client: SwapClient, parameters: parameters, options: RequestOptions) => Promise<returnType>,
  required: NoInfer<RequiredParameters<parameters>>,
  /** Its cache times: `queryDefaults[name]`, passed on its own so that a page holds only its resources' times. */
  defaults: (typeof queryDefaults)[name],
) {
  type Key = QueryKeyOf<name, parameters>

  function queryKey(parameters: ExactPartial<parameters> & { baseUrl: string }): Key {
    return toQueryKey<name, parameters>(name, parameters)
  }

  function queryOptions(
    client: SwapClient,
    parameters: ExactPartial<parameters> = {},
  ): SwapQueryOptions<returnType, Key> {
    return {
      ...defaults,
      retry: (failureCount, error) => failureCount < maxAttempts - 1 && isRetryableError(error),
      retryDelay: (failureCount, error) =>
        getRetryDelay(failureCount, error, client.rateLimiter.getState().rateLimitedUntil),
      queryKey: queryKey({ ...parameters, baseUrl: client.baseUrl }),
      queryFn: ({ signal }) => action(client, parameters as parameters, { signal }),
      enabled: Object.keys(required).every((field) => !isMissing(parameters[field as keyof parameters])),
    }
  }

  return { queryKey, queryOptions }
}
