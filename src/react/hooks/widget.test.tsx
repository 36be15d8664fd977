/**
 * The widget-grade hooks in rendered components, on anvil: useSwapPreview
 * (what the button says before the click) and usePendingSwaps (an execution a
 * reload interrupted, resumed by a new component tree with nothing but the
 * storage).
 */
import { useQuery } from '@tanstack/react-query'
import { act, fireEvent, render, screen, waitFor } from '@testing-library/react'
import { useState } from 'react'
import { type Address, createPublicClient, http, parseEther } from 'viem'
import { describe, expect, onTestFinished, test, vi } from 'vitest'
import { testRouterAbi } from '../../../test/evm/abis.js'
import { resumeKit } from '../../../test/evm/resumeKit.js'
import { jsonRpc, mineHeld } from '../../../test/evm/rpc.js'
import { setupSwapHarness } from '../../../test/evm/swapHarness.js'
import type { TestWallet } from '../../../test/evm/wallet.js'
import { createQueryClient } from '../../../test/react.js'
import { executeSwap } from '../../core/execute/executeSwap.js'
import {
  createMemoryStorage,
  getPendingSwaps,
  type SwapStorage,
} from '../../core/execute/records/pendingSwaps.js'
import { type SwapLifecycleEvent, SwapProvider, type SwapProviderProps } from '../context.js'
import { useExecuteSwap } from './useExecuteSwap.js'
import type { usePendingSwaps } from './usePendingSwaps.js'
import { useSwapInfo } from './useSwapInfo.js'
import { useSwapPreview } from './useSwapPreview.js'

const h = setupSwapHarness()

function Provider({
  wallet,
  storage,
  publicClient,
  library = { SwapProvider },
  onEvent,
  children,
}: {
  wallet: TestWallet
  storage: SwapStorage
  publicClient?: SwapProviderProps['publicClient']
  onEvent?: SwapProviderProps['onEvent']
  /** The library's copy the page runs (a reloaded page has its own). */
  library?: { SwapProvider: typeof SwapProvider }
  children: React.ReactNode
}) {
  // A page's clients live as long as the page: a re-render keeps them and their cache; a new page
  // (a new mount) has its own.
  const [page] = useState(() => ({
    client: h.swapClient(),
    queryClient: createQueryClient(),
    publicClient: createPublicClient({
      chain: h.fixture.chain,
      transport: http(h.fixture.rpcUrl),
      pollingInterval: 50,
    }),
  }))
  return (
    <library.SwapProvider
      client={page.client}
      queryClient={page.queryClient}
      walletClient={wallet.walletClient}
      publicClient={publicClient ?? page.publicClient}
      trustedAddresses={{ [h.fixture.chain.id]: [h.fixture.router, h.fixture.spender] }}
      storage={storage}
      onEvent={onEvent}
    >
      {children}
    </library.SwapProvider>
  )
}

/** A swap button as a widget writes it: its label from the preview, its click to useExecuteSwap. */
function SwapButton({
  amountIn,
  token0 = 'TKA',
  renders,
}: {
  amountIn: bigint
  token0?: 'TKA' | 'ETH'
  /** Each render's stage, whether the button is enabled and the preview's balance. */
  renders?: { stage: string; enabled: boolean; balance: bigint | undefined; quote: unknown }[]
}) {
  const swap = { token0: h.address(token0), token1: h.address('TKB') as Address, amountIn }
  const preview = useSwapPreview({ ...swap, slippage: 0.01, debounceMs: 0 })
  // The page also shows the quote elsewhere: the preview shares its cache.
  useSwapInfo({ ...swap, to: h.fixture.accounts.user.address, slippage: 0.01, debounceMs: 0 })
  const { execute, isPending, stage } = useExecuteSwap()
  const p = preview.data
  const label = !p
    ? 'Loading…'
    : p.insufficientBalance
      ? 'Insufficient balance'
      : p.steps[0] === 'approve' || p.steps[0] === 'reset'
        ? `Approve ${token0}`
        : 'Swap'
  renders?.push({
    stage,
    enabled: !!p && !p.insufficientBalance && !isPending,
    balance: p?.balance,
    quote: p?.swapInfo,
  })
  return (
    <div>
      <button
        type="button"
        disabled={!p || p.insufficientBalance || isPending}
        onClick={() => execute({ ...swap, slippage: 0.01, acceptedQuote: p?.swapInfo })}
      >
        {label}
      </button>
      <p data-testid="steps">{p?.steps.join(',')}</p>
      <p data-testid="fee">{p?.networkFee ? String(p.networkFee.wei) : ''}</p>
      <p data-testid="fee-usd">
        {p?.networkFee ? `${p.networkFee.usd ?? 'unknown'} ${p.networkFee.warning}` : ''}
      </p>
      <p data-testid="value-gap">{p ? JSON.stringify(p.valueGap) : ''}</p>
      <p data-testid="stage">{stage}</p>
      <p data-testid="preview-for">{preview.data?.swapInfo.quotedFor?.amountIn.toString()}</p>
      <p data-testid="preview-balance">{p ? String(p.balance) : ''}</p>
    </div>
  )
}

