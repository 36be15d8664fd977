/**
 * A query key `[name, parameters]` as the library writes them: every
 * parameter given (`undefined` ones left out) and bigints as decimal strings
 * at any depth, so that any QueryClient hashes it and it survives JSON.
 *
 * @example
 * toJsonKey('tokenBalances', { baseUrl, account, blockNumber: 21_000_000n })
 * // ['tokenBalances', { baseUrl, account, blockNumber: '21000000' }]
 */
export function toJsonKey<name extends string>(name: name, parameters: object): readonly [name, object] {
  return [name, toKeyValue(parameters) as object]
}

function toKeyValue(value: unknown): unknown {
  if (typeof value === 'bigint') return value.toString()
  if (Array.isArray(value)) return value.map(toKeyValue)
  if (typeof value === 'object' && value !== null) {
    const copy: Record<string, unknown> = {}
    for (const [field, item] of Object.entries(value)) if (item !== undefined) copy[field] = toKeyValue(item)
    return copy
  }
  return value
}
