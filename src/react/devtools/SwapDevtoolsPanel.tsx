'use client'

import type { QueryClient } from '@tanstack/react-query'
import {
  type CSSProperties,
  type ReactElement,
  type ReactNode,
  useCallback,
  useContext,
  useEffect,
  useReducer,
  useRef,
  useState,
  useSyncExternalStore,
} from 'react'
import { checkPendingSwap } from '../../core/execute/checkPendingSwap.js'
import { isPendingSwapRunning } from '../../core/execute/records/claims.js'
import {
  getPendingSwaps,
  journalOf,
  type PendingSwap,
  resolveStorage,
} from '../../core/execute/records/pendingSwaps.js'
import type { ExecuteSwapStep } from '../../core/execute/types.js'
import { carefulSpellMs, type RateLimitState } from '../../core/rateLimiter.js'
import { createFailureReport } from '../../core/report/createFailureReport.js'
import { type QueryResource, queryDefaults } from '../../query/defaults.js'
import { SwapContext, type SwapContextValue } from '../context.js'
import { formatDuration, formatValue, shortHex } from './format.js'
import {
  type ExecutionRow,
  executionRows,
  inFlightRows,
  isOfService,
  type MutationSnapshot,
  type PendingSwapRow,
  pendingSwapRows,
  type QuoteRow,
  quoteRows,
  type RateLimitRow,
  rateLimitRow,
  readKey,
  requestEventRows,
  type SettleState,
  symbolsFrom,
} from './rows.js'
import { snapshotQuery, watchOf, watchQueryClient } from './watchQueryClient.js'

/** The props of `SwapDevtoolsPanel`: its theme and how often it reads again. */
export type SwapDevtoolsPanelProps = {
  /** The devtools' theme (TanStack Devtools passes its own). Default `'light'`. */
  theme?: 'light' | 'dark' | undefined
  /** How often ages, countdowns and the stored journals are read again, in ms. Default 500. */
  refreshMs?: number | undefined
}

type Palette = Record<
  'background' | 'text' | 'muted' | 'border' | 'header' | 'good' | 'warn' | 'bad' | 'info',
  string
>

const palettes: Record<'light' | 'dark', Palette> = {
  light: {
    background: '#ffffff',
    text: '#1f2328',
    muted: '#59636e',
    border: '#d1d9e0',
    header: '#f6f8fa',
    good: '#1a7f37',
    warn: '#9a6700',
    bad: '#cf222e',
    info: '#0969da',
  },
  dark: {
    background: '#0d1117',
    text: '#e6edf3',
    muted: '#9198a1',
    border: '#3d444d',
    header: '#151b23',
    good: '#3fb950',
    warn: '#d29922',
    bad: '#f85149',
    info: '#4493f8',
  },
}

/**
 * The token-swap-hooks panel for TanStack Devtools (or any page): the rate
 * limiter's 429 pause (applied and requested), each quote's age, staleTime
 * and freshness, the fetches in flight and those aborted, the stored swap
 * journals with where each stands on chain (checked on demand, read-only),
 * the limiter's tokens, and the last executions' running step, simulated
 * and realized outcomes, allowlist decision and errors, with a "Copy report"
 * button (`createFailureReport`) on each that failed. Reads the nearest `<SwapProvider>` and its
 * QueryClient, and writes nothing; outside a provider it says where to put it.
 *
 * @example
 * import { SwapDevtoolsPanel } from 'token-swap-hooks/devtools'
 *
 * <SwapProvider baseUrl="https://swap.example.com">
 *   <App />
 *   {import.meta.env.DEV && <SwapDevtoolsPanel />}
 * </SwapProvider>
 */
