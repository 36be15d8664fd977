'use client'

import { describeViolation } from '../../core/errors/execute.js'
import type { JournalEntry } from '../../core/execute/records/journal.js'
import type { PendingSwap } from '../../core/execute/records/pendingSwaps.js'
import { isSettled, type PendingSwapStatus } from '../../core/execute/rules/standing.js'
import type { RateLimiterTokens, RateLimitState } from '../../core/rateLimiter.js'
import { shortHex } from './format.js'

// The panel's data, section by section: pure functions of plain snapshots (of the QueryClient's
// caches, the limiter's state, the stored journals) and the time, so that each is table-tested.

/** What the panel reads of one query of the QueryClient (see `snapshotQuery`). */
export type QuerySnapshot = {
  queryKey: readonly unknown[]
  queryHash: string
  status: 'pending' | 'success' | 'error'
  fetchStatus: 'fetching' | 'paused' | 'idle'
  data: unknown
  dataUpdatedAt: number
  error: unknown
  isInvalidated: boolean
  fetchFailureCount: number
  /** The staleTime its observers use (the shortest), else its options', else the provider's default. */
  staleTime: number | undefined
  observers: number
}

/** The resources whose answers are quotes: they age fast and are polled. */
export const quoteResources: readonly string[] = ['swapRoute', 'swapInfo', 'legacyPath', 'swapRouteForOutput']

type KeyParameters = Record<string, unknown>

/** A query key's resource and parameters, when it is one of this library's `[name, { baseUrl, … }]`. */
export function readKey(
  queryKey: readonly unknown[],
): { resource: string; parameters: KeyParameters } | undefined {
  const [resource, parameters] = queryKey
  if (typeof resource !== 'string' || typeof parameters !== 'object' || parameters === null) return undefined
  return { resource, parameters: parameters as KeyParameters }
}

/** Whether a query belongs to the service at `baseUrl` (every swap key holds it). */
export function isOfService(queryKey: readonly unknown[], baseUrl: string): boolean {
  return readKey(queryKey)?.parameters.baseUrl === baseUrl
}

/** Token symbols from the token lists already in the cache (nothing is requested for them). */
export function symbolsFrom(queries: readonly QuerySnapshot[]): ReadonlyMap<string, string> {
  const symbols = new Map<string, string>()
  for (const query of queries) {
    const resource = readKey(query.queryKey)?.resource
    if ((resource !== 'tokens' && resource !== 'legacyTokens') || !Array.isArray(query.data)) continue
    for (const token of query.data as unknown[]) {
      const { address, symbol } = (token ?? {}) as { address?: unknown; symbol?: unknown }
      if (typeof address === 'string' && typeof symbol === 'string')
        symbols.set(address.toLowerCase(), symbol)
    }
  }
  return symbols
}

/** A query's resource and what it is about, in one line. */
const about = (queryKey: readonly unknown[], symbols: ReadonlyMap<string, string>) => ({
  resource: readKey(queryKey)?.resource ?? '?',
  label: describeQuery(queryKey, symbols),
})

const short = (address: unknown, symbols: ReadonlyMap<string, string>) =>
  typeof address === 'string' ? (symbols.get(address.toLowerCase()) ?? shortHex(address)) : '?'

/** What a query is about, in one line: `WETH → USDC, amountIn 1000`, `address 0xA0b8…eB48`. */
export function describeQuery(
  queryKey: readonly unknown[],
  symbols: ReadonlyMap<string, string> = new Map(),
): string {
  const key = readKey(queryKey)
  if (!key) return JSON.stringify(queryKey)
  const { baseUrl: _, token0, token1, ...rest } = key.parameters
  const parts: string[] = []
  if (token0 !== undefined || token1 !== undefined)
    parts.push(`${short(token0, symbols)} → ${short(token1, symbols)}`)
  for (const [name, value] of Object.entries(rest))
    parts.push(
      `${name} ${typeof value === 'string' && value.startsWith('0x') ? short(value, symbols) : String(value)}`,
    )
  return parts.join(', ') || 'all'
}

/** A quote's freshness, as `useSwapRoute`'s `isFresh` tells it, with why. */
export type QuoteFreshness = 'fresh' | 'stale' | 'invalidated' | 'failed' | 'loading' | 'waiting'

