import type { Meta, StoryObj } from '@storybook/react-vite'
import { expect, userEvent, waitFor, within } from 'storybook/test'
import { parseUnits } from 'viem'
import { useExecuteSwap } from '../src/exports/index.js'
import { addressOf, tokenControl } from './support/args.js'
import { market, storyWallet } from './support/storyContext.js'
import { Card, ErrorView } from './support/ui.js'

type Args = { token0: string; token1: string; amount: string; slippage: number; minAmountOut?: string }

/** A swap button and its steps, as a widget drives useExecuteSwap. */
function ExecuteSwapDemo({ token0, token1, amount, slippage, minAmountOut }: Args) {
  const { execute, status, step, data, error, reset } = useExecuteSwap()
  const decimals0 = market.getToken(token0)?.decimals ?? 18
  const decimals1 = market.getToken(token1)?.decimals ?? 18
  const busy = status === 'quoting' || status === 'approving' || status === 'swapping'
  return (
    <Card title={`useExecuteSwap: ${amount} ${token0} → ${token1}`}>
      <p style={{ fontSize: 12 }}>The wallet is simulated in memory; no extension or chain is needed.</p>
      <button
        type="button"
        disabled={busy}
        onClick={() =>
          execute({
            token0: addressOf(token0) as `0x${string}`,
            token1: addressOf(token1) as `0x${string}`,
            amountIn: parseUnits(amount, decimals0),
            slippage,
            minAmountOut: minAmountOut ? parseUnits(minAmountOut, decimals1) : undefined,
          })
        }
      >
        Swap
      </button>{' '}
      <button type="button" onClick={reset}>
        Reset
      </button>
      <p data-testid="status">status: {status}</p>
      {step && (
        <ul style={{ fontSize: 12, wordBreak: 'break-all' }}>
          <li data-testid="action">action: {step.action}</li>
          {step.resetHash && <li>reset: {step.resetHash}</li>}
          {step.approvalHash && <li data-testid="approval-hash">approval: {step.approvalHash}</li>}
          {step.swapHash && <li data-testid="swap-hash">swap: {step.swapHash}</li>}
        </ul>
      )}
      {data && <p data-testid="receipt">mined in block {String(data.receipt.blockNumber)}</p>}
      <ErrorView error={error} />
    </Card>
  )
}

const meta = {
  title: 'Hooks/useExecuteSwap',
  component: ExecuteSwapDemo,
  args: { token0: 'USDC', token1: 'WETH', amount: '1000', slippage: 0.005 },
  argTypes: {
    token0: tokenControl,
    token1: tokenControl,
    slippage: { control: { type: 'number', step: 0.001 } },
  },
  parameters: {
    docs: {
      description: {
        component: `
Approve-then-swap through viem. Every \`execute\` fetches a fresh \`/swap/info\`, checks it
(minimum output, trusted addresses, calldata, value, chain), approves only what is needed and
waits for the approval, simulates the swap, sends it and waits for its receipt. A double click
sends nothing twice; a rejection stops everything after it.

\`\`\`tsx
const { execute, status, step, error, data } = useExecuteSwap({
  walletClient,
  publicClient,
  trustedAddresses: [ROUTER, SPENDER],
})

<button onClick={() => execute({ token0, token1, amountIn, slippage: 0.01, acceptedQuote: info })}>Swap</button>
\`\`\``,
      },
    },
  },
} satisfies Meta<typeof ExecuteSwapDemo>

export default meta
type Story = StoryObj<typeof meta>

const swapButton = (canvasElement: HTMLElement) => within(canvasElement).getByRole('button', { name: 'Swap' })

/** ERC-20 in: approve (exactly the amount), wait, then swap. */
export const ApproveThenSwap: Story = {
  play: async ({ canvasElement }) => {
    const canvas = within(canvasElement)
    await userEvent.click(swapButton(canvasElement))
    await waitFor(() => expect(canvas.getByTestId('status')).toHaveTextContent('status: approving'), {
      timeout: 5000,
    })
    await waitFor(() => expect(canvas.getByTestId('status')).toHaveTextContent('status: success'), {
      timeout: 10_000,
    })
    await expect(canvas.getByTestId('approval-hash')).toHaveTextContent(/approval: 0x[0-9a-f]{64}/)
    await expect(canvas.getByTestId('swap-hash')).toHaveTextContent(/swap: 0x[0-9a-f]{64}/)
    await expect(storyWallet().allowance(market.getToken('USDC')?.address ?? '0x', market.spender)).toBe(0n)
  },
}

/** Native ETH in: no approval at all. */
export const NativeIn: Story = {
  args: { token0: 'ETH', token1: 'DAI', amount: '0.5' },
  play: async ({ canvasElement }) => {
    const canvas = within(canvasElement)
    await userEvent.click(swapButton(canvasElement))
    await waitFor(() => expect(canvas.getByTestId('status')).toHaveTextContent('status: success'), {
      timeout: 10_000,
    })
    await expect(canvas.queryByTestId('approval-hash')).toBeNull()
    await expect(storyWallet().sent).toHaveLength(1)
  },
}

/** Two quick clicks: one approval and one swap. */
export const DoubleClick: Story = {
  play: async ({ canvasElement }) => {
    const canvas = within(canvasElement)
    const button = swapButton(canvasElement)
    button.click()
    button.click()
    await waitFor(() => expect(canvas.getByTestId('status')).toHaveTextContent('status: success'), {
      timeout: 10_000,
    })
    await expect(storyWallet().sent).toHaveLength(2)
  },
}

/** The user rejects in the wallet: UserRejectedError, nothing sent. */
export const Rejected: Story = {
  beforeEach: () => storyWallet().setRejecting(true),
  play: async ({ canvasElement }) => {
    const canvas = within(canvasElement)
    await userEvent.click(swapButton(canvasElement))
    await expect(await canvas.findByRole('alert', {}, { timeout: 5000 })).toHaveTextContent(
      /^UserRejectedError/,
    )
    await expect(storyWallet().sent).toHaveLength(0)
  },
}

/** The provider trusts only the router: the service's spender is refused before any signature. */
export const UntrustedSpender: Story = {
  parameters: { swapProvider: { trustedAddresses: [market.router] } },
  play: async ({ canvasElement }) => {
    await userEvent.click(swapButton(canvasElement))
    const alert = await within(canvasElement).findByRole('alert', {}, { timeout: 5000 })
    await expect(alert).toHaveTextContent(
      /^UntrustedAddressError: Refused to use 0x[0-9a-fA-F]{40} as approvalAddress/,
    )
    await expect(storyWallet().sent).toHaveLength(0)
  },
}

/** The fresh quote is below the accepted minimum: QuoteBelowMinimumError, nothing signed. */
export const PriceMoved: Story = {
  args: { minAmountOut: '1000' },
  play: async ({ canvasElement }) => {
    await userEvent.click(swapButton(canvasElement))
    await expect(await within(canvasElement).findByRole('alert', {}, { timeout: 5000 })).toHaveTextContent(
      /^QuoteBelowMinimumError/,
    )
    await expect(storyWallet().sent).toHaveLength(0)
  },
}
