import { act, fireEvent, render, renderHook, screen, waitFor } from '@testing-library/react'
import { useState } from 'react'
import { formatUnits, parseEther } from 'viem'
import { describe, expect, onTestFinished, test } from 'vitest'
import { setupSwapHarness } from '../../../test/evm/swapHarness.js'
import type { TestWallet } from '../../../test/evm/wallet.js'
import { createQueryClient } from '../../../test/react.js'
import { createSwapClient } from '../../core/client.js'
import { UserRejectedError } from '../../core/errors/execute.js'
import { InvalidParameterError } from '../../core/errors/parameter.js'
import { getSwapPreview } from '../../core/execute/getSwapPreview.js'
import { createMockMarket } from '../../mock/createMockMarket.js'
import { startMockServer } from '../../mock/startMockServer.js'
import { SwapProvider } from '../context.js'
import { useExecuteSwap } from './useExecuteSwap.js'

const h = setupSwapHarness()

/** A minimal swap button, as a widget would write it with the public hook. */
function SwapButton() {
  const { execute, stage, step, data, error, reset } = useExecuteSwap()
  const [amount] = useState(parseEther('4'))
  return (
    <div>
      <button
        type="button"
        onClick={() =>
          execute({
            token0: h.address('TKA'),
            token1: h.address('USDC'),
            amountIn: amount,
            acceptedQuote: h.market.quote({
              token0: h.address('TKA'),
              token1: h.address('USDC'),
              amountIn: amount,
            }),
            slippage: 0.01,
          })
        }
      >
        Swap
      </button>
      <button type="button" onClick={reset}>
        Reset
      </button>
      <p data-testid="status">{stage}</p>
      <p data-testid="action">{step?.action ?? ''}</p>
      {data && (
        <p data-testid="hashes">
          approve {data.approvalHash} swap {data.swapHash}
        </p>
      )}
      {error && <p role="alert">{error.name}</p>}
    </div>
  )
}

function renderWidget(wallet: TestWallet) {
  return render(
    <SwapProvider
      client={h.swapClient()}
      queryClient={createQueryClient()}
      walletClient={wallet.walletClient}
      publicClient={h.fixture.publicClient}
      trustedAddresses={{ [h.fixture.chain.id]: [h.fixture.router, h.fixture.spender] }}
    >
      <SwapButton />
    </SwapProvider>,
  )
}

