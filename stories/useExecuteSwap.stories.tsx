import type { Meta, StoryObj } from '@storybook/react-vite'
import { expect, userEvent, waitFor, within } from 'storybook/test'
import { type Address, parseUnits } from 'viem'
import { swapGuardAddress } from '../src/core/execute/guard/swapGuard.js'
import { parseAmount, useExecuteSwap, useSwapRoute } from '../src/exports/index.js'
import { getSwapInfoBody } from '../src/exports/mock.js'
import { addressOf, tokenControl } from './support/args.js'
import { enabledButton, serializable } from './support/play.js'
import { simulatedChainId } from './support/simulatedWallet.js'
import { market, storyWallet, withMockService } from './support/storyContext.js'
import { Card, ErrorView } from './support/ui.js'

type Args = { token0: string; token1: string; amount: string; slippage: number; minAmountOut?: string }

/** A swap button and its steps, as a widget drives useExecuteSwap. */
function ExecuteSwapDemo({ token0, token1, amount, slippage, minAmountOut }: Args) {
  const { execute, isPending, stage, step, data, error, reset } = useExecuteSwap()
  const decimals0 = market.getToken(token0)?.decimals ?? 18
  const decimals1 = market.getToken(token1)?.decimals ?? 18
  // The quote the user sees: its amount less the slippage is the floor the signed calls must meet.
  const amountIn = parseAmount(amount, decimals0)
  const route = useSwapRoute({
    token0: addressOf(token0) as `0x${string}`,
    token1: addressOf(token1) as `0x${string}`,
    amountIn,
  })
  const busy = isPending
  return (
    <Card title={`useExecuteSwap: ${amount} ${token0} → ${token1}`}>
      <p style={{ fontSize: 12 }}>The wallet is simulated in memory; no extension or chain is needed.</p>
      <p data-testid="quote" style={{ fontSize: 12 }}>
        {route.data ? `quote: ${route.data.amountOut}` : 'quoting…'}
      </p>
      <button
        type="button"
        disabled={busy || !route.data || !amountIn}
        onClick={() =>
          amountIn &&
          execute({
            token0: addressOf(token0) as `0x${string}`,
            token1: addressOf(token1) as `0x${string}`,
            amountIn,
            slippage,
            acceptedQuote: route.data,
            minAmountOut: parseAmount(minAmountOut ?? '', decimals1),
          })
        }
      >
        Swap
      </button>{' '}
      <button type="button" onClick={reset}>
        Reset
      </button>
      <p data-testid="status">status: {stage}</p>
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
Approve-then-swap through viem, without trusting the service with funds. Every \`execute\`
fetches a fresh \`/swap/info\`, refuses addresses outside the chain's \`trustedAddresses\`,
simulates the exact calls the wallet will sign and refuses unless the user's floor holds
(token1 to the user, at least the accepted quote less the slippage; token0 at most
\`amountIn\`; nothing else leaves), approves only what is needed and waits for it, sends the
swap pinned to the chain and waits for its receipt. A double click sends nothing twice; a
rejection stops everything after it.

\`\`\`tsx
const { execute, isPending, step, error, data } = useExecuteSwap({
  walletClient,
  publicClient,
  trustedAddresses: { [mainnet.id]: [ROUTER, SPENDER] },
})
const route = useSwapRoute({ token0, token1, amountIn })

<button onClick={() => execute({ token0, token1, amountIn, slippage: 0.01, acceptedQuote: route.data })}>Swap</button>
\`\`\``,
      },
    },
  },
} satisfies Meta<typeof ExecuteSwapDemo>

export default meta
type Story = StoryObj<typeof meta>

/** The Swap button, once the quote it needs is shown and it can be clicked. */
const swapButton = async (canvasElement: HTMLElement) => {
  const canvas = within(canvasElement)
  await canvas.findByText(/^quote: \d+/, {}, { timeout: 5000 })
  return enabledButton(canvas, 'Swap')
}

/** ERC-20 in: approve (exactly the amount), wait, then swap. */
export const ApproveThenSwap: Story = {
  play: async ({ canvasElement }) => {
    const canvas = within(canvasElement)
    await userEvent.click(await swapButton(canvasElement))
    await waitFor(() => expect(canvas.getByTestId('status')).toHaveTextContent('status: approving'), {
      timeout: 5000,
    })
    await waitFor(() => expect(canvas.getByTestId('status')).toHaveTextContent('status: success'), {
      timeout: 10_000,
    })
    await expect(canvas.getByTestId('approval-hash')).toHaveTextContent(/approval: 0x[0-9a-f]{64}/)
    await expect(canvas.getByTestId('swap-hash')).toHaveTextContent(/swap: 0x[0-9a-f]{64}/)
    await expect(
      serializable(storyWallet().allowance(market.getToken('USDC')?.address ?? '0x', swapGuardAddress)),
    ).toBe(serializable(0n))
  },
}

