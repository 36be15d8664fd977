import type { Meta, StoryObj } from '@storybook/react-vite'
import { TanStackDevtools } from '@tanstack/react-devtools'
import { useState } from 'react'
import { expect, userEvent, waitFor, within } from 'storybook/test'
import { type PendingSwap, savePendingSwap } from '../src/core/execute/records/pendingSwaps.js'
import { swapDevtoolsPlugin } from '../src/exports/devtools.js'
import { parseAmount, useExecuteSwap, useSwapRoute, useTokens } from '../src/exports/index.js'
import { addressOf } from './support/args.js'
import { enabledButton, serializable } from './support/play.js'
import { captureClipboard, expectReport, secretClientSettings } from './support/report.js'
import { simulatedAccount, simulatedChainId } from './support/simulatedWallet.js'
import { market, storyBaseUrl, storyService, storyStorage, storyWallet } from './support/storyContext.js'
import { Card, ErrorView, formatAmount, RateLimitBanner } from './support/ui.js'

type Args = { theme: 'light' | 'dark' }

const USDC = addressOf('USDC') as `0x${string}`
const WETH = addressOf('WETH') as `0x${string}`

// The plugin exactly as an app hands it to <TanStackDevtools plugins={[…]} />; here its panel is
// rendered beside the widget, as the devtools render it in their own drawer.
const plugin = swapDevtoolsPlugin({ refreshMs: 250 })

/** A quote and a swap button, as a widget has them: what the panel watches. */
function Widget() {
  const [amount, setAmount] = useState('1000')
  const amountIn = parseAmount(amount, 6)
  const route = useSwapRoute({ token0: USDC, token1: WETH, amountIn })
  // The token list a picker reads: the panel takes its symbols from it (and requests nothing).
  useTokens()
  const { execute, stage, error } = useExecuteSwap()
  return (
    <Card title="A widget: USDC → WETH">
      <label>
        Amount of USDC{' '}
        <input aria-label="amount" value={amount} onChange={(event) => setAmount(event.target.value)} />
      </label>
      <RateLimitBanner />
      <p data-testid="quote">
        {route.data ? `You receive ${formatAmount(route.data.amountOut, 18)} WETH` : 'quoting…'}
      </p>
      <button
        type="button"
        disabled={!route.data || route.isPlaceholderData || stage === 'approving' || stage === 'swapping'}
        onClick={() =>
          amountIn &&
          execute({ token0: USDC, token1: WETH, amountIn, slippage: 0.01, acceptedQuote: route.data })
        }
      >
        Swap
      </button>
      <p data-testid="stage">stage: {stage}</p>
      <ErrorView error={error} />
    </Card>
  )
}

function DevtoolsDemo({ theme }: Args) {
  return (
    <div style={{ display: 'flex', gap: 16, alignItems: 'flex-start', flexWrap: 'wrap' }}>
      <Widget />
      <div
        style={{
          flex: '1 1 460px',
          height: 640,
          border: '1px solid #ddd',
          borderRadius: 8,
          overflow: 'hidden',
        }}
      >
        {plugin.render(document.createElement('div'), { theme })}
      </div>
    </div>
  )
}

const meta = {
  title: 'Devtools/SwapDevtoolsPanel',
  component: DevtoolsDemo,
  args: { theme: 'light' },
  argTypes: { theme: { control: 'inline-radio', options: ['light', 'dark'] } },
  parameters: {
    layout: 'fullscreen',
    // Quotes fresh for 2 s and not polled, so that freshness visibly flips; a 429's pause capped at 2 s.
    swapProvider: {
      queryDefaults: { swapRoute: { staleTime: 2000, refetchInterval: false } },
      maxRateLimitPauseMs: 2000,
    },
    docs: {
      description: {
        component: `
A panel for [TanStack Devtools](https://tanstack.com/devtools): the rate limiter's 429 pause
(applied and requested), each quote's age, staleTime and freshness, the fetches in flight and
those aborted, the stored swap journals and where each stands on chain (checked on demand,
read-only), and the last executions' simulated and realized outcomes, allowlist decision and
errors. It reads the nearest \`<SwapProvider>\`, its QueryClient and its storage, and writes
nothing. Here it is rendered beside a widget; in an app:

\`\`\`tsx
import { TanStackDevtools } from '@tanstack/react-devtools'
import { swapDevtoolsPlugin } from 'token-swap-hooks/devtools'

<SwapProvider baseUrl="https://swap.example.com">
  <App />
  <TanStackDevtools plugins={[swapDevtoolsPlugin()]} />
</SwapProvider>
\`\`\``,
      },
    },
  },
  decorators: [(Story) => <div style={{ padding: 16 }}>{Story()}</div>],
} satisfies Meta<typeof DevtoolsDemo>

