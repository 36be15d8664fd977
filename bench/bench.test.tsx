// `npm run bench`: ours against a baseline measured in the same run, on the same machine.
// Prints a table and writes bench/results.json. Not part of `npm test`: timings are not assertions.
import { writeFileSync } from 'node:fs'
import { cpus, totalmem } from 'node:os'
import { QueryClient, QueryClientProvider, useQuery } from '@tanstack/react-query'
import { act, cleanup, render, screen, waitFor } from '@testing-library/react'
import { type ReactNode, useState } from 'react'
import { parseUnits } from 'viem'
import { afterAll, expect, test } from 'vitest'
import { parseResponse, tokenDataListSchema, tokenListSchema } from '../src/core/schemas.js'
import { mockTokenAddresses as T } from '../src/mock/fixtures.js'
import { startMockServer } from '../src/mock/startMockServer.js'
import { SwapProvider } from '../src/react/context.js'
import { useSwapRoute } from '../src/react/hooks/useSwapRoute.js'

type Row = {
  benchmark: string
  metric: string
  ours: number
  baseline: number
  ratio: number
  target: string
}
const rows: Row[] = []
const row = (benchmark: string, metric: string, ours: number, baseline: number, target = '') =>
  rows.push({
    benchmark,
    metric,
    ours,
    baseline,
    ratio: baseline === 0 ? Number.NaN : ours / baseline,
    target,
  })
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms))
const median = (values: number[]) =>
  [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] as number

/** What a plain app writes without the library: useQuery over fetch, no debounce, default retries. */
function useRawRoute(baseUrl: string, amountIn: bigint | undefined, retry?: false) {
  return useQuery({
    queryKey: ['raw-route', baseUrl, amountIn?.toString()],
    enabled: amountIn !== undefined && amountIn > 0n,
    retry,
    queryFn: async ({ signal }) => {
      const response = await fetch(
        `${baseUrl}/swap/route?token0=${T.USDC}&token1=${T.WETH}&amount_in=${amountIn}`,
        { signal },
      )
      if (!response.ok) throw new Error(`HTTP ${response.status}`)
      return (await response.json()) as { amount_out: string }
    },
  })
}

/** The hook under test: ours, or the plain baseline. */
function routeHook(kind: 'ours' | 'baseline', baseUrl: string) {
  return kind === 'ours'
    ? (amountIn: bigint | undefined, debounceMs?: number) =>
        useSwapRoute({ token0: T.USDC, token1: T.WETH, amountIn, debounceMs })
    : (amountIn: bigint | undefined) => useRawRoute(baseUrl, amountIn)
}

function Providers({
  baseUrl,
  children,
  rateLimit,
}: {
  baseUrl: string
  children: ReactNode
  rateLimit?: { requestsPerSecond: number }
}) {
  const [queryClient] = useState(() => new QueryClient())
  return (
    <QueryClientProvider client={queryClient}>
      <SwapProvider baseUrl={baseUrl} rateLimit={rateLimit ?? false}>
        {children}
      </SwapProvider>
    </QueryClientProvider>
  )
}

test('1. typing: 8 keystrokes 40 ms apart', async () => {
  const server = await startMockServer()
  const typed = ['2', '25', '250', '2500', '25000', '2500', '250', '2505']
  async function run(kind: 'ours' | 'baseline') {
    server.service.clearLog()
    const useRoute = routeHook(kind, server.url)
    let setAmount: (value: string) => void = () => {}
    function Widget() {
      const [amount, set] = useState('')
      setAmount = set
      const amountIn = amount ? parseUnits(amount, 6) : undefined
      const route = useRoute(amountIn)
      return <p>{route.data ? 'quoted' : 'waiting'}</p>
    }
    render(
      <Providers baseUrl={server.url}>
        <Widget />
      </Providers>,
    )
    for (const value of typed) {
      act(() => setAmount(value))
      await act(() => sleep(40))
    }
    await waitFor(() => expect(screen.getByText('quoted')).toBeTruthy(), { timeout: 5000 })
    await act(() => sleep(400))
    cleanup()
    return server.service.count('/swap/route')
  }
  row(
    'Typing (8 keystrokes, 40 ms apart)',
    '/swap/route requests',
    await run('ours'),
    await run('baseline'),
    '1 request',
  )
  await server.stop()
}, 60_000)

