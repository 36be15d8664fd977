import type { Meta, StoryObj } from '@storybook/react-vite'
import { useState } from 'react'
import { expect, userEvent, waitFor, within } from 'storybook/test'
import type { Address } from 'viem'
import type { TokenBalance } from '../src/exports/core.js'
import { parseAmount, useExecuteSwap, useSwapRoute, useTokenBalances } from '../src/exports/index.js'
import { tokenBalancesQueryName } from '../src/exports/query.js'
import { enabledButton } from './support/play.js'
import {
  simulatedAccount,
  storyService,
  storyWallet,
  tokens,
  withMockService,
} from './support/storyContext.js'
import { Card, ErrorView, formatAmount, QueryState, RateLimitBanner } from './support/ui.js'

type Args = { account: string }

const usd = (value: number) =>
  new Intl.NumberFormat('en-US', { style: 'currency', currency: 'USD' }).format(value)

function Row({ entry }: { entry: TokenBalance }) {
  const { symbol, decimals = 18 } = entry.token
  return (
    <tr data-testid={`balance-${symbol}`}>
      <td>{symbol}</td>
      {entry.status === 'success' ? (
        <>
          <td align="right">{formatAmount(entry.balance, decimals, 4)}</td>
          <td align="right">{entry.valueUsd === undefined ? '' : usd(entry.valueUsd)}</td>
        </>
      ) : (
        <td colSpan={2}>unreadable ({entry.reason})</td>
      )}
    </tr>
  )
}

/**
 * A token picker's list: the account's balances of the service's tokens, held first by USD
 * value; and a swap whose receipt's block the list is then read at.
 */
function TokenBalancesDemo({ account: initialAccount }: Args) {
  const [account, setAccount] = useState(initialAccount)
  // The block of the last settled swap: the list is read at that block or later.
  const [settledAt, setSettledAt] = useState<bigint>()
  const balances = useTokenBalances({
    account: (account || undefined) as Address | undefined,
    blockNumber: settledAt,
  })
  const amountIn = parseAmount('1000', 6)
  const route = useSwapRoute({ token0: tokens.USDC, token1: tokens.WETH, amountIn })
  const swap = useExecuteSwap({
    mutation: { onSuccess: ({ receipt }) => setSettledAt(receipt.blockNumber) },
  })
  const held = balances.data?.balances.filter((entry) => entry.status === 'success' && entry.balance > 0n)

  return (
    <Card title="useTokenBalances">
      <label>
        Account{' '}
        <input
          aria-label="account"
          value={account}
          size={44}
          onChange={(event) => setAccount(event.target.value.trim())}
        />
      </label>
      <RateLimitBanner />
      {!account && <p>Connect a wallet to see its balances.</p>}
      {balances.isPending && balances.fetchStatus === 'fetching' && <p>Reading the balances…</p>}
      <ErrorView error={balances.error} />
      {balances.data && (
        <div style={{ opacity: balances.isPlaceholderData ? 0.5 : 1 }}>
          <p data-testid="summary" style={{ fontSize: 12 }}>
            {held?.length} of {balances.data.balances.length} tokens held, read at block{' '}
            {String(balances.data.blockNumber)} with {balances.data.method}
            {balances.isPlaceholderData ? ' (updating…)' : ''}
          </p>
          <table style={{ borderCollapse: 'collapse', fontSize: 14 }}>
            <tbody>
              {balances.data.balances.map((entry) => (
                <Row key={entry.token.address} entry={entry} />
              ))}
            </tbody>
          </table>
        </div>
      )}
      <p>
        <button
          type="button"
          disabled={!route.data || route.isPlaceholderData || swap.isPending || !amountIn}
          onClick={() =>
            amountIn &&
            swap.execute({
              token0: tokens.USDC,
              token1: tokens.WETH,
              amountIn,
              slippage: 0.01,
              acceptedQuote: route.data,
            })
          }
        >
          Swap 1000 USDC to WETH
        </button>{' '}
        <span data-testid="swap-status">{swap.stage}</span>
        {swap.data && (
          <span data-testid="settled"> (mined in block {String(swap.data.receipt.blockNumber)})</span>
        )}
      </p>
      <ErrorView error={swap.error} />
      <QueryState status={balances.status} fetchStatus={balances.fetchStatus} />
    </Card>
  )
}

const meta = {
  title: 'Hooks/useTokenBalances',
  component: TokenBalancesDemo,
  args: { account: simulatedAccount },
  argTypes: { account: { control: 'text' } },
  parameters: {
    docs: {
      story: { inline: false, height: '520px' },
      description: {
        component: `
An account's balance of every token of the service's list (from \`token-swap-hooks\`),
sorted as a token picker shows them: held first by USD value, then by symbol. Read through the
user's public client (here the simulated wallet's chain, which has Multicall3): one
\`aggregate3\` call per 500 tokens. Prices come from \`/overview/token/price\`, for held tokens
only (at most 10). A swap's receipt block, passed as \`blockNumber\`, makes the list refresh at
that block or later, the previous list shown meanwhile.

\`\`\`tsx
import { useExecuteSwap, useTokenBalances } from 'token-swap-hooks'
import { tokenBalancesQueryName } from 'token-swap-hooks/query'

const [settledAt, setSettledAt] = useState<bigint>()
const { data } = useTokenBalances({ account, blockNumber: settledAt })
const swap = useExecuteSwap({ mutation: { onSuccess: ({ receipt }) => setSettledAt(receipt.blockNumber) } })
// or, anywhere: queryClient.invalidateQueries({ queryKey: [tokenBalancesQueryName] })
\`\`\``,
      },
    },
  },
} satisfies Meta<typeof TokenBalancesDemo>