/** A balance as wagmi's useReadContract caches it (`['readContract', { chainId, … }]`), in the same QueryClient. */
function WagmiStyleBalance() {
  const { data } = useQuery({
    queryKey: [
      'readContract',
      { chainId: h.fixture.chain.id, address: h.address('TKA'), functionName: 'balanceOf' },
    ],
    queryFn: () => h.balance('TKA'),
    staleTime: Number.POSITIVE_INFINITY,
  })
  return <p data-testid="wagmi-balance">{data === undefined ? '' : String(data)}</p>
}

describe('useSwapPreview', () => {
  test('Approve vs Swap before the click, the fee, insufficient balance, one quote request per input', async () => {
    h.server.service.clearLog()
    const storage = createMemoryStorage()
    const wallet = h.wallet()
    const { rerender } = render(
      <Provider wallet={wallet} storage={storage}>
        <SwapButton amountIn={parseEther('10')} />
      </Provider>,
    )
    const approve = await screen.findByRole('button', { name: 'Approve TKA' }, { timeout: 5000 })
    expect((approve as HTMLButtonElement).disabled).toBe(false)
    expect(screen.getByTestId('steps').textContent).toBe('approve,swap')
    expect(BigInt(screen.getByTestId('fee').textContent as string)).toBeGreaterThan(0n)
    // useSwapInfo and useSwapPreview on one page: one /swap/info request.
    expect(h.server.service.count('/swap/info')).toBe(1)
    // The prices come from useTokenPrice's cache: TKA, TKB and the native coin (for the fee), asked
    // once each; the preview asks for none itself, even where the service has none (this market's are 0).
    expect(h.server.service.count('/overview/token/price')).toBe(3)
    expect(screen.getByTestId('fee-usd').textContent).toBe('unknown unknown')
    expect(JSON.parse(screen.getByTestId('value-gap').textContent as string)).toEqual({
      status: 'unknown',
      missing: ['token0', 'token1'],
    })

    // Another amount: the preview of 10 TKA never stands in for it (its balance, allowance and fee
    // were for 10); the button waits for the new one.
    await h.approve('TKA', parseEther('100'))
    rerender(
      <Provider wallet={wallet} storage={storage}>
        <SwapButton amountIn={parseEther('20')} />
      </Provider>,
    )
    expect(screen.getByTestId('preview-for').textContent).toBe('')
    // After an approval of enough, the same button (same page, same cache) says Swap.
    const swap = await screen.findByRole('button', { name: 'Swap' }, { timeout: 5000 })
    expect((swap as HTMLButtonElement).disabled).toBe(false)
    expect(screen.getByTestId('preview-for').textContent).toBe(parseEther('20').toString())

    rerender(
      <Provider wallet={wallet} storage={storage}>
        <SwapButton amountIn={parseEther('5000')} />
      </Provider>,
    )
    const button = await screen.findByRole('button', { name: 'Insufficient balance' }, { timeout: 5000 })
    expect((button as HTMLButtonElement).disabled).toBe(true)
  })
})

