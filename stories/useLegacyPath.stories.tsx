import type { Meta, StoryObj } from '@storybook/react-vite'
import { useState } from 'react'
import { expect, userEvent, waitFor, within } from 'storybook/test'
import { type Address, parseUnits } from 'viem'
import { NoRouteError, parseAmount, useLegacyPath } from '../src/exports/index.js'
import { addressOf, tokenControl } from './support/args.js'
import { loadingStory, rateLimitedStory, serverErrorStory } from './support/commonStories.js'
import { market, storyService, tokens, withMockService } from './support/storyContext.js'
import { Card, ErrorView, formatAmount, QueryState, RateLimitBanner } from './support/ui.js'

type Args = { token0: string; token1: string; amount: string; debounceMs: number }

/** The legacy group's path, side by side with useSwapRoute: the output may be missing. */
function LegacyPathDemo({ token0, token1, amount: initialAmount, debounceMs }: Args) {
  const [amount, setAmount] = useState(initialAmount)
  // The demo knows the mock market's tokens; a widget reads them with useLegacyTokens.
  const decimalsIn = market.getToken(token0)?.decimals
  const decimalsOut = market.getToken(token1)?.decimals
  // undefined while the field holds no amount yet ('', '1.', 'abc'): the hook waits quietly.
  const amountIn = parseAmount(amount, decimalsIn)
  const path = useLegacyPath({ token0: addressOf(token0), token1: addressOf(token1), amountIn, debounceMs })
  const symbolOf = (address: string) => market.getToken(address)?.symbol ?? address

  return (
    <Card title={`useLegacyPath: ${token0} → ${token1}`}>
      <label>
        Amount of {token0}{' '}
        <input aria-label="amount" value={amount} onChange={(event) => setAmount(event.target.value)} />
      </label>
      <RateLimitBanner />
      {!amountIn && <p>Enter an amount and pick two tokens to get a path.</p>}
      {path.isPending && path.fetchStatus === 'fetching' && <p>Loading the path…</p>}
      {path.error instanceof NoRouteError && (
        <p>
          No path between {token0} and {token1}.
        </p>
      )}
      {path.error && !(path.error instanceof NoRouteError) && <ErrorView error={path.error} />}
      {path.data && (
        <div style={{ opacity: path.isPlaceholderData ? 0.5 : 1 }}>
          <p data-testid="path">
            Path: {path.data.path.map(symbolOf).join(' → ')} ({path.data.path.length - 1} hop
            {path.data.path.length === 2 ? '' : 's'})
          </p>
          <p data-testid="amount-out">
            {path.data.amountOut === undefined || decimalsOut === undefined
              ? 'The service sent only the path: no output amount.'
              : `You receive ${formatAmount(path.data.amountOut, decimalsOut)} ${token1}`}
          </p>
        </div>
      )}
      <QueryState status={path.status} fetchStatus={path.fetchStatus} />
    </Card>
  )
}

const meta = {
  title: 'Hooks/useLegacyPath',
  component: LegacyPathDemo,
  args: { token0: 'DAI', token1: 'LINK', amount: '500', debounceMs: 300 },
  argTypes: {
    token0: tokenControl,
    token1: tokenControl,
    amount: { control: 'text' },
    debounceMs: { control: { type: 'number', min: 0, step: 50 } },
  },
  parameters: {
    docs: {
      // Each story in its own iframe on the docs page, so that each gets its own mock service.
      story: { inline: false, height: '300px' },
      description: {
        component: `
The optimal path from the legacy \`/get_path\` endpoint. Behaves like \`useSwapRoute\`: disabled until
token0, token1 and a positive \`amountIn\` are set, debounced (300 ms), the previous path kept while the
next loads, polled every 15 s, and a 404 is a \`NoRouteError\`. The body is not in the spec: a Route
(\`amount_out\` or \`amountOut\`) or a bare array of addresses, in which case \`data.amountOut\` is
\`undefined\`.

\`\`\`tsx
import { NoRouteError, useLegacyPath } from 'token-swap-hooks'

// The legacy group, side by side with the current one.
const path = useLegacyPath({ token0: WETH, token1: USDC, amountIn })  // data.amountOut may be undefined
\`\`\``,
      },
    },
  },
} satisfies Meta<typeof LegacyPathDemo>

