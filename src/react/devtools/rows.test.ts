import { describe, expect, test } from 'vitest'
import type { PendingSwap } from '../../core/execute/records/pendingSwaps.js'
import { formatDuration, formatValue, shortHex } from './format.js'
import {
  describeQuery,
  describeViolations,
  executionRows,
  inFlightRows,
  type MutationSnapshot,
  pendingSwapRows,
  type QueryEventFacts,
  type QuerySnapshot,
  quoteRows,
  type RequestEvent,
  rateLimitRow,
  requestEventKind,
  requestEventRows,
  symbolsFrom,
} from './rows.js'

const baseUrl = 'https://swap.test'
const WETH = '0xC02aaA39b223FE8D0A0e5C4F27eAD9083C756Cc2'
const USDC = '0xA0b86991c6218b36c1d19D4a2e9Eb0cE3606eB48'
const ROUTER = '0x1111111111111111111111111111111111111111'
const SPENDER = '0x2222222222222222222222222222222222222222'
const now = 10_000_000

function query(overrides: Partial<QuerySnapshot> & { queryKey: readonly unknown[] }): QuerySnapshot {
  return {
    queryHash: JSON.stringify(overrides.queryKey),
    status: 'success',
    fetchStatus: 'idle',
    data: undefined,
    dataUpdatedAt: 0,
    error: null,
    isInvalidated: false,
    fetchFailureCount: 0,
    staleTime: 10_000,
    observers: 1,
    ...overrides,
  }
}

const routeKey = (amountIn: string, service = baseUrl) =>
  ['swapRoute', { baseUrl: service, token0: WETH, token1: USDC, amountIn }] as const
const route = { path: [WETH, USDC], amountOut: 2_000_000_000n }

describe('formatting', () => {
  test.each([
    [undefined, '–'],
    [null, '–'],
    ['', '–'],
    [10n ** 30n, '1000000000000000000000000000000'],
    [-5n, '-5'],
    ['text', 'text'],
    [1.5, '1.5'],
    [false, 'false'],
    [{ amountOut: 5n, path: ['0x1'] }, '{"amountOut":"5","path":["0x1"]}'],
    [[1n, 2n], '["1","2"]'],
  ])('formatValue(%s) is %s', (value, text) => {
    expect(formatValue(value)).toBe(text)
  })

  test('formatValue never throws on a cycle', () => {
    const cycle: Record<string, unknown> = {}
    cycle.self = cycle
    expect(formatValue(cycle)).toBe('[object Object]')
  })

  test.each([
    [undefined, '–'],
    [Number.NaN, '–'],
    [0, '0 ms'],
    [450.4, '450 ms'],
    [999, '999 ms'],
    [1000, '1.0 s'],
    [3250, '3.2 s'],
    [9999, '9.9 s'],
    [10_000, '10 s'],
    [59_999, '59 s'],
    [60_000, '1 min'],
    [125_000, '2 min 5 s'],
    [3_600_000, '1 h'],
    [3_840_000, '1 h 4 min'],
    [-2500, '−2.5 s'],
    [Number.POSITIVE_INFINITY, '∞'],
  ])('formatDuration(%s) is %s', (ms, text) => {
    expect(formatDuration(ms)).toBe(text)
  })

  test.each([
    [WETH, '0xC02a…6Cc2'],
    ['0x1234', '0x1234'],
    ['batch-1', 'batch-1'],
    [undefined, '–'],
  ])('shortHex(%s) is %s', (value, text) => {
    expect(shortHex(value)).toBe(text)
  })
})

describe('describeQuery and symbolsFrom', () => {
  const tokens = query({
    queryKey: ['tokens', { baseUrl }],
    data: [
      { address: WETH.toLowerCase(), symbol: 'WETH' },
      { address: USDC, symbol: 'USDC' },
      { symbol: 'no address' },
      null,
    ],
  })

  test('symbols come from the cached token lists, any letter case', () => {
    expect([
      ...symbolsFrom([
        tokens,
        query({ queryKey: ['pairs', { baseUrl }], data: [{ address: ROUTER, symbol: 'X' }] }),
      ]),
    ]).toEqual([
      [WETH.toLowerCase(), 'WETH'],
      [USDC.toLowerCase(), 'USDC'],
    ])
  })

  test.each([
    [
      routeKey('1000'),
      new Map(),
      'WETH → USDC, amountIn 1000'.replace('WETH', '0xC02a…6Cc2').replace('USDC', '0xA0b8…eB48'),
    ],
    [routeKey('1000'), symbolsFrom([tokens]), 'WETH → USDC, amountIn 1000'],
    [['tokenPrice', { baseUrl, address: USDC }], symbolsFrom([tokens]), 'address USDC'],
    [['tokens', { baseUrl }], new Map(), 'all'],
    [['pairs', { baseUrl, filterByToken: ['USDC'] }], new Map(), 'filterByToken USDC'],
    [['someone else', 42], new Map(), '["someone else",42]'],
  ] as const)('%j reads %s', (key, symbols, text) => {
    expect(describeQuery(key, symbols)).toBe(text)
  })
})

