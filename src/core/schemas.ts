import { type Address, type Hex, isAddress, isHex } from 'viem'
import * as z from 'zod/mini'
import { formatPath, ResponseValidationError } from './errors/response.js'
import type { Endpoint } from './types.js'

/** An EVM address in any letter case, as the service sent it. */
export const addressSchema = z.custom<Address>(
  (value) => typeof value === 'string' && isAddress(value, { strict: false }),
  'expected an address (0x and 40 hex digits)',
)

/** 0x-prefixed hex calldata. */
export const hexSchema = z.custom<Hex>(
  (value) => typeof value === 'string' && isHex(value, { strict: true }),
  'expected 0x-prefixed hex data',
)

/**
 * A token amount: a base-10 integer string, a 0x hex string or a safe
 * non-negative integer number, always returned as a bigint.
 */
export const amountSchema = z.pipe(
  z.union([z.string(), z.number()]),
  z.transform((value, ctx): bigint => {
    if (typeof value === 'number') {
      if (Number.isSafeInteger(value) && value >= 0) return BigInt(value)
      ctx.issues.push({
        code: 'custom',
        input: value,
        message: Number.isInteger(value)
          ? `expected an integer amount; ${value} is beyond 2^53 and has lost precision (send it as a string)`
          : `expected an integer amount, got ${value}`,
      })
      return z.NEVER
    }
    const text = value.trim()
    if (/^\d+$/.test(text) || /^0x[0-9a-f]+$/i.test(text)) return BigInt(text)
    ctx.issues.push({
      code: 'custom',
      input: value,
      message: `expected a non-negative integer amount, got ${JSON.stringify(value.slice(0, 40))}`,
    })
    return z.NEVER
  }),
)

/** A finite number, sent as a number or a numeric string. */
const numberLike = z.pipe(
  z.union([z.number(), z.string()]),
  z.transform((value, ctx): number => {
    const number = typeof value === 'number' ? value : parseNumeric(value)
    if (number !== undefined && Number.isFinite(number)) return number
    ctx.issues.push({
      code: 'custom',
      input: value,
      message: `expected a finite number, got ${JSON.stringify(value)}`,
    })
    return z.NEVER
  }),
)

const nonNegative = z.check<number>((ctx) => {
  if (ctx.value < 0)
    ctx.issues.push({ code: 'custom', input: ctx.value, message: 'expected a number of at least 0' })
})
const integer = z.check<number>((ctx) => {
  if (!Number.isInteger(ctx.value))
    ctx.issues.push({ code: 'custom', input: ctx.value, message: 'expected an integer' })
})

const blacklistedFlag = z.optional(z.nullable(z.boolean()))

// ---------------------------------------------------------------------------
// Route

export const routeSchema = z.pipe(
  z.object({
    path: z.array(addressSchema).check(z.minLength(2, 'expected at least two addresses')),
    amount_out: amountSchema,
  }),
  z.transform(({ path, amount_out }) => ({ path, amountOut: amount_out })),
)

/** A route from token0 to token1. */
export type Route = {
  /** Token addresses from token0 to token1, intermediate tokens between. */
  path: Address[]
  /** The estimated output, in token1's smallest unit. */
  amountOut: bigint
}

/**
 * The legacy `/get_path` body, which the spec does not show: a Route, a Route
 * with `amountOut`, or a bare array of addresses (then `amountOut` is undefined).
 */
export const legacyPathSchema = z.pipe(
  z.union([
    z.array(addressSchema),
    z.looseObject({
      path: z.array(addressSchema),
      amount_out: z.optional(amountSchema),
      amountOut: z.optional(amountSchema),
    }),
  ]),
  z.transform((body, ctx): LegacyPath => {
    const path = Array.isArray(body) ? body : body.path
    if (path.length < 2) {
      ctx.issues.push({
        code: 'custom',
        input: path,
        path: Array.isArray(body) ? [] : ['path'],
        message: 'expected at least two addresses',
      })
      return z.NEVER
    }
    return { path, amountOut: Array.isArray(body) ? undefined : (body.amount_out ?? body.amountOut) }
  }),
)

export type LegacyPath = {
  path: Address[]
  /** `undefined` when the service sent only the path. */
  amountOut: bigint | undefined
}

// ---------------------------------------------------------------------------
// Swap info

