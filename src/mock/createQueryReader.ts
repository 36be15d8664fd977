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
      if (!/^\s*[+-]?\d+\s*$/.test(value)) {
        issues.push({
          loc: ['query', name],
          msg: 'Input should be a valid integer, unable to parse string as an integer',
          type: 'int_parsing',
          input: value,
        })
        return undefined
      }
      const number = BigInt(value.trim())
      if (number <= 0n) {
        issues.push({
          loc: ['query', name],
          msg: 'Input should be greater than 0',
          type: 'greater_than',
          input: value,
          ctx: { gt: 0 },
        })
        return undefined
      }
      if (number > maxUint256) {
        issues.push({
          loc: ['query', name],
          msg: 'Input should be less than or equal to 2^256 - 1',
          type: 'less_than_equal',
          input: value,
          ctx: { le: maxUint256.toString() },
        })
        return undefined
      }
      return number
    },
    float(name, { min, max }) {
      const value = last(name)
      if (value === undefined) return undefined
      if (!floatPattern.test(value)) {
        issues.push({
          loc: ['query', name],
          msg: 'Input should be a valid number, unable to parse string as a number',
          type: 'float_parsing',
          input: value,
        })
        return undefined
      }
      const number = Number(value)
      if (number < min) {
        issues.push({
          loc: ['query', name],
          msg: `Input should be greater than or equal to ${min}`,
          type: 'greater_than_equal',
          input: value,
          ctx: { ge: min },
        })
        return undefined
      }
      if (number > max) {
        issues.push({
          loc: ['query', name],
          msg: `Input should be less than or equal to ${max}`,
          type: 'less_than_equal',
          input: value,
          ctx: { le: max },
        })
        return undefined
      }
      return number
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
