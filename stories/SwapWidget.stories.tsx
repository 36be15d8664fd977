import type { Meta, StoryObj } from '@storybook/react-vite'
import { expect, userEvent, waitFor, within } from 'storybook/test'
import { decodeFunctionData, erc20Abi, parseUnits } from 'viem'
import { swapRouterAbi } from '../src/mock/routerAbi.js'
import { SwapWidget } from './SwapWidget.js'
import { market, storyService, storyWallet, tokens } from './support/storyContext.js'
import { formatAmount } from './support/ui.js'

function Widget(args: {
  defaultToken0: string
  defaultToken1: string
  defaultAmount: string
  slippage: number
}) {
  return <SwapWidget {...args} wallet={storyWallet()} />
}

const meta = {
  title: 'Examples/SwapWidget',
  component: Widget,
  args: { defaultToken0: 'USDC', defaultToken1: 'WETH', defaultAmount: '', slippage: 0.005 },
  argTypes: {
    defaultToken0: { control: { type: 'select' }, options: market.tokens.map((token) => token.symbol) },
    defaultToken1: { control: { type: 'select' }, options: market.tokens.map((token) => token.symbol) },
    slippage: { control: { type: 'range', min: 0, max: 0.05, step: 0.001 } },
  },
  parameters: {
    docs: {
      description: {
        component: `
A complete swap widget built only from the public hooks (source: \`stories/SwapWidget.tsx\`):
token pickers fed by \`useTokens\` (searchable by symbol), a decimals-aware amount
(\`parseUnits\` / \`formatUnits\`), the live route from \`useSwapRoute\`, USD values from
\`useTokenPrice\`, the minimum received at the chosen slippage (\`getMinAmountOut\`), the quote's
age with a refresh button, and a Swap button driving \`useExecuteSwap\` through approve → swap.

The wallet here is a simulated in-memory EIP-1193 wallet (no extension, no real chain); tick
"Wallet rejects signatures" to see a rejection.`,
      },
    },
  },
} satisfies Meta<typeof Widget>

export default meta
type Story = StoryObj<typeof meta>

/** Pick tokens, type an amount, see the route, swap: approve then swap, both hashes shown. */
export const CompleteSwap: Story = {
  play: async ({ canvasElement, step }) => {
    const canvas = within(canvasElement)
    const wallet = storyWallet()
    const usdcBefore = wallet.balanceOf(tokens.USDC)

    await step('pick tokens by searching their symbols', async () => {
      await waitFor(() => expect(canvas.getByLabelText('From token')).toHaveDisplayValue('USDC'), {
        timeout: 5000,
      })
      // Searching narrows the list to the matching symbols (and the current pick).
      await userEvent.type(canvas.getByLabelText('To token search'), 'wbt')
      await userEvent.selectOptions(canvas.getByLabelText('To token'), 'WBTC')
      await expect(canvas.getByLabelText('To token')).toHaveDisplayValue('WBTC')
      await expect(
        within(canvas.getByLabelText('To token')).queryByRole('option', { name: 'USDT' }),
      ).toBeNull()
      await userEvent.clear(canvas.getByLabelText('To token search'))
      await userEvent.selectOptions(canvas.getByLabelText('To token'), 'WETH')
    })

    await step('type an amount: the quote, route and minimum appear', async () => {
      await userEvent.type(canvas.getByLabelText('amount'), '2500', { delay: 30 })
      const quote = market.quote({
        token0: tokens.USDC,
        token1: tokens.WETH,
        amountIn: parseUnits('2500', 6),
      })
      await waitFor(
        () =>
          expect(canvas.getByLabelText('amount out')).toHaveTextContent(
            formatAmount(quote?.amountOut ?? 0n, 18),
          ),
        { timeout: 5000 },
      )
      await expect(canvas.getByTestId('route')).toHaveTextContent(/USDC → .*WETH/)
      await expect(canvas.getByTestId('min-received')).toHaveTextContent(/WETH$/)
      await waitFor(() => expect(canvas.getByTestId('quote-age')).toHaveTextContent(/s old/))
      // One request for the typed amount, not one per keystroke.
      await expect(storyService().count('/swap/route')).toBe(1)
    })

    await step('swap: approve, then swap, each step visible', async () => {
      await userEvent.click(canvas.getByRole('button', { name: 'Swap' }))
      await expect(
        await canvas.findByRole('button', { name: /Approving USDC/ }, { timeout: 5000 }),
      ).toBeDisabled()
      await expect(await canvas.findByTestId('swap-success', {}, { timeout: 10_000 })).toBeVisible()
      await expect(canvas.getByTestId('approval-step')).toHaveTextContent(/0x[0-9a-f]{64} \(confirmed\)/)
      await expect(canvas.getByTestId('swap-step')).toHaveTextContent(/0x[0-9a-f]{64} \(confirmed\)/)
    })

    await step('the wallet sent exactly approve(spender, amount) and the swap', async () => {
      const [approve, swap] = wallet.sent
      await expect(wallet.sent).toHaveLength(2)
      await expect(decodeFunctionData({ abi: erc20Abi, data: approve?.data ?? '0x' }).args).toEqual([
        market.spender,
        parseUnits('2500', 6),
      ])
      await expect(decodeFunctionData({ abi: swapRouterAbi, data: swap?.data ?? '0x' }).args[1]).toBe(
        parseUnits('2500', 6),
      )
      await waitFor(() => expect(wallet.balanceOf(tokens.USDC)).toBe(usdcBefore - parseUnits('2500', 6)))
    })
  },
}