export type QuoteRow = {
  queryHash: string
  resource: string
  label: string
  /** What the quote gives (`amountOut`, `estimateAmount`, or the input found for an exact output). */
  amount: bigint | undefined
  quotedAt: number | undefined
  ageMs: number | undefined
  staleTime: number | undefined
  /** When it stops being fresh (`quotedAt + staleTime`); `undefined` without data or with an infinite staleTime. */
  expiresAt: number | undefined
  expiresInMs: number | undefined
  freshness: QuoteFreshness
  fetching: boolean
  observers: number
}

const amountField: Record<string, string> = { swapInfo: 'estimateAmount', swapRouteForOutput: 'amountIn' }
const minus = (a: number | undefined, b: number) => (a === undefined ? undefined : a - b)

/**
 * One row per quote of the service at `baseUrl` (loading first, then the
 * newest, then those waiting for input): its age, staleTime and expiry, and
 * whether it is fresh (fetched within its staleTime, not invalidated, its
 * last fetch not failed).
 *
 * @example
 * quoteRows(queries, { baseUrl, now: Date.now() })[0]?.freshness // 'fresh'
 */
export function quoteRows(
  queries: readonly QuerySnapshot[],
  {
    baseUrl,
    now,
    symbols = symbolsFrom(queries),
  }: { baseUrl: string; now: number; symbols?: ReadonlyMap<string, string> },
): QuoteRow[] {
  const rows: QuoteRow[] = []
  for (const query of queries) {
    const key = readKey(query.queryKey)
    if (!key || !quoteResources.includes(key.resource) || key.parameters.baseUrl !== baseUrl) continue
    const { status, staleTime, data, isInvalidated } = query
    const quotedAt = data === undefined ? undefined : query.dataUpdatedAt
    const expiresAt =
      quotedAt !== undefined && Number.isFinite(staleTime) ? quotedAt + (staleTime as number) : undefined
    const value = (data as Record<string, unknown> | undefined)?.[amountField[key.resource] ?? 'amountOut']
    const freshness: QuoteFreshness =
      status === 'error'
        ? 'failed'
        : quotedAt === undefined
          ? query.fetchStatus === 'idle'
            ? 'waiting'
            : 'loading'
          : isInvalidated
            ? 'invalidated'
            : staleTime === Number.POSITIVE_INFINITY || (expiresAt !== undefined && now < expiresAt)
              ? 'fresh'
              : 'stale'
    rows.push({
      ...{ queryHash: query.queryHash, ...about(query.queryKey, symbols) },
      ...{
        amount: typeof value === 'bigint' ? value : undefined,
        quotedAt,
        ageMs: quotedAt === undefined ? quotedAt : Math.max(0, now - quotedAt),
      },
      ...{ staleTime, expiresAt, expiresInMs: minus(expiresAt, now), freshness },
      ...{ fetching: query.fetchStatus !== 'idle', observers: query.observers },
    })
  }
  // Those loading first, then the newest; last, those waiting for input (a debounced amount's).
  const order = ({ quotedAt, freshness }: QuoteRow) =>
    quotedAt ?? (freshness === 'waiting' ? Number.MIN_SAFE_INTEGER : Number.MAX_SAFE_INTEGER)
  return rows.sort((a, b) => order(b) - order(a))
}

export type RateLimitRow = {
  /**
   * `'paused'`: a 429 pause runs, nothing is sent; `'careful'`: the pause
   * ended less than `carefulSpellMs` ago, one request at a time at a reduced
   * rate; `'ready'`: the configured pacing.
   */
  status: 'paused' | 'careful' | 'ready'
  /** The pause the client takes (capped at `maxRateLimitPauseMs`). */
  appliedUntil: number | undefined
  appliedInMs: number | undefined
  /** The end the server asked for. */
  requestedUntil: number | undefined
  requestedInMs: number | undefined
  capped: boolean
  /** The last pause seen, while paused or careful: when it ended or ends. */
  lastPauseUntil: number | undefined
  carefulUntil: number | undefined
  carefulInMs: number | undefined
  /** The limiter's bucket now (`rateLimiter.getTokens()`): tokens and capacity; `undefined` when not read. */
  tokens: number | undefined
  capacity: number | undefined
}

