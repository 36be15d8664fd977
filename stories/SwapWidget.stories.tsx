import type { Meta, StoryObj } from '@storybook/react-vite'
import { useCallback, useState } from 'react'
import { expect, userEvent, waitFor, within } from 'storybook/test'
import { decodeFunctionData, erc20Abi, parseUnits } from 'viem'
import { swapGuardAbi, swapGuardAddress } from '../src/core/execute/guard/swapGuard.js'
import { defaultSlippage, getMinAmountOut, type SwapLifecycleEvent } from '../src/exports/index.js'
import { getSwapInfoBody } from '../src/mock/getSwapInfoBody.js'
import { swapRouterAbi } from '../src/mock/routerAbi.js'
import { SwapWidget } from './SwapWidget.js'
import { enabledButton, inOrder, loggedEvents, serializable } from './support/play.js'
import { captureClipboard, expectReport, secretClientSettings } from './support/report.js'
import { SwapStoryProvider } from './support/SwapStoryProvider.js'
import {
  market,
  reloadStoryPage,
  simulatedAccount,
  storyMarket,
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
  maxSlippage?: number
  priceImpactThresholds?: { high: number; blocking: number }
  /** The provider's `floorEnforcement`: `'onchain'` (through the swap guard, the default) or `'simulation'`. */
  floorEnforcement?: 'onchain' | 'simulation'
  /** The client carries secrets (an Authorization and an API-key header, a key in its base URL). */
  secrets?: boolean
}

/** One line of the event log: the event's type first, then what identifies it. */
function describeEvent(event: SwapLifecycleEvent): string {
  switch (event.type) {
    case 'quote':
      return 'quote'
    case 'preview':
      return `preview ${event.preview.steps.join(' → ')}`
    case 'success':
      return `success ${event.hash.slice(0, 10)}… (bounds ${event.floorEnforcement})`
    case 'failure':
      return `failure ${event.code}`
    default:
      return `${event.type} ${event.hash ? `${event.hash.slice(0, 10)}…` : (event.batchId?.slice(0, 10) ?? '')}`
  }
}

/**
 * The widget on a page that can be reloaded: a reload mounts a new provider
 * (a new QueryClient, a new swap client), keeping only what a browser keeps,
 * the wallet extension and the storage.
 */
function Widget({ floorEnforcement, secrets, ...args }: WidgetArgs) {
  const [page, setPage] = useState({ load: 1, reloading: false })
  // The provider's onEvent, as an app's analytics would hear it: every event of every page load.
  const [events, setEvents] = useState<string[]>([])
  const onEvent = useCallback(
    (event: SwapLifecycleEvent) => setEvents((list) => [...list, describeEvent(event)]),
    [],
  )
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
        <SwapStoryProvider
          key={page.load}
          onEvent={onEvent}
          floorEnforcement={floorEnforcement}
          {...(secrets ? secretClientSettings : {})}
        >
          <SwapWidget {...args} wallet={storyWallet()} />
        </SwapStoryProvider>
      )}
      <section
        aria-label="event log"
        style={{ fontFamily: 'system-ui, sans-serif', fontSize: 12, width: 460 }}
      >
        <h4 style={{ margin: '12px 0 4px' }}>onEvent</h4>
        <ol aria-label="events" style={{ margin: 0, paddingLeft: 22, color: '#444' }}>
          {events.slice(-40).map((line, index) => (
            // biome-ignore lint/suspicious/noArrayIndexKey: an append-only log
            <li key={index} data-type={line.split(' ')[0]}>
              {line}
            </li>
          ))}
        </ol>
      </section>
    </div>
  )
}