export default meta
type Story = StoryObj<typeof meta>

const panelOf = (canvasElement: HTMLElement) => within(within(canvasElement).getByTestId('swap-devtools'))

/**
 * A quote ages and goes stale; a 429 pauses the client (for the capped 2 s the
 * client applies, not the 4 s the service asked); a journal written to the
 * storage shows up, and a check on chain says where it stands.
 */
export const Live: Story = {
  play: async ({ canvasElement, step }) => {
    const canvas = within(canvasElement)
    const panel = panelOf(canvasElement)
    const quotes = within(panel.getByRole('region', { name: 'Quotes' }))
    const rateLimit = within(panel.getByRole('region', { name: 'Rate limit' }))

    await step('a quote: fresh, its age ticking, then stale after the provider’s 2 s staleTime', async () => {
      await canvas.findByText(/^You receive [\d.]+ WETH$/, {}, { timeout: 8000 })
      await waitFor(() => expect(quotes.getByTestId('quote-freshness')).toHaveTextContent('fresh'), {
        timeout: 5000,
      })
      // Symbols from the token list already in the cache.
      await waitFor(() =>
        expect(quotes.getByRole('table', { name: 'Quotes' })).toHaveTextContent('swapRoute USDC → WETH'),
      )
      await expect(quotes.getByRole('table', { name: 'Quotes' })).toHaveTextContent('2.0 s')
      const firstAge = quotes.getByTestId('quote-age').textContent
      await waitFor(() => expect(quotes.getByTestId('quote-age').textContent).not.toBe(firstAge), {
        timeout: 3000,
      })
      await waitFor(() => expect(quotes.getByTestId('quote-freshness')).toHaveTextContent('stale'), {
        timeout: 8000,
      })
      await expect(quotes.getByText('expired')).toBeVisible()
    })

    await step('a 429 asking for 4 s: the client pauses for its capped 2 s, then is careful', async () => {
      storyService().fail({ status: 429, times: 1, endpoint: '/swap/route', headers: { 'retry-after': '4' } })
      const input = canvas.getByLabelText('amount')
      await userEvent.clear(input)
      await userEvent.type(input, '2000', { delay: 20 })
      await waitFor(() => expect(rateLimit.getByText('paused')).toBeVisible(), { timeout: 8000 })
      await expect(rateLimit.getByTestId('pause-requested')).toHaveTextContent(
        /longer than maxRateLimitPauseMs, cut short/,
      )
      await expect(rateLimit.getByTestId('pause-applied')).toHaveTextContent(/^every request waits/)
      await waitFor(() => expect(rateLimit.getByText('careful')).toBeVisible(), { timeout: 8000 })
      // The query that met the 429 retried after the pause: a fresh quote for the new amount.
      await waitFor(
        () => {
          const row = quotes.getByText(/amountIn 2000000000$/).closest('tr') as HTMLElement
          expect(within(row).getByTestId('quote-freshness')).toHaveTextContent('fresh')
        },
        { timeout: 8000 },
      )
      await expect(panel.getByTestId('request-counts')).toHaveTextContent(/1 retried/)
      const statuses = storyService()
        .log.filter((entry) => entry.path === '/swap/route')
        .map((entry) => entry.status)
      await expect(statuses).toEqual([200, 429, 200])
    })

    await step('a journal in the storage: its steps, then where it stands on chain', async () => {
      const at = Date.now() - 3000
      const record: PendingSwap = {
        id: 'story-record',
        version: 2,
        chainId: simulatedChainId,
        account: simulatedAccount,
        baseUrl: storyBaseUrl,
        token0: USDC,
        token1: WETH,
        amountIn: '750000000',
        to: simulatedAccount,
        minAmountOut: '200000000000000000',
        spender: market.spender,
        step: 'approving',
        // The approval was about to be asked for at the account's next nonce; the page closed.
        journal: [{ step: 'approve', event: 'sending', nonce: storyWallet().sent.length, block: 0, at }],
        createdAt: at,
        updatedAt: at,
      }
      await savePendingSwap(storyStorage(), record)
      const pending = within(panel.getByRole('region', { name: 'Pending swaps' }))
      const journal = await pending.findByRole('table', { name: 'journal story-record' }, { timeout: 5000 })
      await expect(journal).toHaveTextContent(/approve\s*sending/)
      await expect(pending.getByText('amountIn 750000000')).toBeVisible()
      await expect(pending.getByTestId('settle-state')).toHaveTextContent('not checked')
      await userEvent.click(pending.getByRole('button', { name: 'Check on chain' }))
      // Nothing was sent from that nonce: the approval never went out.
      await waitFor(
        () => expect(pending.getByTestId('settle-state')).toHaveTextContent('dropped (settled)'),
        {
          timeout: 5000,
        },
      )
      await expect(serializable(storyWallet().sent)).toHaveLength(0)
    })
  },
}

