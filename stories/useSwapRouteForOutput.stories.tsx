import type { Meta, StoryObj } from '@storybook/react-vite'
import { useState } from 'react'
import { expect, userEvent, waitFor, within } from 'storybook/test'
import { type Address, parseUnits } from 'viem'
import {
  ExactOutputNotReachedError,
  NoRouteError,
  parseAmount,
  useSwapRouteForOutput,
} from '../src/exports/index.js'
import { addressOf, tokenControl } from './support/args.js'
import { market, storyService } from './support/storyContext.js'
import { Card, ErrorView, formatAmount, QueryState, RateLimitBanner } from './support/ui.js'

type Args = { token0: string; token1: string; amount: string; tolerance: number }

/** "I want to receive…": the input to send, found by probing the exact-input route. */
function SwapRouteForOutputDemo({ token0, token1, amount: initialAmount, tolerance }: Args) {
  const [amount, setAmount] = useState(initialAmount)
  // The demo knows the mock market's tokens; a widget reads them with useTokens.
  const decimalsIn = market.getToken(token0)?.decimals ?? 18
  const decimalsOut = market.getToken(token1)?.decimals
  const amountOut = parseAmount(amount, decimalsOut)
  const quote = useSwapRouteForOutput({
    token0: addressOf(token0),
    token1: addressOf(token1),
    amountOut,
    tolerance,
  })
  const symbolOf = (address: string) => market.getToken(address)?.symbol ?? address
  const { data, error } = quote

  return (
    <Card title={`useSwapRouteForOutput: ${token0} → ${token1}`}>
      <label>
        I want to receive{' '}
        <input aria-label="amount out" value={amount} onChange={(event) => setAmount(event.target.value)} />{' '}
        {token1}
      </label>
      <RateLimitBanner />
      {!amountOut && <p>Enter the amount you want to receive.</p>}
      {quote.isPending && quote.fetchStatus === 'fetching' && <p>Finding the input…</p>}
      {error instanceof NoRouteError && (
        <p>
          No route between {token0} and {token1}.
        </p>
      )}
      {error instanceof ExactOutputNotReachedError && (
        <p data-testid="not-reached">
          No amount of {token0} buys that much: at most {formatAmount(error.bestAmountOut, decimalsOut ?? 18)}{' '}
          {token1} found ({error.probes} route requests).
        </p>
      )}
      {error && !(error instanceof NoRouteError) && <ErrorView error={error} />}
      {data && decimalsOut !== undefined && (
        <div style={{ opacity: quote.isPlaceholderData || quote.isDebouncing ? 0.5 : 1 }}>
          <p data-testid="amount-in" style={{ fontSize: 20 }}>
            You pay {formatAmount(data.amountIn, decimalsIn)} {token0}
          </p>
          <p data-testid="reached">
            and receive {formatAmount(data.amountOutReached, decimalsOut)} {token1}
            {data.withinTolerance ? '' : ' (more than the tolerance: the probes ran out)'}
          </p>
          <p data-testid="path">
            Path: {data.route.path.map(symbolOf).join(' → ')} ({data.route.path.length - 1} hop
            {data.route.path.length === 2 ? '' : 's'})
          </p>
          <p data-testid="cost" style={{ fontSize: 12 }}>
            found with {data.probes} route {data.probes === 1 ? 'request' : 'requests'}, {data.requests} in
            all
            {quote.isDebouncing || quote.isPlaceholderData ? ' · updating…' : ''}
          </p>
        </div>
      )}
      <QueryState status={quote.status} fetchStatus={quote.fetchStatus} />
    </Card>
  )
}

const meta = {
  title: 'Hooks/useSwapRouteForOutput',
  component: SwapRouteForOutputDemo,
  args: { token0: 'WETH', token1: 'USDC', amount: '5000', tolerance: 0.005 },
  argTypes: {
    token0: tokenControl,
    token1: tokenControl,
    amount: { control: 'text' },
    tolerance: { control: { type: 'number', step: 0.001 } },
  },
  parameters: {
    docs: {
      description: {
        component: `
"I want to receive X" on a service that only quotes exact inputs (from \`token-swap-hooks\`).
The input is seeded from the two tokens' USD prices, then refined with at most 4 \`/swap/route\`
probes until a route delivers from X to X × (1 + tolerance). Debounced and aborted like
\`useSwapRoute\`; a new amount is seeded from the last answer, so typing usually costs one probe.

\`\`\`tsx
import { ExactOutputNotReachedError, useSwapRouteForOutput } from 'token-swap-hooks'

const { data, error } = useSwapRouteForOutput({ token0: WETH, token1: USDC, amountOut: parseAmount(typed, 6) })
data?.amountIn          // the WETH to send (bigint)
data?.amountOutReached  // what its route delivers: at least amountOut, at most 0.5% more
if (error instanceof ExactOutputNotReachedError) error.bestAmountOut
\`\`\``,
      },
    },
  },
} satisfies Meta<typeof SwapRouteForOutputDemo>