describe('quoteRows: age, expiry and freshness', () => {
  test.each([
    ['fetched 3 s ago, 10 s staleTime', { dataUpdatedAt: now - 3000, data: route }, 'fresh', 3000, 7000],
    ['fetched exactly staleTime ago', { dataUpdatedAt: now - 10_000, data: route }, 'stale', 10_000, 0],
    ['fetched 12 s ago', { dataUpdatedAt: now - 12_000, data: route }, 'stale', 12_000, -2000],
    ['staleTime 0 (always stale)', { dataUpdatedAt: now, data: route, staleTime: 0 }, 'stale', 0, 0],
    [
      'infinite staleTime',
      { dataUpdatedAt: now - 3_600_000, data: route, staleTime: Number.POSITIVE_INFINITY },
      'fresh',
      3_600_000,
      undefined,
    ],
    [
      'invalidated',
      { dataUpdatedAt: now - 1000, data: route, isInvalidated: true },
      'invalidated',
      1000,
      9000,
    ],
    [
      'a failed refresh keeps the old data',
      { dataUpdatedAt: now - 1000, data: route, status: 'error' as const, error: new Error('503') },
      'failed',
      1000,
      9000,
    ],
    [
      'first fetch',
      { status: 'pending' as const, fetchStatus: 'fetching' as const },
      'loading',
      undefined,
      undefined,
    ],
    ['waiting (debouncing, disabled)', { status: 'pending' as const }, 'waiting', undefined, undefined],
    [
      'no staleTime known',
      { dataUpdatedAt: now - 1000, data: route, staleTime: undefined },
      'stale',
      1000,
      undefined,
    ],
  ])('%s: %s', (_, overrides, freshness, ageMs, expiresInMs) => {
    const [row] = quoteRows([query({ queryKey: routeKey('1'), ...overrides })], { baseUrl, now })
    expect(row?.freshness).toBe(freshness)
    expect(row?.ageMs).toBe(ageMs)
    expect(row?.expiresInMs).toBe(expiresInMs)
  })

  test('the amount each quote gives, as a bigint', () => {
    const rows = quoteRows(
      [
        query({ queryKey: routeKey('1'), data: route, dataUpdatedAt: now - 3 }),
        query({
          queryKey: ['swapInfo', { baseUrl, token0: WETH, token1: USDC, amountIn: '1', to: ROUTER }],
          data: { estimateAmount: 7n },
          dataUpdatedAt: now - 2,
        }),
        query({
          queryKey: ['swapRouteForOutput', { baseUrl, token0: WETH, token1: USDC, amountOut: '5' }],
          data: { amountIn: 9n, route },
          dataUpdatedAt: now - 1,
        }),
        query({ queryKey: ['legacyPath', { baseUrl }], data: { path: [] }, dataUpdatedAt: now }),
      ],
      { baseUrl, now },
    )
    expect(rows.map((row) => [row.resource, row.amount])).toEqual([
      ['legacyPath', undefined],
      ['swapRouteForOutput', 9n],
      ['swapInfo', 7n],
      ['swapRoute', 2_000_000_000n],
    ])
  })

  test('only quotes of this service; loading ones first, then the newest, then those waiting', () => {
    const rows = quoteRows(
      [
        query({ queryKey: routeKey('6'), status: 'pending' }),
        query({ queryKey: routeKey('1'), data: route, dataUpdatedAt: now - 5000 }),
        query({ queryKey: routeKey('2', 'https://other.test'), data: route, dataUpdatedAt: now }),
        query({ queryKey: ['tokens', { baseUrl }], data: [], dataUpdatedAt: now }),
        query({ queryKey: routeKey('3'), status: 'pending', fetchStatus: 'fetching' }),
        query({ queryKey: routeKey('4'), status: 'pending', fetchStatus: 'fetching' }),
        query({ queryKey: routeKey('5'), data: route, dataUpdatedAt: now - 1000 }),
      ],
      { baseUrl, now },
    )
    expect(rows.map((row) => row.label.split('amountIn ')[1])).toEqual(['3', '4', '5', '1', '6'])
  })

  test('an empty cache has no rows', () => {
    expect(quoteRows([], { baseUrl, now })).toEqual([])
  })
})

