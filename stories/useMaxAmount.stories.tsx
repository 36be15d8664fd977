import type { Meta, StoryObj } from '@storybook/react-vite'
import { useState } from 'react'
import { expect, userEvent, waitFor, within } from 'storybook/test'
import { formatUnits } from 'viem'
import { isNativeToken, useMaxAmount } from '../src/exports/index.js'
import { addressOf, tokenControl } from './support/args.js'
import { market, storyService, storyWallet, tokens } from './support/storyContext.js'
import { Card, ErrorView, formatAmount, QueryState } from './support/ui.js'

type Args = { token0?: string | undefined; token1?: string | undefined }

/** An amount field with a "Max" button: the balance for a token, the balance less the swap's fee for ETH. */
function MaxAmountDemo({ token0: symbol0, token1: symbol1 }: Args) {
  const token0 = addressOf(symbol0)
  const token1 = addressOf(symbol1)
  const decimals = (token0 && market.getToken(token0)?.decimals) ?? 18
  const [typed, setTyped] = useState('')
  const max = useMaxAmount({ token0, token1 })
  const data = max.data

  return (
    <Card title="useMaxAmount">
      {!(token0 && token1) && <p>Pick both tokens to know how much can be swapped.</p>}
      <p>
        <input
          aria-label="amount"
          value={typed}
          placeholder="0.0"
          onChange={(e) => setTyped(e.target.value)}
        />{' '}
        {symbol0}{' '}
        <button
          type="button"
          disabled={!data?.amount}
          onClick={() => data && setTyped(formatUnits(data.amount, decimals))}
        >
          Max
        </button>
      </p>
      <ErrorView error={max.error} />
      {data && (
        <dl style={{ fontSize: 13 }}>
          <dt>Balance</dt>
          <dd data-testid="balance">{formatAmount(data.balance, decimals)}</dd>
          <dt>Reserved for the fee</dt>
          <dd data-testid="fee">
            {data.fee === undefined
              ? 'nothing (paid in the chain’s coin)'
              : `${formatAmount(data.fee, 18, 8)} ETH (${data.gas} gas × ${data.feePerGas} wei)`}
          </dd>
          <dt>Max</dt>
          <dd data-testid="max">
            {formatAmount(data.amount, decimals)}
            {data.reason ? ` (${data.reason})` : ''}
          </dd>
        </dl>
      )}
      {token0 && isNativeToken(token0) && (
        <p style={{ fontSize: 12 }}>Read again every block: the fee follows the base fee.</p>
      )}
      <QueryState status={max.status} fetchStatus={max.fetchStatus} />
    </Card>
  )
}

const meta = {
  title: 'Hooks/useMaxAmount',
  component: MaxAmountDemo,
  args: { token0: 'ETH', token1: 'USDC' },
  argTypes: { token0: tokenControl, token1: tokenControl },
  parameters: {
    docs: {
      story: { inline: false, height: '320px' },
      description: {
        component: `
What a "Max" button fills in (from \`token-swap-hooks\`): an ERC-20's balance; for the chain's coin the
balance less the fee of the exact calls the swap will send (simulated as \`useSwapPreview\` does, for a
quote of the whole balance), at the next block's base fee × 1.2 plus the priority fee, the gas limit × 1.2,
plus the L1 data fee on OP-stack chains. Never below 0 (\`amount: 0n\` and a \`reason\`); read again every
block. Waits quietly until both tokens, the account and a public client are there.

\`\`\`tsx
import { useMaxAmount } from 'token-swap-hooks'

const max = useMaxAmount({ token0, token1 })
<button disabled={!max.data?.amount} onClick={() => setAmountIn(max.data?.amount)}>Max</button>
\`\`\``,
      },
    },
  },
} satisfies Meta<typeof MaxAmountDemo>

export default meta
type Story = StoryObj<typeof meta>

/** ETH: the balance less the swap's fee; Max fills the field with it. */
export const NativeWithGasLeft: Story = {
  play: async ({ canvasElement }) => {
    const canvas = within(canvasElement)
    await expect(await canvas.findByTestId('max', {}, { timeout: 8000 })).toBeVisible()
    const balance = storyWallet().balanceOf(tokens.ETH)
    await expect(canvas.getByTestId('balance')).toHaveTextContent(formatAmount(balance, 18))
    await expect(canvas.getByTestId('fee')).toHaveTextContent(/ETH \(\d+ gas × \d+ wei\)/)
    await expect(canvas.getByTestId('max')).not.toHaveTextContent(formatAmount(balance, 18))
    await userEvent.click(canvas.getByRole('button', { name: 'Max' }))
    const filled = (canvas.getByLabelText('amount') as HTMLInputElement).value
    await expect(Number(filled)).toBeGreaterThan(9.99)
    await expect(Number(filled)).toBeLessThan(10)
    // One quote (for the balance), no price request.
    await expect(storyService().count('/swap/info')).toBe(1)
    await expect(storyService().count('/overview/token/price')).toBe(0)
  },
}

/** An ERC-20: the whole balance, nothing reserved (the fee is paid in ETH), no quote. */
export const Erc20: Story = {
  args: { token0: 'USDC', token1: 'WETH' },
  play: async ({ canvasElement }) => {
    const canvas = within(canvasElement)
    await expect(await canvas.findByTestId('max', {}, { timeout: 8000 })).toHaveTextContent('25000')
    await expect(canvas.getByTestId('fee')).toHaveTextContent('nothing')
    await userEvent.click(canvas.getByRole('button', { name: 'Max' }))
    await expect(canvas.getByLabelText('amount')).toHaveValue('25000')
    await expect(storyService().count('/swap/info')).toBe(0)
  },
}

/** ETH below what any transaction costs: 0 with `fee-exceeds-balance`, and no Max to click. */
export const NothingSpendable: Story = {
  beforeEach: () => storyWallet().setBalance(tokens.ETH, 1000n),
  play: async ({ canvasElement }) => {
    const canvas = within(canvasElement)
    await expect(await canvas.findByTestId('max', {}, { timeout: 8000 })).toHaveTextContent(
      'fee-exceeds-balance',
    )
    await expect(canvas.getByRole('button', { name: 'Max' })).toBeDisabled()
  },
}

/** No token1 yet: quiet, nothing read or requested. */
export const MissingInput: Story = {
  args: { token1: undefined },
  play: async ({ canvasElement }) => {
    const canvas = within(canvasElement)
    await expect(canvas.getByText('Pick both tokens to know how much can be swapped.')).toBeVisible()
    await new Promise((resolve) => setTimeout(resolve, 400))
    await waitFor(() =>
      expect(canvas.getByTestId('query-state')).toHaveTextContent('status: pending · fetchStatus: idle'),
    )
    await expect(storyService().count()).toBe(0)
  },
}
