import type { Meta, StoryObj } from '@storybook/react-vite'
import { useState } from 'react'
import { expect, userEvent, within } from 'storybook/test'
import { parseUnits } from 'viem'
import { NoRouteError, parseAmount, useSwapRoute } from '../src/exports/index.js'
import { addressOf, tokenControl } from './support/args.js'
import { loadingStory, rateLimitedStory, serverErrorStory } from './support/commonStories.js'
import { market, storyService } from './support/storyContext.js'
import { Card, ErrorView, formatAmount, QueryState, RateLimitBanner, useNow } from './support/ui.js'

type Args = { token0: string; token1: string; amount: string; debounceMs: number }

/** What a widget shows for a route: the output, the path, its freshness. */
function SwapRouteDemo({ token0, token1, amount: initialAmount, debounceMs }: Args) {
  const [amount, setAmount] = useState(initialAmount)
  // The demo knows the mock market's tokens; a widget reads them with useTokens (see SwapWidget).
  const decimalsIn = market.getToken(token0)?.decimals
  const decimalsOut = market.getToken(token1)?.decimals
  // undefined while the field holds no amount yet ('', '1.', 'abc'): the hook waits quietly.
  const amountIn = parseAmount(amount, decimalsIn)
  const route = useSwapRoute({ token0: addressOf(token0), token1: addressOf(token1), amountIn, debounceMs })
  const now = useNow(route.quotedAt !== undefined)
  const symbolOf = (address: string) => market.getToken(address)?.symbol ?? address

  return (
    <Card title={`useSwapRoute: ${token0} → ${token1}`}>
      <label>
        Amount of {token0}{' '}
        <input aria-label="amount" value={amount} onChange={(event) => setAmount(event.target.value)} />
      </label>
      <RateLimitBanner />
      {!amountIn && <p>Enter an amount and pick two tokens to get a quote.</p>}
      {route.isPending && route.fetchStatus === 'fetching' && <p>Loading the best route…</p>}
      {route.error instanceof NoRouteError && (
        <p>
          No route between {token0} and {token1}.
        </p>
      )}
      {route.error && !(route.error instanceof NoRouteError) && <ErrorView error={route.error} />}
      {route.data && decimalsOut !== undefined && (
        <div style={{ opacity: route.isPlaceholderData ? 0.5 : 1 }}>
          <p data-testid="amount-out">
            You receive {formatAmount(route.data.amountOut, decimalsOut)} {token1}
          </p>
          <p data-testid="path">
            Path: {route.data.path.map(symbolOf).join(' → ')} ({route.data.path.length - 1} hop
            {route.data.path.length === 2 ? '' : 's'})
          </p>
          <p style={{ fontSize: 12 }}>
            {route.isPlaceholderData
              ? 'previous quote, updating…'
              : route.quotedAt
                ? `quoted ${Math.round((now - route.quotedAt) / 1000)} s ago${route.isFresh ? '' : ' (stale)'}`
                : ''}
          </p>
        </div>
      )}
      <QueryState status={route.status} fetchStatus={route.fetchStatus} />
    </Card>
  )
}

const meta = {
  title: 'Hooks/useSwapRoute',
  component: SwapRouteDemo,
  args: { token0: 'WETH', token1: 'USDC', amount: '1', debounceMs: 300 },
  argTypes: { token0: tokenControl, token1: tokenControl, amount: { control: 'text' } },
  parameters: {
    docs: {
      description: {
        component: `
The best route and output for a swap, from \`/swap/route\`. Disabled until token0, token1 and a
positive \`amountIn\` are set; the amount is debounced (300 ms), the previous quote stays visible
while the next one loads (\`isPlaceholderData\`), and the quote is polled every 15 s.

\`\`\`tsx
import { NoRouteError, useSwapRoute } from 'token-swap-hooks'

const route = useSwapRoute({ token0: WETH, token1: USDC, amountIn: parseAmount(typed, 18) })
route.data?.amountOut          // bigint, in USDC's smallest unit
route.isPlaceholderData        // the previous quote, shown while the next one loads
route.quotedAt                 // when the shown quote was fetched (ms)
route.isFresh                  // false for placeholders, stale quotes and after a failed refresh
if (route.error instanceof NoRouteError) …
\`\`\``,
      },
    },
  },
} satisfies Meta<typeof SwapRouteDemo>

