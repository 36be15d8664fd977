import type { QueryValue } from './url.js'

/**
 * Every parameter of an action mapped to its name on the wire (the spec's):
 * a parameter missing from the map is a type error, so none can be dropped
 * from the request.
 */
export type WireNames<parameters> = { readonly [key in keyof Required<parameters>]: string }

/** The spec's names of the three parameters of every quote: `/swap/route`, `/get_path` and `/swap/info`. */
export const quoteWireNames = { token0: 'token0', token1: 'token1', amountIn: 'amount_in' } as const

/**
 * The query of a request: each parameter under its wire name (bigints as
 * decimal strings; `undefined` values are left out when encoded).
 *
 * @example
 * toWireQuery({ amountIn: 'amount_in' }, { amountIn: 10n }) // { amount_in: '10' }
 */
export function toWireQuery<parameters extends object>(
  names: WireNames<parameters>,
  parameters: parameters,
): Record<string, QueryValue> {
  const query: Record<string, QueryValue> = {}
  for (const [name, wire] of Object.entries(names) as [keyof parameters, string][]) {
    const value = parameters[name] as QueryValue
    query[wire] = typeof value === 'bigint' ? value.toString() : value
  }
  return query
}
