import type { QueryClient } from '@tanstack/react-query'
import { act, fireEvent, render, screen, waitFor, within } from '@testing-library/react'
import { isValidElement, type ReactNode, useState } from 'react'
import { createPublicClient, createWalletClient, custom, parseUnits } from 'viem'
import { describe, expect, test } from 'vitest'
import { ALICE, USDC, WETH } from '../../../test/constants.js'
import { setupMockService } from '../../../test/mockService.js'
import { createQueryClient } from '../../../test/react.js'
import { UnsafeSwapOutcomeError } from '../../core/errors/execute.js'
import {
  createMemoryStorage,
  type PendingSwap,
  type SwapStorage,
  savePendingSwap,
} from '../../core/execute/records/pendingSwaps.js'
import { SwapProvider, type SwapProviderProps } from '../context.js'
import { useSwapRoute } from '../hooks/useSwapRoute.js'
import { SwapDevtoolsPanel } from './SwapDevtoolsPanel.js'
import { swapDevtoolsPlugin } from './swapDevtoolsPlugin.js'

const mock = setupMockService()

function renderPanel(
  provider: Partial<Extract<SwapProviderProps, { baseUrl: string }>> & { baseUrl: string },
  children?: ReactNode,
) {
  const queryClient = createQueryClient()
  const storage = (provider.storage || createMemoryStorage()) as SwapStorage
  const view = render(
    <SwapProvider queryClient={queryClient} storage={storage} {...provider}>
      {children}
      <SwapDevtoolsPanel refreshMs={50} />
    </SwapProvider>,
  )
  return { ...view, queryClient, storage }
}

const section = (name: string) => screen.getByRole('region', { name })