test('2. fan-out: 1000 components reading one route', async () => {
  const server = await startMockServer()
  const pairs = 21
  async function run(kind: 'ours' | 'baseline') {
    server.service.clearLog()
    const useRoute = routeHook(kind, server.url)
    const amountIn = parseUnits('1000', 6)
    function Reader() {
      const route = useRoute(amountIn)
      return route.data ? <i>x</i> : null
    }
    const started = performance.now()
    const { container } = render(
      <Providers baseUrl={server.url}>
        {Array.from({ length: 1000 }, (_, index) => (
          // biome-ignore lint/suspicious/noArrayIndexKey: a fixed list
          <Reader key={index} />
        ))}
      </Providers>,
    )
    await waitFor(() => expect(container.querySelectorAll('i')).toHaveLength(1000), {
      timeout: 20_000,
      interval: 5,
    })
    const elapsed = performance.now() - started
    cleanup()
    return { elapsed, requests: server.service.count('/swap/route') }
  }
  const ours: number[] = []
  const baseline: number[] = []
  const ratios: number[] = []
  let requests = { ours: 0, baseline: 0 }
  // Warm-up: the first renders compile the code paths of both sides.
  await run('ours')
  await run('baseline')
  for (let i = 0; i < pairs; i++) {
    // Alternate which goes first, so that warm-up, GC and machine noise fall on both sides.
    const [a, b] =
      i % 2 === 0
        ? [await run('ours'), await run('baseline')]
        : await (async () => {
            const second = await run('baseline')
            return [await run('ours'), second]
          })()
    ours.push(a.elapsed)
    baseline.push(b.elapsed)
    // Each pair ran back to back: its ratio cancels what the shared machine was doing at the time.
    ratios.push(a.elapsed / b.elapsed)
    requests = { ours: a.requests, baseline: b.requests }
  }
  row('Fan-out (1000 readers of one route)', 'requests sent', requests.ours, requests.baseline, '1 request')
  row(
    'Fan-out (1000 readers of one route)',
    `render-to-data ms (median of ${pairs})`,
    median(ours),
    median(baseline),
  )
  rows.push({
    benchmark: 'Fan-out (1000 readers of one route)',
    metric: `render-to-data, median of ${pairs} back-to-back pair ratios`,
    ours: median(ratios),
    baseline: 1,
    ratio: median(ratios),
    target: 'ratio ≤ 1.3',
  })
  await server.stop()
}, 240_000)

test('3. rate-limit burst: 100 distinct quotes against 10 requests/s', async () => {
  async function run(kind: 'ours' | 'baseline') {
    const server = await startMockServer({ rateLimit: { requestsPerSecond: 10 } })
    const useRoute = routeHook(kind, server.url)
    function Quotes() {
      const routes = Array.from({ length: 100 }, (_, i) => {
        const amountIn = parseUnits(String(100 + i), 6)
        // biome-ignore lint/correctness/useHookAtTopLevel: a fixed number of hooks, in the same order on every render
        return useRoute(amountIn, 0)
      })
      const settled = routes.filter((route) => route.isSuccess || route.isError).length
      const ok = routes.filter((route) => route.isSuccess).length
      return <p data-testid="progress">{`${settled}/${ok}`}</p>
    }
    const started = performance.now()
    render(
      <Providers baseUrl={server.url} rateLimit={{ requestsPerSecond: 10 }}>
        <Quotes />
      </Providers>,
    )
    await waitFor(() => expect(screen.getByTestId('progress').textContent?.startsWith('100/')).toBe(true), {
      timeout: 120_000,
      interval: 20,
    })
    const seconds = (performance.now() - started) / 1000
    const succeeded = Number(screen.getByTestId('progress').textContent?.split('/')[1])
    cleanup()
    const tooMany = server.service.log.filter((entry) => entry.status === 429).length
    await server.stop()
    return { seconds, tooMany, succeeded }
  }
  const ours = await run('ours')
  const baseline = await run('baseline')
  row(
    'Rate-limit burst (100 quotes, 10 req/s)',
    '429 responses',
    ours.tooMany,
    baseline.tooMany,
    '0 (configured)',
  )
  row('Rate-limit burst (100 quotes, 10 req/s)', 'quotes answered', ours.succeeded, baseline.succeeded, '100')
  row('Rate-limit burst (100 quotes, 10 req/s)', 'total seconds', ours.seconds, baseline.seconds, '')
  // Ideal time (100 quotes at 10/s = 10 s) ÷ measured time, scaled by the share of quotes answered.
  const efficiency = (r: { seconds: number; succeeded: number }) => (10 / r.seconds) * (r.succeeded / 100)
  row(
    'Rate-limit burst (100 quotes, 10 req/s)',
    'efficiency (10 s ÷ total × share answered)',
    efficiency(ours),
    efficiency(baseline),
    '≥ 0.9',
  )
}, 300_000)