/** Native ETH in: no approval at all. */
export const NativeIn: Story = {
  args: { token0: 'ETH', token1: 'DAI', amount: '0.5' },
  play: async ({ canvasElement }) => {
    const canvas = within(canvasElement)
    await userEvent.click(await swapButton(canvasElement))
    await waitFor(() => expect(canvas.getByTestId('status')).toHaveTextContent('status: success'), {
      timeout: 10_000,
    })
    await expect(canvas.queryByTestId('approval-hash')).toBeNull()
    await expect(serializable(storyWallet().sent)).toHaveLength(1)
  },
}

/** Two quick clicks: one approval and one swap. */
export const DoubleClick: Story = {
  play: async ({ canvasElement }) => {
    const canvas = within(canvasElement)
    const button = await swapButton(canvasElement)
    button.click()
    button.click()
    await waitFor(() => expect(canvas.getByTestId('status')).toHaveTextContent('status: success'), {
      timeout: 10_000,
    })
    await expect(serializable(storyWallet().sent)).toHaveLength(2)
  },
}

/** The user rejects in the wallet: UserRejectedError, nothing sent. */
export const Rejected: Story = {
  beforeEach: () => storyWallet().setRejecting(true),
  play: async ({ canvasElement }) => {
    const canvas = within(canvasElement)
    await userEvent.click(await swapButton(canvasElement))
    await expect(await canvas.findByRole('alert', {}, { timeout: 5000 })).toHaveTextContent(
      /^UserRejectedError/,
    )
    await expect(serializable(storyWallet().sent)).toHaveLength(0)
  },
}

/** The provider trusts only the router: the service's spender is refused before any signature. */
export const UntrustedSpender: Story = {
  parameters: { swapProvider: { trustedAddresses: { [simulatedChainId]: [market.router] } } },
  play: async ({ canvasElement }) => {
    await userEvent.click(await swapButton(canvasElement))
    const alert = await within(canvasElement).findByRole('alert', {}, { timeout: 5000 })
    await expect(alert).toHaveTextContent(
      /^UntrustedAddressError: Refused to use 0x[0-9a-fA-F]{40} as approvalAddress/,
    )
    await expect(serializable(storyWallet().sent)).toHaveLength(0)
  },
}

/** The fresh quote is below the accepted minimum: QuoteBelowMinimumError, nothing signed. */
export const PriceMoved: Story = {
  args: { minAmountOut: '1000' },
  play: async ({ canvasElement }) => {
    await userEvent.click(await swapButton(canvasElement))
    await expect(await within(canvasElement).findByRole('alert', {}, { timeout: 5000 })).toHaveTextContent(
      /^QuoteBelowMinimumError/,
    )
    await expect(serializable(storyWallet().sent)).toHaveLength(0)
  },
}

/**
 * A compromised service: `/swap/info` returns the real router and an honest estimate, but
 * calldata that sends the output to an attacker. The simulation of the calls to sign shows the
 * user receiving nothing: UnsafeSwapOutcomeError, and the wallet is never asked.
 */
export const CompromisedService: Story = {
  parameters: {
    mockService: withMockService({
      setup(service) {
        const token0 = addressOf('USDC') as Address
        const token1 = addressOf('WETH') as Address
        const amountIn = parseUnits('1000', 6)
        const attacker = '0x000000000000000000000000000000000000dEaD'
        // The mock's own answer, paying the attacker with no floor; the estimate stays honest.
        const body = getSwapInfoBody({
          market: service.market,
          token0,
          token1,
          amountIn,
          to: attacker,
          minAmountOut: 0n,
        })
        if (!body) throw new Error('no route')
        service.fail({ status: 200, endpoint: '/swap/info', body })
      },
    }),
  },
  play: async ({ canvasElement }) => {
    await userEvent.click(await swapButton(canvasElement))
    const alert = await within(canvasElement).findByRole('alert', {}, { timeout: 5000 })
    await expect(alert).toHaveTextContent(/^UnsafeSwapOutcomeError: Refused to sign/)
    await expect(serializable(storyWallet().sent)).toHaveLength(0)
  },
}
