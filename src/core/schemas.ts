import { type Address, type Hex, isAddress, isHex } from 'viem'
import * as z from 'zod/mini'
import { formatPath, ResponseValidationError } from './errors/response.js'
import type { Endpoint } from './types.js'

/**
 * A schema for one value parsed by `parse`, which returns the output or, for
 * an invalid input, an `Invalid` saying what was expected. Leaves are written this
 * way (rather than with unions and checks) to keep zod's share of the bundle small.
 */
function leaf<output>(parse: (value: unknown) => output | Invalid) {
  return z.pipe(
    z.unknown(),
    z.transform((value, ctx): output => {
      const result = parse(value)
      if (!(result instanceof Invalid)) return result
      pushIssue(ctx, value, result)
      return z.NEVER
    }),
  )
}

/**
 * What was expected. The value that came instead is quoted only by
 * `parseResponse` (`quotesInput`), where the request's secrets can be hidden
 * before it is shortened; issue messages never hold it.
 */
class Invalid {
  constructor(
    readonly message: string,
    readonly quotesInput = false,
    /** The value to quote when it is not the leaf's whole input (a price inside an object). */
    readonly quoted?: { value: unknown },
  ) {}
}
const invalid = (expected: string, quoted?: { value: unknown }) =>
  new Invalid(`expected ${expected}`, true, quoted)

function pushIssue(
  ctx: { issues: z.core.$ZodRawIssue[] },
  input: unknown,
  { message, quotesInput, quoted }: Invalid,
  path?: PropertyKey[],
) {
  ctx.issues.push({
    code: 'custom',
    input: quoted ? quoted.value : input,
    message,
    ...(path && { path }),
    params: { quotesInput },
  })
}

const toAddress = (value: unknown) =>
  typeof value === 'string' && isAddress(value, { strict: false })
    ? (value as Address)
    : invalid('an address (0x and 40 hex digits)')

/** An EVM address in any letter case, as the service sent it. */
export const addressSchema = /* @__PURE__ */ leaf(toAddress)

/** 0x-prefixed hex calldata. */
export const hexSchema = /* @__PURE__ */ leaf((value) =>
  typeof value === 'string' && isHex(value, { strict: true }) ? value : invalid('0x-prefixed hex data'),
)

const maxUint256 = 2n ** 256n - 1n

/**
 * A token amount: a base-10 integer string, a 0x hex string or a safe
 * non-negative integer number, at most 2^256 - 1 (a uint256), always
 * returned as a bigint.
 */
export const amountSchema = /* @__PURE__ */ leaf((value): bigint | Invalid => {
  if (typeof value === 'number')
    return Number.isSafeInteger(value) && value >= 0
      ? BigInt(value)
      : invalid(
          Number.isInteger(value) && value > 0
            ? 'an integer amount within 2^53 (send larger ones as strings)'
            : 'a non-negative integer amount',
        )
  const text = typeof value === 'string' ? value.trim() : ''
  if (!/^(\d+|0x[0-9a-f]+)$/i.test(text)) return invalid('a non-negative integer amount')
  // At most 78 significant decimal or 64 hex digits before parsing: a huge string is refused at once.
  const hex = text[1] === 'x' || text[1] === 'X'
  const digits = (hex ? text.slice(2) : text).replace(/^0+/, '').length
  const amount = digits <= (hex ? 64 : 78) ? BigInt(text) : undefined
  return amount !== undefined && amount <= maxUint256 ? amount : invalid('an amount of at most 2^256 - 1')
})

/** A finite number at least 0 (an integer when `integer`), sent as a number or a numeric string. */
const count = (integer: boolean) =>
  leaf((value) => {
    const number = typeof value === 'string' ? parseNumeric(value) : value
    return typeof number === 'number' &&
      number >= 0 &&
      (integer ? Number.isInteger(number) : Number.isFinite(number))
      ? number
      : invalid(integer ? 'a non-negative integer' : 'a non-negative number')
  })