export function SwapDevtoolsPanel({
  theme = 'light',
  refreshMs = 500,
}: SwapDevtoolsPanelProps): ReactElement {
  const context = useContext(SwapContext)
  const palette = palettes[theme === 'dark' ? 'dark' : 'light']
  return (
    <div
      data-testid="swap-devtools"
      style={{
        fontFamily: 'ui-sans-serif, system-ui, sans-serif',
        fontSize: 12,
        lineHeight: 1.45,
        color: palette.text,
        background: palette.background,
        padding: 12,
        height: '100%',
        boxSizing: 'border-box',
        overflow: 'auto',
      }}
    >
      {context ? (
        <ConnectedPanel context={context} palette={palette} refreshMs={refreshMs} />
      ) : (
        <p role="note" style={{ margin: 0 }}>
          <strong>token-swap-hooks</strong>: no <code>&lt;SwapProvider&gt;</code> above this panel. Render{' '}
          <code>&lt;TanStackDevtools plugins={'{[swapDevtoolsPlugin()]}'} /&gt;</code> inside your{' '}
          <code>&lt;SwapProvider&gt;</code>, whose client, QueryClient and storage the panel reads.
        </p>
      )}
    </div>
  )
}

/** The current time, read again every `intervalMs`. */
function useNow(intervalMs: number): number {
  const [now, setNow] = useState(() => Date.now())
  useEffect(() => {
    const timer = setInterval(() => setNow(Date.now()), Math.max(50, intervalMs))
    return () => clearInterval(timer)
  }, [intervalMs])
  return now
}

/** A re-render whenever the QueryClient's queries or mutations change. */
function useCacheVersion(queryClient: QueryClient): number {
  const [version, bump] = useReducer((count: number) => count + 1, 0)
  useEffect(() => {
    const stopQueries = watchQueryClient(queryClient, bump)
    const stopMutations = queryClient.getMutationCache().subscribe(bump)
    return () => {
      stopQueries()
      stopMutations()
    }
  }, [queryClient])
  return version
}

/** The 429 pause of the client, and the last one seen (its careful spell follows it). */
function useRateLimit(context: SwapContextValue): {
  state: RateLimitState
  lastPause: RateLimitState | undefined
} {
  const { rateLimiter } = context.client
  const state = useSyncExternalStore(rateLimiter.subscribe, rateLimiter.getState, rateLimiter.getState)
  const lastPause = useRef<{ limiter: unknown; state: RateLimitState } | undefined>(undefined)
  if (state.rateLimitedUntil !== undefined) lastPause.current = { limiter: rateLimiter, state }
  return {
    state,
    lastPause: lastPause.current?.limiter === rateLimiter ? lastPause.current.state : undefined,
  }
}

type Stored = { records: PendingSwap[]; error: string | undefined; storage: boolean }

/** The records in the provider's storage, read again every `intervalMs` (reading only). */
function useStoredSwaps(context: SwapContextValue, intervalMs: number): Stored {
  const storage = resolveStorage(context.execution.storage)
  const [stored, setStored] = useState<Stored>({ records: [], error: undefined, storage: !!storage })
  const last = useRef('')
  useEffect(() => {
    last.current = ''
    if (!storage) {
      setStored({ records: [], error: undefined, storage: false })
      return
    }
    let live = true
    const read = () =>
      getPendingSwaps(storage).then(
        (records) => {
          const text = JSON.stringify(records)
          if (!live || text === last.current) return
          last.current = text
          setStored({ records, error: undefined, storage: true })
        },
        (error: unknown) => {
          if (!live) return
          last.current = ''
          setStored({
            records: [],
            error: String((error as Error | undefined)?.message ?? error),
            storage: true,
          })
        },
      )
    void read()
    const timer = setInterval(read, Math.max(250, intervalMs))
    return () => {
      live = false
      clearInterval(timer)
    }
  }, [storage, intervalMs])
  return stored
}

/**
 * "Copy report": a failure report of an execution (`createFailureReport`) with what the panel saw of
 * it (its step, the service's fetches since it started, its stored journal), copied as JSON; then
 * `'Copied'` or why not, for the execution's row.
 */