describe('SwapDevtoolsPanel', () => {
  test('without a provider: a hint where to put it, no error', () => {
    render(<SwapDevtoolsPanel />)
    expect(screen.getByRole('note').textContent).toMatch(
      /no <SwapProvider> above this panel.*swapDevtoolsPlugin/,
    )
  })

  test('an empty cache and storage: every section says so', async () => {
    const { baseUrl } = mock.use('msw')
    renderPanel({ baseUrl })
    expect(screen.getByText(baseUrl)).toBeTruthy()
    expect(within(section('Rate limit')).getByText('ready')).toBeTruthy()
    expect(within(section('Quotes')).getByText('No quote in the cache yet.')).toBeTruthy()
    expect(within(section('Requests')).getByText('Nothing in flight.')).toBeTruthy()
    expect(await within(section('Pending swaps')).findByText('No journal in the storage.')).toBeTruthy()
    expect(within(section('Executions')).getByText('No swap executed yet.')).toBeTruthy()
  })

  test('storage: false: the panel says the provider records nothing', () => {
    const { baseUrl } = mock.use('msw')
    render(
      <SwapProvider baseUrl={baseUrl} storage={false}>
        <SwapDevtoolsPanel />
      </SwapProvider>,
    )
    expect(within(section('Pending swaps')).getByText(/records nothing/)).toBeTruthy()
  })

  test('a quote: its bigint amount, its age ticking, fresh then stale at the provider’s staleTime', async () => {
    const { baseUrl, service } = mock.use('msw')
    const amountIn = parseUnits('1', 18)
    const expected = service.market.quote({ token0: WETH, token1: USDC, amountIn })?.amountOut
    function Quote() {
      useSwapRoute({ token0: WETH, token1: USDC, amountIn, debounceMs: 0 })
      return null
    }
    renderPanel(
      { baseUrl, queryDefaults: { swapRoute: { staleTime: 600, refetchInterval: false } } },
      <Quote />,
    )
    const quotes = section('Quotes')
    await waitFor(() => expect(within(quotes).getByTestId('quote-freshness').textContent).toBe('fresh'))
    const row = within(quotes).getByTestId('quote-age').closest('tr') as HTMLElement
    expect(row.textContent).toContain(
      `swapRoute ${WETH.slice(0, 6)}…${WETH.slice(-4)} → ${USDC.slice(0, 6)}…`,
    )
    expect(within(row).getByText(String(expected))).toBeTruthy()
    // The staleTime column: the provider's, as the hook's observer uses it.
    expect(row.querySelectorAll('td')[3]?.textContent).toBe('600 ms')
    const firstAge = within(quotes).getByTestId('quote-age').textContent
    await waitFor(() => expect(within(quotes).getByTestId('quote-age').textContent).not.toBe(firstAge))
    await waitFor(() => expect(within(quotes).getByTestId('quote-freshness').textContent).toBe('stale'), {
      timeout: 3000,
    })
    expect(within(row).getByText('expired')).toBeTruthy()
    // Reading sent nothing more.
    expect(service.count('/swap/route')).toBe(1)
  })

  test('a 429 whose Retry-After is longer than maxRateLimitPauseMs: the pause applied, the one requested, then careful', async () => {
    const { baseUrl, service } = mock.use('msw')
    service.fail({ status: 429, times: 1, endpoint: '/swap/route', headers: { 'retry-after': '5' } })
    function Quote() {
      useSwapRoute({ token0: WETH, token1: USDC, amountIn: 10n ** 18n, debounceMs: 0 })
      return null
    }
    renderPanel({ baseUrl, maxRateLimitPauseMs: 700 }, <Quote />)
    const rateLimit = section('Rate limit')
    await waitFor(() => expect(within(rateLimit).getByText('paused')).toBeTruthy())
    expect(within(rateLimit).getByTestId('pause-applied').textContent).toMatch(
      /^every request waits \d+ ms more/,
    )
    expect(within(rateLimit).getByTestId('pause-requested').textContent).toMatch(
      /^[45]\.\d s \(until .* UTC\): longer than maxRateLimitPauseMs, cut short$/,
    )
    await waitFor(() => expect(within(rateLimit).getByText('careful')).toBeTruthy(), { timeout: 3000 })
    expect(within(rateLimit).getByTestId('pause-careful').textContent).toMatch(/for \d+(\.\d)? s more/)
    await waitFor(
      () => expect(within(section('Quotes')).getByTestId('quote-freshness').textContent).toBe('fresh'),
      {
        timeout: 5000,
      },
    )
    expect(within(section('Requests')).getByTestId('request-counts').textContent).toMatch(/1 retried/)
  })

  test('a fetch superseded by a new amount is shown aborted; one in flight is listed', async () => {
    const { baseUrl, service } = mock.use('msw')
    service.setLatency(400)
    let setAmount: (amount: bigint) => void = () => {}
    function Quote() {
      const [amountIn, set] = useState(10n ** 18n)
      setAmount = set
      useSwapRoute({ token0: WETH, token1: USDC, amountIn, debounceMs: 0 })
      return null
    }
    renderPanel({ baseUrl }, <Quote />)
    const requests = section('Requests')
    await waitFor(() => expect(within(requests).getByRole('table', { name: 'In flight' })).toBeTruthy())
    act(() => setAmount(2n * 10n ** 18n))
    await waitFor(() =>
      expect(within(requests).getByTestId('request-counts').textContent).toMatch(/1 aborted/),
    )
    const recent = within(requests).getByRole('table', { name: 'Recent fetches' })
    expect(within(recent).getByText('aborted')).toBeTruthy()
    await waitFor(() => expect(within(requests).getByText('Nothing in flight.')).toBeTruthy(), {
      timeout: 3000,
    })
    expect(within(recent).getAllByText('succeeded')).toHaveLength(1)
  })

  test('a stored journal, read from the storage as it changes; a check that cannot read the chain says why', async () => {
    const { baseUrl } = mock.use('msw')
    const storage = createMemoryStorage()
    // A public client on chain 2, for a record on chain 1: the check refuses to read it.
    const transport = custom({ request: async ({ method }) => (method === 'eth_chainId' ? '0x2' : null) })
    renderPanel({
      baseUrl,
      storage,
      walletClient: createWalletClient({ account: ALICE, transport }),
      publicClient: createPublicClient({ transport }),
    })
    const pending = section('Pending swaps')
    await within(pending).findByText('No journal in the storage.')
    const at = Date.now() - 4000
    const record: PendingSwap = {
      id: 'rec1',
      version: 2,
      chainId: 1,
      account: ALICE,
      baseUrl,
      token0: USDC,
      token1: WETH,
      amountIn: '750000000',
      to: ALICE,
      minAmountOut: '200000000000000000',
      step: 'approved',
      journal: [
        { step: 'approve', event: 'sending', nonce: 7, at },
        { step: 'approve', event: 'sent', hash: `0x${'ab'.repeat(32)}`, at: at + 500 },
        { step: 'approve', event: 'mined', hash: `0x${'ab'.repeat(32)}`, at: at + 1500 },
      ],
      createdAt: at,
      updatedAt: at + 1500,
    }
    await savePendingSwap(storage, record)
    const journal = await within(pending).findByRole('table', { name: 'journal rec1' }, { timeout: 3000 })
    const lines = within(journal)
      .getAllByRole('row')
      .slice(1)
      .map((row) => [...row.querySelectorAll('td')].slice(0, 4).map((cell) => cell.textContent))
    expect(lines).toEqual([
      ['approve', 'sending', '–', '7'],
      ['approve', 'sent', '0xabab…abab', '–'],
      ['approve', 'mined', '0xabab…abab', '–'],
    ])
    expect(within(pending).getByText('amountIn 750000000')).toBeTruthy()
    expect(within(pending).getByTestId('settle-state').textContent).toBe('not checked')
    fireEvent.click(within(pending).getByRole('button', { name: 'Check on chain' }))
    await waitFor(() =>
      expect(within(pending).getByTestId('settle-state').textContent).toMatch(/^check failed: .*chain/i),
    )
    // Checking removed nothing.
    expect(await storage.getItem('token-swap-hooks:pending-swaps')).toContain('rec1')
    // The record written again (another tab sent the swap): its new entry shows, and the last check,
    // about the record as it was, no longer stands.
    await savePendingSwap(storage, {
      ...record,
      step: 'swapping',
      journal: [...(record.journal ?? []), { step: 'swap', event: 'sending', nonce: 8, at: Date.now() }],
      updatedAt: Date.now(),
    })
    await waitFor(() => expect(within(pending).getByTestId('settle-state').textContent).toBe('not checked'), {
      timeout: 3000,
    })
    const rows = within(within(pending).getByRole('table', { name: 'journal rec1' })).getAllByRole('row')
    expect(rows.at(-1)?.textContent).toMatch(/^swapsending–8/)
  })

  test('without clients on the provider, the check is offered disabled', async () => {
    const { baseUrl } = mock.use('msw')
    const storage = createMemoryStorage()
    await savePendingSwap(storage, {
      id: 'legacy',
      version: 1,
      chainId: 1,
      account: ALICE,
      baseUrl,
      token0: USDC,
      token1: WETH,
      amountIn: '1',
      to: ALICE,
      minAmountOut: '1',
      step: 'swapping',
      swapHash: `0x${'cd'.repeat(32)}`,
      createdAt: Date.now(),
      updatedAt: Date.now(),
    })
    renderPanel({ baseUrl, storage })
    const button = await screen.findByRole('button', { name: 'Check on chain' }, { timeout: 3000 })
    expect((button as HTMLButtonElement).disabled).toBe(true)
    // A 0.1.0 record: its journal read from its step and hash.
    expect(within(section('Pending swaps')).getByText('0.1.0 record', { exact: false })).toBeTruthy()
    expect(
      within(screen.getByRole('table', { name: 'journal legacy' })).getByText('0xcdcd…cdcd'),
    ).toBeTruthy()
  })

  test('executions from the mutation cache: the simulated and realized outcomes, the allowlist, the violations', async () => {
    const { baseUrl } = mock.use('msw')
    const { queryClient } = renderPanel({ baseUrl })
    const run = (queryClient: QueryClient, variables: unknown, result: () => Promise<unknown>) =>
      queryClient
        .getMutationCache()
        .build(queryClient, { mutationKey: ['executeSwap', { baseUrl }], mutationFn: result })
        .execute(variables)
        .catch(() => {})
    await act(() =>
      run(queryClient, { token0: USDC, token1: WETH, amountIn: 10n ** 9n, minAmountOut: 1n }, async () => ({
        swapInfo: { transferAddress: `0x${'11'.repeat(20)}`, approvalAddress: `0x${'22'.repeat(20)}` },
        chainId: 31337,
        simulated: {
          amountIn: 10n ** 9n,
          amountOut: 3n * 10n ** 17n,
          method: 'eth_simulateV1',
          gasUsed: [46_000n, 140_000n],
        },
        realized: { amountIn: 10n ** 9n, amountOut: 3n * 10n ** 17n + 1n, method: 'receipt' },
        floorEnforcement: 'onchain',
        mode: 'sequential',
        transactionHashes: [`0x${'33'.repeat(32)}`],
      })),
    )
    await act(() =>
      run(queryClient, { token0: USDC, token1: WETH, amountIn: 10n ** 9n }, async () => {
        // As the flow ends with it: the step it was at (simulating, past the allowlist) on the error.
        throw Object.assign(
          new UnsafeSwapOutcomeError({
            violations: [{ type: 'underpaid', token: WETH, amount: 0n, limit: 10n ** 17n }],
            outcome: { amountIn: 10n ** 9n, amountOut: 0n, method: 'eth_simulateV1' },
            stage: 'simulation',
          }),
          { step: { status: 'quoting', action: 'simulating' } },
        )
      }),
    )
    const executions = section('Executions')
    const [failed, succeeded] = await waitFor(() => {
      const articles = within(executions).getAllByRole('article')
      expect(articles).toHaveLength(2)
      return articles as [HTMLElement, HTMLElement]
    })
    expect(succeeded.textContent).toContain(
      'simulated: token0 −1000000000, token1 +300000000000000000 (eth_simulateV1, gas 46000 + 140000)',
    )
    expect(succeeded.textContent).toContain(
      'realized: token0 −1000000000, token1 +300000000000000001 (receipt)',
    )
    expect(succeeded.textContent).toContain('floor enforced onchain · sequential · 0x3333…3333')
    expect(within(succeeded).getByTestId('allowlist').textContent).toBe(
      `allowlist passed router 0x${'11'.repeat(20)}, spender 0x${'22'.repeat(20)} on chain 31337`,
    )
    expect(failed.textContent).toContain(
      'UnsafeSwapOutcomeError: Refused to sign: the swap would not do what was asked.',
    )
    expect(within(failed).getByRole('listitem').textContent).toBe(
      `underpaid: 0 of ${WETH} (limit 100000000000000000)`,
    )
    expect(within(failed).getByTestId('allowlist').textContent).toMatch(/^allowlist passed/)
  })

  test('the limiter’s tokens, a running execution’s step and simulated outcome, and "Copy report" on a failed one', async () => {
    const { baseUrl } = mock.use('msw')
    const { queryClient } = renderPanel({ baseUrl, rateLimit: { requestsPerSecond: 2, burst: 3 } })
    expect(within(section('Rate limit')).getByTestId('limiter-tokens').textContent).toBe('tokens 3.0 of 3')

    // As useExecuteSwap keeps it: the latest step on the running mutation's meta.
    const step = {
      status: 'swapping',
      action: 'sending-swap',
      simulated: { amountIn: 10n ** 9n, amountOut: 4n * 10n ** 17n, method: 'eth_simulateV1' },
    }
    const build = (meta: Record<string, unknown>, mutationFn: () => Promise<unknown>) =>
      queryClient
        .getMutationCache()
        .build(queryClient, { mutationKey: ['executeSwap', { baseUrl }], meta, mutationFn })
    let finish: (error: unknown) => void = () => {}
    const running = build({ step }, () => new Promise((_, reject) => (finish = reject)))
    const settled = running.execute({ token0: USDC, token1: WETH, amountIn: 10n ** 9n }).catch(() => {})
    const article = await waitFor(() => within(section('Executions')).getByRole('article'))
    await waitFor(() =>
      expect(within(article).getByTestId('execution-step').textContent).toBe('step swapping · sending-swap'),
    )
    expect(within(article).getByTestId('outcome-simulated').textContent).toBe(
      'simulated: token0 −1000000000, token1 +400000000000000000 (eth_simulateV1)',
    )
    expect(within(article).queryByRole('button', { name: 'Copy report' })).toBeNull()

    const written: string[] = []
    Object.defineProperty(navigator, 'clipboard', {
      configurable: true,
      value: { writeText: async (text: string) => void written.push(text) },
    })
    finish(
      Object.assign(
        new UnsafeSwapOutcomeError({ violations: [], outcome: step.simulated as never, stage: 'simulation' }),
        {
          step: { status: 'swapping', action: 'simulating' },
        },
      ),
    )
    await act(() => settled)
    fireEvent.click(await within(article).findByRole('button', { name: 'Copy report' }))
    expect((await within(article).findByRole('status')).textContent).toBe('Copied')
    const report = JSON.parse(written[0] as string)
    expect(report).toMatchObject({
      schemaVersion: 1,
      simulation: { outcome: { amountIn: '1000000000', amountOut: '400000000000000000' } },
      step: { status: 'swapping', action: 'simulating' },
      error: { name: 'UnsafeSwapOutcomeError', code: 'UNSAFE_SWAP_OUTCOME' },
    })

    Object.defineProperty(navigator, 'clipboard', {
      configurable: true,
      value: { writeText: async () => Promise.reject(new Error('Document is not focused.')) },
    })
    fireEvent.click(within(article).getByRole('button', { name: 'Copy report' }))
    await waitFor(() =>
      expect(within(article).getByRole('status').textContent).toBe('Copy failed: Document is not focused.'),
    )
    // @ts-expect-error: the stub goes, jsdom's (none) stays.
    delete navigator.clipboard
  })
})

