import { type Address, getAddress, type Hex, isHex } from 'viem'
import { isNativeToken } from './constants.js'
import { formatPath, ResponseValidationError } from './errors/response.js'
import type { Endpoint } from './types.js'
import { isAddressLike, isObject, maxUint256 } from './utils/validate.js'

/*
 * Every body goes through a schema: small checks of our own that say what the
 * service may send where the spec is silent, each bad part reported under its
 * path. A schema has zod's `safeParse` (a zod schema can stand in for one), and
 * none of zod's code: the checks were all ours, zod only carried their issues.
 */

/** What a schema reports of one bad part: where, what was expected, and (with `reportInput`) the value. */
export type SchemaIssue = {
  path: PropertyKey[]
  message: string
  input?: unknown
  /** Whether the problem quotes the value (`parseResponse` shortens it, secrets hidden). */
  params?: { quotesInput?: boolean } | undefined
}

/** The result of `safeParse`, as zod's: the output, or an error holding the issues. */
export type SafeParseResult<output> =
  | { success: true; data: output; error?: undefined }
  | { success: false; data?: undefined; error: Error & { issues: SchemaIssue[] } }

/**
 * The schema of a response body: `safeParse` returns its typed output or the
 * issues found (a zod schema fits the type too).
 */
export type Schema<output = unknown> = {
  safeParse(value: unknown, options?: { reportInput?: boolean }): SafeParseResult<output>
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
    /** The value to quote when it is not the check's whole input (a price inside an object). */
    readonly quoted?: { value: unknown },
  ) {}
}
const invalid = (expected: string, quoted?: { value: unknown }) =>
  new Invalid(`expected ${expected}`, true, quoted)

/** A check of one value: its output, or what was expected. */
type Check<output> = (value: unknown) => output | Invalid
/** A check of a structure, which reports each bad part under its path. */
type Walk<output> = (value: unknown, issues: SchemaIssue[], path: PropertyKey[]) => output

/** Reports a bad part: where, what was expected, and the value (or the part of it to quote). */
const report = (issues: SchemaIssue[], path: PropertyKey[], input: unknown, invalid: Invalid) =>
  issues.push({
    path,
    message: invalid.message,
    params: { quotesInput: invalid.quotesInput },
    input: invalid.quoted ? invalid.quoted.value : input,
  })

/** Runs a check as a walk: a bad value becomes one issue at `path`. */
const walk =
  <output>(check: Check<output>): Walk<output> =>
  (value, issues, path) => {
    const result = check(value)
    if (!(result instanceof Invalid)) return result
    report(issues, path, value, result)
    return undefined as output
  }

/**
 * The schema of a walk: its output, or an error whose issues are the walk's
 * (each with its path; the bad value only with `reportInput`).
 */
function schema<output>(run: Walk<output>): Schema<output> {
  return {
    safeParse(value, options) {
      const issues: SchemaIssue[] = []
      const data = run(value, issues, [])
      if (!options?.reportInput) for (const issue of issues) delete issue.input
      return issues.length
        ? {
            success: false,
            error: Object.assign(new Error(issues.map((issue) => issue.message).join('; ')), { issues }),
          }
        : { success: true, data }
    },
  }
}

/**
 * An object with the given fields checked (each reported under its name); with
 * `loose`, the fields not named are kept as sent. A field whose check gives
 * `undefined` is left out.
 */
function record<shape extends Record<string, Walk<unknown>>>(shape: shape, loose = false) {
  return ((value, issues, path) => {
    if (!isObject(value)) {
      report(issues, path, value, invalid('an object'))
      return undefined
    }
    const output: Record<string, unknown> = loose ? { ...value } : {}
    for (const [key, check] of Object.entries(shape)) {
      const result = check(value[key], issues, [...path, key])
      if (result === undefined) delete output[key]
      else output[key] = result
    }
    return output
  }) as Walk<{ [key in keyof shape]: ReturnType<shape[key]> }>
}

const optional =
  <output>(check: Check<output>): Check<output | undefined> =>
  (value) =>
    value === undefined ? undefined : check(value)

/**
 * An address as the service sent it, in any letter case. List records (tokens,
 * pairs) keep it so: a checksum costs a keccak (about 10 µs), over a second for
 * a list of 100 000 records on every refetch.
 */
const toAddress: Check<Address> = (value) =>
  isAddressLike(value) ? value : invalid('an address (0x and 40 hex digits)')

