import { type Address, isAddress } from 'viem'
import { ensure } from '../errors/parameter.js'
import type { ArrayFormat } from './url.js'

/*
 * Parameter checks: the `assert*` functions the actions and `executeSwap` run
 * before sending anything, and the few predicates read elsewhere (`isMissing`
 * for a query factory's `enabled`, `isObject`, `isAddressLike` for what a
 * service or a stored record holds).
 */

/** The largest amount an EVM token can hold (2^256 - 1). */
export const maxUint256 = 2n ** 256n - 1n

/** Input not given yet: `undefined`, `null`, an empty string or a `0n` amount. A query waits for it quietly. */
export function isMissing(value: unknown): boolean {
  return value === undefined || value === null || value === '' || value === 0n
}

export function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
}

/**
 * An EVM address as a user gives it: 0x and 40 hex digits, all lower case,
 * all upper case, or mixed case with a valid EIP-55 checksum (a mixed-case
 * address with a wrong checksum is a typo, not an address).
 */
function isAddressInput(value: unknown): value is Address {
  return typeof value === 'string' && isAddress(value)
}

/** An address in any letter case, checksum not checked: what a service may send. */
export function isAddressLike(value: unknown): value is Address {
  return typeof value === 'string' && isAddress(value, { strict: false })
}

/** A slippage: a finite fraction from 0 to 1 (0.05 is 5%). */
function isSlippage(value: unknown): value is number {
  return typeof value === 'number' && value >= 0 && value <= 1
}

/** A deadline: a positive safe integer number, or a positive bigint up to 2^256 - 1. */
function isDeadline(value: unknown): value is number | bigint {
  return (
    (typeof value === 'number' && Number.isSafeInteger(value) && value > 0) ||
    (typeof value === 'bigint' && value > 0n && value <= maxUint256)
  )
}

/** An item of an array parameter: a non-empty string, without commas when arrays are comma-joined. */
function isListItem(value: unknown, arrayFormat: ArrayFormat): value is string {
  return typeof value === 'string' && value.trim() !== '' && (arrayFormat !== 'comma' || !value.includes(','))
}

export function assertObject(
  value: unknown,
  parameter = 'parameters',
): asserts value is Record<string, unknown> {
  ensure(isObject(value), parameter, 'must be an object', value)
}

export function assertAddress(parameter: string, value: unknown): asserts value is Address {
  ensure(
    isAddressInput(value),
    parameter,
    isAddressLike(value)
      ? 'must be an address with a valid checksum (or all lower case)'
      : 'must be an address (0x followed by 40 hex digits)',
    value,
  )
}

export function assertAmount(parameter: string, value: unknown): asserts value is bigint {
  ensure(
    typeof value === 'bigint',
    parameter,
    "must be a bigint in the token's smallest unit (parseAmount or parseUnits)",
    value,
  )
  ensure(value > 0n, parameter, 'must be greater than 0', value)
  ensure(value <= maxUint256, parameter, 'must be at most 2^256 - 1', value)
}

export function assertSlippage(parameter: string, value: unknown): asserts value is number {
  ensure(isSlippage(value), parameter, 'must be a finite number from 0 to 1 (0.05 is 5%)', value)
}

export function assertDeadline(parameter: string, value: unknown): asserts value is number | bigint {
  ensure(isDeadline(value), parameter, 'must be a positive integer', value)
}

/**
 * Checks the parameters of a list (`getTokens`, `getPairs`): each filter
 * given is an array of non-empty strings (without commas when arrays are
 * comma-joined), and `blacklist`, when given, a boolean.
 */
export function assertListParameters<parameters>(
  parameters: unknown,
  arrayFormat: ArrayFormat,
  filters: readonly (keyof parameters & string)[],
): asserts parameters is parameters {
  assertObject(parameters)
  for (const filter of filters) {
    const value = parameters[filter]
    if (value === undefined) continue
    ensure(Array.isArray(value), filter, 'must be an array of strings', value)
    for (const [index, item] of value.entries())
      ensure(
        isListItem(item, arrayFormat),
        `${filter}[${index}]`,
        arrayFormat === 'comma' && typeof item === 'string' && item.includes(',')
          ? "must not contain a comma when the client's arrayFormat is 'comma'"
          : 'must be a non-empty string',
        item,
      )
  }
  const { blacklist } = parameters
  ensure(
    blacklist === undefined || typeof blacklist === 'boolean',
    'blacklist',
    'must be a boolean',
    blacklist,
  )
}

/** Checks token0, token1 and amountIn, shared by the route, info and legacy path actions. */
export function assertRouteParameters(
  parameters: unknown,
): asserts parameters is { token0: Address; token1: Address; amountIn: bigint } {
  assertObject(parameters)
  assertAddress('token0', parameters.token0)
  assertAddress('token1', parameters.token1)
  assertAmount('amountIn', parameters.amountIn)
}