function useCopyReport(
  { client, queryClient, execution }: SwapContextValue,
  records: readonly PendingSwap[],
): [copied: [id: number, text: string] | undefined, copy: (mutation: MutationSnapshot) => void] {
  const [copied, setCopied] = useState<[id: number, text: string]>()
  const copy = (mutation: MutationSnapshot) => {
    const { variables, submittedAt, error } = mutation
    const swap = (variables ?? {}) as Record<string, unknown>
    const record = records.find(
      (r) => r.token0 === swap.token0 && r.amountIn === String(swap.amountIn) && r.createdAt >= submittedAt,
    )
    const report = createFailureReport(error, {
      client,
      chainId: (swap.chainId as number | undefined) ?? execution.publicClient?.chain?.id,
      step: mutation.step as ExecuteSwapStep | undefined,
      journal: record && journalOf(record),
      requests: watchOf(queryClient)
        .events.filter(
          (event) => event.at >= submittedAt - 60_000 && isOfService(event.queryKey, client.baseUrl),
        )
        .map(({ at, kind, queryKey }) => {
          const { resource, parameters } = readKey(queryKey) ?? {}
          return { endpoint: resource, parameters: { ...parameters, baseUrl: undefined }, outcome: kind, at }
        }),
    })
    const done = (text: string) => setCopied([mutation.mutationId, text])
    navigator.clipboard.writeText(JSON.stringify(report, null, 2)).then(
      () => done('Copied'),
      (reason: unknown) => done(`Copy failed: ${(reason as Error | undefined)?.message ?? reason}`),
    )
  }
  return [copied, copy]
}

function ConnectedPanel({
  context,
  palette,
  refreshMs,
}: {
  context: SwapContextValue
  palette: Palette
  refreshMs: number
}) {
  const { client, queryClient, execution } = context
  const now = useNow(refreshMs)
  useCacheVersion(queryClient)
  const rateLimit = useRateLimit(context)
  const stored = useStoredSwaps(context, Math.max(1000, refreshMs))
  // Each check with the version of the record it read: a record written since is unchecked again.
  const [checks, setChecks] = useState<ReadonlyMap<string, { updatedAt: number; settle: SettleState }>>(
    new Map(),
  )

  const { walletClient, publicClient, trustedAddresses } = execution
  const canCheck = !!walletClient && !!publicClient
  const check = useCallback(
    async (record: PendingSwap) => {
      if (!walletClient || !publicClient) return
      const set = (settle: SettleState) =>
        setChecks((previous) => new Map(previous).set(record.id, { updatedAt: record.updatedAt, settle }))
      set({ state: 'checking' })
      try {
        const { status } = await checkPendingSwap({ walletClient, publicClient, trustedAddresses }, record)
        set({ state: 'checked', status, at: Date.now() })
      } catch (error) {
        const { shortMessage, message } = (error ?? {}) as { shortMessage?: unknown; message?: unknown }
        set({ state: 'failed', message: String(shortMessage ?? message ?? error), at: Date.now() })
      }
    },
    [walletClient, publicClient, trustedAddresses],
  )

  const [copied, copyReport] = useCopyReport(context, stored.records)

  const queries = queryClient
    .getQueryCache()
    .getAll()
    .map((query) => {
      const resource = readKey(query.queryKey)?.resource as QueryResource | undefined
      const fallback = resource
        ? (context.queryDefaults[resource]?.staleTime ?? queryDefaults[resource]?.staleTime)
        : undefined
      return snapshotQuery(query, typeof fallback === 'number' ? fallback : undefined)
    })
  const symbols = symbolsFrom(queries)
  const baseUrl = client.baseUrl
  const watch = watchOf(queryClient)
  const mutations = queryClient.getMutationCache().getAll().map(snapshotMutation)

  const sections = {
    rateLimit: rateLimitRow(rateLimit.state, {
      now,
      lastPause: rateLimit.lastPause,
      carefulSpellMs,
      bucket: client.rateLimiter.getTokens?.(),
    }),
    quotes: quoteRows(queries, { baseUrl, now, symbols }),
    inFlight: inFlightRows(queries, { baseUrl, now, startedAt: watch.startedAt, symbols }),
    events: requestEventRows(watch.events, { baseUrl, now, symbols }),
    pending: pendingSwapRows(stored.records, {
      now,
      journalOf,
      checks: new Map(
        stored.records.flatMap((record) => {
          const check = checks.get(record.id)
          return check?.updatedAt === record.updatedAt ? [[record.id, check.settle] as const] : []
        }),
      ),
      isRunning: isPendingSwapRunning,
      symbols,
    }),
    executions: executionRows(mutations, {
      baseUrl,
      now,
      waived: execution.dangerouslyTrustAnyAddress === true,
      symbols,
    }).slice(0, 5),
  }

  return (
    <>
      <header style={{ display: 'flex', gap: 8, alignItems: 'baseline', marginBottom: 8 }}>
        <strong style={{ fontSize: 13 }}>token-swap-hooks</strong>
        <code style={{ color: palette.muted }}>{baseUrl}</code>
      </header>
      <RateLimitSection row={sections.rateLimit} palette={palette} />
      <QuotesSection rows={sections.quotes} palette={palette} />
      <RequestsSection inFlight={sections.inFlight} events={sections.events} palette={palette} />
      <PendingSwapsSection
        rows={sections.pending}
        stored={stored}
        canCheck={canCheck}
        onCheck={(id) => {
          const record = stored.records.find((item) => item.id === id)
          if (record) void check(record)
        }}
        palette={palette}
      />
      <ExecutionsSection
        rows={sections.executions}
        palette={palette}
        copied={copied}
        onCopy={(id) => {
          const mutation = mutations.find((item) => item.mutationId === id)
          if (mutation) copyReport(mutation)
        }}
      />
    </>
  )
}

