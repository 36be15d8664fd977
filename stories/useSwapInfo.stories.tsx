import type { Meta, StoryObj } from '@storybook/react-vite'
import { useState } from 'react'
import { expect, userEvent, within } from 'storybook/test'
import { type Address, parseUnits } from 'viem'
import { getMinAmountOut, NoRouteError, parseAmount, useSwapInfo } from '../src/exports/index.js'
import { addressOf, tokenControl } from './support/args.js'
import { loadingStory, rateLimitedStory, serverErrorStory } from './support/commonStories.js'
import { market, simulatedAccount, storyService } from './support/storyContext.js'
import { Card, ErrorView, formatAmount, QueryState, RateLimitBanner } from './support/ui.js'

type Args = {
  token0: string
  token1: string
  amount: string
  slippage: number
  recipient: string
  debounceMs: number
}

/** The least output at a slippage, or undefined when the slippage is not a fraction from 0 to 1. */
function minimumOf(amountOut: bigint, slippage: number): bigint | undefined {
  try {
    return getMinAmountOut(amountOut, slippage)
  } catch {
    return undefined
  }
}

/** What a swap form shows before signing: the estimate, the minimum, who is called and approved. */
function SwapInfoDemo({ token0, token1, amount: initialAmount, slippage, recipient, debounceMs }: Args) {
  const [amount, setAmount] = useState(initialAmount)
  // The demo knows the mock market's tokens; a widget reads them with useTokens.
  const decimalsIn = market.getToken(token0)?.decimals
  const decimalsOut = market.getToken(token1)?.decimals
  // undefined while the field holds no amount yet ('', '1.', 'abc'): the hook waits quietly.
  const amountIn = parseAmount(amount, decimalsIn)
  const to = recipient ? (recipient as Address) : undefined
  const info = useSwapInfo({
    token0: addressOf(token0),
    token1: addressOf(token1),
    amountIn,
    to,
    slippage,
    debounceMs,
  })
  const noRoute = info.error instanceof NoRouteError
  const minimum = info.data ? minimumOf(info.data.estimateAmount, slippage) : undefined

  return (
    <Card title={`useSwapInfo: ${token0} → ${token1}`}>
      <label>
        Amount of {token0}{' '}
        <input aria-label="amount" value={amount} onChange={(event) => setAmount(event.target.value)} />
      </label>
      <p style={{ fontSize: 12 }}>
        Recipient: <code>{recipient || '(none)'}</code> · slippage {slippage * 100}%
      </p>
      <RateLimitBanner />
      {(!amountIn || !to) && <p>Enter an amount, pick two tokens and a recipient to get the swap info.</p>}
      {info.isPending && info.fetchStatus === 'fetching' && <p>Loading the swap info…</p>}
      {noRoute && (
        <p>
          No route between {token0} and {token1}: {info.error?.name}.
        </p>
      )}
      {info.error && !noRoute && <ErrorView error={info.error} />}
      {info.data && decimalsOut !== undefined && (
        <dl style={{ opacity: info.isPlaceholderData ? 0.5 : 1 }} data-testid="swap-info">
          <dt>You receive (estimate)</dt>
          <dd data-testid="estimate-amount">
            {formatAmount(info.data.estimateAmount, decimalsOut)} {token1}
          </dd>
          <dt>Minimum received at {slippage * 100}% slippage</dt>
          <dd data-testid="minimum-received">
            {minimum === undefined ? '–' : `${formatAmount(minimum, decimalsOut)} ${token1}`}
          </dd>
          <dt>Approval address</dt>
          <dd data-testid="approval-address">{info.data.approvalAddress ?? 'none: no approval needed'}</dd>
          <dt>Transfer address</dt>
          <dd data-testid="transfer-address">{info.data.transferAddress}</dd>
          <dt>Transfer value</dt>
          <dd data-testid="transfer-value">
            {decimalsIn === undefined ? '–' : formatAmount(info.data.transferValue, decimalsIn)}
          </dd>
          <dt>Hops</dt>
          <dd data-testid="hops-count">{info.data.hopsCount}</dd>
          <dt>Estimated transfer time</dt>
          <dd data-testid="estimate-seconds">{info.data.estimateTransferSeconds} s</dd>
          <dt>Fee</dt>
          <dd>
            <pre data-testid="fee" style={{ fontSize: 11, maxHeight: 160, overflow: 'auto' }}>
              {JSON.stringify(
                info.data.fee,
                (_, value: unknown) => (typeof value === 'bigint' ? value.toString() : value),
                2,
              )}
            </pre>
          </dd>
        </dl>
      )}
      <QueryState status={info.status} fetchStatus={info.fetchStatus} />
    </Card>
  )
}