describe('rateLimitRow: the pause applied and requested, then the careful spell', () => {
  const carefulSpellMs = 10_000
  const none = { rateLimitedUntil: undefined, requestedUntil: undefined, capped: false }
  const paused = { rateLimitedUntil: now + 2000, requestedUntil: now + 2000, capped: false }
  const capped = { rateLimitedUntil: now + 60_000, requestedUntil: now + 3_600_000, capped: true }

  test.each([
    [
      'never paused',
      none,
      undefined,
      0,
      { status: 'ready', appliedInMs: undefined, carefulUntil: undefined },
    ],
    [
      'paused',
      paused,
      undefined,
      0,
      { status: 'paused', appliedInMs: 2000, requestedInMs: 2000, carefulInMs: 12_000 },
    ],
    [
      'capped: applied a minute, requested an hour',
      capped,
      undefined,
      0,
      { status: 'paused', appliedInMs: 60_000, requestedInMs: 3_600_000, capped: true },
    ],
    // The limiter clears its state when the pause ends; the last pause seen says when it ended.
    [
      'pause over, careful',
      none,
      paused,
      5000,
      { status: 'careful', carefulInMs: 7000, lastPauseUntil: now + 2000 },
    ],
    ['careful spell over', none, paused, 12_000, { status: 'ready', carefulUntil: undefined }],
    // The state is still set for the instant between the pause's end and the limiter's timer.
    [
      'pause just over, state not cleared yet',
      paused,
      undefined,
      2000,
      { status: 'careful', carefulInMs: 10_000 },
    ],
  ])('%s', (_, state, lastPause, elapsed, expected) => {
    expect(rateLimitRow(state, { now: now + elapsed, lastPause, carefulSpellMs })).toMatchObject(expected)
  })
})