/** After a swap: what the simulation predicted, what the guard measured, and the allowlist's word. */
export const AfterASwap: Story = {
  play: async ({ canvasElement }) => {
    const canvas = within(canvasElement)
    const panel = panelOf(canvasElement)
    await canvas.findByText(/^You receive [\d.]+ WETH$/, {}, { timeout: 8000 })
    await userEvent.click(await enabledButton(canvas, 'Swap'))
    await waitFor(() => expect(canvas.getByTestId('stage')).toHaveTextContent('stage: success'), {
      timeout: 15_000,
    })
    const executions = within(panel.getByRole('region', { name: 'Executions' }))
    const execution = await executions.findByRole('article', {}, { timeout: 3000 })
    // The step the flow reached, from the hook's mutation, and the limiter's bucket.
    await waitFor(() =>
      expect(within(execution).getByTestId('execution-step')).toHaveTextContent('step success · done'),
    )
    await expect(panel.getByTestId('limiter-tokens')).toHaveTextContent(/^tokens \d\.\d of 5$/)
    await expect(execution).toHaveTextContent(/^execute USDC → WETHamountIn 1000000000success/)
    await expect(execution).toHaveTextContent(
      /simulated: token0 −1000000000, token1 \+\d+ \(eth_simulateV1, gas \d+( \+ \d+)*\)/,
    )
    await expect(execution).toHaveTextContent(/realized: token0 −1000000000, token1 \+\d+/)
    await expect(execution).toHaveTextContent('floor enforced onchain')
    await expect(within(execution).getByTestId('allowlist')).toHaveTextContent(
      `allowlist passed router ${market.router}, spender ${market.spender} on chain ${simulatedChainId}`,
    )
  },
}

/**
 * The provider trusts only the router: the panel shows the spender the allowlist refused, and its
 * "Copy report" copies a failure report that holds none of the client's secrets (its headers, its
 * base URL's key).
 */
export const RefusedSpender: Story = {
  args: { theme: 'dark' },
  parameters: {
    swapProvider: {
      ...secretClientSettings,
      queryDefaults: { swapRoute: { staleTime: 2000, refetchInterval: false } },
      trustedAddresses: { [simulatedChainId]: [market.router] },
    },
  },
  play: async ({ canvasElement }) => {
    const canvas = within(canvasElement)
    const panel = panelOf(canvasElement)
    await canvas.findByText(/^You receive [\d.]+ WETH$/, {}, { timeout: 8000 })
    await userEvent.click(await enabledButton(canvas, 'Swap'))
    await expect(await canvas.findByRole('alert', {}, { timeout: 5000 })).toHaveTextContent(
      /^UntrustedAddressError/,
    )
    const execution = await within(panel.getByRole('region', { name: 'Executions' })).findByRole(
      'article',
      {},
      { timeout: 3000 },
    )
    await expect(within(execution).getByTestId('allowlist')).toHaveTextContent(
      `allowlist refused approvalAddress ${market.spender} on chain ${simulatedChainId}`,
    )
    await expect(serializable(storyWallet().sent)).toHaveLength(0)

    const copied = captureClipboard()
    await userEvent.click(within(execution).getByRole('button', { name: 'Copy report' }))
    await expect(await within(execution).findByRole('status')).toHaveTextContent('Copied')
    const report = await expectReport(copied[0], 'UntrustedAddressError')
    await expect(report).toMatchObject({
      chainId: simulatedChainId,
      error: { code: 'UNTRUSTED_ADDRESS', fields: { address: market.spender, role: 'approvalAddress' } },
    })
    // The quotes the panel saw fetched for the swap.
    await expect(report.requests).toContainEqual(expect.objectContaining({ endpoint: 'swapRoute' }))
  },
}

/**
 * The plugin inside TanStack Devtools' own shell, as an app mounts it (below
 * the provider): the devtools open on it and it shows the widget's quote.
 */
export const InTanStackDevtools: Story = {
  render: () => (
    <>
      <Widget />
      <TanStackDevtools
        plugins={[swapDevtoolsPlugin({ defaultOpen: true })]}
        config={{ defaultOpen: true }}
      />
    </>
  ),
  play: async ({ canvasElement }) => {
    await within(canvasElement).findByText(/^You receive [\d.]+ WETH$/, {}, { timeout: 8000 })
    // The devtools draw their shell outside the story's root: the panel is looked for in the page.
    const panel = within(await within(document.body).findByTestId('swap-devtools', {}, { timeout: 8000 }))
    await expect(await panel.findByText(/fresh/, {}, { timeout: 5000 })).toBeVisible()
  },
}