/**
 * An address in its checksummed spelling, whatever case (or wrong checksum) the
 * service sent, for the few addresses of a quote (its path, the router, the
 * spender): what comes back there is always accepted back as a parameter.
 */
const toChecksummed: Check<Address> = (value) =>
  isAddressLike(value) ? getAddress(value.toLowerCase()) : invalid('an address (0x and 40 hex digits)')

const toText: Check<string> = (value) => (typeof value === 'string' ? value : invalid('a string'))

/** Calldata: 0x and whole bytes (an even number of hex digits). */
const toHex: Check<Hex> = (value) =>
  typeof value === 'string' && isHex(value, { strict: true }) && value.length % 2 === 0
    ? value
    : invalid('0x-prefixed hex data of whole bytes')

/**
 * A token amount: a base-10 integer string, a 0x hex string or a safe
 * non-negative integer number, at most 2^256 - 1 (a uint256), always
 * returned as a bigint.
 */
const toAmount: Check<bigint> = (value) => {
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
}

/** A finite number at least 0 (an integer when `integer`), sent as a number or a numeric string. */
const count =
  (integer: boolean): Check<number> =>
  (value) => {
    const number = typeof value === 'string' ? parseNumeric(value) : value
    return typeof number === 'number' &&
      number >= 0 &&
      (integer ? Number.isInteger(number) : Number.isFinite(number))
      ? number
      : invalid(integer ? 'a non-negative integer' : 'a non-negative number')
  }

/** A flag: a boolean, or as a service may spell one (`"true"`, `"false"`, `1`, `0`). */
const toFlag: Check<boolean | null | undefined> = (value) => {
  if (value === undefined || value === null || typeof value === 'boolean') return value
  const index = ['false', 'true', '0', '1'].indexOf(String(value).trim().toLowerCase())
  return index < 0 ? invalid('a boolean') : index % 2 === 1
}

/** Metadata the service may send with a record: kept typed when valid, left out when not. */
const ifString = (value: unknown) => (typeof value === 'string' ? value : undefined)
const ifDecimals = (value: unknown) => {
  const number = typeof value === 'string' && /^\d{1,3}$/.test(value) ? Number(value) : value
  return typeof number === 'number' && Number.isInteger(number) && number >= 0 && number <= 255
    ? number
    : undefined
}

// ---------------------------------------------------------------------------
// Route

const path: Walk<Address[]> = (value, issues, at) => {
  if (Array.isArray(value) && value.length >= 2)
    return value.map((item, index) => walk(toChecksummed)(item, issues, [...at, index]))
  report(issues, at, value, invalid('a path of at least two addresses'))
  return value as Address[]
}

const routeFields = /* @__PURE__ */ record({ path, amount_out: /* @__PURE__ */ walk(toAmount) })

const route: Walk<Route> = (value, issues, at) => {
  const { path, amount_out } = routeFields(value, issues, at) ?? {}
  return { path, amountOut: amount_out } as Route
}

/**
 * A quote's walk, with its path required to run from `token0` to `token1`
 * (in any letter case), as the spec says. A native-coin side is not checked:
 * a service may route it through its wrapped token, whose address the
 * library does not know for every chain.
 */
function from<quote extends { path: Address[] }>(
  run: Walk<quote>,
  { token0, token1 }: Pick<QuoteRequest, 'token0' | 'token1'>,
): Walk<quote> {
  return (value, issues, at) => {
    const count = issues.length
    const quote = run(value, issues, at)
    if (issues.length > count) return quote
    const { path } = quote
    for (const [end, token] of [token0, token1].entries()) {
      const index = end && path.length - 1
      if (!isNativeToken(token) && path[index]?.toLowerCase() !== token.toLowerCase())
        report(
          issues,
          [...at, ...(Array.isArray(value) ? [] : ['path']), index],
          path[index],
          invalid(`token${end} ${end ? 'last' : 'first'} (${token})`),
        )
    }
    return quote
  }
}

/**
 * The schema of a `/swap/route` body for the swap asked: its path must run from its token0 to its token1.
 *
 * @example
 * client.request({ endpoint: '/swap/route', query, schema: routeSchemaFor({ token0, token1 }) })
 */
export const routeSchemaFor = (request: Pick<QuoteRequest, 'token0' | 'token1'>) =>
  schema(from(route, request))

/**
 * The swap a quote was fetched for. The library sets it on every quote it
 * fetches (the service does not send it), so that a quote cannot pass for
 * another amount's: `executeSwap` refuses an `acceptedQuote` for other tokens
 * or another `amountIn`.
 */