describe('swapDevtoolsPlugin', () => {
  test('the plugin shape TanStack Devtools takes: id, name, defaultOpen and a render giving the panel', () => {
    const plugin = swapDevtoolsPlugin({ defaultOpen: true, refreshMs: 1000 })
    expect({ id: plugin.id, name: plugin.name, defaultOpen: plugin.defaultOpen }).toEqual({
      id: 'token-swap-hooks',
      name: 'Token swap',
      defaultOpen: true,
    })
    const element = plugin.render(document.createElement('div'), { theme: 'dark' })
    expect(isValidElement(element)).toBe(true)
    expect(element.type).toBe(SwapDevtoolsPanel)
    expect(element.props).toEqual({ theme: 'dark', refreshMs: 1000 })
    expect(swapDevtoolsPlugin({ id: 'swap', name: 'Swaps' })).toMatchObject({
      id: 'swap',
      name: 'Swaps',
      defaultOpen: false,
    })
  })

  test('its panel renders in either theme, with and without a provider', () => {
    const plugin = swapDevtoolsPlugin()
    const { unmount } = render(plugin.render(document.createElement('div')))
    expect(screen.getByRole('note')).toBeTruthy()
    unmount()
    const { baseUrl } = mock.use('msw')
    render(
      <SwapProvider baseUrl={baseUrl} queryClient={createQueryClient()}>
        {plugin.render(document.createElement('div'), { theme: 'dark' })}
      </SwapProvider>,
    )
    expect(screen.getByTestId('swap-devtools').style.background).toBe('rgb(13, 17, 23)')
  })
})