export default meta
type Story = StoryObj<typeof meta>

/** The path and output of 500 DAI → LINK; typing a new amount updates them with one request. */
export const Data: Story = {
  play: async ({ canvasElement }) => {
    const canvas = within(canvasElement)
    const quoteFor = (amount: string) =>
      storyService().market.quote({
        token0: tokens.DAI as Address,
        token1: tokens.LINK as Address,
        amountIn: parseUnits(amount, 18),
      })
    const quote = quoteFor('500')
    await expect(await canvas.findByTestId('amount-out', {}, { timeout: 5000 })).toHaveTextContent(
      `You receive ${formatAmount(quote?.amountOut ?? 0n, 18)} LINK`,
    )
    await expect(canvas.getByTestId('path')).toHaveTextContent(
      `Path: ${quote?.path.map((address) => market.getToken(address)?.symbol).join(' → ')}`,
    )
    await expect(storyService().count('/get_path')).toBe(1)
    const input = canvas.getByLabelText('amount')
    await userEvent.clear(input)
    await userEvent.type(input, '2500', { delay: 40 })
    await waitFor(() => expect(storyService().count('/get_path')).toBe(2), { timeout: 5000 })
    await waitFor(
      () =>
        expect(canvas.getByTestId('amount-out')).toHaveTextContent(
          `You receive ${formatAmount(quoteFor('2500')?.amountOut ?? 0n, 18)} LINK`,
        ),
      { timeout: 5000 },
    )
  },
}

/** A service that answers a bare array of addresses: the path, and no output amount. */
export const PathOnly: Story = {
  args: { token0: 'WETH', token1: 'USDC', amount: '1' },
  parameters: {
    mockService: withMockService({
      setup: (service) =>
        service.fail({ status: 200, times: 1, endpoint: '/get_path', body: [tokens.WETH, tokens.USDC] }),
    }),
  },
  play: async ({ canvasElement }) => {
    const canvas = within(canvasElement)
    await expect(await canvas.findByTestId('path', {}, { timeout: 5000 })).toHaveTextContent(
      'Path: WETH → USDC (1 hop)',
    )
    await expect(canvas.getByTestId('amount-out')).toHaveTextContent(
      'The service sent only the path: no output amount.',
    )
  },
}

/** A slow service: the loading state. */
export const Loading: Story = loadingStory('Loading the path…')

/** LONE is in no pair: the service answers 404, shown as NoRouteError, never retried. */
export const NoRoute: Story = {
  args: { token0: 'USDC', token1: 'LONE', amount: '100' },
  play: async ({ canvasElement }) => {
    await expect(
      await within(canvasElement).findByText('No path between USDC and LONE.', {}, { timeout: 5000 }),
    ).toBeVisible()
    await expect(within(canvasElement).queryByRole('alert')).toBeNull()
    await expect(storyService().count('/get_path')).toBe(1)
  },
}

/** A 429 with Retry-After: 2: the whole client pauses (visibly), then the query retries and recovers. */
export const RateLimited: Story = rateLimitedStory('/get_path', async (canvas) => {
  await expect(await canvas.findByTestId('amount-out', {}, { timeout: 8000 })).toHaveTextContent(/LINK/)
})

/** Amount 0: missing input waits quietly (no request, no error). */
export const MissingInput: Story = {
  args: { amount: '0' },
  play: async ({ canvasElement }) => {
    const canvas = within(canvasElement)
    await expect(canvas.getByText('Enter an amount and pick two tokens to get a path.')).toBeVisible()
    await new Promise((resolve) => setTimeout(resolve, 500))
    await expect(canvas.getByTestId('query-state')).toHaveTextContent('status: pending · fetchStatus: idle')
    await expect(canvas.queryByRole('alert')).toBeNull()
    await expect(storyService().count('/get_path')).toBe(0)
  },
}

/** The service keeps failing: after three tries the typed HttpError is shown. */
export const ServerError: Story = serverErrorStory(
  '/get_path',
  'legacyPath',
  503,
  '<html><h1>503 Service Unavailable</h1></html>',
)