/** What the panel reads of a mutation (any @tanstack/react-query 5's `Mutation`). */
type MutationLike = {
  mutationId: number
  options: { mutationKey?: readonly unknown[] | undefined; meta?: Record<string, unknown> | undefined }
  state: Pick<MutationSnapshot, 'status' | 'submittedAt' | 'variables' | 'data' | 'error'>
}

function snapshotMutation({ mutationId, options, state }: MutationLike): MutationSnapshot {
  const { status, submittedAt, variables, data, error } = state
  const { mutationKey, meta } = options
  return { mutationId, mutationKey, status, submittedAt, variables, data, error, step: meta?.step }
}

// Building blocks, inline-styled.

function Section({
  title,
  summary,
  children,
  palette,
}: {
  title: string
  summary?: ReactNode
  children: ReactNode
  palette: Palette
}) {
  return (
    <section
      aria-label={title}
      style={{ border: `1px solid ${palette.border}`, borderRadius: 6, marginBottom: 10, overflow: 'hidden' }}
    >
      <h3
        style={{
          margin: 0,
          padding: '4px 8px',
          fontSize: 12,
          background: palette.header,
          borderBottom: `1px solid ${palette.border}`,
          display: 'flex',
          gap: 8,
          alignItems: 'baseline',
        }}
      >
        {title}
        {summary !== undefined && (
          <span style={{ fontWeight: 'normal', color: palette.muted }}>{summary}</span>
        )}
      </h3>
      <div style={{ padding: 8 }}>{children}</div>
    </section>
  )
}

function Badge({ children, color }: { children: ReactNode; color: string }) {
  return (
    <span
      style={{
        color,
        border: `1px solid ${color}`,
        borderRadius: 4,
        padding: '0 4px',
        fontSize: 11,
        whiteSpace: 'nowrap',
      }}
    >
      {children}
    </span>
  )
}

function Empty({ children, palette }: { children: ReactNode; palette: Palette }) {
  return <p style={{ margin: 0, color: palette.muted }}>{children}</p>
}

const cell = (palette: Palette): CSSProperties => ({
  textAlign: 'left',
  padding: '2px 6px',
  borderBottom: `1px solid ${palette.border}`,
  verticalAlign: 'top',
})

function Table({
  label,
  columns,
  rows,
  palette,
}: {
  label: string
  columns: readonly string[]
  rows: readonly { key: string; cells: readonly ReactNode[] }[]
  palette: Palette
}) {
  return (
    <table aria-label={label} style={{ borderCollapse: 'collapse', width: '100%' }}>
      <thead>
        <tr>
          {columns.map((column) => (
            <th key={column} style={{ ...cell(palette), color: palette.muted, fontWeight: 'normal' }}>
              {column}
            </th>
          ))}
        </tr>
      </thead>
      <tbody>
        {rows.map((row) => (
          <tr key={row.key}>
            {row.cells.map((content, index) => (
              // biome-ignore lint/suspicious/noArrayIndexKey: a row's cells are in the columns' fixed order.
              <td key={index} style={cell(palette)}>
                {content}
              </td>
            ))}
          </tr>
        ))}
      </tbody>
    </table>
  )
}