describe('requests: what a cache event means, what is in flight', () => {
  test.each<[QueryEventFacts, string | undefined]>([
    [{ type: 'updated', actionType: 'fetch', before: 'idle', after: 'fetching' }, 'started'],
    [{ type: 'updated', actionType: 'fetch', before: undefined, after: 'fetching' }, 'started'],
    // A refetch joining a fetch in flight is no new fetch.
    [{ type: 'updated', actionType: 'fetch', before: 'fetching', after: 'fetching' }, undefined],
    [{ type: 'updated', actionType: 'success', before: 'fetching', after: 'idle' }, 'succeeded'],
    [{ type: 'updated', actionType: 'success', manual: true, before: 'idle', after: 'idle' }, undefined],
    [{ type: 'updated', actionType: 'failed', before: 'fetching', after: 'fetching' }, 'retrying'],
    [{ type: 'updated', actionType: 'error', before: 'fetching', after: 'idle' }, 'failed'],
    [{ type: 'updated', actionType: 'error', cancelled: true, before: 'fetching', after: 'idle' }, 'aborted'],
    // TanStack cancels the fetch of a query its last reader left, and reverts its state.
    [{ type: 'updated', actionType: 'setState', before: 'fetching', after: 'idle' }, 'aborted'],
    [{ type: 'updated', actionType: 'setState', before: 'idle', after: 'idle' }, undefined],
    [{ type: 'updated', actionType: 'pause', before: 'fetching', after: 'paused' }, 'paused'],
    [{ type: 'updated', actionType: 'invalidate', before: 'idle', after: 'idle' }, undefined],
    [{ type: 'removed', before: 'fetching', after: undefined }, 'aborted'],
    [{ type: 'removed', before: 'idle', after: undefined }, undefined],
    [{ type: 'added', before: undefined, after: 'idle' }, undefined],
    [{ type: 'observerResultsUpdated', before: 'fetching', after: 'fetching' }, undefined],
  ])('%j is %s', (facts, kind) => {
    expect(requestEventKind(facts)).toBe(kind)
  })

  test('in flight: the service’s fetching queries, longest first, with their failed tries', () => {
    const rows = inFlightRows(
      [
        query({ queryKey: routeKey('1'), fetchStatus: 'fetching', fetchFailureCount: 1 }),
        query({ queryKey: routeKey('2'), fetchStatus: 'paused' }),
        query({ queryKey: routeKey('3') }),
        query({ queryKey: routeKey('4', 'https://other.test'), fetchStatus: 'fetching' }),
      ],
      {
        baseUrl,
        now,
        startedAt: new Map([
          [JSON.stringify(routeKey('1')), now - 500],
          [JSON.stringify(routeKey('2')), now - 4000],
        ]),
      },
    )
    expect(rows.map(({ fetchStatus, forMs, failures }) => ({ fetchStatus, forMs, failures }))).toEqual([
      { fetchStatus: 'paused', forMs: 4000, failures: 0 },
      { fetchStatus: 'fetching', forMs: 500, failures: 1 },
    ])
  })

  test('recent events: the service’s, newest first, counted by kind', () => {
    const event = (at: number, kind: RequestEvent['kind'], service = baseUrl): RequestEvent => ({
      at,
      kind,
      queryHash: String(at),
      queryKey: routeKey('1', service),
    })
    const { rows, counts } = requestEventRows(
      [
        event(now - 3000, 'started'),
        event(now - 2500, 'aborted'),
        event(now - 2000, 'started'),
        event(now - 1000, 'succeeded'),
        event(now - 500, 'aborted', 'https://other.test'),
      ],
      { baseUrl, now, limit: 3 },
    )
    expect(rows.map((row) => [row.kind, row.agoMs])).toEqual([
      ['succeeded', 1000],
      ['started', 2000],
      ['aborted', 2500],
    ])
    expect(counts).toEqual({ started: 2, succeeded: 1, failed: 0, retrying: 0, aborted: 1, paused: 0 })
  })
})

describe('pendingSwapRows: the journals and where each stands', () => {
  const record = (id: string, createdAt: number, overrides: Partial<PendingSwap> = {}): PendingSwap => ({
    id,
    version: 2,
    chainId: 1,
    account: ROUTER,
    baseUrl,
    token0: USDC,
    token1: WETH,
    amountIn: '750000000',
    to: ROUTER,
    minAmountOut: '200000000000000000',
    step: 'approved',
    journal: [
      { step: 'approve', event: 'sending', nonce: 4, at: createdAt },
      { step: 'approve', event: 'mined', hash: `0x${'a'.repeat(64)}`, at: createdAt + 1000 },
    ],
    createdAt,
    updatedAt: createdAt + 1000,
    ...overrides,
  })
  const journalOf = (item: PendingSwap) =>
    item.journal ?? [{ step: 'swap' as const, event: 'sent' as const, at: 0 }]

  test.each([
    [undefined, 'unchecked', false],
    [{ state: 'checking' as const }, 'checking', false],
    [{ state: 'checked' as const, status: 'resumable' as const, at: now }, 'checked', false],
    [{ state: 'checked' as const, status: 'pending' as const, at: now }, 'checked', false],
    [{ state: 'checked' as const, status: 'unknown' as const, at: now }, 'checked', false],
    [{ state: 'checked' as const, status: 'confirmed' as const, at: now }, 'checked', true],
    [{ state: 'checked' as const, status: 'reverted' as const, at: now }, 'checked', true],
    [{ state: 'checked' as const, status: 'dropped' as const, at: now }, 'checked', true],
    [{ state: 'failed' as const, message: 'chain mismatch', at: now }, 'failed', false],
  ])('check %j: %s, settled %s', (check, state, settled) => {
    const checks = new Map(check ? [['a', check]] : [])
    const [row] = pendingSwapRows([record('a', now - 5000)], { now, journalOf, checks })
    expect(row?.settle.state).toBe(state)
    expect(row?.settled).toBe(settled)
  })

  test('oldest first, each journal entry with its age; a 0.1.0 record through journalOf; running ones said', () => {
    const legacy = record('old', now - 9000, { version: 1, journal: undefined, step: 'swapping' })
    const rows = pendingSwapRows([record('new', now - 5000), legacy], {
      now,
      journalOf,
      isRunning: (id) => id === 'new',
      symbols: new Map([[USDC.toLowerCase(), 'USDC']]),
    })
    expect(rows.map((row) => [row.id, row.version, row.running, row.label])).toEqual([
      ['old', 1, false, 'USDC → 0xC02a…6Cc2'],
      ['new', 2, true, 'USDC → 0xC02a…6Cc2'],
    ])
    expect(rows[1]?.journal.map((entry) => [entry.step, entry.event, entry.nonce, entry.agoMs])).toEqual([
      ['approve', 'sending', 4, 5000],
      ['approve', 'mined', undefined, 4000],
    ])
    expect(rows[0]?.journal).toEqual([{ step: 'swap', event: 'sent', at: 0, agoMs: now }])
  })
})