export const swapInfoSchema = z.object({
  data: hexSchema,
  transferAddress: addressSchema,
  transferValue: amountSchema,
  approvalAddress: z.pipe(
    z.optional(z.nullable(z.union([addressSchema, z.literal('')]))),
    z.transform((value) => (value ? value : null)),
  ),
  estimateTransferSeconds: numberLike.check(nonNegative),
  estimateAmount: amountSchema,
  hopsCount: numberLike.check(nonNegative, integer),
  fee: z.record(z.string(), z.unknown()),
})

/** What the service returns to execute a swap. */
export type SwapInfo = {
  /** Calldata of the swap transaction. */
  data: Hex
  /** The contract the swap transaction is sent to. */
  transferAddress: Address
  /** The native value sent with the swap transaction (non-zero for native input). */
  transferValue: bigint
  /** The spender that needs an ERC-20 allowance, or `null` when none is needed. */
  approvalAddress: Address | null
  estimateTransferSeconds: number
  /** The expected output, in token1's smallest unit. */
  estimateAmount: bigint
  hopsCount: number
  /** Fee details; the spec does not show their fields, so they are kept as sent. */
  fee: Record<string, unknown>
}

// ---------------------------------------------------------------------------
// Tokens, pairs, tokens data

export const tokenSchema = z.looseObject({
  address: addressSchema,
  symbol: z.string(),
  blacklisted: blacklistedFlag,
})

/** A token record. Only `address` and `symbol` are checked; other fields are kept as sent. */
export type Token = {
  address: Address
  symbol: string
  blacklisted?: boolean | null | undefined
  [field: string]: unknown
}

export const pairSchema = z.looseObject({
  address: addressSchema,
  blacklisted: blacklistedFlag,
})

/** A pair record. Only `address` is checked; other fields (its tokens, reserves…) are kept as sent. */
export type Pair = {
  address: Address
  blacklisted?: boolean | null | undefined
  [field: string]: unknown
}

export const tokenDataSchema = z.looseObject({
  address: z.optional(addressSchema),
  symbol: z.optional(z.string()),
})

/** Detailed data of one token; the spec does not name the fields, so all are kept as sent. */
export type TokenData = {
  address?: Address | undefined
  symbol?: string | undefined
  [field: string]: unknown
}

/**
 * A list body: a bare array, or an envelope object with exactly one array
 * property (`{ tokens: [...] }`, `{ data: [...] }`).
 */
export function listSchema<item extends z.ZodMiniType>(item: item) {
  const array = z.array(item)
  return z.pipe(
    z.unknown(),
    z.transform((body, ctx): z.output<item>[] => {
      let list: unknown = body
      let prefix: PropertyKey[] = []
      if (!Array.isArray(body)) {
        const arrays =
          typeof body === 'object' && body !== null
            ? Object.entries(body).filter(([, value]) => Array.isArray(value))
            : []
        if (arrays.length !== 1) {
          ctx.issues.push({
            code: 'custom',
            input: body,
            message:
              arrays.length > 1
                ? `expected one list, found several (${arrays.map(([key]) => key).join(', ')}); use transformResponse to pick one`
                : `expected a list or an object holding one list, got ${describe(body)}`,
          })
          return z.NEVER
        }
        const [key, value] = arrays[0] as [string, unknown]
        list = value
        prefix = [key]
      }
      const result = array.safeParse(list, { reportInput: true })
      if (result.success) return result.data as z.output<item>[]
      for (const issue of result.error.issues)
        ctx.issues.push({ ...issue, path: [...prefix, ...issue.path] } as never)
      return z.NEVER
    }),
  )
}

export const tokenListSchema = listSchema(tokenSchema)
export const pairListSchema = listSchema(pairSchema)
export const tokenDataListSchema = listSchema(tokenDataSchema)

// ---------------------------------------------------------------------------
// Price

const pricePattern = /price|usd/i

/**
 * A USD price: a number, a numeric string, or an object with one numeric
 * field (`{ price: 1.2 }`, `{ usd: "1.2" }`, `{ data: { priceUsd: 1.2 } }`).
 */
export const priceSchema = z.pipe(
  z.unknown(),
  z.transform((body, ctx): number => {
    const found = findPrice(body, [], 0)
    if (typeof found === 'string') {
      ctx.issues.push({ code: 'custom', input: body, message: found })
      return z.NEVER
    }
    if (found.value < 0) {
      ctx.issues.push({
        code: 'custom',
        input: body,
        path: found.path,
        message: `expected a price of at least 0, got ${found.value}`,
      })
      return z.NEVER
    }
    return found.value
  }),
)