describe('useExecuteSwap in a rendered component, on anvil', () => {
  test('approve then swap, each step visible, both hashes shown, balances exact', async () => {
    const amountIn = parseEther('4')
    const expected = h.market.quote({ token0: h.address('TKA'), token1: h.address('USDC'), amountIn })
    const before = { tka: await h.balance('TKA'), usdc: await h.balance('USDC'), nonce: await h.nonce() }
    const wallet = h.wallet()
    renderWidget(wallet)
    const seen = new Set<string>()
    const observer = new MutationObserver(() => seen.add(screen.getByTestId('status').textContent ?? ''))
    observer.observe(document.body, { subtree: true, childList: true, characterData: true })

    expect(screen.getByTestId('status').textContent).toBe('idle')
    fireEvent.click(screen.getByText('Swap'))
    await waitFor(() => expect(screen.getByTestId('status').textContent).toBe('success'), { timeout: 10_000 })
    observer.disconnect()

    // TanStack's status while idle and at the end, the flow's own steps in between.
    expect([...seen]).toEqual(expect.arrayContaining(['quoting', 'approving', 'swapping', 'success']))
    expect(screen.getByTestId('hashes').textContent).toMatch(/^approve 0x[0-9a-f]{64} swap 0x[0-9a-f]{64}$/)
    expect(await h.balance('TKA')).toBe(before.tka - amountIn)
    expect(await h.balance('USDC')).toBe(before.usdc + (expected?.amountOut ?? -1n))
    expect(await h.nonce()).toBe(before.nonce + 2)
    expect(wallet.sendRequests()).toHaveLength(2)
  })

  test('a double click sends one approve and one swap', async () => {
    const before = await h.nonce()
    const infoBefore = h.server.service.count('/swap/info')
    const wallet = h.wallet()
    renderWidget(wallet)
    const button = screen.getByText('Swap')
    fireEvent.click(button)
    fireEvent.click(button)
    await waitFor(() => expect(screen.getByTestId('status').textContent).toBe('success'), { timeout: 10_000 })
    // A third click long after the second, while nothing is in flight, would start a new swap;
    // the two quick ones were one.
    expect(wallet.sendRequests()).toHaveLength(2)
    expect(await h.nonce()).toBe(before + 2)
    // One execution: one fresh quote.
    expect(h.server.service.count('/swap/info') - infoBefore).toBe(1)
  })

  test('executeAsync twice in the same tick returns the same promise', async () => {
    const wallet = h.wallet()
    const { result } = renderHook(() => useExecuteSwap(), {
      wrapper: ({ children }) => (
        <SwapProvider
          client={h.swapClient()}
          queryClient={createQueryClient()}
          walletClient={wallet.walletClient}
          publicClient={h.fixture.publicClient}
          trustedAddresses={{ [h.fixture.chain.id]: [h.fixture.router, h.fixture.spender] }}
        >
          {children}
        </SwapProvider>
      ),
    })
    const callSteps: string[] = []
    const variables = {
      token0: h.address('ETH'),
      token1: h.address('USDC'),
      amountIn: parseEther('0.1'),
      minAmountOut: 1n,
      // The call's own onStep runs beside the hook's, which keeps `step` current.
      onStep: (step: { action: string }) => callSteps.push(step.action),
    }
    let first: Promise<unknown> | undefined
    let second: Promise<unknown> | undefined
    act(() => {
      first = result.current.executeAsync(variables)
      second = result.current.executeAsync(variables)
    })
    expect(second).toBe(first)
    await act(async () => {
      await first
    })
    expect(wallet.sendRequests()).toHaveLength(1)
    expect(callSteps).toEqual(expect.arrayContaining(['fetching-quote', 'sending-swap', 'done']))
    expect(result.current.step).toMatchObject({ status: 'success', action: 'done' })
    expect(result.current.stage).toBe('success')
  })

  test('a rejected signature shows the rejection and nothing more is sent', async () => {
    const before = { nonce: await h.nonce(), tka: await h.balance('TKA') }
    const wallet = h.wallet({ reject: (method) => method === 'eth_sendTransaction' })
    renderWidget(wallet)
    fireEvent.click(screen.getByText('Swap'))
    await waitFor(() => expect(screen.getByRole('alert').textContent).toBe('UserRejectedError'), {
      timeout: 10_000,
    })
    expect(screen.getByTestId('status').textContent).toBe('error')
    expect(wallet.sendRequests()).toHaveLength(1)
    expect(await h.nonce()).toBe(before.nonce)
    expect(await h.balance('TKA')).toBe(before.tka)

    // reset() clears the error for a new attempt.
    fireEvent.click(screen.getByText('Reset'))
    await waitFor(() => expect(screen.getByTestId('status').textContent).toBe('idle'))
    expect(screen.queryByRole('alert')).toBeNull()
  })

  test('without a wallet anywhere, execute fails with InvalidParameterError naming walletClient', async () => {
    const { result } = renderHook(() => useExecuteSwap(), {
      wrapper: ({ children }) => (
        <SwapProvider client={h.swapClient()} queryClient={createQueryClient()}>
          {children}
        </SwapProvider>
      ),
    })
    let error: unknown
    await act(async () => {
      error = await result.current
        .executeAsync({ token0: h.address('TKA'), token1: h.address('USDC'), amountIn: 1n })
        .catch((e: unknown) => e)
    })
    expect(error).toBeInstanceOf(InvalidParameterError)
    expect((error as InvalidParameterError).parameter).toBe('walletClient')
    await waitFor(() => expect(result.current.status).toBe('error'))
    expect(result.current.error).toBe(error)
    expect(result.current.error).not.toBeInstanceOf(UserRejectedError)
  })
})

describe('the provider’s slippage and the spent quote', () => {
  test('a per-pair slippage from the provider reaches /swap/info and the floor; the library’s 0.005 elsewhere; a quote swapped once is refused the second time, nothing sent', async () => {
    const wallet = h.wallet()
    const USDC = h.address('USDC')
    const wrapper = ({ children }: { children: React.ReactNode }) => (
      <SwapProvider
        client={h.swapClient()}
        queryClient={createQueryClient()}
        walletClient={wallet.walletClient}
        publicClient={h.fixture.publicClient}
        trustedAddresses={{ [h.fixture.chain.id]: [h.fixture.router, h.fixture.spender] }}
        slippage={({ token1 }) => (token1 === USDC ? 0.02 : undefined)}
      >
        {children}
      </SwapProvider>
    )
    const { result } = renderHook(() => useExecuteSwap(), { wrapper })
    const slippageSent = () =>
      h.server.service.log
        .filter((entry) => entry.path === '/swap/info')
        .at(-1)
        ?.query.find(([name]) => name === 'slippage')?.[1]

    const swap = { token0: h.address('TKA'), token1: USDC, amountIn: parseEther('1') }
    // The quote accepted on screen was 1.5 % better than the fresh one: within 2 %, not within 0.5 %.
    const fresh = h.market.quote(swap)
    if (!fresh) throw new Error('the test market has no route')
    const quote = { ...fresh, amountOut: (fresh.amountOut * 1015n) / 1000n }
    await act(() => result.current.executeAsync({ ...swap, acceptedQuote: quote }))
    expect(slippageSent()).toBe('0.02')

    const other = { token0: h.address('TKA'), token1: h.address('TKB'), amountIn: parseEther('1') }
    const otherFresh = h.market.quote(other)
    if (!otherFresh) throw new Error('the test market has no route')
    const changed = await act(() =>
      result.current
        .executeAsync({
          ...other,
          acceptedQuote: { ...otherFresh, amountOut: (otherFresh.amountOut * 1015n) / 1000n },
        })
        .catch((error: unknown) => error),
    )
    expect(slippageSent()).toBe('0.005')
    expect(changed).toMatchObject({ name: 'QuoteChangedError' })

    const sent = wallet.sendRequests().length
    const again = await act(() =>
      result.current.executeAsync({ ...swap, acceptedQuote: quote }).catch((error: unknown) => error),
    )
    expect(again).toBeInstanceOf(InvalidParameterError)
    expect(again).toMatchObject({ parameter: 'acceptedQuote' })
    expect(wallet.sendRequests()).toHaveLength(sent)
  })
})