/**
 * The limiter's state for the panel: the pause it applies and the one the
 * server requested (`state`), from the last pause seen (`lastPause`), the
 * careful spell that follows it, and the bucket's tokens (`bucket`).
 *
 * @example
 * rateLimitRow(client.rateLimiter.getState(), { now: Date.now(), lastPause, carefulSpellMs, bucket: client.rateLimiter.getTokens() })
 */
export function rateLimitRow(
  { rateLimitedUntil: until, requestedUntil, capped }: RateLimitState,
  {
    now,
    lastPause,
    carefulSpellMs,
    bucket,
  }: {
    now: number
    lastPause?: RateLimitState | undefined
    carefulSpellMs: number
    bucket?: RateLimiterTokens | undefined
  },
): RateLimitRow {
  const lastPauseUntil = until ?? lastPause?.rateLimitedUntil
  const carefulUntil = lastPauseUntil === undefined ? undefined : lastPauseUntil + carefulSpellMs
  const paused = until !== undefined && now < until
  const careful = !paused && carefulUntil !== undefined && now < carefulUntil
  const shown = paused || careful
  return {
    status: paused ? 'paused' : careful ? 'careful' : 'ready',
    ...{
      appliedUntil: until,
      appliedInMs: minus(until, now),
      requestedUntil,
      requestedInMs: minus(requestedUntil, now),
    },
    capped,
    lastPauseUntil: shown ? lastPauseUntil : undefined,
    carefulUntil: shown ? carefulUntil : undefined,
    carefulInMs: shown ? minus(carefulUntil, now) : undefined,
    tokens: bucket?.tokens,
    capacity: bucket?.capacity,
  }
}

/** What happened to a query's fetch, as its cache events tell it. */
export type RequestEventKind = 'started' | 'succeeded' | 'failed' | 'retrying' | 'aborted' | 'paused'

/**
 * A query cache event, as the panel records it: the event's type, its
 * action's, and the query's fetch status before and after it.
 */
export type QueryEventFacts = {
  type: string
  actionType?: string | undefined
  /** Set on a `success` action written by `setQueryData` rather than a fetch. */
  manual?: boolean | undefined
  cancelled?: boolean | undefined
  before: QuerySnapshot['fetchStatus'] | undefined
  after: QuerySnapshot['fetchStatus'] | undefined
}

/**
 * What a query cache event means for the query's request, if anything: a
 * fetch `'started'` (from idle), `'succeeded'`, `'failed'` (its last try),
 * `'retrying'` (a try failed, another follows), `'paused'` (offline) or
 * `'aborted'`: cancelled (TanStack cancels a fetch whose last reader left, a
 * superseded amount's quote say, and reverts its state) or removed while in flight.
 *
 * @example
 * requestEventKind({ type: 'updated', actionType: 'setState', before: 'fetching', after: 'idle' }) // 'aborted'
 */
export function requestEventKind({
  type,
  actionType,
  before,
  after,
  manual,
  cancelled,
}: QueryEventFacts): RequestEventKind | undefined {
  const fetching = before === 'fetching' || before === 'paused'
  if (type === 'removed') return fetching ? 'aborted' : undefined
  if (type !== 'updated') return undefined
  const kinds: Record<string, RequestEventKind | false | undefined> = {
    fetch: (before === 'idle' || before === undefined) && 'started',
    success: !manual && 'succeeded',
    error: cancelled ? 'aborted' : 'failed',
    failed: 'retrying',
    pause: 'paused',
    setState: fetching && after === 'idle' && 'aborted',
  }
  return (Object.hasOwn(kinds, actionType ?? '') && kinds[actionType as string]) || undefined
}

/** A fetch the panel saw happen (kept from the panel's first mount, newest last). */
export type RequestEvent = {
  at: number
  kind: RequestEventKind
  queryHash: string
  queryKey: readonly unknown[]
}

export type InFlightRow = {
  queryHash: string
  resource: string
  label: string
  /** `'paused'`: TanStack holds it while offline. */
  fetchStatus: 'fetching' | 'paused'
  /** Since when it fetches (seen by the panel), and for how long. */
  since: number | undefined
  forMs: number | undefined
  /** Tries that failed so far (each retried after a delay; a 429 waits out the client's pause). */
  failures: number
}