const meta = {
  title: 'Examples/SwapWidget',
  component: Widget,
  args: {
    defaultToken0: 'USDC',
    defaultToken1: 'WETH',
    defaultAmount: '',
    slippage: defaultSlippage,
    floorEnforcement: 'onchain',
  },
  argTypes: {
    defaultToken0: { control: { type: 'select' }, options: market.tokens.map((token) => token.symbol) },
    defaultToken1: { control: { type: 'select' }, options: market.tokens.map((token) => token.symbol) },
    slippage: { control: { type: 'range', min: 0, max: 0.05, step: 0.001 } },
    maxSlippage: { control: { type: 'range', min: 0.001, max: 0.05, step: 0.001 } },
    floorEnforcement: { control: { type: 'inline-radio' }, options: ['onchain', 'simulation'] },
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
approve → swap (or one EIP-5792 batch), and offers a changed quote to accept; after the swap the
old preview and quotes are gone until fresh ones arrive (the button stays disabled meanwhile) and
the balances (\`useTokenBalances\`) are read again; the success says how the calls went and the
allowance left. The slippage in use (the library's \`defaultSlippage\` unless set), and the one
\`useSuggestedSlippage\` measures from the quotes as they refresh, with "Use suggested".
\`usePendingSwaps\` finishes a swap a reload interrupted. Under the widget, every event the
provider's \`onEvent\` hears; errors show their stable \`code\`.

The wallet here is a simulated in-memory EIP-1193 wallet (no extension, no real chain); tick
"Wallet rejects signatures" to see a rejection, "Wallet batches calls" for one-prompt swaps,
"Wallet never answers wallet_getCapabilities" for a wallet the probe gives up on after 3 s, "User
declines the smart-account upgrade" for an EIP-7702 account whose batch is declined. "Wallet
asked" lists what the wallet itself was asked.`,
      },
    },
  },
} satisfies Meta<typeof Widget>

export default meta
type Story = StoryObj<typeof meta>

/**
 * Pick tokens, type an amount, see the route, swap: approve then swap, both hashes shown. After it,
 * the screen is read again: the button stays disabled until a fresh preview of a fresh quote (Approve
 * USDC again: the exact approval was spent), and the balances shown are the new ones. The event log
 * shows every step from the quote to the success.
 */