export default meta
type Story = StoryObj<typeof meta>

const order = (canvasElement: HTMLElement) =>
  [...canvasElement.querySelectorAll('[data-testid^="balance-"]')].map((row) =>
    row.getAttribute('data-testid')?.slice('balance-'.length),
  )

/** The list, held tokens first by USD value (ties by symbol), then the others by symbol. */
export const Data: Story = {
  play: async ({ canvasElement }) => {
    const canvas = within(canvasElement)
    await expect(await canvas.findByTestId('summary', {}, { timeout: 5000 })).toHaveTextContent(
      /^6 of 10 tokens held, read at block \d+ with multicall3$/,
    )
    // ETH $30 000, USDC $25 000, LINK = WETH $15 000, DAI = USDT $10 000; then the rest by symbol.
    await expect(order(canvasElement)).toEqual([
      'ETH',
      'USDC',
      'LINK',
      'WETH',
      'DAI',
      'USDT',
      'LONE',
      'TAIL',
      'UNI',
      'WBTC',
    ])
    await expect(canvas.getByTestId('balance-USDC')).toHaveTextContent('USDC25000$25,000.00')
    // One list and one price per held token: none for the four not held.
    await expect(storyService().count('/overview/tokens')).toBe(1)
    await expect(storyService().count('/overview/token/price')).toBe(6)
  },
}

/**
 * A swap settles: its receipt's block goes to `blockNumber`, and the list is read again at that
 * block or later (the previous list dimmed meanwhile). Prices come from the cache: no new request.
 */
export const RefreshAfterSwap: Story = {
  play: async ({ canvasElement }) => {
    const canvas = within(canvasElement)
    await expect(await canvas.findByTestId('balance-USDC', {}, { timeout: 5000 })).toHaveTextContent(
      'USDC25000',
    )
    const prices = storyService().count('/overview/token/price')
    await userEvent.click(await enabledButton(canvas, 'Swap 1000 USDC to WETH'))
    const settled = await canvas.findByTestId('settled', {}, { timeout: 10_000 })
    const block = /block (\d+)/.exec(settled.textContent ?? '')?.[1]
    await waitFor(
      () => expect(canvas.getByTestId('summary')).toHaveTextContent(`read at block ${block} with`),
      {
        timeout: 5000,
      },
    )
    await expect(canvas.getByTestId('balance-USDC')).toHaveTextContent('USDC24000')
    const weth = storyWallet().balanceOf(tokens.WETH)
    await expect(canvas.getByTestId('balance-WETH')).toHaveTextContent(`WETH${formatAmount(weth, 18, 4)}`)
    await expect(storyService().count('/overview/token/price')).toBe(prices)
    await expect(tokenBalancesQueryName).toBe('tokenBalances')
  },
}

/** No account (no wallet connected): the hook waits quietly, nothing is read. */
export const MissingInput: Story = {
  args: { account: '' },
  play: async ({ canvasElement }) => {
    const canvas = within(canvasElement)
    await expect(canvas.getByText('Connect a wallet to see its balances.')).toBeVisible()
    await new Promise((resolve) => setTimeout(resolve, 500))
    await expect(canvas.getByTestId('query-state')).toHaveTextContent('status: pending · fetchStatus: idle')
    // Neither the token list nor a price (the swap button's own quote aside).
    await expect(
      storyService().count('/overview/tokens') + storyService().count('/overview/token/price'),
    ).toBe(0)
  },
}

/** A half-typed account: an InvalidParameterError naming it; nothing is read or requested. */
export const MalformedInput: Story = {
  args: { account: '0x5a1a5a1a' },
  play: async ({ canvasElement }) => {
    await expect(await within(canvasElement).findByRole('alert', {}, { timeout: 5000 })).toHaveTextContent(
      /^InvalidParameterError: Invalid parameter "account": must be an address/,
    )
    // Neither the token list nor a price (the swap button's own quote aside).
    await expect(
      storyService().count('/overview/tokens') + storyService().count('/overview/token/price'),
    ).toBe(0)
  },
}

/** The token list is slow: the loading state. */
export const Loading: Story = {
  parameters: { mockService: withMockService({ latency: 60_000 }) },
  play: async ({ canvasElement }) => {
    await expect(
      await within(canvasElement).findByText('Reading the balances…', {}, { timeout: 5000 }),
    ).toBeVisible()
  },
}