function findPrice(
  body: unknown,
  path: PropertyKey[],
  depth: number,
): { value: number; path: PropertyKey[] } | string {
  const direct = typeof body === 'number' ? body : typeof body === 'string' ? parseNumeric(body) : undefined
  if (direct !== undefined)
    return Number.isFinite(direct) ? { value: direct, path } : `expected a finite price, got ${String(body)}`
  if (typeof body !== 'object' || body === null || Array.isArray(body) || depth > 1)
    return `expected a price (a number, a numeric string or an object with one price field), got ${describe(body)}`
  const entries = Object.entries(body)
  const numeric = entries.filter(
    ([, value]) =>
      typeof value === 'number' || (typeof value === 'string' && parseNumeric(value) !== undefined),
  )
  const candidates = numeric.length > 1 ? numeric.filter(([key]) => pricePattern.test(key)) : numeric
  if (candidates.length === 1) {
    const [key, value] = candidates[0] as [string, unknown]
    return findPrice(value, [...path, key], depth + 1)
  }
  if (numeric.length > 1)
    return `expected one price field, found ${numeric.map(([key]) => key).join(', ')}; use transformResponse to pick one`
  const objects = entries.filter(([, value]) => typeof value === 'object' && value !== null)
  if (entries.length === 1 && objects.length === 1) {
    const [key, value] = objects[0] as [string, unknown]
    return findPrice(value, [...path, key], depth + 1)
  }
  return `expected an object with one numeric price field, got keys ${JSON.stringify(Object.keys(body))}`
}

function parseNumeric(text: string): number | undefined {
  return /^\s*[+-]?(\d+\.?\d*|\.\d+)(e[+-]?\d+)?\s*$/i.test(text) ? Number(text) : undefined
}

function describe(value: unknown): string {
  if (value === null) return 'null'
  if (Array.isArray(value)) return 'an array'
  if (typeof value === 'object')
    return `an object with keys ${JSON.stringify(Object.keys(value).slice(0, 5))}`
  return typeof value === 'string'
    ? `the string ${JSON.stringify(value.slice(0, 40))}`
    : `${typeof value} ${String(value)}`
}

// ---------------------------------------------------------------------------

/**
 * Validates a body against a schema; returns typed data or throws
 * `ResponseValidationError` naming the endpoint and the path of the first bad field.
 */
export function parseResponse<schema extends z.ZodMiniType>(
  schema: schema,
  body: unknown,
  context: { endpoint: Endpoint; url: string },
): z.output<schema> {
  const result = schema.safeParse(body, { reportInput: true })
  if (result.success) return result.data
  const issue = deepestIssue(result.error.issues[0] as z.core.$ZodIssue)
  throw new ResponseValidationError({
    endpoint: context.endpoint,
    path: formatPath(issue.path),
    problem: describeIssue(issue),
    url: context.url,
    cause: result.error,
  })
}

/** In a union, the branch that got furthest tells the most about what is wrong. */
function deepestIssue(issue: z.core.$ZodIssue): z.core.$ZodIssue {
  if (issue.code !== 'invalid_union') return issue
  let best: z.core.$ZodIssue | undefined
  for (const branch of issue.errors)
    for (const sub of branch)
      if (sub.path.length > 0 && (!best || sub.path.length > best.path.length)) best = sub
  if (!best) return issue
  return deepestIssue({ ...best, path: [...issue.path, ...best.path] } as z.core.$ZodIssue)
}

function describeIssue(issue: z.core.$ZodIssue): string {
  const input = (issue as { input?: unknown }).input
  switch (issue.code) {
    case 'invalid_type':
      return input === undefined
        ? `missing ${issue.expected}`
        : `expected ${issue.expected}, got ${describe(input)}`
    case 'invalid_union': {
      const expected = new Set(
        issue.errors.flatMap((branch) =>
          branch
            .filter((sub) => sub.path.length === 0)
            .map((sub) => ('expected' in sub ? String(sub.expected) : sub.message)),
        ),
      )
      return `expected ${[...expected].join(' or ') || 'another shape'}, got ${describe(input)}`
    }
    case 'invalid_value':
      return `expected one of ${issue.values.map((value) => JSON.stringify(value)).join(', ')}, got ${describe(input)}`
    case 'too_small':
    case 'too_big':
    case 'custom':
      return issue.message
    default:
      return issue.message
  }
}