export const CompleteSwap: Story = {
  play: async ({ canvasElement, step }) => {
    const canvas = within(canvasElement)
    const wallet = storyWallet()
    const usdcBefore = wallet.balanceOf(tokens.USDC)
    const wethBefore = wallet.balanceOf(tokens.WETH)
    const amountIn = parseUnits('2500', 6)
    const quote = market.quote({ token0: tokens.USDC, token1: tokens.WETH, amountIn })
    /** Every state the swap button is rendered in from the click on: enabled, and its preview (`quotedAt:balance`). */
    const buttonStates: { enabled: boolean; preview: string }[] = []
    const button = () => canvas.getByTestId('swap-button') as HTMLButtonElement
    const watchButton = new MutationObserver(() => {
      const shown = canvasElement.querySelector<HTMLButtonElement>('[data-testid="swap-button"]')
      if (shown) buttonStates.push({ enabled: !shown.disabled, preview: shown.dataset.preview ?? '' })
    })
    let preSwapPreview = ''
    let quotesBeforeClick = 0

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
        // The fee in USD: the fee in ETH at the service's ETH price, and its share of the 2,500 USDC.
        const ethFee = Number(canvas.getByTestId('network-fee').textContent?.match(/≈ ([\d.]+) ETH/)?.[1])
        const ethPrice = market.tokens.find((token) => token.symbol === 'ETH')?.priceUsd ?? Number.NaN
        await expect(canvas.getByTestId('network-fee-usd')).toHaveTextContent(
          `≈ $${(ethFee * ethPrice).toFixed(2)} (${((ethFee * ethPrice) / 25).toFixed(2)}% of the input)`,
        )
        await expect(canvas.getByTestId('network-fee-steps')).toHaveTextContent(
          /^approve [\d,]+ · swap [\d,]+$/,
        )
        // The value gap: the quote's USD value against the input's, the price impact's own figures.
        await expect(canvas.getByTestId('value-gap')).toHaveTextContent(
          /^\$[\d.]+ out for \$2500\.00 in \(gap -?\d+\.\d\d%\)$/,
        )
        await expect(canvas.getByTestId('value-gap').textContent).toContain(
          `(gap ${canvas.getByTestId('price-impact').textContent})`,
        )
        // One /swap/info for the preview, whatever else reads the quote.
        await expect(storyService().count('/swap/info')).toBe(1)
        // The balances as the library read them.
        await waitFor(() =>
          expect(canvas.getByTestId('balance0')).toHaveTextContent(
            `balance ${formatAmount(usdcBefore, 6)} USDC`,
          ),
        )
      },
    )

    await step('swap: approve, then swap, each step visible', async () => {
      preSwapPreview = button().dataset.preview ?? ''
      quotesBeforeClick = storyService().count('/swap/info')
      await userEvent.click(canvas.getByRole('button', { name: 'Approve USDC' }))
      watchButton.observe(canvasElement, {
        subtree: true,
        childList: true,
        attributes: true,
        characterData: true,
      })
      await expect(
        await canvas.findByRole('button', { name: /Approving USDC/ }, { timeout: 5000 }),
      ).toBeDisabled()
      // A slow service from here on (1.5 s an answer), so that the wait for the fresh quote shows.
      await canvas.findByRole('button', { name: 'Swapping…' }, { timeout: 10_000 })
      storyService().setLatency(1500)
      await waitFor(
        () => expect(canvas.getByTestId('swap-step')).toHaveTextContent(/0x[0-9a-f]{64} \(confirmed\)/),
        { timeout: 10_000 },
      )
      await expect(canvas.getByTestId('approval-step')).toHaveTextContent(/0x[0-9a-f]{64} \(confirmed\)/)
    })

    await step(
      'mined: while the screen is read again, the button stays disabled and a click sends nothing',
      async () => {
        // useExecuteSwap is still pending: its block is read, the old preview and quotes are dropped
        // and fetched again.
        await expect(button()).toBeDisabled()
        await expect(button()).toHaveTextContent('Swapping…')
        await userEvent.click(button())
        await expect(serializable(wallet.sent)).toHaveLength(2)
        await expect(await canvas.findByTestId('swap-success', {}, { timeout: 10_000 })).toBeVisible()
        await expect(canvas.getByTestId('allowance-left')).toHaveTextContent('Allowance left: none')
      },
    )

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

    await step(
      'the screen after the swap says what was received and offers no swap until New swap: not the same swap by accident',
      async () => {
        await expect(canvas.getByTestId('swap-success')).toHaveTextContent(
          `Swap complete: received ${formatAmount(quote?.amountOut ?? 0n, 18)} WETH.`,
        )
        await expect(canvas.queryByTestId('swap-button')).toBeNull()
        // The pair's quotes are fetched again meanwhile: still no swap button, whatever arrives.
        await new Promise((resolve) => setTimeout(resolve, 1000))
        await expect(canvas.queryByTestId('swap-button')).toBeNull()
        await expect(serializable(wallet.sent)).toHaveLength(2)
        await userEvent.click(canvas.getByRole('button', { name: 'New swap' }))
        await expect(canvas.queryByTestId('swap-success')).toBeNull()
      },
    )

    await step('a fresh quote, a fresh preview: Approve USDC again, on the new balances', async () => {
      const [preSwapQuotedAt, preSwapBalance] = preSwapPreview.split(':')
      await waitFor(
        () => {
          expect(button().dataset.preview?.split(':')[0]).not.toBe(preSwapQuotedAt)
          expect(button()).toBeEnabled()
        },
        { timeout: 10_000 },
      )
      // The exact approval was spent by the swap: the fresh preview asks for one again, on the new balance.
      await expect(button()).toHaveTextContent('Approve USDC')
      await expect(button().dataset.preview?.split(':')[1]).toBe(String(usdcBefore - amountIn))
      // The execution's own /swap/info, then the fresh preview's.
      await expect(storyService().count('/swap/info')).toBeGreaterThanOrEqual(quotesBeforeClick + 2)
      await waitFor(() =>
        expect(canvas.getByTestId('balance0')).toHaveTextContent(
          `balance ${formatAmount(usdcBefore - amountIn, 6)} USDC`,
        ),
      )
      await waitFor(() =>
        expect(canvas.getByTestId('balance1')).toHaveTextContent(
          `balance ${formatAmount(wethBefore + (quote?.amountOut ?? 0n), 18)} WETH`,
        ),
      )
      watchButton.disconnect()
      // From the click on, never enabled on the pre-swap preview, nor on any preview that read the
      // pre-swap balance; enabled again on the fresh one.
      await expect(
        buttonStates.filter((state) => state.enabled && state.preview.split(':')[1] === preSwapBalance),
      ).toEqual([])
      await expect(buttonStates.some((state) => state.enabled && state.preview !== preSwapPreview)).toBe(true)
    })

    await step(
      'the event log: quote, preview, approval sent and mined, swap sent and mined, success',
      async () => {
        const expected = [
          'quote',
          'preview',
          'approval-sent',
          'approval-mined',
          'swap-sent',
          'swap-mined',
          'success',
        ]
        await expect(inOrder(loggedEvents(canvas), expected)).toEqual(expected)
      },
    )
  },
}

/**
 * The wallet rejects: the rejection is shown and nothing is sent. "Copy report" copies a failure
 * report of it, which holds none of the client's secrets (its headers, its base URL's key).
 */