/**
 * The service's queries being fetched now, longest first: `startedAt` is when
 * the panel saw each fetch start. A fetch may wait for the rate limiter, send
 * several requests (retries, exact-output probes) or wait for a retry's delay.
 *
 * @example
 * inFlightRows(queries, { baseUrl, now, startedAt })
 */
export function inFlightRows(
  queries: readonly QuerySnapshot[],
  options: {
    baseUrl: string
    now: number
    startedAt: ReadonlyMap<string, number>
    symbols?: ReadonlyMap<string, string>
  },
): InFlightRow[] {
  const { baseUrl, now, startedAt, symbols = symbolsFrom(queries) } = options
  return queries
    .filter(({ fetchStatus, queryKey }) => fetchStatus !== 'idle' && isOfService(queryKey, baseUrl))
    .map(({ queryHash, queryKey, fetchStatus, fetchFailureCount: failures }) => {
      const since = startedAt.get(queryHash)
      const forMs = since === undefined ? since : now - since
      return { queryHash, ...about(queryKey, symbols), fetchStatus, since, forMs, failures } as InFlightRow
    })
    .sort((a, b) => (a.since ?? 0) - (b.since ?? 0))
}

export type RequestEventRow = RequestEvent & { resource: string; label: string; agoMs: number }

/**
 * The last `limit` request events of the service, newest first, with how
 * long ago each was; `counts` over every event kept.
 *
 * @example
 * requestEventRows(events, { baseUrl, now }).rows[0]?.kind // 'aborted'
 */
export function requestEventRows(
  events: readonly RequestEvent[],
  {
    baseUrl,
    now,
    limit = 12,
    symbols = new Map(),
  }: { baseUrl: string; now: number; limit?: number; symbols?: ReadonlyMap<string, string> },
): { rows: RequestEventRow[]; counts: Record<RequestEventKind, number> } {
  const counts = { started: 0, succeeded: 0, failed: 0, retrying: 0, aborted: 0, paused: 0 }
  const mine = events.filter((event) => isOfService(event.queryKey, baseUrl))
  for (const event of mine) counts[event.kind] += 1
  const rows = mine
    .slice(-limit)
    .reverse()
    .map((event) => ({ ...event, ...about(event.queryKey, symbols), agoMs: now - event.at }))
  return { rows, counts }
}

/** Where a record stands for the panel: not checked yet, being checked, what the chain says, or why it could not be read. */
export type SettleState =
  | { state: 'unchecked' }
  | { state: 'checking' }
  | { state: 'checked'; status: PendingSwapStatus; at: number }
  | { state: 'failed'; message: string; at: number }

export type JournalRow = JournalEntry & { agoMs: number }

export type PendingSwapRow = {
  id: string
  version: 1 | 2
  chainId: number
  account: string
  label: string
  amountIn: string
  minAmountOut: string
  to: string
  /** The record's view of its journal: `'approving' | 'approved' | 'swapping' | 'batching'`. */
  step: PendingSwap['step']
  createdAt: number
  updatedAt: number
  journal: JournalRow[]
  /** An execution of this page runs it: never interrupted, never resumed. */
  running: boolean
  settle: SettleState
  /** Whether `settle`'s status ends the record (usePendingSwaps removes it at its next check). */
  settled: boolean
}

/**
 * One row per stored record, oldest first, with its journal (a 0.1.0
 * record's read from its step and hashes) and what the last check said of it.
 *
 * @example
 * pendingSwapRows(records, { now, journalOf, checks, isRunning })
 */
export function pendingSwapRows(
  records: readonly PendingSwap[],
  options: {
    now: number
    journalOf: (record: PendingSwap) => readonly JournalEntry[]
    checks?: ReadonlyMap<string, SettleState>
    isRunning?: (id: string) => boolean
    symbols?: ReadonlyMap<string, string>
  },
): PendingSwapRow[] {
  const { now, journalOf, checks = new Map(), isRunning = () => false, symbols = new Map() } = options
  return [...records]
    .sort((a, b) => a.createdAt - b.createdAt)
    .map((record) => {
      const settle: SettleState = checks.get(record.id) ?? { state: 'unchecked' }
      const { id, version, chainId, account, amountIn, minAmountOut, to, step, createdAt, updatedAt } = record
      return {
        ...{
          id,
          version,
          chainId,
          account,
          label: `${short(record.token0, symbols)} → ${short(record.token1, symbols)}`,
        },
        ...{ amountIn, minAmountOut, to, step, createdAt, updatedAt },
        journal: journalOf(record).map((entry) => ({ ...entry, agoMs: now - entry.at })),
        running: isRunning(id),
        settle,
        settled: settle.state === 'checked' && isSettled(settle.status),
      }
    })
}