const clock = (at: number | undefined) => (at === undefined ? '–' : new Date(at).toISOString().slice(11, 23))

function RateLimitSection({ row, palette }: { row: RateLimitRow; palette: Palette }) {
  const color = row.status === 'paused' ? palette.bad : row.status === 'careful' ? palette.warn : palette.good
  return (
    <Section title="Rate limit" summary={<Badge color={color}>{row.status}</Badge>} palette={palette}>
      {row.status === 'paused' ? (
        <dl style={{ margin: 0, display: 'grid', gridTemplateColumns: 'max-content 1fr', gap: '2px 12px' }}>
          <dt>applied pause</dt>
          <dd style={{ margin: 0 }} data-testid="pause-applied">
            every request waits {formatDuration(row.appliedInMs)} more (until {clock(row.appliedUntil)} UTC)
          </dd>
          <dt>requested by the service</dt>
          <dd style={{ margin: 0 }} data-testid="pause-requested">
            {formatDuration(row.requestedInMs)} (until {clock(row.requestedUntil)} UTC)
            {row.capped ? ': longer than maxRateLimitPauseMs, cut short' : ''}
          </dd>
          <dt>then careful</dt>
          <dd style={{ margin: 0 }}>
            one request at a time, half the rate, until {clock(row.carefulUntil)} UTC
          </dd>
        </dl>
      ) : row.status === 'careful' ? (
        <p style={{ margin: 0 }} data-testid="pause-careful">
          The 429 pause ended ({clock(row.lastPauseUntil)} UTC): one request at a time at half the rate for{' '}
          {formatDuration(row.carefulInMs)} more.
        </p>
      ) : (
        <Empty palette={palette}>No 429 pause: requests leave at the configured pace.</Empty>
      )}
      {row.capacity !== undefined && (
        <p style={{ margin: '4px 0 0' }} data-testid="limiter-tokens">
          tokens {row.tokens === Infinity ? '∞' : row.tokens?.toFixed(1)} of {formatValue(row.capacity)}
          {row.capacity === Infinity ? ' (no pacing)' : ''}
        </p>
      )}
    </Section>
  )
}

const freshnessColor = (row: QuoteRow, palette: Palette) =>
  row.freshness === 'fresh'
    ? palette.good
    : row.freshness === 'failed'
      ? palette.bad
      : row.freshness === 'loading' || row.freshness === 'waiting'
        ? palette.info
        : palette.warn

function QuotesSection({ rows: all, palette }: { rows: QuoteRow[]; palette: Palette }) {
  // A debounced amount leaves a query per amount typed, never fetched: counted, not listed.
  const rows = all.filter((row) => row.freshness !== 'waiting')
  const waiting = all.length - rows.length
  const fresh = rows.filter((row) => row.freshness === 'fresh').length
  return (
    <Section
      title="Quotes"
      summary={`${rows.length} cached, ${fresh} fresh${waiting ? `, ${waiting} waiting for input` : ''}`}
      palette={palette}
    >
      {rows.length === 0 ? (
        <Empty palette={palette}>No quote in the cache yet.</Empty>
      ) : (
        <Table
          label="Quotes"
          palette={palette}
          columns={['quote', 'amount', 'age', 'staleTime', 'expires in', 'state']}
          rows={rows.map((row) => ({
            key: row.queryHash,
            cells: [
              <span key="what" title={row.queryHash}>
                <strong>{row.resource}</strong> {row.label}
              </span>,
              formatValue(row.amount),
              <span key="age" data-testid="quote-age">
                {formatDuration(row.ageMs)}
              </span>,
              formatDuration(row.staleTime),
              row.expiresInMs === undefined
                ? '–'
                : row.expiresInMs > 0
                  ? formatDuration(row.expiresInMs)
                  : 'expired',
              <span key="state" data-testid="quote-freshness">
                <Badge color={freshnessColor(row, palette)}>{row.freshness}</Badge>
                {row.fetching ? ' ⟳' : ''}
              </span>,
            ],
          }))}
        />
      )}
    </Section>
  )
}