describe('executionRows: the simulation, the allowlist and the error', () => {
  const swapInfo = { transferAddress: ROUTER, approvalAddress: SPENDER }
  const simulated = {
    amountIn: 1000n,
    amountOut: 5n * 10n ** 17n,
    method: 'eth_simulateV1',
    gasUsed: [46_000n, 145_000n],
  }
  const mutation = (overrides: Partial<MutationSnapshot>): MutationSnapshot => ({
    mutationId: 1,
    mutationKey: ['executeSwap', { baseUrl }],
    status: 'success',
    submittedAt: now - 2000,
    variables: { token0: USDC, token1: WETH, amountIn: 1000n, minAmountOut: 4n * 10n ** 17n },
    data: undefined,
    error: null,
    ...overrides,
  })
  const named = (name: string, fields: Record<string, unknown> = {}) =>
    Object.assign(new Error(`${name} message`), { name, shortMessage: `${name}: short`, ...fields })

  test.each([
    [
      'success',
      { data: { swapInfo, chainId: 1, simulated, floorEnforcement: 'onchain' } },
      'passed',
      `router ${ROUTER}, spender ${SPENDER} on chain 1`,
    ],
    [
      'success, waived by the variables',
      { variables: { dangerouslyTrustAnyAddress: true }, data: { swapInfo } },
      'waived',
      /dangerouslyTrustAnyAddress/,
    ],
    [
      'UntrustedAddressError',
      {
        status: 'error' as const,
        error: named('UntrustedAddressError', { role: 'approvalAddress', address: SPENDER, chainId: 1 }),
      },
      'refused',
      `approvalAddress ${SPENDER} on chain 1`,
    ],
    [
      'no trustedAddresses',
      { status: 'error' as const, error: named('InvalidParameterError', { parameter: 'trustedAddresses' }) },
      'missing',
      /every swap is refused/,
    ],
    [
      'UnsafeSwapOutcomeError: after the check (the flow ended simulating)',
      {
        status: 'error' as const,
        error: named('UnsafeSwapOutcomeError', { step: { status: 'quoting', action: 'simulating' } }),
      },
      'passed',
      /trusted/,
    ],
    [
      'QuoteChangedError: before the check (the flow ended fetching the quote)',
      {
        status: 'error' as const,
        error: named('QuoteChangedError', { step: { status: 'quoting', action: 'fetching-quote' } }),
      },
      'not reached',
      /QuoteChangedError/,
    ],
    [
      'a network error',
      { status: 'error' as const, error: 'offline' },
      'not reached',
      'stopped before the check',
    ],
    ['running', { status: 'pending' as const }, 'pending', /running/],
  ])('%s: %s', (_, overrides, decision, detail) => {
    const [row] = executionRows([mutation(overrides)], { baseUrl, now })
    expect(row?.allowlist.decision).toBe(decision)
    expect(row?.allowlist.detail).toMatch(detail)
  })

  test('the provider’s waiver applies to every row', () => {
    const [row] = executionRows([mutation({ data: { swapInfo } })], { baseUrl, now, waived: true })
    expect(row?.allowlist.decision).toBe('waived')
  })

  test('outcomes, enforcement, mode and hashes are read as the flow returns them', () => {
    const [row] = executionRows(
      [
        mutation({
          data: {
            swapInfo,
            chainId: 1,
            simulated,
            realized: { amountIn: 1000n, amountOut: 6n * 10n ** 17n, method: 'receipt' },
            floorEnforcement: 'onchain',
            mode: 'sequential',
            transactionHashes: ['0xaa', '0xbb'],
          },
        }),
      ],
      { baseUrl, now },
    )
    expect(row).toMatchObject({
      kind: 'execute',
      agoMs: 2000,
      amountIn: 1000n,
      minAmountOut: 4n * 10n ** 17n,
      simulated,
      realized: { amountIn: 1000n, amountOut: 6n * 10n ** 17n, method: 'receipt', gasUsed: undefined },
      floorEnforcement: 'onchain',
      mode: 'sequential',
      hashes: ['0xaa', '0xbb'],
      error: undefined,
    })
  })

  test('UnsafeSwapOutcomeError’s violations, each spelled out', () => {
    const violations = [
      { type: 'underpaid', token: WETH, amount: 0n, limit: 4n * 10n ** 17n },
      { type: 'overspent', token: USDC, amount: 2000n, limit: 1000n },
      { type: 'outflow', token: '0x0000000000000000000000000000000000000000', amount: 1n },
      { type: 'approval', token: USDC, spender: SPENDER },
    ]
    const [row] = executionRows(
      [mutation({ status: 'error', error: named('UnsafeSwapOutcomeError', { violations }) })],
      { baseUrl, now },
    )
    expect(row?.error).toEqual({
      name: 'UnsafeSwapOutcomeError',
      message: 'UnsafeSwapOutcomeError: short',
      violations: [
        `underpaid: 0 of ${WETH} (limit 400000000000000000)`,
        `overspent: 2000 of ${USDC} (limit 1000)`,
        'outflow: 1 of 0x0000000000000000000000000000000000000000',
        `approval: ${SPENDER} on ${USDC}`,
      ],
    })
    expect(describeViolations(undefined)).toEqual([])
  })

  test('resumes read the record’s swap; one that swapped nothing reached no allowlist', () => {
    const rows = executionRows(
      [
        mutation({
          mutationId: 2,
          mutationKey: ['resumeSwap', { baseUrl }],
          submittedAt: now - 100,
          variables: { record: { token0: USDC, token1: WETH, amountIn: '750' }, minAmountOut: 3n },
          data: { resumed: 'nothing', status: 'pending' },
        }),
        mutation({ mutationKey: ['executeSwap', { baseUrl: 'https://other.test' }] }),
        mutation({ mutationKey: ['somethingElse'] }),
        mutation({ mutationKey: undefined }),
      ],
      { baseUrl, now },
    )
    expect(rows).toHaveLength(1)
    expect(rows[0]).toMatchObject({
      kind: 'resume',
      amountIn: '750',
      minAmountOut: 3n,
      resumed: 'nothing (pending)',
      allowlist: { decision: 'not reached' },
    })
  })
})

