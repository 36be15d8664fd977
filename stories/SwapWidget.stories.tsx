import type { Meta, StoryObj } from '@storybook/react-vite'
import { useState } from 'react'
import { expect, userEvent, waitFor, within } from 'storybook/test'
import { decodeFunctionData, erc20Abi, parseUnits } from 'viem'
import { swapGuardAbi, swapGuardAddress } from '../src/core/execute/swapGuard.js'
import { getSwapInfoBody } from '../src/mock/getSwapInfoBody.js'
import { swapRouterAbi } from '../src/mock/routerAbi.js'
import { SwapWidget } from './SwapWidget.js'
import { enabledButton, serializable } from './support/play.js'
import { SwapStoryProvider } from './support/SwapStoryProvider.js'
import {
  market,
  reloadStoryPage,
  simulatedAccount,
  storyService,
  storyWallet,
  tokens,
  withMockService,
} from './support/storyContext.js'
import { formatAmount } from './support/ui.js'

type WidgetArgs = {
  defaultToken0: string
  defaultToken1: string
  defaultAmount: string
  slippage: number
  priceImpactThresholds?: { high: number; blocking: number }
}

/**
 * The widget on a page that can be reloaded: a reload mounts a new provider
 * (a new QueryClient, a new swap client), keeping only what a browser keeps,
 * the wallet extension and the storage.
 */