export default meta
type Story = StoryObj<typeof meta>

/** The quote appears; typing a new amount updates it with one request. */
export const Data: Story = {
  play: async ({ canvasElement }) => {
    const canvas = within(canvasElement)
    await expect(await canvas.findByTestId('amount-out', {}, { timeout: 5000 })).toHaveTextContent(
      /You receive [\d.]+ USDC/,
    )
    await expect(canvas.getByTestId('path')).toHaveTextContent(/WETH → .*USDC/)
    const before = storyService().count('/swap/route')
    const quote = storyService().market.quote({
      token0: addressOf('WETH') as `0x${string}`,
      token1: addressOf('USDC') as `0x${string}`,
      amountIn: parseUnits('125', 18),
    })
    const input = canvas.getByLabelText('amount')
    await userEvent.clear(input)
    await userEvent.type(input, '125', { delay: 40 })
    // The request is logged a moment before its answer renders: wait for the answer itself.
    await expect(
      await canvas.findByText(
        `You receive ${formatAmount(quote?.amountOut ?? 0n, 6)} USDC`,
        {},
        { timeout: 5000 },
      ),
    ).toHaveAttribute('data-testid', 'amount-out')
    await expect(canvas.queryByText('previous quote, updating…')).toBeNull()
    await expect(storyService().count('/swap/route')).toBe(before + 1)
  },
}

/** A long-tail token reached in three hops. */
export const MultiHop: Story = {
  args: { token0: 'USDT', token1: 'TAIL', amount: '1000' },
  play: async ({ canvasElement }) => {
    const canvas = within(canvasElement)
    await expect(await canvas.findByTestId('path', {}, { timeout: 5000 })).toHaveTextContent('3 hops')
  },
}

/** A slow service: the loading state. */
export const Loading: Story = loadingStory('Loading the best route…')

/** LONE is in no pair: the service answers 404, shown as NoRouteError. */
export const NoRoute: Story = {
  args: { token0: 'USDC', token1: 'LONE', amount: '100' },
  play: async ({ canvasElement }) => {
    await expect(
      await within(canvasElement).findByText('No route between USDC and LONE.', {}, { timeout: 5000 }),
    ).toBeVisible()
    await expect(storyService().count('/swap/route')).toBe(1)
  },
}

/** A 429 with Retry-After: 2: the whole client pauses (visibly), then the query retries and recovers. */
export const RateLimited: Story = rateLimitedStory('/swap/route', async (canvas) => {
  await expect(await canvas.findByTestId('amount-out', {}, { timeout: 8000 })).toHaveTextContent(/USDC/)
})

/** Amount 0: missing input waits quietly (no request, no error). */
export const MissingInput: Story = {
  args: { amount: '0' },
  play: async ({ canvasElement }) => {
    const canvas = within(canvasElement)
    await expect(canvas.getByText('Enter an amount and pick two tokens to get a quote.')).toBeVisible()
    await new Promise((resolve) => setTimeout(resolve, 500))
    await expect(canvas.getByTestId('query-state')).toHaveTextContent('status: pending · fetchStatus: idle')
    await expect(canvas.queryByRole('alert')).toBeNull()
    await expect(storyService().count('/swap/route')).toBe(0)
  },
}

/** The service keeps failing: after three tries the typed HttpError is shown. */
export const ServerError: Story = serverErrorStory(
  '/swap/route',
  'swapRoute',
  503,
  '<html><h1>503 Service Unavailable</h1></html>',
)