/** What the panel reads of one mutation of the QueryClient. */
export type MutationSnapshot = {
  mutationId: number
  mutationKey: readonly unknown[] | undefined
  status: 'idle' | 'pending' | 'success' | 'error'
  submittedAt: number
  variables: unknown
  data: unknown
  error: unknown
  /** The flow's latest step, as `useExecuteSwap` keeps it on its mutation (`meta.step`). */
  step?: unknown
}

/** An outcome as the flow reports it (`simulated`, `realized`). */
export type OutcomeRow = {
  amountIn: bigint | undefined
  amountOut: bigint | undefined
  method: string | undefined
  gasUsed: readonly bigint[] | undefined
}

/**
 * The allowlist's word on an execution: `'passed'` (the router and spender
 * were in `trustedAddresses`, or the flow got past the check), `'waived'`
 * (`dangerouslyTrustAnyAddress`), `'refused'` (`UntrustedAddressError`),
 * `'missing'` (no `trustedAddresses` at all), `'not reached'` (the flow
 * stopped before: a quote below the floor, a chain mismatch…) or `'pending'`.
 */
export type AllowlistDecision = {
  decision: 'passed' | 'waived' | 'refused' | 'missing' | 'not reached' | 'pending'
  /** The addresses checked, or the one refused, with its role and chain. */
  detail: string
}

export type ExecutionRow = {
  mutationId: number
  kind: 'execute' | 'resume'
  status: MutationSnapshot['status']
  submittedAt: number
  agoMs: number
  label: string
  amountIn: bigint | string | undefined
  /** The floor asked (`minAmountOut`), when given as such. */
  minAmountOut: bigint | string | undefined
  /** What the simulation predicted: the result's, else the running step's (`onStep`). */
  simulated: OutcomeRow | undefined
  realized: OutcomeRow | undefined
  /** Where the flow is (or ended), from its latest step: `'swapping · simulating'`. */
  step: string | undefined
  floorEnforcement: string | undefined
  mode: string | undefined
  hashes: readonly string[]
  allowlist: AllowlistDecision
  error: { name: string; message: string; violations: string[] } | undefined
  /** A resume's own answer (`'swapped'`, `'settled'`, `'nothing'`) and status. */
  resumed: string | undefined
}

/** Whether the flow got past its allowlist check, from where it ended (`error.step`, what `onStep` last said). */
function pastAllowlist(error: Record<string, unknown> | undefined): boolean {
  const action = (error?.step as { action?: unknown } | undefined)?.action
  return typeof action === 'string' && action !== 'fetching-quote' && action !== 'checking-chain'
}

/** `value` when it is of `type`. */
const ofType = <value>(value: unknown, type: 'string' | 'bigint') =>
  typeof value === type ? (value as value) : undefined

const outcomeOf = (value: unknown): OutcomeRow | undefined => {
  if (typeof value !== 'object' || value === null) return undefined
  const { amountIn, amountOut, method, gasUsed } = value as Record<string, unknown>
  return {
    ...{ amountIn: ofType<bigint>(amountIn, 'bigint'), amountOut: ofType<bigint>(amountOut, 'bigint') },
    method: ofType<string>(method, 'string'),
    gasUsed: Array.isArray(gasUsed)
      ? gasUsed.filter((gas): gas is bigint => typeof gas === 'bigint')
      : undefined,
  }
}

/** One line per violation of `UnsafeSwapOutcomeError` (`describeViolation`'s). */
export const describeViolations = (violations: unknown): string[] =>
  Array.isArray(violations) ? violations.map((violation) => describeViolation(violation ?? {})) : []

