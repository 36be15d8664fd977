import { describeViolation, type SwapOutcomeViolation } from '../errors/execute.js'

/** The version of token-swap-hooks a report names (a test keeps it equal to package.json's). */
export const libraryVersion = '0.2.0'

/** A JSON value: what every field of a `FailureReport` holds (bigints as decimal strings). */
export type FailureReportJson =
  | null
  | boolean
  | number
  | string
  | FailureReportJson[]
  | { [key: string]: FailureReportJson }

/** One request made for the swap, as the report holds it (secrets hidden, `null` where unknown). */
export type FailureReportRequest = {
  /** The URL, the base URL's secret query values as `***`. */
  url: string | null
  /** The resource asked for (`swapInfo`, `/swap/info`…), when the URL is not known. */
  endpoint: string | null
  /** What was asked (a query key's parameters, say). */
  parameters: FailureReportJson
  /** The HTTP status of the answer, when one came. */
  status: number | null
  /** What came back (an error's excerpt of the body, or the answer). */
  body: FailureReportJson
  /** How it ended, as the observer saw it (`'succeeded'`, `'failed'`, `'aborted'`…). */
  outcome: string | null
  /** When (ISO 8601, UTC). */
  at: string | null
}

/** An error of the cause chain, in short. */
export type FailureReportCause = {
  name: string
  /** The library's stable code, or another library's (`4001`), else `null`. */
  code: string | number | null
  shortMessage: string
}

/** The error a report is about. */
export type FailureReportError = FailureReportCause & {
  /** The longer explanation (`details`), or `''`. */
  details: string
  /**
   * Every other field the error carries, as JSON: `step`, `leftoverAllowance`, hashes, receipts,
   * `url`, `status`, `body`, `reason`, `violations`…
   */
  fields: { [key: string]: FailureReportJson }
  /** Its `cause` chain, outermost first. */
  causes: FailureReportCause[]
}

/**
 * What `createFailureReport` returns: a JSON document about one failed swap (or request) for a user to
 * send to support. Every string went through the client's redactor; bigints are decimal strings.
 */
export type FailureReport = {
  /** This layout: 1. A field that changes meaning or goes away makes it 2. */
  schemaVersion: 1
  /** The library that built the report, and its version. */
  library: { name: 'token-swap-hooks'; version: string }
  /** When the report was built (ISO 8601, UTC). */
  createdAt: string
  /** The swap's chain: the context's, else the error's (or its leftover allowance's). */
  chainId: number | null
  /** The requests made for this swap: the context's, then those the error chain names (their URL, status, body). */
  requests: FailureReportRequest[]
  /** The service's answers the swap ran on. */
  responses: {
    /** The `/swap/info` answer: the context's, else the running step's, else the error's new quote. */
    swapInfo: FailureReportJson
  }
  /** The simulation of the calls to sign: the outcome it predicted and what it refused; `null` when none is known. */
  simulation: { outcome: FailureReportJson; violations: string[] } | null
  /** The decoded revert (a simulation's, the guard's, a mined transaction's), from the error chain; `null` when none. */
  revert: { error: string; reason: string | null; data: string | null; stage: string | null } | null
  /** Where the flow was: the error's `step`, else the context's (`status`, `action`). */
  step: FailureReportJson
  /** The execution's journal (sending, sent, mined… per step), when known. */
  journal: FailureReportJson[]
  /** An allowance the failed flow left (`revokeAllowance`), else `null`. */
  leftoverAllowance: FailureReportJson
  /** What the wallet reported it can do (EIP-5792 `wallet_getCapabilities`), as read; `null` when not. */
  capabilities: FailureReportJson
  /** The error itself. */
  error: FailureReportError
}

/** One request, as a caller observed it; any field may be missing. */
export type FailureReportRequestInput = {
  url?: string | undefined
  endpoint?: string | undefined
  parameters?: unknown
  status?: number | undefined
  body?: unknown
  outcome?: string | undefined
  /** Epoch milliseconds. */
  at?: number | undefined
}

/** What `createFailureReport` takes besides the error: what the caller observed of the swap. */
export type FailureReportContext = {
  /** The client the swap used: its redactor (`client.redact`) hides its secrets in every string. */
  client?: { redact(text: string): string } | undefined
  chainId?: number | undefined
  /** The requests made for this swap (what the devtools panel saw, say). */
  requests?: readonly FailureReportRequestInput[] | undefined
  /** The `/swap/info` answer the swap ran on. */
  swapInfo?: unknown
  /** The flow's last step (`onStep`, `useExecuteSwap().step`): its quote and simulated outcome. */
  step?: { status?: string; action?: string; swapInfo?: unknown; simulated?: unknown } | undefined
  /** The execution's journal (`journalOf(record)`). */
  journal?: readonly unknown[] | undefined
  /** The wallet's EIP-5792 capabilities, as read. */
  capabilities?: unknown
  /** The time of the report, in epoch milliseconds. Default: now. */
  now?: number | undefined
}

type Fields = Record<string, unknown>

/** The error's own fields that the report shows elsewhere, or that are text about the rest. */
const shownElsewhere = ['name', 'shortMessage', 'details', 'metaMessages', 'message', 'stack', 'cause']

/**
 * Builds a JSON-serializable report of a failed swap or request, for a user to send to support: the library's
 * version, the chain, the requests made (URLs and bodies), the `/swap/info` answer, the simulation's outcome,
 * the decoded revert, the journal, the wallet's capabilities and the error with its typed fields and its
 * cause chain. It takes what the error carries and what `context` adds; every string (and key) goes through
 * `context.client`'s redactor, the one its requests' errors pass through, and no header is ever included.
 *
 * @example
 * import { createFailureReport } from 'token-swap-hooks/core'
 *
 * try {
 *   await executeSwap(client, parameters)
 * } catch (error) {
 *   const report = createFailureReport(error, { client, chainId: 1, step: lastStep })
 *   await navigator.clipboard.writeText(JSON.stringify(report, null, 2))
 * }
 */
