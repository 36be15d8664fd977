import type { Address } from 'viem'
import { isAddressLike, maxUint256 } from '../core/utils/validate.js'

/** One FastAPI-style validation error, as found in the `detail` list of a 422 body. */
export type ValidationIssue = {
  loc: ['query', string]
  msg: string
  type: string
  input: string | null
  ctx?: Record<string, unknown> | undefined
}

export type QueryReader = {
  /** The problems found so far, in the order the parameters were read. */
  readonly issues: ValidationIssue[]
  /** A required or optional address, in any letter case. */
  address(name: string, required: true): Address | undefined
  address(name: string, required?: false): Address | undefined
  /** A base-10 integer string greater than 0 and at most 2^256 - 1. */
  positiveInteger(name: string, required: boolean): bigint | undefined
  /** A float from `min` to `max`. */
  float(name: string, range: { min: number; max: number }): number | undefined
  /** true/false/1/0 in any letter case. */
  boolean(name: string): boolean | undefined
  /**
   * An array in any of the encodings clients use: repeated keys (`a=1&a=2`),
   * comma-separated (`a=1,2`) or brackets (`a[]=1&a[]=2`). Empty items are dropped.
   */
  array(name: string): string[]
  /** Adds a problem found by the caller (a rule between parameters). */
  addIssue(issue: ValidationIssue): void
}

const floatPattern = /^\s*[+-]?(\d+\.?\d*|\.\d+)(e[+-]?\d+)?\s*$/i

/**
 * Reads query parameters the way the (FastAPI) service does: the last value
 * of a repeated scalar wins, and every problem is collected as a FastAPI
 * validation error naming the parameter.
 *
 * @example
 * const query = createQueryReader(new URL(request.url).searchParams)
 * const token0 = query.address('token0', true)
 * if (query.issues.length) return { status: 422, body: { detail: query.issues } }
 */
export function createQueryReader(params: URLSearchParams): QueryReader {
  const issues: ValidationIssue[] = []
  const last = (name: string) => {
    const values = params.getAll(name)
    return values.length ? (values[values.length - 1] as string) : undefined
  }
  /** The value read, or `undefined` once the issue found instead is added under the parameter's name. */
  const report = <value>(name: string, read: value | Problem): value | undefined => {
    if (!(read instanceof Problem)) return read
    issues.push({ loc: ['query', name], ...read.issue })
    return undefined
  }
  const missing = (name: string) => {
    issues.push({ loc: ['query', name], msg: 'Field required', type: 'missing', input: null })
    return undefined
  }

  function address(name: string, required = false): Address | undefined {
    const value = last(name)
    if (value === undefined) return required ? missing(name) : undefined
    if (isAddressLike(value)) return value
    issues.push({
      loc: ['query', name],
      msg: 'Value error, expected an address (0x followed by 40 hex digits)',
      type: 'value_error',
      input: value,
    })
    return undefined
  }

  return {
    issues,
    address,
    positiveInteger(name, required) {
      const value = last(name)
      if (value === undefined) return required ? missing(name) : undefined
      return report(name, readPositiveInteger(value))
    },
    float(name, range) {
      const value = last(name)
      return value === undefined ? undefined : report(name, readFloat(value, range))
    },
    boolean(name) {
      const value = last(name)
      if (value === undefined) return undefined
      const text = value.trim().toLowerCase()
      if (text === 'true' || text === '1') return true
      if (text === 'false' || text === '0') return false
      issues.push({
        loc: ['query', name],
        msg: 'Input should be a valid boolean, unable to interpret input',
        type: 'bool_parsing',
        input: value,
      })
      return undefined
    },
    array(name) {
      return [...params]
        .filter(([key]) => key === name || key === `${name}[]`)
        .flatMap(([, value]) => value.split(','))
        .map((value) => value.trim())
        .filter((value) => value !== '')
    },
    addIssue(issue) {
      issues.push(issue)
    },
  }
}

/** Why a value cannot be read: a FastAPI validation error but for its `loc`. */
class Problem {
  constructor(readonly issue: Omit<ValidationIssue, 'loc'>) {}
}

/** A base-10 integer string greater than 0 and at most 2^256 - 1, as a bigint. */
function readPositiveInteger(value: string): bigint | Problem {
  if (!/^\s*[+-]?\d+\s*$/.test(value))
    return new Problem({
      msg: 'Input should be a valid integer, unable to parse string as an integer',
      type: 'int_parsing',
      input: value,
    })
  const number = BigInt(value.trim())
  if (number <= 0n)
    return new Problem({
      msg: 'Input should be greater than 0',
      type: 'greater_than',
      input: value,
      ctx: { gt: 0 },
    })
  if (number > maxUint256)
    return new Problem({
      msg: 'Input should be less than or equal to 2^256 - 1',
      type: 'less_than_equal',
      input: value,
      ctx: { le: maxUint256.toString() },
    })
  return number
}

/** A float from `min` to `max`. */
function readFloat(value: string, { min, max }: { min: number; max: number }): number | Problem {
  if (!floatPattern.test(value))
    return new Problem({
      msg: 'Input should be a valid number, unable to parse string as a number',
      type: 'float_parsing',
      input: value,
    })
  const number = Number(value)
  if (number < min)
    return new Problem({
      msg: `Input should be greater than or equal to ${min}`,
      type: 'greater_than_equal',
      input: value,
      ctx: { ge: min },
    })
  if (number > max)
    return new Problem({
      msg: `Input should be less than or equal to ${max}`,
      type: 'less_than_equal',
      input: value,
      ctx: { le: max },
    })
  return number
}