function RequestsSection({
  inFlight,
  events,
  palette,
}: {
  inFlight: ReturnType<typeof inFlightRows>
  events: ReturnType<typeof requestEventRows>
  palette: Palette
}) {
  const kindColor = (kind: string) =>
    kind === 'aborted' || kind === 'failed'
      ? palette.bad
      : kind === 'retrying' || kind === 'paused'
        ? palette.warn
        : kind === 'succeeded'
          ? palette.good
          : palette.info
  return (
    <Section
      title="Requests"
      summary={
        <span data-testid="request-counts">
          {inFlight.length} in flight · {events.counts.aborted} aborted · {events.counts.retrying} retried ·{' '}
          {events.counts.failed} failed
        </span>
      }
      palette={palette}
    >
      {inFlight.length === 0 ? (
        <Empty palette={palette}>Nothing in flight.</Empty>
      ) : (
        <Table
          label="In flight"
          palette={palette}
          columns={['query', 'for', 'tries failed', '']}
          rows={inFlight.map((row) => ({
            key: row.queryHash,
            cells: [
              <span key="what">
                <strong>{row.resource}</strong> {row.label}
              </span>,
              formatDuration(row.forMs),
              row.failures,
              row.fetchStatus === 'paused' ? 'paused (offline)' : 'fetching',
            ],
          }))}
        />
      )}
      {events.rows.length > 0 && (
        <div style={{ marginTop: 6 }}>
          <Table
            label="Recent fetches"
            palette={palette}
            columns={['', 'query', 'ago']}
            rows={events.rows.map((row, index) => ({
              key: `${row.at}-${row.queryHash}-${index}`,
              cells: [
                <Badge key="kind" color={kindColor(row.kind)}>
                  {row.kind}
                </Badge>,
                <span key="what">
                  <strong>{row.resource}</strong> {row.label}
                </span>,
                formatDuration(row.agoMs),
              ],
            }))}
          />
        </div>
      )}
    </Section>
  )
}

const settleText = (row: PendingSwapRow): string => {
  const { settle } = row
  if (row.running) return 'running in this page'
  switch (settle.state) {
    case 'unchecked':
      return 'not checked'
    case 'checking':
      return 'checking…'
    case 'checked':
      return row.settled ? `${settle.status} (settled)` : settle.status
    case 'failed':
      return `check failed: ${settle.message}`
  }
}

function PendingSwapsSection({
  rows,
  stored,
  canCheck,
  onCheck,
  palette,
}: {
  rows: PendingSwapRow[]
  stored: Stored
  canCheck: boolean
  onCheck: (id: string) => void
  palette: Palette
}) {
  return (
    <Section title="Pending swaps" summary={`${rows.length} stored`} palette={palette}>
      {!stored.storage ? (
        <Empty palette={palette}>The provider records nothing (storage: false).</Empty>
      ) : stored.error ? (
        <p role="alert" style={{ margin: 0, color: palette.bad }}>
          The storage could not be read: {stored.error}
        </p>
      ) : rows.length === 0 ? (
        <Empty palette={palette}>No journal in the storage.</Empty>
      ) : (
        rows.map((row) => (
          <article
            key={row.id}
            aria-label={`pending swap ${row.id}`}
            style={{ borderBottom: `1px solid ${palette.border}`, paddingBottom: 6, marginBottom: 6 }}
          >
            <div style={{ display: 'flex', gap: 8, flexWrap: 'wrap', alignItems: 'baseline' }}>
              <strong>{row.label}</strong>
              <span>amountIn {row.amountIn}</span>
              <span>floor {row.minAmountOut}</span>
              <span style={{ color: palette.muted }}>
                chain {row.chainId} · account {shortHex(row.account)} · to {shortHex(row.to)} · {row.step}
                {row.version === 1 ? ' · 0.1.0 record' : ''}
              </span>
              <span data-testid="settle-state">
                <Badge
                  color={
                    row.settled ? palette.muted : row.settle.state === 'failed' ? palette.bad : palette.info
                  }
                >
                  {settleText(row)}
                </Badge>
              </span>
              <button
                type="button"
                disabled={!canCheck || row.settle.state === 'checking'}
                title={
                  canCheck
                    ? 'Reads the chain; sends nothing'
                    : 'Needs walletClient and publicClient on the provider'
                }
                onClick={() => onCheck(row.id)}
                style={{ fontSize: 11 }}
              >
                Check on chain
              </button>
            </div>
            <Table
              label={`journal ${row.id}`}
              palette={palette}
              columns={['step', 'event', 'hash / batch', 'nonce', 'ago']}
              rows={row.journal.map((entry, index) => ({
                key: `${index}`,
                cells: [
                  entry.step,
                  entry.event,
                  shortHex(entry.hash ?? entry.batchId),
                  entry.nonce === undefined ? '–' : `${entry.nonce}${entry.pinned ? ' (pinned)' : ''}`,
                  formatDuration(entry.agoMs),
                ],
              }))}
            />
          </article>
        ))
      )}
    </Section>
  )
}