export type QuoteRequest = { token0: Address; token1: Address; amountIn: bigint }

/** A route from token0 to token1. */
export type Route = {
  /** Token addresses from token0 to token1, intermediate tokens between. */
  path: Address[]
  /** The estimated output, in token1's smallest unit. */
  amountOut: bigint
  /** The swap this route was fetched for (set by `getSwapRoute`). */
  quotedFor?: QuoteRequest | undefined
}

const legacyPathFields = /* @__PURE__ */ record({
  path,
  amount_out: /* @__PURE__ */ walk(/* @__PURE__ */ optional(toAmount)),
  amountOut: /* @__PURE__ */ walk(/* @__PURE__ */ optional(toAmount)),
})

/**
 * The legacy `/get_path` body, which the spec does not show: a Route, a Route
 * with `amountOut`, or a bare array of addresses (then `amountOut` is undefined).
 */
const legacyPath: Walk<LegacyPath> = (value, issues, at) => {
  if (Array.isArray(value)) return { path: path(value, issues, [...at, 'path']), amountOut: undefined }
  const fields = legacyPathFields(value, issues, at)
  return { path: fields?.path as Address[], amountOut: fields?.amount_out ?? fields?.amountOut }
}

/**
 * The schema of a `/get_path` body for the swap asked: its path must run from its token0 to its token1.
 *
 * @example
 * client.request({ endpoint: '/get_path', query, schema: legacyPathSchemaFor({ token0, token1 }) })
 */
export const legacyPathSchemaFor = (request: Pick<QuoteRequest, 'token0' | 'token1'>) =>
  schema(from(legacyPath, request))

/** The optimal path `/get_path` answers, as the library reads it (its body is not shown by the spec). */
export type LegacyPath = {
  path: Address[]
  /** `undefined` when the service sent only the path. */
  amountOut: bigint | undefined
  /** The swap this path was fetched for (set by `getLegacyPath`). */
  quotedFor?: QuoteRequest | undefined
}

// ---------------------------------------------------------------------------
// Swap info

const swapInfoFields = /* @__PURE__ */ record({
  data: /* @__PURE__ */ walk(toHex),
  transferAddress: /* @__PURE__ */ walk(toChecksummed),
  transferValue: /* @__PURE__ */ walk(toAmount),
  approvalAddress: /* @__PURE__ */ walk((value) =>
    value === undefined || value === null || value === '' ? null : toChecksummed(value),
  ),
  estimateTransferSeconds: /* @__PURE__ */ walk(/* @__PURE__ */ count(false)),
  estimateAmount: /* @__PURE__ */ walk(toAmount),
  hopsCount: /* @__PURE__ */ walk(/* @__PURE__ */ count(true)),
  fee: /* @__PURE__ */ walk((value) => (isObject(value) ? value : invalid('an object'))),
})

export const swapInfoSchema = /* @__PURE__ */ schema(
  (value, issues, at): SwapInfo => swapInfoFields(value, issues, at) as SwapInfo,
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
  /** The swap this info was fetched for (set by `getSwapInfo`). */
  quotedFor?: QuoteRequest | undefined
}

// ---------------------------------------------------------------------------
// Tokens, pairs, tokens data

const tokenRecord = /* @__PURE__ */ record(
  {
    address: /* @__PURE__ */ walk(toAddress),
    symbol: /* @__PURE__ */ walk(toText),
    blacklisted: /* @__PURE__ */ walk(toFlag),
    name: /* @__PURE__ */ walk(ifString),
    decimals: /* @__PURE__ */ walk(ifDecimals),
  },
  true,
)

/**
 * A token record. `address` and `symbol` are required; `name` and `decimals`
 * are typed when the service sends valid ones (and left out when not); every
 * other field is kept as sent.
 */
export type Token = {
  address: Address
  symbol: string
  /** The token's name, when the service sends one. */
  name?: string | undefined
  /** The token's decimals (0 to 255), when the service sends a valid integer. */
  decimals?: number | undefined
  blacklisted?: boolean | null | undefined
  [field: string]: unknown
}

const pairRecord = /* @__PURE__ */ record(
  { address: /* @__PURE__ */ walk(toAddress), blacklisted: /* @__PURE__ */ walk(toFlag) },
  true,
)

/** A pair record. Only `address` is checked; other fields (its tokens, reserves…) are kept as sent. */
export type Pair = {
  address: Address
  blacklisted?: boolean | null | undefined
  [field: string]: unknown
}