export default meta
type Story = StoryObj<typeof meta>

const within05 = (reached: bigint, wanted: bigint) => reached >= wanted && reached * 1000n <= wanted * 1005n

/** What the view says the route delivers (its 6 shown decimals). */
function received(canvas: ReturnType<typeof within>, symbol: string, decimals: number): bigint {
  const text = canvas.getByTestId('reached').textContent ?? ''
  const [, shown = '0'] = new RegExp(`receive ([\\d.]+) ${symbol}`).exec(text) ?? []
  return parseUnits(shown, decimals)
}

/** The input for 5 000 USDC, checked against the market; a new amount costs one more probe. */
export const Data: Story = {
  play: async ({ canvasElement }) => {
    const canvas = within(canvasElement)
    await expect(await canvas.findByTestId('amount-in', {}, { timeout: 5000 })).toHaveTextContent(
      /You pay [\d.]+ WETH/,
    )
    const service = storyService()
    const probes = service.count('/swap/route')
    await expect(probes).toBeLessThanOrEqual(4)
    const [, paid = ''] =
      /You pay ([\d.]+) WETH/.exec(canvas.getByTestId('amount-in').textContent ?? '') ?? []
    const amountIn = parseUnits(paid, 18)
    // The market pays at least 5 000 USDC for the input shown (it is rounded to 6 decimals in the view).
    const delivered = service.market.quote({
      token0: addressOf('WETH') as Address,
      token1: addressOf('USDC') as Address,
      amountIn: amountIn + 10n ** 12n,
    })
    await expect(within05(delivered?.amountOut ?? 0n, parseUnits('5000', 6))).toBe(true)

    const input = canvas.getByLabelText('amount out')
    await userEvent.clear(input)
    await userEvent.type(input, '6000', { delay: 40 })
    await waitFor(() => expect(within05(received(canvas, 'USDC', 6), parseUnits('6000', 6))).toBe(true), {
      timeout: 5000,
    })
    await waitFor(() => expect(canvas.getByTestId('cost')).not.toHaveTextContent('updating'), {
      timeout: 5000,
    })
    // Seeded from the last answer: one probe, no price request.
    await expect(canvas.getByTestId('cost')).toHaveTextContent('found with 1 route request, 1 in all')
    await expect(service.count('/swap/route')).toBe(probes + 1)
    await expect(service.count('/overview/token/price')).toBe(2)
  },
}

/** A long-tail token, three pools away. */
export const MultiHop: Story = {
  args: { token0: 'USDT', token1: 'TAIL', amount: '1000' },
  play: async ({ canvasElement }) => {
    const canvas = within(canvasElement)
    await expect(await canvas.findByTestId('path', {}, { timeout: 5000 })).toHaveTextContent('3 hops')
    await expect(within05(received(canvas, 'TAIL', 18), parseUnits('1000', 18))).toBe(true)
  },
}

/** More WETH than all the pools hold: ExactOutputNotReachedError, with the most found. */
export const NotReached: Story = {
  args: { token0: 'USDC', token1: 'WETH', amount: '1000000' },
  play: async ({ canvasElement }) => {
    await expect(
      await within(canvasElement).findByTestId('not-reached', {}, { timeout: 8000 }),
    ).toHaveTextContent(
      /^No amount of USDC buys that much: at most [\d.]+ WETH found \(4 route requests\)\.$/,
    )
    await expect(storyService().count('/swap/route')).toBe(4)
  },
}

/** LONE is in no pair: NoRouteError after one route request. */
export const NoRoute: Story = {
  args: { token0: 'USDC', token1: 'LONE', amount: '10' },
  play: async ({ canvasElement }) => {
    await expect(
      await within(canvasElement).findByText('No route between USDC and LONE.', {}, { timeout: 5000 }),
    ).toBeVisible()
    await expect(storyService().count('/swap/route')).toBe(1)
  },
}

/** No amount yet: the hook waits quietly, nothing is requested. */
export const MissingInput: Story = {
  args: { amount: '' },
  play: async ({ canvasElement }) => {
    const canvas = within(canvasElement)
    await expect(canvas.getByText('Enter the amount you want to receive.')).toBeVisible()
    await new Promise((resolve) => setTimeout(resolve, 500))
    await expect(canvas.getByTestId('query-state')).toHaveTextContent('status: pending · fetchStatus: idle')
    await expect(storyService().count()).toBe(0)
  },
}

/** A tolerance outside 0..1: an InvalidParameterError naming it; nothing is requested. */
export const MalformedInput: Story = {
  args: { tolerance: 2 },
  play: async ({ canvasElement }) => {
    await expect(await within(canvasElement).findByRole('alert', {}, { timeout: 5000 })).toHaveTextContent(
      /^InvalidParameterError: Invalid parameter "tolerance": must be a finite number from 0 to 1/,
    )
    await expect(storyService().count()).toBe(0)
  },
}
