'use client'

import { describeViolation } from '../../core/errors/execute.js'
import type { JournalEntry } from '../../core/execute/records/journal.js'
import type { PendingSwap } from '../../core/execute/records/pendingSwaps.js'
import type { PendingSwapStatus } from '../../core/execute/rules/standing.js'
import type { RateLimitState } from '../../core/rateLimiter.js'
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

const amountOf = (resource: string, data: unknown): bigint | undefined => {
  const fields = (data ?? {}) as Record<string, unknown>
  const value =
    resource === 'swapInfo'
      ? fields.estimateAmount
      : resource === 'swapRouteForOutput'
        ? fields.amountIn
        : fields.amountOut
  return typeof value === 'bigint' ? value : undefined
}

/**
 * One row per quote of the service at `baseUrl`, newest first: its age, its
 * staleTime and when it expires, and whether it is fresh (data fetched within
 * its staleTime, not invalidated, whose last fetch did not fail).
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
    const hasData = query.data !== undefined
    const quotedAt = hasData ? query.dataUpdatedAt : undefined
    const { staleTime } = query
    const expiresAt =
      quotedAt !== undefined && staleTime !== undefined && Number.isFinite(staleTime)
        ? quotedAt + staleTime
        : undefined
    const fresh =
      quotedAt !== undefined &&
      query.status !== 'error' &&
      !query.isInvalidated &&
      (staleTime === Number.POSITIVE_INFINITY || (expiresAt !== undefined && now < expiresAt))
    const freshness: QuoteFreshness = fresh
      ? 'fresh'
      : query.status === 'error'
        ? 'failed'
        : quotedAt === undefined
          ? query.fetchStatus === 'idle'
            ? 'waiting'
            : 'loading'
          : query.isInvalidated
            ? 'invalidated'
            : 'stale'
    rows.push({
      queryHash: query.queryHash,
      resource: key.resource,
      label: describeQuery(query.queryKey, symbols),
      amount: amountOf(key.resource, query.data),
      quotedAt,
      ageMs: quotedAt === undefined ? undefined : Math.max(0, now - quotedAt),
      staleTime,
      expiresAt,
      expiresInMs: expiresAt === undefined ? undefined : expiresAt - now,
      freshness,
      fetching: query.fetchStatus !== 'idle',
      observers: query.observers,
    })
  }
  // Those loading first, then the newest; last, those waiting for input (a debounced amount's).
  const order = (row: QuoteRow) =>
    row.quotedAt ?? (row.freshness === 'waiting' ? Number.MIN_SAFE_INTEGER : Number.MAX_SAFE_INTEGER)
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
}

/**
 * The limiter's state for the panel: the pause it applies and the one the
 * server requested (`state`), and from the last pause seen (`lastPause`),
 * the careful spell that follows it.
 *
 * @example
 * rateLimitRow(client.rateLimiter.getState(), { now: Date.now(), lastPause, carefulSpellMs })
 */
