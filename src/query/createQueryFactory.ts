import type { QueryFunctionContext } from '@tanstack/react-query'
import type { SwapClient } from '../core/client.js'
import type { Prettify, RequestOptions } from '../core/types.js'
import type { QueryResource } from './defaults.js'
import { baseQueryOptions, hashFn, isValid } from './utils.js'

/** Every parameter optional: a hook may hold incomplete input (no token picked yet). */
export type ExactPartial<type> = { [key in keyof type]?: type[key] | undefined }

export type QueryKeyOf<name extends string, parameters> = readonly [
  name,
  Prettify<{ baseUrl: string } & ExactPartial<parameters>>,
]

/**
 * Builds the `getXQueryOptions` / `getXQueryKey` pair of one endpoint. The key
 * holds the base URL and the parameters (never headers) and is the single
 * source of truth: the query function reads its parameters back from it.
 */
export function createQueryFactory<
  name extends QueryResource,
  parameters extends object,
  returnType,
>(config: {
  name: name
  /** The parameters that identify a request, in key order. */
  fields: readonly NoInfer<keyof NonNullable<parameters> & string>[]
  action: (client: SwapClient, parameters: parameters, options: RequestOptions) => Promise<returnType>
  /** Throws `InvalidParameterError` for incomplete or invalid parameters; the query is then disabled. */
  assert: (parameters: unknown, client: SwapClient) => void
}) {
  type Options = ExactPartial<NonNullable<parameters>>
  type Key = QueryKeyOf<name, NonNullable<parameters>>

  function queryKey(parameters: Options & { baseUrl: string }): Key {
    const picked: Record<string, unknown> = { baseUrl: parameters.baseUrl }
    for (const field of config.fields) {
      const value = (parameters as Record<string, unknown>)[field]
      if (value !== undefined) picked[field] = value
    }
    return [config.name, picked] as unknown as Key
  }

  function queryOptions(client: SwapClient, parameters: Options = {} as Options) {
    return {
      ...baseQueryOptions(client, config.name),
      queryKeyHashFn: hashFn as (queryKey: Key) => string,
      enabled: isValid(() => config.assert(parameters, client)),
      queryKey: queryKey({ ...parameters, baseUrl: client.baseUrl }),
      queryFn: ({ queryKey: [, { baseUrl: _, ...rest }], signal }: QueryFunctionContext<Key>) =>
        config.action(client, rest as unknown as parameters, { signal }),
    }
  }

  return { queryKey, queryOptions }
}