test('4. parsing: validating large list bodies', () => {
  const token = (i: number) => ({
    address: `0x${i.toString(16).padStart(40, '0')}`,
    symbol: `T${i}`,
    name: `Token ${i}`,
    decimals: 18,
    blacklisted: false,
    logoURI: `https://tokens.example/${i}.png`,
  })
  const tokenData = (i: number) => ({
    address: `0x${i.toString(16).padStart(40, '0')}`,
    symbol: `T${i}`,
    price_usd: 1.5 + i / 1000,
    liquidity_usd: 1_000_000 + i,
    volume_24h_usd: 50_000 + i,
    total_supply: String(10n ** 24n + BigInt(i)),
    market_cap_usd: 2_000_000 + i,
  })
  for (const [name, make, schema] of [
    ['/overview/tokens', token, tokenListSchema],
    ['/get_tokens_data', tokenData, tokenDataListSchema],
  ] as const) {
    for (const count of [10_000, 100_000]) {
      const body = JSON.stringify({ data: Array.from({ length: count }, (_, i) => make(i)) })
      const parseOnly: number[] = []
      const parseAndValidate: number[] = []
      for (let run = 0; run < 7; run++) {
        let started = performance.now()
        JSON.parse(body)
        parseOnly.push(performance.now() - started)
        started = performance.now()
        // What the client does with a body: JSON.parse, then validation at the edge.
        const data = parseResponse(schema, JSON.parse(body), { endpoint: name, url: name })
        parseAndValidate.push(performance.now() - started)
        expect(data).toHaveLength(count)
      }
      row(
        `Parsing ${name}, ${count / 1000}k records`,
        'ms (median of 7): JSON.parse + zod vs JSON.parse',
        median(parseAndValidate),
        median(parseOnly),
        '',
      )
    }
  }
}, 300_000)

afterAll(() => {
  const machine = {
    cpu: cpus()[0]?.model ?? 'unknown',
    cores: cpus().length,
    memoryGiB: Math.round(totalmem() / 2 ** 30),
    node: process.version,
    platform: process.platform,
  }
  const format = (value: number) => (Number.isInteger(value) ? String(value) : value.toFixed(2))
  const lines = [
    '| benchmark | metric | ours | baseline | ours ÷ baseline | target |',
    '|---|---|---|---|---|---|',
    ...rows.map(
      (r) =>
        `| ${r.benchmark} | ${r.metric} | ${format(r.ours)} | ${format(r.baseline)} | ${Number.isNaN(r.ratio) ? '–' : format(r.ratio)} | ${r.target} |`,
    ),
  ]
  console.log(
    `\n${lines.join('\n')}\n\nMachine: ${machine.cpu}, ${machine.cores} cores, ${machine.memoryGiB} GiB, Node ${machine.node}\n`,
  )
  writeFileSync(
    'bench/results.json',
    `${JSON.stringify({ command: 'npm run bench', date: new Date().toISOString(), machine, rows }, null, 2)}\n`,
  )
})
