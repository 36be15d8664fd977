import { type Address, isAddress } from 'viem'
import { InvalidParameterError } from '../errors/parameter.js'
import type { ArrayFormat } from './url.js'

/** The largest amount an EVM token can hold (2^256 - 1). */
export const maxUint256 = 2n ** 256n - 1n

export function assertObject(
  value: unknown,
  parameter = 'parameters',
): asserts value is Record<string, unknown> {
  if (typeof value !== 'object' || value === null || Array.isArray(value))
    throw new InvalidParameterError({ parameter, rule: 'must be an object', value })
}

export function assertAddress(parameter: string, value: unknown): asserts value is Address {
  if (typeof value !== 'string' || !isAddress(value, { strict: false }))
    throw new InvalidParameterError({
      parameter,
      rule: 'must be an address (0x followed by 40 hex digits)',
      value,
    })
}

export function assertAmount(parameter: string, value: unknown): asserts value is bigint {
  if (typeof value !== 'bigint')
    throw new InvalidParameterError({
      parameter,
      rule: 'must be a bigint in the token’s smallest unit (use parseUnits)',
      value,
    })
  if (value <= 0n) throw new InvalidParameterError({ parameter, rule: 'must be greater than 0', value })
  if (value > maxUint256)
    throw new InvalidParameterError({ parameter, rule: 'must be at most 2^256 - 1', value })
}

export function assertSlippage(parameter: string, value: unknown): asserts value is number {
  if (typeof value !== 'number' || !Number.isFinite(value) || value < 0 || value > 1)
    throw new InvalidParameterError({
      parameter,
      rule: 'must be a finite number from 0 to 1 (0.05 is 5%)',
      value,
    })
}

export function assertDeadline(parameter: string, value: unknown): asserts value is number | bigint {
  const ok =
    (typeof value === 'number' && Number.isSafeInteger(value) && value > 0) ||
    (typeof value === 'bigint' && value > 0n && value <= maxUint256)
  if (!ok) throw new InvalidParameterError({ parameter, rule: 'must be a positive integer', value })
}

export function assertBoolean(parameter: string, value: unknown): asserts value is boolean {
  if (typeof value !== 'boolean')
    throw new InvalidParameterError({ parameter, rule: 'must be a boolean', value })
}

export function assertStringArray(
  parameter: string,
  value: unknown,
  arrayFormat: ArrayFormat,
): asserts value is readonly string[] {
  if (!Array.isArray(value))
    throw new InvalidParameterError({ parameter, rule: 'must be an array of strings', value })
  value.forEach((item, index) => {
    if (typeof item !== 'string' || item.trim() === '')
      throw new InvalidParameterError({
        parameter: `${parameter}[${index}]`,
        rule: 'must be a non-empty string',
        value: item,
      })
    if (arrayFormat === 'comma' && item.includes(','))
      throw new InvalidParameterError({
        parameter: `${parameter}[${index}]`,
        rule: "must not contain a comma when the client's arrayFormat is 'comma'",
        value: item,
      })
  })
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