function allowlistOf(
  status: MutationSnapshot['status'],
  { swapInfo, chainId }: Record<string, unknown>,
  error: Record<string, unknown> | undefined,
  waived: boolean,
): AllowlistDecision {
  const name = ofType<string>(error?.name, 'string')
  if (name === 'UntrustedAddressError')
    return { decision: 'refused', detail: `${error?.role} ${error?.address} on chain ${error?.chainId}` }
  if (name === 'InvalidParameterError' && error?.parameter === 'trustedAddresses')
    return { decision: 'missing', detail: 'no trustedAddresses: every swap is refused' }
  if (status === 'success' || pastAllowlist(error)) {
    if (waived) return { decision: 'waived', detail: 'dangerouslyTrustAnyAddress: the outcome check alone' }
    const { transferAddress: router, approvalAddress: spender } = (swapInfo ?? {}) as Record<string, unknown>
    const checked = [router && `router ${router}`, spender && `spender ${spender}`].filter(Boolean).join(', ')
    const onChain = chainId === undefined ? '' : ` on chain ${chainId}`
    return {
      decision: 'passed',
      detail: checked ? `${checked}${onChain}` : 'the router and spender were trusted',
    }
  }
  if (status === 'pending' || status === 'idle') return { decision: 'pending', detail: 'the flow is running' }
  return { decision: 'not reached', detail: `stopped before the check${name ? ` (${name})` : ''}` }
}

/**
 * One row per swap execution (and resume) of the service at `baseUrl` in the
 * mutation cache, newest first: what was asked, the simulated and realized
 * outcomes, the enforcement, the allowlist's decision and the error, with
 * `UnsafeSwapOutcomeError`'s violations spelled out.
 *
 * @example
 * executionRows(mutations, { baseUrl, now, waived: false })[0]?.allowlist.decision // 'passed'
 */
export function executionRows(
  mutations: readonly MutationSnapshot[],
  {
    baseUrl,
    now,
    waived = false,
    symbols = new Map(),
  }: { baseUrl: string; now: number; waived?: boolean; symbols?: ReadonlyMap<string, string> },
): ExecutionRow[] {
  const rows: ExecutionRow[] = []
  for (const { mutationKey, status, submittedAt, mutationId, step: last, ...mutation } of mutations) {
    const [name, key] = mutationKey ?? []
    if (
      (name !== 'executeSwap' && name !== 'resumeSwap') ||
      (key as { baseUrl?: unknown })?.baseUrl !== baseUrl
    )
      continue
    const kind = name === 'executeSwap' ? 'execute' : 'resume'
    const variables = (mutation.variables ?? {}) as Record<string, unknown>
    // A resume swaps the record's tokens and amount.
    const swap = (kind === 'resume' ? (variables.record ?? {}) : variables) as Record<string, unknown>
    const data = (mutation.data ?? {}) as Record<string, unknown>
    const error =
      typeof mutation.error === 'object' && mutation.error
        ? (mutation.error as Record<string, unknown>)
        : undefined
    const step = (last ?? {}) as Record<string, unknown>
    const resumed = ofType<string>(data.resumed, 'string')
    const standing = ofType<string>(data.status, 'string')
    rows.push({
      ...{ mutationId, kind, status, submittedAt, agoMs: now - submittedAt },
      label: `${short(swap.token0, symbols)} → ${short(swap.token1, symbols)}`,
      amountIn: swap.amountIn as bigint | string | undefined,
      minAmountOut: variables.minAmountOut as bigint | string | undefined,
      ...{ simulated: outcomeOf(data.simulated ?? step.simulated), realized: outcomeOf(data.realized) },
      step: last ? `${step.status} · ${step.action}` : undefined,
      ...{
        floorEnforcement: ofType<string>(data.floorEnforcement, 'string'),
        mode: ofType<string>(data.mode, 'string'),
      },
      hashes: Array.isArray(data.transactionHashes) ? data.transactionHashes.map(String) : [],
      allowlist:
        kind === 'resume' && resumed !== undefined && resumed !== 'swapped'
          ? { decision: 'not reached', detail: `the resume swapped nothing (${resumed})` }
          : allowlistOf(status, data, error, waived || variables.dangerouslyTrustAnyAddress === true),
      error: error && {
        name: ofType<string>(error.name, 'string') ?? 'Error',
        message: String(error.shortMessage ?? error.message ?? ''),
        violations: describeViolations(error.violations),
      },
      resumed:
        resumed === undefined ? resumed : `${resumed}${standing === undefined ? '' : ` (${standing})`}`,
    })
  }
  return rows.sort((a, b) => b.submittedAt - a.submittedAt)
}