function Widget(args: WidgetArgs) {
  const [page, setPage] = useState({ load: 1, reloading: false })
  const reload = async () => {
    setPage(({ load }) => ({ load: load + 1, reloading: true }))
    await reloadStoryPage()
    setPage(({ load }) => ({ load, reloading: false }))
  }
  return (
    <div>
      <button type="button" onClick={reload} disabled={page.reloading} style={{ marginBottom: 8 }}>
        Reload the page
      </button>{' '}
      <span style={{ fontSize: 12 }} data-testid="page">
        page load {page.load}
      </span>
      {page.reloading ? (
        <p>Reloading…</p>
      ) : (
        <SwapStoryProvider key={page.load}>
          <SwapWidget {...args} wallet={storyWallet()} />
        </SwapStoryProvider>
      )}
    </div>
  )
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
token pickers fed by \`useTokens\` (searchable by symbol), an amount field read with
\`parseAmount\` (\`1,5\`, \`.5\`, a half-typed \`1.\` all work; nothing crashes), the live route from
\`useSwapRoute\`, USD values from \`useTokenPrice\`, the minimum received at the chosen slippage
(\`getMinAmountOut\`), the quote's age with a refresh button, and before the click
\`useSwapPreview\`: the button says Approve or Swap (or one batch), insufficient balance, the
network fee of the whole flow, the price impact with its warning. \`useExecuteSwap\` runs
approve → swap (or one EIP-5792 batch), and offers a changed quote to accept; \`usePendingSwaps\`
finishes a swap a reload interrupted.

The wallet here is a simulated in-memory EIP-1193 wallet (no extension, no real chain); tick
"Wallet rejects signatures" to see a rejection, "Wallet batches calls" for one-prompt swaps.`,
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

    await step(
      'before the click: the button says Approve USDC, with the fee and the price impact',
      async () => {
        await enabledButton(canvas, 'Approve USDC')
        await expect(canvas.getByTestId('network-fee')).toHaveTextContent(/≈ 0\.\d+ ETH · approve → swap/)
        await expect(canvas.getByTestId('price-impact')).toHaveTextContent(/^\d+\.\d\d%$/)
        // One /swap/info for the preview, whatever else reads the quote.
        await expect(storyService().count('/swap/info')).toBe(1)
      },
    )

    await step('swap: approve, then swap, each step visible', async () => {
      await userEvent.click(canvas.getByRole('button', { name: 'Approve USDC' }))
      await expect(
        await canvas.findByRole('button', { name: /Approving USDC/ }, { timeout: 5000 }),
      ).toBeDisabled()
      await expect(await canvas.findByTestId('swap-success', {}, { timeout: 10_000 })).toBeVisible()
      await expect(canvas.getByTestId('approval-step')).toHaveTextContent(/0x[0-9a-f]{64} \(confirmed\)/)
      await expect(canvas.getByTestId('swap-step')).toHaveTextContent(/0x[0-9a-f]{64} \(confirmed\)/)
    })

    await step('the wallet sent exactly approve(guard, amount) and the swap through the guard', async () => {
      const [approve, swap] = wallet.sent
      await expect(serializable(wallet.sent)).toHaveLength(2)
      await expect(
        serializable(decodeFunctionData({ abi: erc20Abi, data: approve?.data ?? '0x' }).args),
      ).toEqual(serializable([swapGuardAddress, parseUnits('2500', 6)]))
      await expect(swap?.to).toBe(swapGuardAddress)
      const guarded = decodeFunctionData({ abi: swapGuardAbi, data: swap?.data ?? '0x' }).args
      await expect(guarded[6]).toBe(market.router)
      await expect(serializable(decodeFunctionData({ abi: swapRouterAbi, data: guarded[7] }).args[1])).toBe(
        serializable(parseUnits('2500', 6)),
      )
      await waitFor(() =>
        expect(serializable(wallet.balanceOf(tokens.USDC))).toBe(
          serializable(usdcBefore - parseUnits('2500', 6)),
        ),
      )
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
    await userEvent.click(await enabledButton(canvas, 'Approve USDC'))
    const alert = await canvas.findByRole('alert', {}, { timeout: 5000 })
    await expect(alert).toHaveTextContent(
      'UserRejectedError: The request was rejected in the wallet (approval).',
    )
    await expect(serializable(storyWallet().sent)).toHaveLength(0)
    await expect(canvas.queryByTestId('swap-step')).toBeNull()
  },
}

/** Native ETH in: no approval step, the value goes with the swap. */
export const NativeIn: Story = {
  args: { defaultToken0: 'ETH', defaultToken1: 'USDC', defaultAmount: '1.5' },
  play: async ({ canvasElement }) => {
    const canvas = within(canvasElement)
    await userEvent.click(await enabledButton(canvas, 'Swap'))
    await expect(await canvas.findByTestId('swap-success', {}, { timeout: 10_000 })).toBeVisible()
    await expect(canvas.queryByTestId('approval-step')).toBeNull()
    await expect(serializable(storyWallet().sent)).toHaveLength(1)
    await expect(serializable(storyWallet().sent[0]?.value)).toBe(serializable(parseUnits('1.5', 18)))
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

/** More than the wallet holds: the button says so and cannot be clicked. */
export const InsufficientBalance: Story = {
  args: { defaultAmount: '30000' },
  play: async ({ canvasElement }) => {
    const canvas = within(canvasElement)
    const button = await canvas.findByRole('button', { name: 'Insufficient USDC balance' }, { timeout: 5000 })
    await expect(button).toBeDisabled()
  },
}

/**
 * The price impact against the service's USD prices, with this widget's thresholds (0.5%
 * warns, 2% blocks): a small amount into the long-tail TAIL warns, a large one blocks.
 */
export const PriceImpact: Story = {
  args: {
    defaultToken0: 'USDC',
    defaultToken1: 'TAIL',
    defaultAmount: '1000',
    priceImpactThresholds: { high: 0.005, blocking: 0.02 },
  },
  play: async ({ canvasElement }) => {
    const canvas = within(canvasElement)
    await waitFor(() => expect(canvas.getByTestId('price-impact')).toHaveTextContent(/\(high\)$/), {
      timeout: 5000,
    })
    await expect(canvas.getByRole('button', { name: 'Approve USDC' })).toBeEnabled()
    const amount = canvas.getByLabelText('amount')
    await userEvent.clear(amount)
    await userEvent.type(amount, '20000')
    await expect(
      await canvas.findByRole('button', { name: 'Price impact too high' }, { timeout: 10_000 }),
    ).toBeDisabled()
    await expect(canvas.getByTestId('price-impact')).toHaveTextContent(/\(too high to swap\)$/)
  },
}

/** A wallet that batches (EIP-5792): one prompt for approval and swap, one atomic batch. */
export const BatchedSwap: Story = {
  args: { defaultAmount: '500' },
  beforeEach: () => storyWallet().setBatching(true),
  play: async ({ canvasElement }) => {
    const canvas = within(canvasElement)
    const button = await enabledButton(canvas, 'Approve USDC and swap')
    await expect(canvas.getByTestId('network-fee')).toHaveTextContent(/· batch$/)
    await userEvent.click(button)
    await expect(await canvas.findByTestId('swap-success', {}, { timeout: 10_000 })).toBeVisible()
    await expect(canvas.getByTestId('batch-step')).toHaveTextContent(/\(confirmed\)$/)
    await expect(canvas.queryByTestId('approval-step')).toBeNull()
    // Both calls went out together: approve(guard, 500 USDC) then the swap through the guard.
    const [approve, swap] = storyWallet().sent
    await expect(serializable(storyWallet().sent)).toHaveLength(2)
    await expect(
      serializable(decodeFunctionData({ abi: erc20Abi, data: approve?.data ?? '0x' }).args[1]),
    ).toBe(serializable(parseUnits('500', 6)))
    await expect(swap?.to).toBe(swapGuardAddress)
    await expect(serializable(storyWallet().allowance(tokens.USDC, swapGuardAddress))).toBe(serializable(0n))
  },
}

/**
 * The quote moved between what the user saw and the fresh one fetched at the click: a typed
 * QuoteChangedError with both, nothing signed; accepting the new quote swaps.
 */
export const QuoteChanged: Story = {
  args: { defaultAmount: '1000' },
  parameters: {
    mockService: withMockService({
      setup(service) {
        // The first fresh /swap/info promises 10% less than the route the user sees.
        const amountIn = parseUnits('1000', 6)
        const body = getSwapInfoBody({
          market: service.market,
          token0: tokens.USDC,
          token1: tokens.WETH,
          amountIn,
          to: simulatedAccount,
        })
        if (!body) throw new Error('no route')
        service.fail({
          status: 200,
          endpoint: '/swap/info',
          times: 2, // the preview's request and the click's
          body: { ...body, estimateAmount: ((BigInt(body.estimateAmount) * 9n) / 10n).toString() },
        })
      },
    }),
  },
  play: async ({ canvasElement }) => {
    const canvas = within(canvasElement)
    await userEvent.click(await enabledButton(canvas, 'Approve USDC'))
    const changed = await canvas.findByTestId('quote-changed', {}, { timeout: 5000 })
    await expect(changed).toHaveTextContent(/The quote changed since you saw it: now 0\.\d+ WETH/)
    await expect(serializable(storyWallet().sent)).toHaveLength(0)
    await userEvent.click(within(changed).getByRole('button', { name: 'Accept the new quote' }))
    await expect(await canvas.findByTestId('swap-success', {}, { timeout: 10_000 })).toBeVisible()
    await expect(serializable(storyWallet().sent)).toHaveLength(2)
  },
}

/**
 * The page reloads after the approval was mined and before the swap was sent: the new page
 * finds the interrupted swap and finishes it with exactly one more transaction.
 */
export const ResumeAfterReload: Story = {
  args: { defaultAmount: '750' },
  beforeEach: () => storyWallet().interruptNextSwap(),
  play: async ({ canvasElement, step }) => {
    const canvas = within(canvasElement)
    const wallet = storyWallet()
    const usdcBefore = wallet.balanceOf(tokens.USDC)
    await step('approve; the page dies when the wallet is asked for the swap', async () => {
      await userEvent.click(await enabledButton(canvas, 'Approve USDC'))
      await waitFor(() => expect(canvas.getByRole('button', { name: 'Swapping…' })).toBeDisabled(), {
        timeout: 10_000,
      })
      await expect(serializable(wallet.sent)).toHaveLength(1) // the approval, mined
      await waitFor(() =>
        expect(serializable(wallet.allowance(tokens.USDC, swapGuardAddress))).toBe(
          serializable(parseUnits('750', 6)),
        ),
      )
    })
    await step('reload: the new page offers to finish the interrupted swap', async () => {
      await userEvent.click(canvas.getByRole('button', { name: 'Reload the page' }))
      await expect(canvas.getByTestId('page')).toHaveTextContent('page load 2')
      const banner = await canvas.findByRole('status', { name: 'interrupted swap' }, { timeout: 5000 })
      await waitFor(() => expect(banner).toHaveTextContent(/750 USDC → WETH was interrupted \(resumable\)/), {
        timeout: 5000,
      })
      await expect(serializable(wallet.sent)).toHaveLength(1) // checking sent nothing
      await userEvent.click(within(banner).getByRole('button', { name: /^Finish the swap/ }))
    })
    await step('exactly one more transaction: the swap', async () => {
      await expect(await canvas.findByTestId('resumed', {}, { timeout: 10_000 })).toBeVisible()
      await expect(serializable(wallet.sent)).toHaveLength(2)
      await expect(wallet.sent[1]?.to).toBe(swapGuardAddress)
      await waitFor(() =>
        expect(serializable(wallet.balanceOf(tokens.USDC))).toBe(
          serializable(usdcBefore - parseUnits('750', 6)),
        ),
      )
      await waitFor(() => expect(canvas.queryByRole('status', { name: 'interrupted swap' })).toBeNull())
    })
  },
}
