import type { Meta, StoryObj } from '@storybook/react-vite'
import { useEffect, useState } from 'react'
import { expect, userEvent, waitFor, within } from 'storybook/test'
import type { Address } from 'viem'
import { HttpError, useTokenPrice } from '../src/exports/index.js'
import { addressOf, tokenControl } from './support/args.js'
import { loadingStory, rateLimitedStory, serverErrorStory } from './support/commonStories.js'
import { market, storyService, tokens } from './support/storyContext.js'
import { Card, ErrorView, QueryState, RateLimitBanner } from './support/ui.js'

type Args = { token?: string | undefined }

/** A USD amount: cents for a dollar or more, up to six decimals below. */
function formatUsd(value: number): string {
  return new Intl.NumberFormat('en-US', {
    style: 'currency',
    currency: 'USD',
    minimumFractionDigits: 2,
    maximumFractionDigits: value !== 0 && Math.abs(value) < 1 ? 6 : 2,
  }).format(value)
}

/** A price tag for whatever address is typed: nothing typed waits quietly, a malformed address is an error. */
function TokenPriceDemo({ token }: Args) {
  const [address, setAddress] = useState(addressOf(token) ?? '')
  useEffect(() => setAddress(addressOf(token) ?? ''), [token])
  const price = useTokenPrice({ address: address as Address })
  // The demo knows the mock market's tokens; a widget reads them with useTokens.
  const symbol = market.getToken(address)?.symbol ?? 'token'

  return (
    <Card title="useTokenPrice">
      <label>
        Token address{' '}
        <input
          aria-label="address"
          value={address}
          size={44}
          onChange={(event) => setAddress(event.target.value.trim())}
        />
      </label>
      <RateLimitBanner />
      {!address && <p>Enter a token address to get its USD price.</p>}
      {price.isPending && price.fetchStatus === 'fetching' && <p>Loading the price…</p>}
      {price.error instanceof HttpError && price.error.status === 404 ? (
        <p>The service knows no token at this address (HttpError 404).</p>
      ) : (
        <ErrorView error={price.error} />
      )}
      {price.data !== undefined && (
        <p data-testid="price" style={{ fontSize: 20 }}>
          1 {symbol} = {formatUsd(price.data)}
        </p>
      )}
      <QueryState status={price.status} fetchStatus={price.fetchStatus} />
    </Card>
  )
}

const meta = {
  title: 'Hooks/useTokenPrice',
  component: TokenPriceDemo,
  args: { token: 'WETH' },
  argTypes: { token: tokenControl },
  parameters: {
    docs: {
      // Each story in its own iframe on the docs page, so that each gets its own mock service.
      story: { inline: false, height: '280px' },
      description: {
        component: `
The USD price of a token (a \`number\`), from \`/overview/token/price\`, fresh for 30 s. Disabled until
\`address\` is a valid address: nothing is sent for a half-typed one. The service's body is not in the
spec; a number, a numeric string or an object with one price field are all read.

\`\`\`tsx
import { useTokenPrice } from 'token-swap-hooks'

// USD price (a number), fresh for 30 s.
const usd = useTokenPrice({ address: USDC })
\`\`\``,
      },
    },
  },
} satisfies Meta<typeof TokenPriceDemo>

export default meta
type Story = StoryObj<typeof meta>

const priceOf = (symbol: string) => market.getToken(symbol)?.priceUsd ?? Number.NaN

/** WETH's price; typing USDC's address shows its price with one more request. */
export const Data: Story = {
  play: async ({ canvasElement }) => {
    const canvas = within(canvasElement)
    await expect(await canvas.findByTestId('price', {}, { timeout: 5000 })).toHaveTextContent(
      `1 WETH = ${formatUsd(priceOf('WETH'))}`,
    )
    await expect(canvas.getByTestId('price')).toHaveTextContent('$3,000.00')
    await expect(storyService().count('/overview/token/price')).toBe(1)
    const input = canvas.getByLabelText('address')
    await userEvent.clear(input)
    await userEvent.type(input, tokens.USDC)
    await waitFor(
      () => expect(canvas.getByTestId('price')).toHaveTextContent(`1 USDC = ${formatUsd(priceOf('USDC'))}`),
      { timeout: 5000 },
    )
    await expect(storyService().count('/overview/token/price')).toBe(2)
  },
}

/** A sub-cent price keeps its digits. */
export const SmallPrice: Story = {
  args: { token: 'SCAM' },
  play: async ({ canvasElement }) => {
    await expect(await within(canvasElement).findByTestId('price', {}, { timeout: 5000 })).toHaveTextContent(
      '1 SCAM = $0.0003',
    )
  },
}

/** A slow service: the loading state. */
export const Loading: Story = loadingStory('Loading the price…')

/** A valid address the service does not know: a 404 HttpError, never retried. */
export const UnknownToken: Story = {
  args: { token: undefined },
  play: async ({ canvasElement }) => {
    const canvas = within(canvasElement)
    await userEvent.type(canvas.getByLabelText('address'), '0x000000000000000000000000000000000000dEaD')
    await expect(
      await canvas.findByText(
        'The service knows no token at this address (HttpError 404).',
        {},
        { timeout: 5000 },
      ),
    ).toBeVisible()
    await expect(storyService().count('/overview/token/price')).toBe(1)
  },
}

/** A 429 with Retry-After: 2: the whole client pauses (visibly), then the query retries and recovers. */
export const RateLimited: Story = rateLimitedStory('/overview/token/price', async (canvas) => {
  await expect(await canvas.findByTestId('price', {}, { timeout: 8000 })).toHaveTextContent('1 WETH = $')
})

/** No address yet: missing input waits quietly, no request, no error. */
export const MissingInput: Story = {
  args: { token: undefined },
  play: async ({ canvasElement }) => {
    const canvas = within(canvasElement)
    await expect(canvas.getByText('Enter a token address to get its USD price.')).toBeVisible()
    await new Promise((resolve) => setTimeout(resolve, 500))
    await expect(canvas.getByTestId('query-state')).toHaveTextContent('status: pending · fetchStatus: idle')
    await expect(canvas.queryByRole('alert')).toBeNull()
    await expect(storyService().count('/overview/token/price')).toBe(0)
  },
}

/**
 * A malformed address typed in the input: a visible InvalidParameterError naming `address`, and
 * still no request. A mixed-case address with a wrong checksum is malformed too.
 */
export const MalformedInput: Story = {
  args: { token: undefined },
  play: async ({ canvasElement }) => {
    const canvas = within(canvasElement)
    await userEvent.type(canvas.getByLabelText('address'), '0x1234not-an-address')
    await expect(await canvas.findByRole('alert', {}, { timeout: 5000 })).toHaveTextContent(
      /^InvalidParameterError: Invalid parameter "address": must be an address/,
    )
    const input = canvas.getByLabelText('address')
    await userEvent.clear(input)
    // USDC with one letter's case flipped: the checksum no longer matches.
    await userEvent.type(input, tokens.USDC.replace('a', 'A'))
    await expect(await canvas.findByRole('alert', {}, { timeout: 5000 })).toHaveTextContent(/valid checksum/)
    await expect(storyService().count('/overview/token/price')).toBe(0)
  },
}

/** The service keeps failing: after three tries the typed HttpError is shown. */
export const ServerError: Story = serverErrorStory(
  '/overview/token/price',
  'tokenPrice',
  503,
  '<html><h1>503 Service Unavailable</h1></html>',
)