/** The wallet rejects: the rejection is shown and nothing is sent. */
export const RejectedSignature: Story = {
  args: { defaultAmount: '100' },
  play: async ({ canvasElement }) => {
    const canvas = within(canvasElement)
    await userEvent.click(canvas.getByLabelText('Wallet rejects signatures'))
    await waitFor(() => expect(canvas.getByLabelText('amount out')).not.toHaveTextContent('–'), {
      timeout: 5000,
    })
    await waitFor(() => expect(canvas.getByRole('button', { name: 'Swap' })).toBeEnabled())
    await userEvent.click(canvas.getByRole('button', { name: 'Swap' }))
    const alert = await canvas.findByRole('alert', {}, { timeout: 5000 })
    await expect(alert).toHaveTextContent(
      'UserRejectedError: The request was rejected in the wallet (approval).',
    )
    await expect(storyWallet().sent).toHaveLength(0)
    await expect(canvas.queryByTestId('swap-step')).toBeNull()
  },
}

/** Native ETH in: no approval step, the value goes with the swap. */
export const NativeIn: Story = {
  args: { defaultToken0: 'ETH', defaultToken1: 'USDC', defaultAmount: '1.5' },
  play: async ({ canvasElement }) => {
    const canvas = within(canvasElement)
    await waitFor(() => expect(canvas.getByRole('button', { name: 'Swap' })).toBeEnabled(), { timeout: 5000 })
    await userEvent.click(canvas.getByRole('button', { name: 'Swap' }))
    await expect(await canvas.findByTestId('swap-success', {}, { timeout: 10_000 })).toBeVisible()
    await expect(canvas.queryByTestId('approval-step')).toBeNull()
    await expect(storyWallet().sent).toHaveLength(1)
    await expect(storyWallet().sent[0]?.value).toBe(parseUnits('1.5', 18))
  },
}

/** LONE has no pairs: the widget says there is no route and cannot swap. */
export const NoRoute: Story = {
  args: { defaultToken0: 'USDC', defaultToken1: 'LONE', defaultAmount: '10' },
  play: async ({ canvasElement }) => {
    const canvas = within(canvasElement)
    await expect(
      await canvas.findByText('No route between these tokens.', {}, { timeout: 5000 }),
    ).toBeVisible()
    await expect(canvas.getByRole('button', { name: 'Swap' })).toBeDisabled()
  },
}