describe('issue 27: the running step and the limiter’s tokens', () => {
  const simulated = { amountIn: 5n, amountOut: 7n, method: 'eth_call' }
  const running: MutationSnapshot = {
    mutationId: 3,
    mutationKey: ['executeSwap', { baseUrl }],
    status: 'pending',
    submittedAt: now - 100,
    variables: { token0: USDC, token1: WETH, amountIn: 5n },
    data: undefined,
    error: null,
    step: { status: 'swapping', action: 'waiting-for-swap', simulated },
  }

  test('a running execution: its step, and the simulated outcome its step carries', () => {
    const [row] = executionRows([running], { baseUrl, now })
    expect(row).toMatchObject({
      step: 'swapping · waiting-for-swap',
      simulated: { amountIn: 5n, amountOut: 7n, method: 'eth_call', gasUsed: undefined },
    })
    const [done] = executionRows([{ ...running, step: undefined, status: 'error', error: 'x' }], {
      baseUrl,
      now,
    })
    expect(done).toMatchObject({ step: undefined, simulated: undefined })
  })

  test('the bucket read, else nothing', () => {
    const state = { rateLimitedUntil: undefined, requestedUntil: undefined, capped: false }
    expect(
      rateLimitRow(state, { now, carefulSpellMs: 10_000, bucket: { tokens: 2.5, capacity: 5 } }),
    ).toMatchObject({
      tokens: 2.5,
      capacity: 5,
    })
    expect(rateLimitRow(state, { now, carefulSpellMs: 10_000 })).toMatchObject({
      tokens: undefined,
      capacity: undefined,
    })
  })
})