const tokenDataRecord = /* @__PURE__ */ record(
  {
    address: /* @__PURE__ */ walk(/* @__PURE__ */ optional(toAddress)),
    symbol: /* @__PURE__ */ walk(/* @__PURE__ */ optional(toText)),
    name: /* @__PURE__ */ walk(ifString),
    decimals: /* @__PURE__ */ walk(ifDecimals),
  },
  true,
)

/** Detailed data of one token; the spec does not name the fields, so all are kept as sent. */
export type TokenData = {
  address?: Address | undefined
  symbol?: string | undefined
  name?: string | undefined
  decimals?: number | undefined
  [field: string]: unknown
}

/**
 * A list body: a bare array, or an envelope object with exactly one array
 * property (`{ tokens: [...] }`, `{ data: [...] }`). Issues keep the envelope's key in their path.
 */
function listSchema<item>(item: Walk<item>) {
  return schema((body, issues): item[] => {
    const arrays = Array.isArray(body)
      ? [['', body] as const]
      : isObject(body)
        ? Object.entries(body).filter(([, value]) => Array.isArray(value))
        : []
    const [key, list] = arrays[0] ?? []
    if (arrays.length !== 1) {
      report(
        issues,
        [],
        body,
        arrays.length
          ? new Invalid(
              `expected one list, found ${arrays.map(([name]) => name).join(', ')}; use transformResponse to pick one`,
            )
          : invalid('a list or an object holding one list'),
      )
      return []
    }
    return (list as unknown[]).map((value, index) => item(value, issues, key ? [key, index] : [index]))
  })
}

export const tokenListSchema = /* @__PURE__ */ listSchema(tokenRecord as Walk<Token>)
export const pairListSchema = /* @__PURE__ */ listSchema(pairRecord as Walk<Pair>)
export const tokenDataListSchema = /* @__PURE__ */ listSchema(tokenDataRecord as Walk<TokenData>)

// ---------------------------------------------------------------------------
// Price

/**
 * A USD price: a number, a numeric string, or an object with one numeric
 * field (`{ price: 1.2 }`, `{ usd: "1.2" }`, `{ data: { priceUsd: 1.2 } }`).
 */
export const priceSchema = /* @__PURE__ */ schema(/* @__PURE__ */ walk((body) => findPrice(body, 0)))

/**
 * The price in a body the spec does not show: a number or numeric string; or
 * an object's one field named like a price (`price`, `usd`, `value`, `rate`
 * in its key), else its only field, else its only object field (an envelope
 * such as `{ code, msg, data: { price } }`), one level of nesting. Any other
 * numeric field (`decimals`, `timestamp`, `status`) is never taken for a
 * price: what cannot be told apart is an error, not a guess.
 */
function findPrice(body: unknown, depth: number): number | Invalid {
  const number = typeof body === 'string' ? parseNumeric(body) : body
  if (typeof number === 'number')
    return Number.isFinite(number) && number >= 0
      ? number
      : invalid('a finite price of at least 0', { value: body })
  if (!isObject(body) || depth > 1)
    return invalid('a price (a number, a numeric string or an object with one price field)', {
      value: body,
    })
  const entries = Object.entries(body)
  const named = entries.filter(([key]) => /price|usd|value|rate/i.test(key))
  const objects = entries.filter(([, value]) => isObject(value))
  const only = named.length ? named : entries.length === 1 ? entries : objects
  if (only.length === 1) return findPrice(only[0]?.[1], depth + 1)
  return new Invalid(
    `expected one price field (price, usd, value or rate in its name), found ${(named.length ? named : entries).map(([key]) => key).join(', ')}; use transformResponse to pick one`,
  )
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
export function parseResponse<output>(
  schema: Schema<output>,
  body: unknown,
  context: {
    endpoint: Endpoint
    url: string
    /** Hides the request's secrets in a quoted value, before it is shortened. */
    redact?: ((text: string) => string) | undefined
  },
): output {
  const result = schema.safeParse(body, { reportInput: true })
  if (result.success) return result.data
  const issue = result.error.issues[0] as SchemaIssue
  const quote = (value: unknown) => describe(value, context.redact ?? ((text) => text))
  throw new ResponseValidationError({
    endpoint: context.endpoint,
    path: formatPath(issue.path),
    problem:
      issue.input === undefined && issue.message.startsWith('expected ')
        ? `missing ${issue.message.slice(9)}`
        : issue.params?.quotesInput
          ? `${issue.message}, got ${quote(issue.input)}`
          : issue.message,
    url: context.url,
    cause: result.error,
  })
}