function Outcome({ label, outcome }: { label: string; outcome: ExecutionRow['simulated'] }) {
  if (!outcome) return null
  return (
    <div data-testid={`outcome-${label}`}>
      {label}: token0 −{formatValue(outcome.amountIn)}, token1 +{formatValue(outcome.amountOut)} (
      {outcome.method ?? '?'}
      {outcome.gasUsed?.length ? `, gas ${outcome.gasUsed.map(String).join(' + ')}` : ''})
    </div>
  )
}

function ExecutionsSection({
  rows,
  palette,
  copied,
  onCopy,
}: {
  rows: ExecutionRow[]
  palette: Palette
  copied: [id: number, text: string] | undefined
  onCopy: (id: number) => void
}) {
  const decisionColor = (decision: string) =>
    decision === 'passed'
      ? palette.good
      : decision === 'refused' || decision === 'missing'
        ? palette.bad
        : palette.warn
  return (
    <Section
      title="Executions"
      summary={rows.length ? `the last ${rows.length}` : undefined}
      palette={palette}
    >
      {rows.length === 0 ? (
        <Empty palette={palette}>No swap executed yet.</Empty>
      ) : (
        rows.map((row) => (
          <article
            key={row.mutationId}
            aria-label={`execution ${row.mutationId}`}
            style={{ borderBottom: `1px solid ${palette.border}`, paddingBottom: 6, marginBottom: 6 }}
          >
            <div style={{ display: 'flex', gap: 8, flexWrap: 'wrap', alignItems: 'baseline' }}>
              <strong>
                {row.kind} {row.label}
              </strong>
              <span>amountIn {formatValue(row.amountIn)}</span>
              {row.minAmountOut !== undefined && <span>floor {formatValue(row.minAmountOut)}</span>}
              <Badge
                color={
                  row.status === 'error'
                    ? palette.bad
                    : row.status === 'success'
                      ? palette.good
                      : palette.info
                }
              >
                {row.status}
              </Badge>
              <span style={{ color: palette.muted }}>{formatDuration(row.agoMs)} ago</span>
              {row.error && (
                <button type="button" onClick={() => onCopy(row.mutationId)} style={{ fontSize: 11 }}>
                  Copy report
                </button>
              )}
              {copied?.[0] === row.mutationId && <span role="status">{copied[1]}</span>}
            </div>
            {row.step && <div data-testid="execution-step">step {row.step}</div>}
            <Outcome label="simulated" outcome={row.simulated} />
            <Outcome label="realized" outcome={row.realized} />
            {(row.floorEnforcement || row.mode) && (
              <div>
                floor enforced {row.floorEnforcement ?? '?'} · {row.mode ?? '?'}
                {row.hashes.length ? ` · ${row.hashes.map(shortHex).join(', ')}` : ''}
              </div>
            )}
            {row.resumed && <div>resume: {row.resumed}</div>}
            <div data-testid="allowlist">
              allowlist <Badge color={decisionColor(row.allowlist.decision)}>{row.allowlist.decision}</Badge>{' '}
              {row.allowlist.detail}
            </div>
            {row.error && (
              <div style={{ color: palette.bad }}>
                <strong>{row.error.name}</strong>: {row.error.message}
                {row.error.violations.length > 0 && (
                  <ul style={{ margin: '2px 0', paddingLeft: 18 }}>
                    {row.error.violations.map((violation) => (
                      <li key={violation}>{violation}</li>
                    ))}
                  </ul>
                )}
              </div>
            )}
          </article>
        ))
      )}
    </Section>
  )
}
