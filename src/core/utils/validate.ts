import { type Address, isAddress } from 'viem'
import { ensure } from '../errors/parameter.js'
import type { ArrayFormat } from './url.js'

/** The largest amount an EVM token can hold (2^256 - 1). */
export const maxUint256 = 2n ** 256n - 1n

export function assertObject(
  value: unknown,
  parameter = 'parameters',
): asserts value is Record<string, unknown> {
  ensure(
    typeof value === 'object' && value !== null && !Array.isArray(value),
    parameter,
    'must be an object',
    value,
  )
}

export function assertAddress(parameter: string, value: unknown): asserts value is Address {
  ensure(
    typeof value === 'string' && isAddress(value, { strict: false }),
    parameter,
    'must be an address (0x followed by 40 hex digits)',
    value,
  )
}

export function assertAmount(parameter: string, value: unknown): asserts value is bigint {
  ensure(
    typeof value === 'bigint',
    parameter,
    'must be a bigint in the token’s smallest unit (use parseUnits)',
    value,
  )
  ensure(value > 0n, parameter, 'must be greater than 0', value)
  ensure(value <= maxUint256, parameter, 'must be at most 2^256 - 1', value)
}

export function assertSlippage(parameter: string, value: unknown): asserts value is number {
  ensure(
    typeof value === 'number' && value >= 0 && value <= 1,
    parameter,
    'must be a finite number from 0 to 1 (0.05 is 5%)',
    value,
  )
}

export function assertDeadline(parameter: string, value: unknown): asserts value is number | bigint {
  ensure(
    (typeof value === 'number' && Number.isSafeInteger(value) && value > 0) ||
      (typeof value === 'bigint' && value > 0n && value <= maxUint256),
    parameter,
    'must be a positive integer',
    value,
  )
}

export function assertBoolean(parameter: string, value: unknown): asserts value is boolean {
  ensure(typeof value === 'boolean', parameter, 'must be a boolean', value)
}

export function assertStringArray(
  parameter: string,
  value: unknown,
  arrayFormat: ArrayFormat,
): asserts value is readonly string[] {
  ensure(Array.isArray(value), parameter, 'must be an array of strings', value)
  for (const [index, item] of value.entries()) {
    ensure(
      typeof item === 'string' && item.trim() !== '',
      `${parameter}[${index}]`,
      'must be a non-empty string',
      item,
    )
    ensure(
      arrayFormat !== 'comma' || !item.includes(','),
      `${parameter}[${index}]`,
      "must not contain a comma when the client's arrayFormat is 'comma'",
      item,
    )
  }
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
