import { BaseError } from './base.js'

/** `InvalidParameterError` narrowed by its `name`, as a function's `…ErrorType` union lists it. */
export type InvalidParameterErrorType = InvalidParameterError & {
  name: 'InvalidParameterError'
}

/**
 * Thrown before any request when a parameter breaks a rule. Nothing was sent.
 *
 * @example
 * try {
 *   await getSwapRoute(client, { token0, token1, amountIn: 0n })
 * } catch (error) {
 *   if (error instanceof InvalidParameterError) error.parameter // 'amountIn'
 * }
 */
export class InvalidParameterError extends BaseError {
  override name = 'InvalidParameterError' as const
  /** The name of the parameter, as the caller spells it (`amountIn`). */
  declare parameter: string
  /** The rule it broke, in words. */
  declare rule: string
  /** The value it was given, as given (for the app's own message: `describeValue` renders it safely). */
  declare value: unknown
  /** The chain the rule was checked on, where it depends on one (a token with no contract on it). */
  declare chainId?: number | undefined

  constructor(facts: { parameter: string; rule: string; value: unknown; chainId?: number | undefined }) {
    super(`Invalid parameter "${facts.parameter}": ${facts.rule}.`, {
      metaMessages: [`Received: ${describeValue(facts.value)}`],
    })
    Object.assign(this, facts)
  }
}

/** A short, safe rendering of a value for error messages. */
export function describeValue(value: unknown): string {
  if (typeof value === 'bigint') return `${value}n`
  if (typeof value === 'string') return JSON.stringify(value.length > 66 ? `${value.slice(0, 63)}...` : value)
  if (Array.isArray(value)) return `array(${value.length})`
  return value === null || ['undefined', 'number', 'boolean'].includes(typeof value)
    ? String(value)
    : typeof value
}

/** The rule of a duration (`timeoutMs`, a pause's cap): milliseconds, or `Infinity` for no limit. */
export const durationRule = 'must be a number of milliseconds above 0 (Infinity for no limit)'

/** Throws `InvalidParameterError` for `parameter` unless `condition` holds. */
export function ensure(
  condition: unknown,
  parameter: string,
  rule: string,
  value: unknown,
): asserts condition {
  if (!condition) throw new InvalidParameterError({ parameter, rule, value })
}