const meta = {
  title: 'Hooks/useSwapInfo',
  component: SwapInfoDemo,
  args: {
    token0: 'WETH',
    token1: 'USDC',
    amount: '1',
    slippage: 0.01,
    recipient: simulatedAccount,
    debounceMs: 300,
  },
  argTypes: {
    token0: tokenControl,
    token1: tokenControl,
    amount: { control: 'text' },
    slippage: { control: { type: 'number', min: 0, max: 1, step: 0.001 } },
    recipient: { control: 'text' },
    debounceMs: { control: { type: 'number', min: 0, step: 50 } },
  },
  parameters: {
    docs: {
      // Each story in its own iframe on the docs page, so that each gets its own mock service.
      story: { inline: false, height: '560px' },
      description: {
        component: `
Everything needed to execute a swap, from \`/swap/info\`: calldata, the contract to call
(\`transferAddress\`), the spender to approve (\`approvalAddress\`, \`null\` when none is needed) and
estimates, with bigint amounts. Disabled until token0, token1, a positive \`amountIn\` and a valid
recipient \`to\` are set; debounced and polled like \`useSwapRoute\`. The minimum received shown here
is \`getMinAmountOut(estimateAmount, slippage)\`. \`useExecuteSwap\` fetches its own fresh copy before
signing: this hook is for display.

\`\`\`tsx
import { useSwapInfo } from 'token-swap-hooks'

// Execution info (calldata, spender, estimates): same debounce and polling.
const info = useSwapInfo({ token0: WETH, token1: USDC, amountIn, to: account, slippage: 0.01 })
info.data?.approvalAddress     // Address | null
info.data?.estimateAmount      // bigint
\`\`\``,
      },
    },
  },
} satisfies Meta<typeof SwapInfoDemo>

export default meta
type Story = StoryObj<typeof meta>

const quoteOf = (token0: string, token1: string, amount: string) => {
  const tokenIn = market.getToken(token0)
  const quote = market.quote({
    token0: addressOf(token0) as Address,
    token1: addressOf(token1) as Address,
    amountIn: parseUnits(amount, tokenIn?.decimals ?? 18),
  })
  if (!quote) throw new Error(`The mock market has no route from ${token0} to ${token1}.`)
  return quote
}

/** The info of 1 WETH → USDC at 1%: the estimate, the minimum, the router, the spender, the fee. */
export const Data: Story = {
  play: async ({ canvasElement }) => {
    const canvas = within(canvasElement)
    const quote = quoteOf('WETH', 'USDC', '1')
    await expect(await canvas.findByTestId('estimate-amount', {}, { timeout: 5000 })).toHaveTextContent(
      `${formatAmount(quote.amountOut, 6)} USDC`,
    )
    await expect(canvas.getByTestId('minimum-received')).toHaveTextContent(
      `${formatAmount(getMinAmountOut(quote.amountOut, 0.01), 6)} USDC`,
    )
    await expect(canvas.getByTestId('approval-address')).toHaveTextContent(market.spender)
    await expect(canvas.getByTestId('transfer-address')).toHaveTextContent(market.router)
    await expect(canvas.getByTestId('transfer-value')).toHaveTextContent(/^0$/)
    await expect(canvas.getByTestId('hops-count')).toHaveTextContent(String(quote.path.length - 1))
    await expect(canvas.getByTestId('estimate-seconds')).toHaveTextContent(
      `${market.estimateTransferSeconds(quote)} s`,
    )
    const fee = JSON.parse(canvas.getByTestId('fee').textContent ?? '{}') as { totalBps?: number }
    await expect(fee.totalBps).toBe(quote.hops.reduce((total, hop) => total + hop.feeBps, 0))
    await expect(storyService().count('/swap/info')).toBe(1)
    const sent = storyService().log.find((entry) => entry.path === '/swap/info')
    await expect(sent?.query).toEqual(
      expect.arrayContaining([
        ['to', simulatedAccount],
        ['slippage', '0.01'],
      ]),
    )
  },
}