export const RejectedSignature: Story = {
  args: { defaultAmount: '100', secrets: true },
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
    // The error's stable code, in the error and in the failure event.
    await expect(within(alert).getByTestId('error-code')).toHaveTextContent('USER_REJECTED')
    await expect(
      await within(canvas.getByRole('list', { name: 'events' })).findByText('failure USER_REJECTED'),
    ).toBeVisible()
    await expect(serializable(storyWallet().sent)).toHaveLength(0)
    await expect(canvas.queryByTestId('swap-step')).toBeNull()

    const copied = captureClipboard()
    const copy = canvas.getByRole('button', { name: 'Copy report' })
    await userEvent.click(copy)
    await expect(await within(copy.parentElement as HTMLElement).findByRole('status')).toHaveTextContent(
      'Copied',
    )
    const report = await expectReport(copied[0], 'UserRejectedError')
    await expect(report).toMatchObject({
      chainId: 1,
      step: { status: 'approving', action: 'approving' },
      error: { code: 'USER_REJECTED', fields: { stage: 'approval' } },
    })
    await expect(report.responses.swapInfo).toMatchObject({ approvalAddress: expect.any(String) })
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

/** Max (useMaxAmount): the ETH balance less the swap's fee fills the field, and that amount swaps. */
export const MaxNativeIn: Story = {
  args: { defaultToken0: 'ETH', defaultToken1: 'USDC', defaultAmount: '' },
  play: async ({ canvasElement }) => {
    const canvas = within(canvasElement)
    await userEvent.click(await enabledButton(canvas, 'Max'))
    const filled = (canvas.getByLabelText('amount') as HTMLInputElement).value
    const balance = storyWallet().balanceOf(tokens.ETH)
    await expect(parseUnits(filled, 18) < balance).toBe(true)
    await expect(parseUnits(filled, 18) > balance - parseUnits('0.01', 18)).toBe(true)
    await userEvent.click(await enabledButton(canvas, 'Swap'))
    await expect(await canvas.findByTestId('swap-success', {}, { timeout: 10_000 })).toBeVisible()
    await expect(serializable(storyWallet().sent[0]?.value)).toBe(serializable(parseUnits(filled, 18)))
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

/**
 * The service has no USD price at all (every `/overview/token/price` answers 404): the value gap and
 * the fee in USD say unknown, naming what is missing; the fee in ETH is still shown, and an unknown
 * value gap does not block the swap.
 */
export const PriceUnknown: Story = {
  args: { defaultAmount: '1000' },
  parameters: {
    mockService: withMockService({
      setup(service) {
        service.fail({ status: 404, endpoint: '/overview/token/price', body: { detail: 'No price' } })
      },
    }),
  },
  play: async ({ canvasElement }) => {
    const canvas = within(canvasElement)
    await enabledButton(canvas, 'Approve USDC')
    await expect(canvas.getByTestId('value-gap')).toHaveTextContent('unknown (no USD price for USDC, WETH)')
    await expect(canvas.getByTestId('network-fee-usd')).toHaveTextContent('unknown (no ETH price)')
    await expect(canvas.getByTestId('network-fee')).toHaveTextContent(/≈ 0\.\d+ ETH · approve → swap/)
    await expect(canvas.getByTestId('price-impact')).toHaveTextContent('–')
  },
}

/** A swap so small that its network fee is most of its value: the fee is flagged (10 % or more of the input). */
export const HighNetworkFee: Story = {
  args: { defaultAmount: '1' },
  play: async ({ canvasElement }) => {
    const canvas = within(canvasElement)
    await enabledButton(canvas, 'Approve USDC')
    await expect(canvas.getByTestId('network-fee-usd')).toHaveTextContent(
      /^≈ \$\d+\.\d\d \(\d+\.\d\d% of the input\) \(high\)$/,
    )
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
    // Through the guard, the exact approval is spent by the swap: none is left.
    await expect(canvas.getByTestId('swap-mode')).toHaveTextContent(
      'Sent as one batch of 2 calls (batch), bounds enforced on chain.',
    )
    await expect(canvas.getByTestId('allowance-left')).toHaveTextContent('Allowance left: none')
    const expected = ['preview', 'batch-sent', 'batch-mined', 'success']
    await expect(inOrder(loggedEvents(canvas), expected)).toEqual(expected)
  },
}

/**
 * \`floorEnforcement: 'simulation'\` (the service's calldata signed as it is, the service's spender
 * approved) with a wallet that batches: the batch sets the allowance back to 0 after the swap, in
 * the same prompt, so none outlives it.
 */
export const BatchResetsAllowance: Story = {
  args: { defaultAmount: '500', floorEnforcement: 'simulation' },
  beforeEach: () => storyWallet().setBatching(true),
  play: async ({ canvasElement }) => {
    const canvas = within(canvasElement)
    const wallet = storyWallet()
    await userEvent.click(await enabledButton(canvas, 'Approve USDC and swap', 20_000))
    await expect(await canvas.findByTestId('swap-success', {}, { timeout: 10_000 })).toBeVisible()
    await expect(canvas.getByTestId('swap-mode')).toHaveTextContent(
      'Sent as one batch of 3 calls (batch), bounds enforced in simulation.',
    )
    await expect(canvas.getByTestId('allowance-left')).toHaveTextContent('Allowance left: none')
    // approve(spender, 500 USDC), the service's swap on its router, approve(spender, 0).
    const [approve, swap, reset] = wallet.sent
    await expect(serializable(wallet.sent)).toHaveLength(3)
    await expect(serializable(decodeFunctionData({ abi: erc20Abi, data: approve?.data ?? '0x' }))).toEqual(
      serializable({ functionName: 'approve', args: [market.spender, parseUnits('500', 6)] }),
    )
    await expect(swap?.to).toBe(market.router)
    await expect(serializable(decodeFunctionData({ abi: erc20Abi, data: reset?.data ?? '0x' }))).toEqual(
      serializable({ functionName: 'approve', args: [market.spender, 0n] }),
    )
    await expect(serializable(wallet.allowance(tokens.USDC, market.spender))).toBe(serializable(0n))
  },
}

/**
 * A wallet that leaves \`wallet_getCapabilities\` pending: after the probe's time limit (3 s) it
 * counts as a wallet that cannot batch, in the preview and at the click; the swap goes as two
 * transactions and the button does not stay stuck.
 */
export const CapabilitiesNeverAnswer: Story = {
  args: { defaultAmount: '300' },
  beforeEach: () => storyWallet().setCapabilitiesHang(true),
  play: async ({ canvasElement, step }) => {
    const canvas = within(canvasElement)
    const wallet = storyWallet()
    await step('before the click: the preview gives up on the probe and plans two transactions', async () => {
      await enabledButton(canvas, 'Approve USDC', 20_000)
      await expect(canvas.getByTestId('network-fee')).toHaveTextContent(/· approve → swap$/)
      await expect(canvas.getByTestId('wallet-requests')).toHaveTextContent(
        'wallet_getCapabilities (no answer)',
      )
    })
    await step('the click: the probe waits its 3 s, then approve and swap, one after the other', async () => {
      const clicked = Date.now()
      await userEvent.click(canvas.getByRole('button', { name: 'Approve USDC' }))
      await waitFor(
        () => expect(canvas.getByTestId('current-action')).toHaveTextContent('Now: checking-allowance'),
        { timeout: 5000 },
      )
      await expect(await canvas.findByTestId('swap-success', {}, { timeout: 15_000 })).toBeVisible()
      await expect(Date.now() - clicked).toBeGreaterThanOrEqual(3000)
      await expect(canvas.getByTestId('swap-mode')).toHaveTextContent('Sent as 2 transactions (sequential)')
      await expect(canvas.getByTestId('approval-step')).toHaveTextContent(/\(confirmed\)$/)
      await expect(serializable(wallet.sent)).toHaveLength(2)
      await expect(wallet.sent[1]?.to).toBe(swapGuardAddress)
      await expect(wallet.requests.map(({ method }) => method)).not.toContain('wallet_sendCalls')
    })
  },
}

/**
 * An EIP-7702 account not upgraded yet: the wallet reports \`atomic: 'ready'\`, so one batch is
 * planned and asked for; the user declines the upgrade (EIP-5792 code 5750), and the same calls,
 * already checked, go one after the other.
 */
export const UpgradeDeclined: Story = {
  args: { defaultAmount: '400' },
  beforeEach: () => storyWallet().setDecliningUpgrade(true),
  play: async ({ canvasElement }) => {
    const canvas = within(canvasElement)
    const wallet = storyWallet()
    const button = await enabledButton(canvas, 'Approve USDC and swap', 20_000)
    await expect(canvas.getByTestId('network-fee')).toHaveTextContent(/· batch$/)
    await userEvent.click(button)
    await expect(await canvas.findByTestId('swap-success', {}, { timeout: 10_000 })).toBeVisible()
    await expect(canvas.getByTestId('swap-mode')).toHaveTextContent('Sent as 2 transactions (sequential)')
    // The batch was asked and declined; then the approval and the swap, each answered.
    await expect(wallet.requests.filter(({ method }) => method !== 'wallet_getCapabilities')).toEqual([
      { method: 'wallet_sendCalls', answer: 'declined' },
      { method: 'eth_sendTransaction', answer: 'answered' },
      { method: 'eth_sendTransaction', answer: 'answered' },
    ])
    const [approve, swap] = wallet.sent
    await expect(serializable(wallet.sent)).toHaveLength(2)
    await expect(
      serializable(decodeFunctionData({ abi: erc20Abi, data: approve?.data ?? '0x' }).args),
    ).toEqual(serializable([swapGuardAddress, parseUnits('400', 6)]))
    await expect(swap?.to).toBe(swapGuardAddress)
    await expect(canvas.getByTestId('approval-step')).toHaveTextContent(/\(confirmed\)$/)
    await expect(canvas.getByTestId('swap-step')).toHaveTextContent(/\(confirmed\)$/)
  },
}

/**
 * The slippage in use is the library's default (0.5 %) until the user takes the suggested one,
 * which useSuggestedSlippage measures from the successive quotes of this swap: the default
 * until two quotes, then twice the largest move (plus a quarter of the price impact). Here the
 * market moves (every pool's WETH 1 % scarcer) before the quote is refreshed.
 */
export const SuggestedSlippage: Story = {
  args: { defaultAmount: '1000' },
  play: async ({ canvasElement, step }) => {
    const canvas = within(canvasElement)
    const amountIn = parseUnits('1000', 6)
    const suggestedOf = () =>
      Number(/^([\d.]+)%/.exec(canvas.getByTestId('suggested-slippage').textContent ?? '')?.[1]) / 100
    const first = market.quote({ token0: tokens.USDC, token1: tokens.WETH, amountIn })?.amountOut ?? 1n

    await step('one quote: the slippage in use is the default, the suggestion stands on it', async () => {
      await waitFor(
        () =>
          expect(canvas.getByTestId('suggested-slippage')).toHaveTextContent(
            '(default: fewer than two quotes)',
          ),
        { timeout: 15_000 },
      )
      await expect(canvas.getByTestId('slippage')).toHaveTextContent(/^0\.50%$/)
    })

    await step('the market moves, the quote is refreshed: the suggestion is measured', async () => {
      storyMarket().shiftReserves(tokens.WETH, 0.99)
      const moved =
        storyMarket().quote({ token0: tokens.USDC, token1: tokens.WETH, amountIn })?.amountOut ?? 0n
      const largestMove = Number(first - moved) / Number(first)
      await userEvent.click(canvas.getByRole('button', { name: 'Refresh' }))
      await waitFor(
        () =>
          expect(canvas.getByTestId('suggested-slippage')).toHaveTextContent(
            `(measured: 2 quotes, largest move ${(largestMove * 100).toFixed(3)}%)`,
          ),
        { timeout: 15_000 },
      )
      await expect(canvas.getByLabelText('amount out')).toHaveTextContent(formatAmount(moved, 18))
      // Twice the largest move, at least: above the default.
      await expect(suggestedOf()).toBeGreaterThanOrEqual(2 * largestMove)
      await expect(canvas.getByTestId('slippage')).toHaveTextContent(/^0\.50%$/)
    })

    await step('use suggested: the slippage in use and the minimum received follow', async () => {
      const suggested = suggestedOf()
      const moved =
        storyMarket().quote({ token0: tokens.USDC, token1: tokens.WETH, amountIn })?.amountOut ?? 0n
      await userEvent.click(canvas.getByRole('button', { name: 'Use suggested' }))
      await expect(canvas.getByTestId('slippage')).toHaveTextContent(
        `${(suggested * 100).toFixed(2)}% (suggested)`,
      )
      await expect(canvas.getByTestId('min-received')).toHaveTextContent(
        `${formatAmount(getMinAmountOut(moved, suggested), 18)} WETH`,
      )
      // Disabled while the suggestion is the slippage in use; the quote the new slippage fetches is
      // one more sample, which may move the suggestion (then it is offered again).
      await waitFor(() => {
        const use = canvas.getByRole('button', { name: 'Use suggested' }) as HTMLButtonElement
        expect(use.disabled || suggestedOf() !== suggested).toBe(true)
      })
    })
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
    const changed = await canvas.findByTestId('quote-changed', {}, { timeout: 15_000 })
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
      const banner = await canvas.findByRole('status', { name: 'interrupted swap' }, { timeout: 15_000 })
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