export function createFailureReport(error: unknown, context: FailureReportContext = {}): FailureReport {
  const redact = (text: string) => (context.client ? context.client.redact(text) : text)
  const json = (value: unknown) => toJson(value, redact, 0, new Set()) ?? null
  const chain = causeChain(error)
  const top = fieldsOf(error)
  const { step, journal = [] } = context

  const requests = (context.requests ?? []).map((request) => requestOf(request, json))
  for (const link of chain) {
    const { url, status, body } = fieldsOf(link)
    if (typeof url === 'string' && !requests.some((r) => r.url === redact(url) && r.status === status))
      requests.push(requestOf({ url, status: status as number | undefined, body }, json))
  }

  const outcome = context.step?.simulated ?? (top.stage === 'simulation' ? top.outcome : undefined)
  const violations = Array.isArray(top.violations)
    ? top.violations.map((v: SwapOutcomeViolation) => redact(describeViolation(v)))
    : []
  const leftover = top.leftoverAllowance as Fields | undefined
  const chainId = context.chainId ?? numberOf(top.chainId) ?? numberOf(leftover?.chainId) ?? null

  return {
    schemaVersion: 1,
    library: { name: 'token-swap-hooks', version: libraryVersion },
    createdAt: new Date(context.now ?? Date.now()).toISOString(),
    chainId,
    requests,
    responses: {
      swapInfo: json(context.swapInfo ?? step?.swapInfo ?? top.newQuote),
    },
    simulation: outcome !== undefined || violations.length ? { outcome: json(outcome), violations } : null,
    revert: revertOf(chain, redact),
    step: json(top.step ?? (step && { status: step.status, action: step.action })),
    journal: journal.map(json),
    leftoverAllowance: json(leftover),
    capabilities: json(context.capabilities),
    error: {
      ...causeOf(error, redact),
      details: redact(String(top.details ?? '')),
      fields: Object.fromEntries(
        Object.keys(top)
          .filter((key) => !shownElsewhere.includes(key) && top[key] !== undefined)
          .map((key) => [redact(key), json(top[key])]),
      ),
      causes: chain.slice(1).map((link) => causeOf(link, redact)),
    },
  }
}

/** An error's own fields (its typed ones), or none. */
const fieldsOf = (value: unknown): Fields =>
  typeof value === 'object' && value !== null ? { ...(value as Fields) } : {}

const numberOf = (value: unknown) => (typeof value === 'number' ? value : undefined)

/** The error and its causes, outermost first (at most 10, no cycle). */
function causeChain(error: unknown): unknown[] {
  const chain: unknown[] = []
  for (let link = error; link != null && !chain.includes(link) && chain.length < 10; ) {
    chain.push(link)
    link = (link as { cause?: unknown }).cause
  }
  return chain
}

function causeOf(error: unknown, redact: (text: string) => string): FailureReportCause {
  const { name, code, shortMessage, message } = (error ?? {}) as Fields
  return {
    name: typeof name === 'string' ? name : typeof error,
    code: typeof code === 'string' || typeof code === 'number' ? code : null,
    // The first line of a message (viem's and others' carry their details after it).
    shortMessage: redact(String(shortMessage ?? message ?? error).split('\n')[0] as string),
  }
}

/** The first error of the chain that tells a revert: its decoded reason, data and stage. */
function revertOf(chain: unknown[], redact: (text: string) => string): FailureReport['revert'] {
  for (const link of chain) {
    const { name, reason, data, stage } = fieldsOf(link)
    if (typeof name !== 'string' || !/Simulation|Revert|Incompatible/.test(name)) continue
    const text = (value: unknown) => (typeof value === 'string' ? redact(value) : null)
    return { error: name, reason: text(reason), data: text(data), stage: text(stage) }
  }
  return null
}

function requestOf(
  { url, endpoint, parameters, status, body, outcome, at }: FailureReportRequestInput,
  json: (value: unknown) => FailureReportJson,
): FailureReportRequest {
  const text = (value: unknown) => (typeof value === 'string' ? (json(value) as string) : null)
  return {
    url: text(url),
    endpoint: text(endpoint),
    parameters: json(parameters),
    status: numberOf(status) ?? null,
    body: json(body),
    outcome: text(outcome),
    at: typeof at === 'number' ? new Date(at).toISOString() : null,
  }
}

/**
 * A value as JSON: bigints as decimal strings, strings and keys redacted, an error in short (its name, code
 * and short message), functions and `undefined` left out, at most 8 levels and 100 items a list.
 */
function toJson(
  value: unknown,
  redact: (text: string) => string,
  depth: number,
  path: Set<unknown>,
): FailureReportJson | undefined {
  if (value === null || typeof value === 'boolean') return value
  if (typeof value === 'string') return redact(value)
  if (typeof value === 'bigint') return value.toString()
  if (typeof value === 'number') return Number.isFinite(value) ? value : String(value)
  if (typeof value !== 'object') return undefined
  if (value instanceof Error) return causeOf(value, redact)
  if (path.has(value) || depth >= 8) return '…'
  path.add(value)
  const out = Array.isArray(value)
    ? value.slice(0, 100).map((item) => toJson(item, redact, depth + 1, path) ?? null)
    : Object.fromEntries(
        Object.entries(value)
          .map(([key, item]) => [redact(key), toJson(item, redact, depth + 1, path)] as const)
          .filter(([, item]) => item !== undefined),
      )
  path.delete(value)
  return out as FailureReportJson
}