const blacklistedFlag = /* @__PURE__ */ z.optional(z.nullable(z.boolean()))

// ---------------------------------------------------------------------------
// Route

const path = /* @__PURE__ */ z.pipe(
  z.unknown(),
  z.transform((value, ctx): Address[] => {
    if (!Array.isArray(value) || value.length < 2)
      pushIssue(ctx, value, invalid('a path of at least two addresses'))
    else
      for (const [index, item] of value.entries()) {
        const address = toAddress(item)
        if (address instanceof Invalid) pushIssue(ctx, item, address, [index])
      }
    return value as Address[]
  }),
)

export const routeSchema = /* @__PURE__ */ z.pipe(
  z.object({ path, amount_out: amountSchema }),
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
export const legacyPathSchema = /* @__PURE__ */ z.pipe(
  z.pipe(
    leaf((value) =>
      Array.isArray(value) ? { path: value } : typeof value === 'object' && value ? value : invalid('a path'),
    ),
    z.looseObject({ path, amount_out: z.optional(amountSchema), amountOut: z.optional(amountSchema) }),
  ),
  z.transform(
    ({ path, amount_out, amountOut }): LegacyPath => ({ path, amountOut: amount_out ?? amountOut }),
  ),
)

export type LegacyPath = {
  path: Address[]
  /** `undefined` when the service sent only the path. */
  amountOut: bigint | undefined
}

// ---------------------------------------------------------------------------
// Swap info

export const swapInfoSchema = /* @__PURE__ */ z.pipe(
  z.object({
    data: hexSchema,
    transferAddress: addressSchema,
    transferValue: amountSchema,
    approvalAddress: z.optional(leaf((value) => (value === null || value === '' ? null : toAddress(value)))),
    estimateTransferSeconds: count(false),
    estimateAmount: amountSchema,
    hopsCount: count(true),
    fee: leaf((value) =>
      typeof value === 'object' && value !== null && !Array.isArray(value)
        ? (value as Record<string, unknown>)
        : invalid('an object'),
    ),
  }),
  z.transform((info): SwapInfo => ({ ...info, approvalAddress: info.approvalAddress ?? null })),
)

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

export const tokenSchema = /* @__PURE__ */ z.looseObject({
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

export const pairSchema = /* @__PURE__ */ z.looseObject({
  address: addressSchema,
  blacklisted: blacklistedFlag,
})

/** A pair record. Only `address` is checked; other fields (its tokens, reserves…) are kept as sent. */
export type Pair = {
  address: Address
  blacklisted?: boolean | null | undefined
  [field: string]: unknown
}

export const tokenDataSchema = /* @__PURE__ */ z.looseObject({
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
 * property (`{ tokens: [...] }`, `{ data: [...] }`). Issues keep the envelope's key in their path.
 */
export function listSchema<item extends z.ZodMiniType>(item: item) {
  const array = z.array(item)
  return z.pipe(
    z.unknown(),
    z.transform((body, ctx): z.output<item>[] => {
      const arrays = Array.isArray(body)
        ? [['', body] as const]
        : typeof body === 'object' && body !== null
          ? Object.entries(body).filter(([, value]) => Array.isArray(value))
          : []
      const [key, list] = arrays[0] ?? []
      if (arrays.length !== 1) {
        pushIssue(
          ctx,
          body,
          arrays.length
            ? new Invalid(
                `expected one list, found ${arrays.map(([name]) => name).join(', ')}; use transformResponse to pick one`,
              )
            : invalid('a list or an object holding one list'),
        )
        return z.NEVER
      }
      const result = array.safeParse(list, { reportInput: true })
      if (result.success) return result.data as z.output<item>[]
      for (const issue of result.error.issues)
        ctx.issues.push({ ...issue, path: key ? [key, ...issue.path] : issue.path } as never)
      return z.NEVER
    }),
  )
}

export const tokenListSchema = /* @__PURE__ */ listSchema(tokenSchema)
export const pairListSchema = /* @__PURE__ */ listSchema(pairSchema)
export const tokenDataListSchema = /* @__PURE__ */ listSchema(tokenDataSchema)

// ---------------------------------------------------------------------------
// Price

/**
 * A USD price: a number, a numeric string, or an object with one numeric
 * field (`{ price: 1.2 }`, `{ usd: "1.2" }`, `{ data: { priceUsd: 1.2 } }`).
 */
export const priceSchema = /* @__PURE__ */ leaf((body) => findPrice(body, 0))

function findPrice(body: unknown, depth: number): number | Invalid {
  const number = typeof body === 'string' ? parseNumeric(body) : body
  if (typeof number === 'number')
    return Number.isFinite(number) && number >= 0
      ? number
      : invalid('a finite price of at least 0', { value: body })
  if (typeof body !== 'object' || body === null || Array.isArray(body) || depth > 1)
    return invalid('a price (a number, a numeric string or an object with one price field)', {
      value: body,
    })
  const entries = Object.entries(body)
  const numeric = entries.filter(
    ([, value]) => typeof value === 'number' || parseNumeric(value) !== undefined,
  )
  const named = numeric.length > 1 ? numeric.filter(([key]) => /price|usd/i.test(key)) : numeric
  if (named.length === 1) return findPrice(named[0]?.[1], depth + 1)
  if (numeric.length > 1)
    return new Invalid(
      `expected one price field, found ${numeric.map(([key]) => key).join(', ')}; use transformResponse to pick one`,
    )
  if (entries.length === 1) return findPrice(entries[0]?.[1], depth + 1)
  return invalid('an object with one numeric price field', { value: body })
}

function parseNumeric(value: unknown): number | undefined {
  return typeof value === 'string' && /^\s*[+-]?(\d+\.?\d*|\.\d+)(e[+-]?\d+)?\s*$/i.test(value)
    ? Number(value)
    : undefined
}

/** A short rendering of a bad value; secrets are hidden before anything is shortened. */
function describe(value: unknown, redact: (text: string) => string): string {
  if (value === null || value === undefined) return String(value)
  if (Array.isArray(value)) return 'an array'
  if (typeof value === 'object')
    return `an object with keys ${JSON.stringify(
      Object.keys(value)
        .slice(0, 5)
        .map((key) => redact(key).slice(0, 40)),
    )}`
  return typeof value === 'string'
    ? `the string ${JSON.stringify(redact(value).slice(0, 40))}`
    : `${typeof value} ${value}`
}

// ---------------------------------------------------------------------------

/**
 * Validates a body against a schema; returns typed data or throws
 * `ResponseValidationError` naming the endpoint and the path of the first bad field.
 */
export function parseResponse<schema extends z.ZodMiniType>(
  schema: schema,
  body: unknown,
  context: {
    endpoint: Endpoint
    url: string
    /** Hides the request's secrets in a quoted value, before it is shortened. */
    redact?: ((text: string) => string) | undefined
  },
): z.output<schema> {
  const result = schema.safeParse(body, { reportInput: true })
  if (result.success) return result.data
  const issue = result.error.issues[0] as z.core.$ZodIssue & {
    input?: unknown
    params?: { quotesInput?: boolean }
  }
  const quote = (value: unknown) => describe(value, context.redact ?? ((text) => text))
  throw new ResponseValidationError({
    endpoint: context.endpoint,
    path: formatPath(issue.path),
    problem:
      issue.code === 'invalid_type'
        ? issue.input === undefined
          ? `missing ${issue.expected}`
          : `expected ${issue.expected}, got ${quote(issue.input)}`
        : issue.params?.quotesInput
          ? `${issue.message}, got ${quote(issue.input)}`
          : issue.message,
    url: context.url,
    cause: result.error,
  })
}