export function rateLimitRow(
  state: RateLimitState,
  {
    now,
    lastPause,
    carefulSpellMs,
  }: { now: number; lastPause?: RateLimitState | undefined; carefulSpellMs: number },
): RateLimitRow {
  const last = state.rateLimitedUntil !== undefined ? state : lastPause
  const carefulUntil =
    last?.rateLimitedUntil === undefined ? undefined : last.rateLimitedUntil + carefulSpellMs
  const paused = state.rateLimitedUntil !== undefined && now < state.rateLimitedUntil
  const careful = !paused && carefulUntil !== undefined && now < carefulUntil
  return {
    status: paused ? 'paused' : careful ? 'careful' : 'ready',
    appliedUntil: state.rateLimitedUntil,
    appliedInMs: state.rateLimitedUntil === undefined ? undefined : state.rateLimitedUntil - now,
    requestedUntil: state.requestedUntil,
    requestedInMs: state.requestedUntil === undefined ? undefined : state.requestedUntil - now,
    capped: state.capped,
    lastPauseUntil: paused || careful ? last?.rateLimitedUntil : undefined,
    carefulUntil: paused || careful ? carefulUntil : undefined,
    carefulInMs: paused || careful ? (carefulUntil as number) - now : undefined,
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
export function requestEventKind(facts: QueryEventFacts): RequestEventKind | undefined {
  const { type, actionType, before, after } = facts
  const wasFetching = before === 'fetching' || before === 'paused'
  if (type === 'removed') return wasFetching ? 'aborted' : undefined
  if (type !== 'updated') return undefined
  switch (actionType) {
    case 'fetch':
      return before === 'idle' || before === undefined ? 'started' : undefined
    case 'success':
      return facts.manual ? undefined : 'succeeded'
    case 'error':
      return facts.cancelled ? 'aborted' : 'failed'
    case 'failed':
      return 'retrying'
    case 'pause':
      return 'paused'
    case 'setState':
      return wasFetching && after === 'idle' ? 'aborted' : undefined
    default:
      return undefined
  }
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
  {
    baseUrl,
    now,
    startedAt,
    symbols = symbolsFrom(queries),
  }: {
    baseUrl: string
    now: number
    startedAt: ReadonlyMap<string, number>
    symbols?: ReadonlyMap<string, string>
  },
): InFlightRow[] {
  const rows: InFlightRow[] = []
  for (const query of queries) {
    if (query.fetchStatus === 'idle' || !isOfService(query.queryKey, baseUrl)) continue
    const since = startedAt.get(query.queryHash)
    rows.push({
      queryHash: query.queryHash,
      resource: readKey(query.queryKey)?.resource ?? '?',
      label: describeQuery(query.queryKey, symbols),
      fetchStatus: query.fetchStatus,
      since,
      forMs: since === undefined ? undefined : now - since,
      failures: query.fetchFailureCount,
    })
  }
  return rows.sort((a, b) => (a.since ?? 0) - (b.since ?? 0))
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
  const counts: Record<RequestEventKind, number> = {
    started: 0,
    succeeded: 0,
    failed: 0,
    retrying: 0,
    aborted: 0,
    paused: 0,
  }
  const mine = events.filter((event) => isOfService(event.queryKey, baseUrl))
  for (const event of mine) counts[event.kind] += 1
  const rows = mine
    .slice(-limit)
    .reverse()
    .map((event) => ({
      ...event,
      resource: readKey(event.queryKey)?.resource ?? '?',
      label: describeQuery(event.queryKey, symbols),
      agoMs: now - event.at,
    }))
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
  {
    now,
    journalOf,
    checks = new Map(),
    isRunning = () => false,
    symbols = new Map(),
  }: {
    now: number
    journalOf: (record: PendingSwap) => readonly JournalEntry[]
    checks?: ReadonlyMap<string, SettleState>
    isRunning?: (id: string) => boolean
    symbols?: ReadonlyMap<string, string>
  },
): PendingSwapRow[] {
  return [...records]
    .sort((a, b) => a.createdAt - b.createdAt)
    .map((record) => {
      const settle = checks.get(record.id) ?? { state: 'unchecked' }
      const { id, version, chainId, account, amountIn, minAmountOut, to, step, createdAt, updatedAt } = record
      return {
        id,
        version,
        chainId,
        account,
        label: `${short(record.token0, symbols)} → ${short(record.token1, symbols)}`,
        amountIn,
        minAmountOut,
        to,
        step,
        createdAt,
        updatedAt,
        journal: journalOf(record).map((entry) => ({ ...entry, agoMs: now - entry.at })),
        running: isRunning(record.id),
        settle,
        settled:
          settle.state === 'checked' &&
          (settle.status === 'confirmed' || settle.status === 'reverted' || settle.status === 'dropped'),
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
  simulated: OutcomeRow | undefined
  realized: OutcomeRow | undefined
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

const outcomeOf = (value: unknown): OutcomeRow | undefined => {
  if (typeof value !== 'object' || value === null) return undefined
  const { amountIn, amountOut, method, gasUsed } = value as Record<string, unknown>
  return {
    amountIn: typeof amountIn === 'bigint' ? amountIn : undefined,
    amountOut: typeof amountOut === 'bigint' ? amountOut : undefined,
    method: typeof method === 'string' ? method : undefined,
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
  data: Record<string, unknown>,
  error: Record<string, unknown> | undefined,
  waived: boolean,
): AllowlistDecision {
  const name = typeof error?.name === 'string' ? error.name : undefined
  if (name === 'UntrustedAddressError')
    return {
      decision: 'refused',
      detail: `${String(error?.role)} ${String(error?.address)} on chain ${String(error?.chainId)}`,
    }
  if (name === 'InvalidParameterError' && error?.parameter === 'trustedAddresses')
    return { decision: 'missing', detail: 'no trustedAddresses: every swap is refused' }
  const swapInfo = (data.swapInfo ?? {}) as Record<string, unknown>
  const checked = [
    swapInfo.transferAddress ? `router ${String(swapInfo.transferAddress)}` : undefined,
    swapInfo.approvalAddress ? `spender ${String(swapInfo.approvalAddress)}` : undefined,
  ]
    .filter(Boolean)
    .join(', ')
  const onChain = data.chainId === undefined ? '' : ` on chain ${String(data.chainId)}`
  if (status === 'success' || pastAllowlist(error))
    return waived
      ? { decision: 'waived', detail: 'dangerouslyTrustAnyAddress: the outcome check alone' }
      : {
          decision: 'passed',
          detail: checked ? `${checked}${onChain}` : 'the router and spender were trusted',
        }
  if (status === 'pending' || status === 'idle') return { decision: 'pending', detail: 'the flow is running' }
  return {
    decision: 'not reached',
    detail: name ? `stopped before the check (${name})` : 'stopped before the check',
  }
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
  for (const mutation of mutations) {
    const [name, keyParameters] = mutation.mutationKey ?? []
    if (name !== 'executeSwap' && name !== 'resumeSwap') continue
    if ((keyParameters as { baseUrl?: unknown } | undefined)?.baseUrl !== baseUrl) continue
    const kind = name === 'executeSwap' ? 'execute' : 'resume'
    const variables = (mutation.variables ?? {}) as Record<string, unknown>
    // A resume swaps the record's tokens and amount.
    const swap = (kind === 'resume' ? (variables.record ?? {}) : variables) as Record<string, unknown>
    const data = (mutation.data ?? {}) as Record<string, unknown>
    const error =
      typeof mutation.error === 'object' && mutation.error !== null
        ? (mutation.error as Record<string, unknown>)
        : undefined
    const hashes = Array.isArray(data.transactionHashes)
      ? (data.transactionHashes as unknown[]).map(String)
      : []
    rows.push({
      mutationId: mutation.mutationId,
      kind,
      status: mutation.status,
      submittedAt: mutation.submittedAt,
      agoMs: now - mutation.submittedAt,
      label: `${short(swap.token0, symbols)} → ${short(swap.token1, symbols)}`,
      amountIn: swap.amountIn as bigint | string | undefined,
      minAmountOut: variables.minAmountOut as bigint | string | undefined,
      simulated: outcomeOf(data.simulated),
      realized: outcomeOf(data.realized),
      floorEnforcement: typeof data.floorEnforcement === 'string' ? data.floorEnforcement : undefined,
      mode: typeof data.mode === 'string' ? data.mode : undefined,
      hashes,
      allowlist:
        kind === 'resume' && typeof data.resumed === 'string' && data.resumed !== 'swapped'
          ? { decision: 'not reached', detail: `the resume swapped nothing (${data.resumed})` }
          : allowlistOf(
              mutation.status,
              data,
              error,
              waived || variables.dangerouslyTrustAnyAddress === true,
            ),
      error: error
        ? {
            name: typeof error.name === 'string' ? error.name : 'Error',
            message: String(error.shortMessage ?? error.message ?? ''),
            violations: describeViolations(error.violations),
          }
        : undefined,
      resumed:
        typeof data.resumed === 'string'
          ? `${data.resumed}${typeof data.status === 'string' ? ` (${data.status})` : ''}`
          : undefined,
    })
  }
  return rows.sort((a, b) => b.submittedAt - a.submittedAt)
}