describe('the screen after a swap', () => {
  test('what the swap changed is read again at its block: no old preview, no second swap from a stale button, wagmi’s balance refetched, every event told', async () => {
    const storage = createMemoryStorage()
    const wallet = h.wallet()
    const before = await h.balance('TKA')
    const amountIn = parseEther('10')
    const renders: { stage: string; enabled: boolean; balance: bigint | undefined; quote: unknown }[] = []
    const events: SwapLifecycleEvent[] = []
    render(
      <Provider wallet={wallet} storage={storage} onEvent={(event) => events.push(event)}>
        <SwapButton amountIn={amountIn} renders={renders} />
        <WagmiStyleBalance />
      </Provider>,
    )
    const approve = await screen.findByRole('button', { name: 'Approve TKA' }, { timeout: 5000 })
    await waitFor(() => expect(screen.getByTestId('wagmi-balance').textContent).toBe(String(before)))
    const quotes = h.server.service.count('/swap/info')
    const clicked = renders.length
    fireEvent.click(approve)
    // Once the swap is sent, the service slows down: the fresh quote takes longer than a preview
    // made again from the spent one would (the window where a stale button could be offered).
    await waitFor(() => expect(screen.getByTestId('stage').textContent).toBe('swapping'), { timeout: 10_000 })
    h.server.service.setLatency(400)
    onTestFinished(() => h.server.service.setLatency(undefined))
    await waitFor(() => expect(screen.getByTestId('stage').textContent).toBe('success'), { timeout: 10_000 })

    // From the click on, the button is never enabled on the pre-swap preview: pending while the
    // swap runs and while its block is read, then the preview is gone until a fresh one arrives.
    const after = renders.slice(clicked)
    const spent = renders[clicked - 1]?.quote
    expect(spent).toBeDefined()
    expect(after.filter((render) => render.enabled && render.balance === before)).toEqual([])
    // Nor on a preview made again from the quote the swap spent: only a fresh quote's preview.
    expect(after.filter((render) => render.enabled && render.quote === spent)).toEqual([])
    expect(after.find((render) => render.stage === 'success')?.balance).not.toBe(before)
    // The fresh preview, of a fresh quote, shows the new balance; wagmi's cached read too.
    await waitFor(
      () => expect(screen.getByTestId('preview-balance').textContent).toBe(String(before - amountIn)),
      {
        timeout: 5000,
      },
    )
    expect(h.server.service.count('/swap/info')).toBeGreaterThan(quotes + 1) // the execution's own, then the page's fresh one
    await waitFor(() =>
      expect(screen.getByTestId('wagmi-balance').textContent).toBe(String(before - amountIn)),
    )
    // The exact approval was spent: the next swap of this amount needs one again.
    expect(await screen.findByRole('button', { name: 'Approve TKA' }, { timeout: 5000 })).toBeDefined()

    const types = events.map((event) => event.type)
    expect(types).toEqual(
      expect.arrayContaining([
        'quote',
        'preview',
        'approval-sent',
        'approval-mined',
        'swap-sent',
        'swap-mined',
        'success',
      ]),
    )
    expect(types.indexOf('preview')).toBeLessThan(types.indexOf('approval-sent'))
    expect(types.indexOf('success')).toBeGreaterThan(types.indexOf('swap-mined'))
  })
})

/** The last pool of the TKA → TKB route. */
const lastHop = () =>
  h.market
    .quote({ token0: h.address('TKA'), token1: h.address('TKB'), amountIn: parseEther('10') })
    ?.path.slice(-2)