/** ETH in: no approval is needed, and the swap sends the input as native value. */
export const NativeInput: Story = {
  args: { token0: 'ETH', token1: 'USDC', amount: '0.5', slippage: 0.005 },
  play: async ({ canvasElement }) => {
    const canvas = within(canvasElement)
    const quote = quoteOf('ETH', 'USDC', '0.5')
    await expect(await canvas.findByTestId('approval-address', {}, { timeout: 5000 })).toHaveTextContent(
      'none: no approval needed',
    )
    await expect(canvas.getByTestId('transfer-value')).toHaveTextContent('0.5')
    await expect(canvas.getByTestId('minimum-received')).toHaveTextContent(
      `${formatAmount(getMinAmountOut(quote.amountOut, 0.005), 6)} USDC`,
    )
  },
}

/** A slow service: the loading state. */
export const Loading: Story = loadingStory('Loading the swap info…')

/** LONE is in no pair: `/swap/info` answers 404, a NoRouteError that is never retried. */
export const NoRoute: Story = {
  args: { token0: 'USDC', token1: 'LONE', amount: '100' },
  play: async ({ canvasElement }) => {
    await expect(
      await within(canvasElement).findByText(
        'No route between USDC and LONE: NoRouteError.',
        {},
        { timeout: 5000 },
      ),
    ).toBeVisible()
    await expect(within(canvasElement).queryByTestId('swap-info')).toBeNull()
    await expect(storyService().count('/swap/info')).toBe(1)
  },
}

/** A 429 with Retry-After: 2: the whole client pauses (visibly), then the query retries and recovers. */
export const RateLimited: Story = rateLimitedStory('/swap/info', async (canvas) => {
  await expect(await canvas.findByTestId('estimate-amount', {}, { timeout: 8000 })).toHaveTextContent(/USDC/)
})

/** No recipient: missing input waits quietly (no request, no error). */
export const MissingInput: Story = {
  args: { recipient: '' },
  play: async ({ canvasElement }) => {
    const canvas = within(canvasElement)
    await expect(
      canvas.getByText('Enter an amount, pick two tokens and a recipient to get the swap info.'),
    ).toBeVisible()
    await new Promise((resolve) => setTimeout(resolve, 500))
    await expect(canvas.getByTestId('query-state')).toHaveTextContent('status: pending · fetchStatus: idle')
    await expect(canvas.queryByRole('alert')).toBeNull()
    await expect(storyService().count('/swap/info')).toBe(0)
  },
}

/** Amount 0 (then typed as 0.000): the hook stays disabled, no request, no error. */
export const ZeroAmount: Story = {
  args: { amount: '0' },
  play: async ({ canvasElement }) => {
    const canvas = within(canvasElement)
    await expect(
      canvas.getByText('Enter an amount, pick two tokens and a recipient to get the swap info.'),
    ).toBeVisible()
    const input = canvas.getByLabelText('amount')
    await userEvent.clear(input)
    await userEvent.type(input, '0.000', { delay: 20 })
    await new Promise((resolve) => setTimeout(resolve, 500))
    await expect(canvas.getByTestId('query-state')).toHaveTextContent('status: pending · fetchStatus: idle')
    await expect(canvas.queryByRole('alert')).toBeNull()
    await expect(storyService().count('/swap/info')).toBe(0)
  },
}

/** The service keeps failing: after three tries the typed HttpError is shown. */
export const ServerError: Story = serverErrorStory('/swap/info', 'swapInfo', 500)