describe('accepting a quote goes through the price-impact limit the preview shows', () => {
  /** A service whose USD prices make TKA → USDC lose `loss` of the input's value (TKA at $1). */
  async function pricedService(loss: number) {
    const { tokens, pools, router, spender } = h.fixture.market
    const amountIn = parseEther('4')
    const quote = h.market.quote({ token0: h.address('TKA'), token1: h.address('USDC'), amountIn })
    const decimals = tokens.find((token) => token.symbol === 'USDC')?.decimals ?? 18
    const fair = 4 / Number(formatUnits(quote?.amountOut ?? 1n, decimals))
    const market = createMockMarket({
      tokens: tokens.map((token) => ({
        ...token,
        priceUsd: token.symbol === 'USDC' ? fair * (1 - loss) : 1,
      })),
      pairs: pools,
      router,
      spender,
    })
    const server = await startMockServer({ market })
    onTestFinished(() => server.stop())
    return { server, quote, amountIn, client: createSwapClient({ baseUrl: server.url, rateLimit: false }) }
  }

  function AcceptButton({ quote, amountIn }: { quote: unknown; amountIn: bigint }) {
    const { execute, stage, error } = useExecuteSwap()
    return (
      <div>
        <button
          type="button"
          onClick={() =>
            execute({
              token0: h.address('TKA'),
              token1: h.address('USDC'),
              amountIn,
              acceptedQuote: quote as { amountOut: bigint },
              slippage: 0.01,
            })
          }
        >
          Accept the new quote
        </button>
        <p data-testid="status">{stage}</p>
        {error && <p role="alert">{`${error.name}: ${error.shortMessage}`}</p>}
      </div>
    )
  }

  function renderAccept(
    service: Awaited<ReturnType<typeof pricedService>>,
    wallet: TestWallet,
    priceImpactThresholds?: false,
  ) {
    return render(
      <SwapProvider
        client={service.client}
        queryClient={createQueryClient()}
        walletClient={wallet.walletClient}
        publicClient={h.fixture.publicClient}
        trustedAddresses={{ [h.fixture.chain.id]: [h.fixture.router, h.fixture.spender] }}
        priceImpactThresholds={priceImpactThresholds}
      >
        <AcceptButton quote={service.quote} amountIn={service.amountIn} />
      </SwapProvider>,
    )
  }

  test('a quote at 16.67% price impact (the preview blocks it) is refused at the click with PriceImpactTooHighError saying why; nothing signed', async () => {
    const service = await pricedService(1 / 6)
    // What the preview shows for the same quote and prices: blocking.
    const preview = await getSwapPreview(service.client, {
      publicClient: h.fixture.publicClient,
      account: h.fixture.accounts.user.address,
      token0: h.address('TKA'),
      token1: h.address('USDC'),
      amountIn: service.amountIn,
    })
    expect(preview.priceImpact?.warning).toBe('blocking')
    // Its value gap is that same rule's answer, not a second one: the click refuses what it blocks.
    expect(preview.valueGap).toEqual({ status: 'known', ...preview.priceImpact })
    const before = { nonce: await h.nonce(), info: service.server.service.count('/swap/info') }
    const wallet = h.wallet()
    renderAccept(service, wallet)
    fireEvent.click(screen.getByText('Accept the new quote'))
    await waitFor(() => expect(screen.getByTestId('status').textContent).toBe('error'), { timeout: 10_000 })
    expect(screen.getByRole('alert').textContent).toBe(
      'PriceImpactTooHighError: Price impact 16.67% is at or above the 15% limit.',
    )
    expect(wallet.sendRequests()).toHaveLength(0)
    expect(await h.nonce()).toBe(before.nonce)
    // Refused before the fresh quote was fetched: nothing more was asked of the service's /swap/info.
    expect(service.server.service.count('/swap/info')).toBe(before.info)
  })

  test('a quote under the limit (10%) goes ahead; so does any with priceImpactThresholds={false}', async () => {
    for (const [loss, limits] of [
      [0.1, undefined],
      [0.3, false],
    ] as const) {
      const service = await pricedService(loss)
      const wallet = h.wallet()
      const page = renderAccept(service, wallet, limits)
      fireEvent.click(screen.getByText('Accept the new quote'))
      await waitFor(() => expect(screen.getByTestId('status').textContent).toBe('success'), {
        timeout: 10_000,
      })
      page.unmount()
    }
  })
})