describe('usePendingSwaps: resume after a reload', () => {
  /**
   * The page after a reload: a fresh copy of the library, as a new JS context has (the first
   * page's executions, stuck at its wallet or at its node, are gone with it; in the same context
   * they would still be running, and never offered for resume).
   */
  async function reloadedLibrary() {
    vi.resetModules()
    const [{ SwapProvider }, { usePendingSwaps }] = await Promise.all([
      import('../context.js'),
      import('./usePendingSwaps.js'),
    ])
    function Pending() {
      return <PendingView state={usePendingSwaps()} />
    }
    return { SwapProvider, Pending }
  }

  /** The page after a reload, listing the pending swaps of `storage`; returns its wallet. */
  async function renderReloadedPage(storage: SwapStorage) {
    const wallet = h.wallet()
    const library = await reloadedLibrary()
    render(
      <Provider wallet={wallet} storage={storage} library={library}>
        <library.Pending />
      </Provider>,
    )
    return wallet
  }

  function PendingView({ state }: { state: ReturnType<typeof usePendingSwaps> }) {
    const { pendingSwaps, settled, resume, resumeState, refresh, isChecking } = state
    return (
      <div>
        {pendingSwaps.map(({ record, status }) => (
          <p key={record.id}>
            <span data-testid="pending">{status}</span>
            {status === 'resumable' && (
              <button
                type="button"
                onClick={() => resume(record, { minAmountOut: BigInt(record.minAmountOut) })}
              >
                Finish the swap
              </button>
            )}
          </p>
        ))}
        <p data-testid="settled">{settled.map(({ status }) => status).join(',')}</p>
        <p data-testid="resume">{resumeState.status}</p>
        <p data-testid="checking">{String(isChecking)}</p>
        <button type="button" onClick={refresh}>
          Check again
        </button>
      </div>
    )
  }

  test('approval mined, page reloaded before the swap: the new page resumes with exactly one swap', async () => {
    const storage = createMemoryStorage()
    const before = { TKA: await h.balance('TKA'), nonce: await h.nonce() }
    // The first page: its wallet never answers the swap request (the page is gone by then).
    const first = h.wallet({ hang: (method, count) => method === 'eth_sendTransaction' && count === 1 })
    const page = render(
      <Provider wallet={first} storage={storage}>
        <SwapButton amountIn={parseEther('10')} />
      </Provider>,
    )
    fireEvent.click(await screen.findByRole('button', { name: 'Approve TKA' }, { timeout: 5000 }))
    await waitFor(async () => expect((await getPendingSwaps(storage))[0]?.step).toBe('approved'), {
      timeout: 5000,
    })
    await waitFor(() => expect(first.sendRequests()).toHaveLength(2)) // the swap request reached the wallet, unanswered
    page.unmount()

    // The new page: same storage, a new wallet client on the same wallet, nothing else.
    const second = await renderReloadedPage(storage)
    expect((await screen.findByTestId('pending', {}, { timeout: 5000 })).textContent).toBe('resumable')
    expect(second.sendRequests()).toHaveLength(0) // checking sends nothing
    await act(async () => {
      fireEvent.click(screen.getByRole('button', { name: 'Finish the swap' }))
      fireEvent.click(screen.getByRole('button', { name: 'Finish the swap' })) // a double click
    })
    await waitFor(() => expect(screen.getByTestId('resume').textContent).toBe('success'), { timeout: 10_000 })
    expect(second.sendRequests()).toHaveLength(1) // one swap, no approval
    await waitFor(() => expect(screen.queryByTestId('pending')).toBeNull())
    expect(await getPendingSwaps(storage)).toEqual([])
    expect(await h.nonce()).toBe(before.nonce + 2)
    expect(await h.balance('TKA')).toBe(before.TKA - parseEther('10'))
    expect(await h.allowance('TKA')).toBe(0n)
  })

  test('approval broadcast, the page gone before its hash came back: the new page lists it resumable (found at its nonce) and resumes with one swap', async () => {
    const storage = createMemoryStorage()
    const before = { TKA: await h.balance('TKA'), nonce: await h.nonce() }
    const first = h.wallet()
    const kit = resumeKit(h, parseEther('10'))
    const page = kit.startSwap(kit.walletDyingAt(first, 0), storage)
    await kit.until(page, 'the approval mined', async () => (await h.allowance('TKA')) === parseEther('10'))
    expect((await getPendingSwaps(storage))[0]?.step).toBe('approving') // its hash never written

    const second = await renderReloadedPage(storage)
    expect((await screen.findByTestId('pending', {}, { timeout: 5000 })).textContent).toBe('resumable')
    await act(async () => fireEvent.click(screen.getByRole('button', { name: 'Finish the swap' })))
    await waitFor(() => expect(screen.getByTestId('resume').textContent).toBe('success'), { timeout: 10_000 })
    expect(second.sendRequests()).toHaveLength(1) // the swap alone
    expect(await h.nonce()).toBe(before.nonce + 2)
    expect(await h.balance('TKA')).toBe(before.TKA - parseEther('10'))
  })

  test('an approval still in the mempool when the page reloads: listed pending, then resumable once it is mined, with no refresh and no reload', async () => {
    const storage = createMemoryStorage()
    const rpc = jsonRpc(h.fixture.rpcUrl)
    const kit = resumeKit(h, parseEther('10'))
    // The approval is broadcast with automine off, and the page dies before its hash comes back.
    const first = h.wallet()
    const page = kit.startSwap(
      kit.walletDyingAt(first, 0, () => rpc('evm_setAutomine', [false])),
      storage,
    )
    try {
      await kit.until(page, 'the approval in the mempool', async () =>
        (await getPendingSwaps(storage))[0]?.journal?.some((entry) => entry.step === 'approve') &&
        (await h.fixture.publicClient.getTransactionCount({
          address: h.fixture.accounts.user.address,
          blockTag: 'pending',
        })) > (await h.nonce())
          ? true
          : undefined,
      )
      await renderReloadedPage(storage)
      expect((await screen.findByTestId('pending', {}, { timeout: 5000 })).textContent).toBe('pending')
    } finally {
      await mineHeld(rpc)
    }
    // Mined now: the hook checks again on its own (no refresh(), no focus, no reload).
    await waitFor(() => expect(screen.getByTestId('pending').textContent).toBe('resumable'), {
      timeout: 10_000,
    })
    expect(screen.getByRole('button', { name: 'Finish the swap' })).toBeTruthy()
    expect(await h.allowance('TKA')).toBe(parseEther('10'))
  })

  test('a batch that failed part-way (EIP-5792 status 600, atomic: false): resumable on the page that saw it, and listed resumable after the reload', async () => {
    const storage = createMemoryStorage()
    const kit = resumeKit(h, parseEther('10'))
    // The pool the swap needs is emptied as the wallet runs the batch: the approval lands, the swap reverts.
    const wallet = h.wallet({
      eip5792: {
        partial: true,
        beforeBatch: async () => {
          await h.fixture.publicClient.waitForTransactionReceipt({
            hash: await h.fixture.deployerClient.writeContract({
              address: h.fixture.router,
              abi: testRouterAbi,
              functionName: 'setPool',
              args: [...(lastHop() as [Address, Address]), 10n ** 30n, 1n, 30n],
            }),
          })
        },
      },
    })
    const error = await executeSwap(h.swapClient(), kit.swapParameters(wallet.walletClient, storage)).catch(
      (e: unknown) => e,
    )
    expect(error).toMatchObject({
      name: 'BatchFailedError',
      atomic: false,
      leftoverAllowance: { amount: parseEther('10') },
    })
    expect(await getPendingSwaps(storage)).toMatchObject([{ step: 'batching' }])

    await renderReloadedPage(storage)
    expect((await screen.findByTestId('pending', {}, { timeout: 5000 })).textContent).toBe('resumable')
    expect(screen.getByTestId('settled').textContent).toBe('')
  })

  test('swap sent, page reloaded before its receipt: the new page settles it from the receipt, sends nothing', async () => {
    const storage = createMemoryStorage()
    const before = { nonce: await h.nonce() }
    // The first page dies right after its wallet took the swap: its node never answers again.
    const dyingPage = h.dyingPage()
    const dying = dyingPage.publicClient
    const first = h.wallet({
      hang: (method) => {
        if (method === 'eth_sendTransaction') dyingPage.die()
        return false
      },
    })
    const page = render(
      <Provider wallet={first} storage={storage} publicClient={dying}>
        <SwapButton amountIn={parseEther('1')} token0="ETH" />
      </Provider>,
    )
    fireEvent.click(await screen.findByRole('button', { name: 'Swap' }, { timeout: 5000 }))
    await waitFor(async () => expect((await getPendingSwaps(storage))[0]?.step).toBe('swapping'), {
      timeout: 5000,
    })
    page.unmount()

    const second = await renderReloadedPage(storage)
    await waitFor(() => expect(screen.getByTestId('settled').textContent).toBe('confirmed'), {
      timeout: 5000,
    })
    expect(screen.queryByTestId('pending')).toBeNull()
    expect(second.sendRequests()).toHaveLength(0)
    expect(await getPendingSwaps(storage)).toEqual([])
    expect(await h.nonce()).toBe(before.nonce + 1)
    // A later check finds no record any more (it was removed once settled): what settled stays listed.
    fireEvent.click(screen.getByRole('button', { name: 'Check again' }))
    await waitFor(() => expect(screen.getByTestId('checking').textContent).toBe('true'))
    await waitFor(() => expect(screen.getByTestId('checking').textContent).toBe('false'))
    expect(screen.getByTestId('settled').textContent).toBe('confirmed')
  })
})
