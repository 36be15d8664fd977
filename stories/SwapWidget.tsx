import { useState, useSyncExternalStore } from 'react'
import { type Address, formatUnits } from 'viem'
import {
  defaultSlippage,
  getMinAmountOut,
  NoRouteError,
  parseAmount,
  QuoteChangedError,
  type Token,
  useExecuteSwap,
  useMaxAmount,
  usePendingSwaps,
  useSuggestedSlippage,
  useSwapPreview,
  useSwapRoute,
  useTokenBalances,
  useTokenPrice,
  useTokens,
} from '../src/exports/index.js'
import { CopyReport } from './support/CopyReport.js'
import type { SimulatedWallet } from './support/simulatedWallet.js'
import { ErrorView, formatAmount, RateLimitBanner, useNow } from './support/ui.js'

export type SwapWidgetProps = {
  /** Symbols preselected in the pickers. */
  defaultToken0?: string
  defaultToken1?: string
  defaultAmount?: string
  /** Accepted slippage, 0 to 1, until the user takes the suggested one. Default `defaultSlippage` (0.005). */
  slippage?: number
  /** The most slippage the user accepts: the suggestion never exceeds it. Default 0.03. */
  maxSlippage?: number
  /** The simulated wallet of the story: shown, and switchable to rejecting or batching. */
  wallet: SimulatedWallet
  /** When the price impact warns and when it blocks the swap. Default 5% and 15%. */
  priceImpactThresholds?: { high: number; blocking: number }
}

/**
 * A complete swap widget, built only from the public hooks of token-swap-hooks:
 * token pickers (useTokens), an amount field parsed with parseAmount, the live
 * route (useSwapRoute), USD values (useTokenPrice), the minimum received, the
 * quote's age, what the button will do before the click (useSwapPreview:
 * Approve or Swap, insufficient balance, network fee, price impact), the
 * swap itself (useExecuteSwap: approve → swap, or one batch; a changed quote
 * to accept), the screen after it (balances read again with useTokenBalances,
 * the allowance left), a slippage suggested from the quotes as they move
 * (useSuggestedSlippage), and swaps a reload interrupted (usePendingSwaps).
 */
export function SwapWidget({
  defaultToken0 = 'USDC',
  defaultToken1 = 'WETH',
  defaultAmount = '',
  slippage: initialSlippage = defaultSlippage,
  maxSlippage = 0.03,
  wallet,
  priceImpactThresholds,
}: SwapWidgetProps) {
  const { data: tokens = [], error: tokensError } = useTokens()
  const bySymbol = (symbol: string) => tokens.find((token) => token.symbol === symbol)
  // The user's picks; until they pick, the defaults (found once the list has loaded).
  const [picked0, setToken0] = useState<Token>()
  const [picked1, setToken1] = useState<Token>()
  const token0 = picked0 ?? bySymbol(defaultToken0)
  const token1 = picked1 ?? bySymbol(defaultToken1)
  const [amount, setAmount] = useState(defaultAmount)
  const decimals0 = token0?.decimals
  const decimals1 = token1?.decimals
  // What the user typed, or undefined while it is no amount yet ('', '.', 'abc', too many decimals).
  const amountIn = parseAmount(amount, decimals0)
  const input = { token0: token0?.address, token1: token1?.address, amountIn }
  // "Max": the balance, less the swap's fee for ETH (read again every block).
  const max = useMaxAmount({ token0: input.token0, token1: input.token1 })

  // The slippage in use: the widget's, until the user takes the suggested one.
  const [chosenSlippage, setSlippage] = useState<number>()
  const slippage = chosenSlippage ?? initialSlippage

  const route = useSwapRoute(input)
  const preview = useSwapPreview({ ...input, slippage, priceImpactThresholds })
  // Each refresh of the route is a sample: the suggestion follows how this swap's quotes moved.
  const suggested = useSuggestedSlippage({
    quote: route.data,
    quotedAt: route.dataUpdatedAt,
    priceImpact: preview.data?.priceImpact?.value,
    max: maxSlippage,
  })
  // The balances as the library reads them (through the wallet's node); read again after a swap.
  const account = wallet.walletClient.account.address
  const held = [token0, token1].flatMap((token) =>
    token ? [{ address: token.address as Address, symbol: token.symbol, decimals: token.decimals }] : [],
  )
  const balances = useTokenBalances({
    account,
    tokens: held,
    prices: false,
    query: { enabled: held.length > 0 },
  })
  const balanceLine = (token: Token | undefined) => {
    const entry = balances.data?.balances.find(
      (item) => item.token.address.toLowerCase() === token?.address.toLowerCase(),
    )
    return token && token.decimals !== undefined && entry?.status === 'success'
      ? ` · balance ${formatAmount(entry.balance, token.decimals)} ${token.symbol}`
      : ''
  }
  const price0 = useTokenPrice({ address: token0?.address })
  const price1 = useTokenPrice({ address: token1?.address })
  const swap = useExecuteSwap()
  const pending = usePendingSwaps()
  const now = useNow(route.quotedAt !== undefined)
  // The simulated wallet's balances and settings, re-read whenever it changes.
  useSyncExternalStore(wallet.subscribe, () => wallet.version)

  const amountOut = route.data?.amountOut
  const minReceived = amountOut !== undefined ? getMinAmountOut(amountOut, slippage) : undefined
  const usd = (value: bigint | undefined, decimals: number | undefined, price: number | undefined) =>
    value !== undefined && decimals !== undefined && price !== undefined
      ? `≈ $${(Number(formatAmount(value, decimals, 8)) * price).toLocaleString('en-US', { maximumFractionDigits: 2 })}`
      : ''
  // TanStack's status, refined by the flow's own while it runs: quoting → approving → swapping.
  const { stage } = swap
  const symbolOf = (address: string) =>
    tokens.find((token) => token.address === address)?.symbol ?? address.slice(0, 8)
  const amountOf = (amount: string, address: string) => {
    const decimals = tokens.find((token) => token.address === address)?.decimals
    return decimals === undefined ? amount : formatAmount(BigInt(amount), decimals)
  }
  const p = preview.data
  const blocked = p?.insufficientBalance || p?.priceImpact?.warning === 'blocking'
  const label =
    stage === 'quoting'
      ? 'Getting a fresh quote…'
      : stage === 'approving'
        ? `Approving ${token0?.symbol}…`
        : stage === 'swapping'
          ? 'Swapping…'
          : p?.insufficientBalance
            ? `Insufficient ${token0?.symbol} balance`
            : p?.priceImpact?.warning === 'blocking'
              ? 'Price impact too high'
              : p?.steps[0] === 'batch'
                ? `Approve ${token0?.symbol} and swap`
                : p?.needsApproval
                  ? `Approve ${token0?.symbol}`
                  : 'Swap'
  const execute = (acceptedQuote?: { estimateAmount: bigint }) =>
    token0 &&
    token1 &&
    amountIn &&
    swap.execute({
      token0: token0.address as Address,
      token1: token1.address as Address,
      amountIn,
      slippage,
      acceptedQuote: acceptedQuote ?? route.data,
    })

  const steps = swap.step
  return (
    <div style={styles.frame}>
      <section style={styles.card} aria-label="swap widget">
        <header style={styles.header}>
          <h3 style={styles.title}>Swap</h3>
          <span style={styles.chip} title="The slippage every swap below uses">
            Slippage {percent(slippage)}
          </span>
        </header>

        <RateLimitBanner />
        <ErrorView error={tokensError} />
        {pending.pendingSwaps.map(({ record, status }) => (
          <div key={record.id} role="status" aria-label="interrupted swap" style={styles.pending}>
            A swap of {amountOf(record.amountIn, record.token0)} {symbolOf(record.token0)} →{' '}
            {symbolOf(record.token1)} was interrupted ({status}).{' '}
            {status === 'resumable' && (
              // The floor the user confirms now, shown on the button: a stored record cannot set it,
              // and the output goes to the connected account (no `to`), whatever the record says.
              <button
                type="button"
                style={styles.smallButton}
                onClick={() => pending.resume(record, { minAmountOut: BigInt(record.minAmountOut) })}
              >
                Finish the swap: at least {amountOf(record.minAmountOut, record.token1)}{' '}
                {symbolOf(record.token1)} to you
              </button>
            )}{' '}
            <button type="button" style={styles.smallButton} onClick={() => pending.dismiss(record)}>
              Dismiss
            </button>
          </div>
        ))}
        {pending.resumeState.data?.resumed === 'swapped' && (
          <p data-testid="resumed" style={styles.good}>
            The interrupted swap went through.
          </p>
        )}
        {pending.resumeState.data?.resumed === 'settled' && (
          <p style={styles.notice}>
            The interrupted swap had already ended ({pending.resumeState.data.status}).
          </p>
        )}
        {pending.resumeState.data?.resumed === 'nothing' && (
          <p style={styles.notice}>Nothing was sent ({pending.resumeState.data.status}).</p>
        )}
        <ErrorView error={pending.resumeState.error} />

        <div style={styles.panel}>
          <span style={styles.panelLabel}>You pay</span>
          <div style={styles.row}>
            <input
              aria-label="amount"
              inputMode="decimal"
              placeholder="0"
              value={amount}
              onChange={(event) => setAmount(event.target.value)}
              style={styles.amount}
            />
            <button
              type="button"
              disabled={!max.data?.amount || decimals0 === undefined}
              title={max.data?.reason ?? (max.data?.fee ? 'Leaves the swap’s fee' : undefined)}
              onClick={() => max.data && setAmount(formatUnits(max.data.amount, decimals0 ?? 18))}
            >
              Max
            </button>
            <TokenPicker label="From" tokens={tokens} value={token0} onChange={setToken0} />
          </div>
          <p style={styles.sub} data-testid="balance0">
            {usd(amountIn, decimals0, price0.data)}
            {balanceLine(token0)}
          </p>
        </div>
        <div style={styles.arrow} aria-hidden="true">
          ↓
        </div>
        <div style={styles.panel}>
          <span style={styles.panelLabel}>You receive</span>
          <div style={styles.row}>
            <output
              aria-label="amount out"
              style={{ ...styles.amount, ...styles.amountOut, opacity: route.isPlaceholderData ? 0.45 : 1 }}
            >
              {amountOut !== undefined && decimals1 !== undefined ? formatAmount(amountOut, decimals1) : '–'}
            </output>
            <TokenPicker label="To" tokens={tokens} value={token1} onChange={setToken1} />
          </div>
          <p style={styles.sub} data-testid="balance1">
            {usd(amountOut, decimals1, price1.data)}
            {balanceLine(token1)}
          </p>
        </div>

        {route.error instanceof NoRouteError && (
          <p role="alert" style={styles.bad}>
            No route between these tokens.
          </p>
        )}
        {route.error && !(route.error instanceof NoRouteError) && <ErrorView error={route.error} />}
        {route.data && (
          <details open style={styles.detailsPanel}>
            <summary style={styles.summary}>
              <span>
                {amountIn && amountOut !== undefined && decimals0 !== undefined && decimals1 !== undefined
                  ? `1 ${token0?.symbol} = ${rate(amountIn, decimals0, amountOut, decimals1)} ${token1?.symbol}`
                  : 'Details'}
              </span>
              <span style={styles.summaryFee}>
                {p?.networkFee ? `⛽ ${formatAmount(p.networkFee.wei, 18, 6)} ETH` : ''}
              </span>
            </summary>
            <dl style={styles.details}>
              <dt style={styles.dt}>Minimum received ({percent(slippage)} slippage)</dt>
              <dd style={styles.dd} data-testid="min-received">
                {minReceived !== undefined && decimals1 !== undefined
                  ? `${formatAmount(minReceived, decimals1)} ${token1?.symbol}`
                  : ''}
              </dd>
              <dt style={styles.dt}>Price impact</dt>
              <dd
                style={{ ...styles.dd, color: impactColors[p?.priceImpact?.warning ?? 'none'] }}
                data-testid="price-impact"
              >
                {p?.priceImpact ? `${(p.priceImpact.value * 100).toFixed(2)}%` : '–'}
                {p?.priceImpact?.warning === 'high' ? ' (high)' : ''}
                {p?.priceImpact?.warning === 'blocking' ? ' (too high to swap)' : ''}
              </dd>
              <dt style={styles.dt}>Network fee</dt>
              <dd style={styles.dd} data-testid="network-fee">
                {p?.networkFee ? `≈ ${formatAmount(p.networkFee.wei, 18, 8)} ETH` : '–'}
                {p ? ` · ${p.steps.join(' → ')}` : ''}
              </dd>
              <dt style={styles.dt}>Network fee in USD</dt>
              <dd
                style={{
                  ...styles.dd,
                  color: impactColors[p?.networkFee?.warning === 'high' ? 'high' : 'none'],
                }}
                data-testid="network-fee-usd"
              >
                {!p?.networkFee
                  ? '–'
                  : p.networkFee.usd === undefined
                    ? 'unknown (no ETH price)'
                    : `≈ $${p.networkFee.usd.toFixed(2)}`}
                {p?.networkFee?.share !== undefined
                  ? ` (${percent(p.networkFee.share, 2)} of the input)`
                  : ''}
                {p?.networkFee?.warning === 'high' ? ' (high)' : ''}
              </dd>
              <dt style={styles.dt}>Gas by step</dt>
              <dd style={styles.dd} data-testid="network-fee-steps">
                {p?.networkFee?.steps
                  ?.map(({ kind, gas }) => `${kind} ${gas.toLocaleString('en-US')}`)
                  .join(' · ') ?? '–'}
              </dd>
              <dt style={styles.dt}>Value out vs in</dt>
              <dd style={styles.dd} data-testid="value-gap">
                {!p
                  ? '–'
                  : p.valueGap.status === 'known'
                    ? `$${p.valueGap.valueOut.toFixed(2)} out for $${p.valueGap.valueIn.toFixed(2)} in (gap ${percent(p.valueGap.value, 2)})`
                    : `unknown (no USD price for ${p.valueGap.missing
                        .map((which) => (which === 'token0' ? token0 : token1)?.symbol)
                        .join(', ')})`}
              </dd>
              <dt style={styles.dt}>Route</dt>
              <dd style={styles.dd} data-testid="route">
                {route.data.path.map(symbolOf).join(' → ')} ({route.data.path.length - 1} hop
                {route.data.path.length === 2 ? '' : 's'})
              </dd>
              <dt style={styles.dt}>Slippage</dt>
              <dd style={styles.dd}>
                <span data-testid="slippage">
                  {percent(slippage)}
                  {chosenSlippage === undefined ? '' : ' (suggested)'}
                </span>
              </dd>
              <dt style={styles.dt}>Suggested</dt>
              <dd style={styles.dd}>
                <span data-testid="suggested-slippage">
                  {percent(suggested.slippage)}{' '}
                  {suggested.basis === 'quotes'
                    ? `(measured: ${suggested.samples} quotes, largest move ${percent(suggested.largestMove ?? 0, 3)})`
                    : '(default: fewer than two quotes)'}
                  {suggested.capped ? ' (capped at your maximum: the swap may fail its floor)' : ''}
                </span>{' '}
                <button
                  type="button"
                  style={styles.smallButton}
                  onClick={() => setSlippage(suggested.slippage)}
                  disabled={suggested.slippage === slippage}
                >
                  Use suggested
                </button>
              </dd>
              <dt style={styles.dt}>Quote</dt>
              <dd style={styles.dd}>
                <span data-testid="quote-age">
                  {route.isPlaceholderData || route.isDebouncing
                    ? 'updating…'
                    : route.quotedAt
                      ? `${Math.max(0, Math.round((now - route.quotedAt) / 1000))} s old${route.isFresh ? '' : ' (stale)'}`
                      : ''}
                </span>{' '}
                <button
                  type="button"
                  style={styles.smallButton}
                  onClick={() => route.refetch()}
                  disabled={route.isFetching}
                >
                  Refresh
                </button>
              </dd>
            </dl>
          </details>
        )}

        {/* After a swap, the screen says what was received and asks for a new quote (New swap)
            before it offers another swap: the same swap is never one click away. */}
        {swap.status !== 'success' && (
          <button
            type="button"
            data-testid="swap-button"
            // The preview the button stands on (when its quote was fetched, the balance it read): a
            // story tells the pre-swap one from the fresh one.
            data-preview={p ? `${p.quotedAt}:${p.balance}` : ''}
            style={{ ...styles.swap, ...(blocked ? styles.blocked : {}) }}
            disabled={!route.data || route.isPlaceholderData || !amountIn || !p || blocked || swap.isPending}
            onClick={() => execute()}
          >
            {label}
          </button>
        )}

        {swap.error instanceof QuoteChangedError && (
          <p role="alert" data-testid="quote-changed" style={styles.notice}>
            The quote changed since you saw it: now{' '}
            {decimals1 !== undefined ? formatAmount(swap.error.newQuote.estimateAmount, decimals1) : ''}{' '}
            {token1?.symbol}.{' '}
            <button
              type="button"
              style={styles.smallButton}
              onClick={() => execute((swap.error as QuoteChangedError).newQuote)}
            >
              Accept the new quote
            </button>
          </p>
        )}
        {steps && (
          <ol aria-label="swap steps" style={styles.steps}>
            <li style={styles.step}>
              <StepMark done={Boolean(steps.swapInfo)} />
              Quote: {steps.swapInfo ? 'fresh quote fetched' : 'fetching…'}
            </li>
            {steps.mode === 'batch' && (
              <li style={styles.step} data-testid="batch-step">
                <StepMark done={Boolean(steps.receipt)} />
                Batch (approve and swap, one signature): <Hash value={steps.batchId ?? steps.action} />
                {steps.receipt ? ' (confirmed)' : ''}
              </li>
            )}
            {steps.mode !== 'batch' && steps.swapInfo?.approvalAddress && (
              <li style={styles.step} data-testid="approval-step">
                <StepMark done={Boolean(steps.approvalHash) && steps.action !== 'waiting-for-approval'} />
                Approval:{' '}
                {steps.approvalHash ? (
                  <>
                    <Hash value={steps.approvalHash} />{' '}
                    {steps.action === 'waiting-for-approval' ? '(confirming…)' : '(confirmed)'}
                  </>
                ) : steps.status === 'approving' ? (
                  steps.action
                ) : (
                  'allowance already sufficient'
                )}
              </li>
            )}
            {steps.mode !== 'batch' && (steps.status === 'swapping' || steps.status === 'success') && (
              <li style={styles.step} data-testid="swap-step">
                <StepMark done={Boolean(steps.receipt)} />
                Swap:{' '}
                {steps.swapHash ? (
                  <>
                    <Hash value={steps.swapHash} /> {steps.receipt ? '(confirmed)' : '(confirming…)'}
                  </>
                ) : (
                  steps.action
                )}
              </li>
            )}
            {swap.isPending && (
              <li style={{ ...styles.step, ...styles.now }} data-testid="current-action">
                Now: {steps.action}
              </li>
            )}
          </ol>
        )}
        {swap.status === 'success' && swap.data && (
          <div data-testid="swap-success" style={styles.success}>
            <strong style={styles.successTitle}>
              {swap.data.realized ? (
                <>
                  Swap complete: received{' '}
                  {decimals1 !== undefined ? formatAmount(swap.data.realized.amountOut, decimals1) : ''}{' '}
                  {token1?.symbol}.
                </>
              ) : (
                <>Swap complete (the node could not measure the amount received).</>
              )}
            </strong>
            <span data-testid="swap-mode" style={styles.successLine}>
              {swap.data.mode === 'batch'
                ? `Sent as one batch of ${swap.data.transactionHashes.length} calls`
                : `Sent as ${swap.data.transactionHashes.length} transaction${swap.data.transactionHashes.length === 1 ? '' : 's'}`}{' '}
              ({swap.data.mode}), bounds enforced{' '}
              {swap.data.floorEnforcement === 'onchain' ? 'on chain' : 'in simulation'}.
            </span>
            <span data-testid="allowance-left" style={styles.successLine}>
              Allowance left:{' '}
              {swap.data.leftoverAllowance
                ? `${decimals0 !== undefined ? formatAmount(swap.data.leftoverAllowance.amount, decimals0) : String(swap.data.leftoverAllowance.amount)} ${token0?.symbol} to ${swap.data.leftoverAllowance.spender.slice(0, 10)}…`
                : 'none'}
            </span>
          </div>
        )}
        {!(swap.error instanceof QuoteChangedError) && <ErrorView error={swap.error} />}
        {swap.error && <CopyReport error={swap.error} step={swap.step} />}
        {swap.status === 'error' || swap.status === 'success' ? (
          <button type="button" style={styles.secondary} onClick={swap.reset}>
            New swap
          </button>
        ) : null}
      </section>

      <aside style={styles.walletPanel} aria-label="simulated wallet">
        <strong style={{ fontSize: 12 }}>Simulated wallet</strong>{' '}
        <span style={{ fontSize: 12, color: '#6b7280' }}>
          in memory, no extension, no real chain · {account.slice(0, 6)}…{account.slice(-4)}
        </span>
        <div style={styles.toggles}>
          <label>
            <input
              type="checkbox"
              checked={wallet.rejecting}
              onChange={(event) => wallet.setRejecting(event.target.checked)}
            />{' '}
            Wallet rejects signatures
          </label>
          <label>
            <input
              type="checkbox"
              checked={wallet.batching}
              onChange={(event) => wallet.setBatching(event.target.checked)}
            />{' '}
            Wallet batches calls (EIP-5792)
          </label>
          <label>
            <input
              type="checkbox"
              checked={wallet.capabilitiesHang}
              onChange={(event) => wallet.setCapabilitiesHang(event.target.checked)}
            />{' '}
            Wallet never answers wallet_getCapabilities
          </label>
          <label>
            <input
              type="checkbox"
              checked={wallet.decliningUpgrade}
              onChange={(event) => wallet.setDecliningUpgrade(event.target.checked)}
            />{' '}
            User declines the smart-account upgrade
          </label>
        </div>
        {wallet.requests.length > 0 && (
          <p data-testid="wallet-requests" style={styles.walletLog}>
            Wallet asked:{' '}
            {wallet.requests
              .slice(-8)
              .map(({ method, answer }) => `${method} (${answer})`)
              .join(' · ')}
          </p>
        )}
      </aside>
    </div>
  )
}

/** How much token1 one whole token0 buys at this quote, to 6 significant digits. */
function rate(amountIn: bigint, decimals0: number, amountOut: bigint, decimals1: number): string {
  const value = Number(formatUnits(amountOut, decimals1)) / Number(formatUnits(amountIn, decimals0))
  return value.toLocaleString('en-US', { maximumSignificantDigits: 6 })
}

/** A step's mark: done, or in progress. */
function StepMark({ done }: { done: boolean }) {
  return (
    <span aria-hidden="true" style={{ ...styles.mark, ...(done ? styles.markDone : styles.markBusy) }}>
      {done ? '✓' : '…'}
    </span>
  )
}

/** A hash in full for the reader who copies it, shortened on screen. */
function Hash({ value }: { value: string }) {
  return (
    <span title={value} style={styles.hash}>
      {value}
    </span>
  )
}

/** A fraction as a percentage: 0.005 → '0.50%'. */
const percent = (value: number, digits = 2) => `${(value * 100).toFixed(digits)}%`

const impactColors = { none: 'inherit', high: '#a15c00', blocking: '#b3261e' } as const

/** A token button (a select showing the symbol, with its mark) and a search box under it. */
function TokenPicker({
  label,
  tokens,
  value,
  onChange,
}: {
  label: string
  tokens: readonly Token[]
  value: Token | undefined
  onChange: (token: Token | undefined) => void
}) {
  const [search, setSearch] = useState('')
  const shown = tokens.filter(
    (token) => token.symbol.toLowerCase().includes(search.toLowerCase()) || token.address === value?.address,
  )
  return (
    <span style={styles.picker}>
      <span style={styles.tokenButton}>
        <TokenMark symbol={value?.symbol} />
        <select
          aria-label={`${label} token`}
          value={value?.address ?? ''}
          onChange={(event) => onChange(tokens.find((token) => token.address === event.target.value))}
          style={styles.tokenSelect}
        >
          <option value="" disabled>
            Select
          </option>
          {shown.map((token) => (
            <option key={token.address} value={token.address}>
              {token.symbol}
            </option>
          ))}
        </select>
        <span aria-hidden="true" style={styles.chevron}>
          ▾
        </span>
      </span>
      <input
        aria-label={`${label} token search`}
        placeholder="Search"
        value={search}
        onChange={(event) => setSearch(event.target.value)}
        style={styles.search}
      />
    </span>
  )
}

/** A round mark with the symbol's first letter, coloured from the symbol. */
function TokenMark({ symbol }: { symbol: string | undefined }) {
  const hue = [...(symbol ?? '')].reduce((sum, char) => sum + char.charCodeAt(0) * 37, 0) % 360
  return (
    <span
      aria-hidden="true"
      style={{ ...styles.tokenMark, background: symbol ? `hsl(${hue} 65% 48%)` : '#c7cad1' }}
    >
      {symbol?.[0] ?? '?'}
    </span>
  )
}

const styles = {
  frame: {
    display: 'flex',
    flexDirection: 'column',
    gap: 12,
    width: 480,
    fontFamily: 'system-ui, sans-serif',
  },
  card: {
    background: '#ffffff',
    border: '1px solid #e5e7eb',
    borderRadius: 24,
    padding: 16,
    boxShadow: '0 8px 24px rgba(17, 24, 39, 0.08)',
    display: 'flex',
    flexDirection: 'column',
    gap: 8,
    color: '#111827',
  },
  header: { display: 'flex', justifyContent: 'space-between', alignItems: 'center', padding: '0 4px 4px' },
  title: { margin: 0, fontSize: 20 },
  chip: { fontSize: 12, background: '#f3f4f6', borderRadius: 999, padding: '4px 10px', color: '#374151' },
  panel: {
    background: '#f5f6fa',
    borderRadius: 16,
    padding: '12px 14px',
    display: 'flex',
    flexDirection: 'column',
    gap: 4,
  },
  panelLabel: { fontSize: 13, color: '#6b7280' },
  row: { display: 'flex', gap: 12, alignItems: 'center' },
  amount: {
    flex: 1,
    minWidth: 0,
    fontSize: 34,
    fontWeight: 500,
    border: 'none',
    background: 'transparent',
    outline: 'none',
    padding: 0,
    color: '#111827',
    overflow: 'hidden',
    textOverflow: 'ellipsis',
    whiteSpace: 'nowrap',
  },
  amountOut: { display: 'block', lineHeight: '44px' },
  sub: { fontSize: 13, color: '#6b7280', margin: 0, minHeight: 18 },
  arrow: {
    alignSelf: 'center',
    margin: '-14px 0',
    zIndex: 1,
    width: 36,
    height: 36,
    borderRadius: 12,
    border: '4px solid #ffffff',
    background: '#f5f6fa',
    display: 'flex',
    alignItems: 'center',
    justifyContent: 'center',
    fontSize: 16,
    color: '#374151',
  },
  picker: { display: 'inline-flex', flexDirection: 'column', alignItems: 'flex-end', gap: 4 },
  tokenButton: {
    position: 'relative',
    display: 'inline-flex',
    alignItems: 'center',
    gap: 6,
    background: '#ffffff',
    border: '1px solid #e5e7eb',
    borderRadius: 999,
    padding: '4px 10px 4px 4px',
    boxShadow: '0 1px 2px rgba(17, 24, 39, 0.06)',
  },
  tokenMark: {
    width: 24,
    height: 24,
    borderRadius: '50%',
    color: '#ffffff',
    fontSize: 13,
    fontWeight: 700,
    display: 'inline-flex',
    alignItems: 'center',
    justifyContent: 'center',
  },
  tokenSelect: {
    appearance: 'none',
    border: 'none',
    background: 'transparent',
    fontSize: 18,
    fontWeight: 600,
    paddingRight: 14,
    cursor: 'pointer',
    color: '#111827',
  },
  chevron: { position: 'absolute', right: 10, pointerEvents: 'none', fontSize: 12, color: '#6b7280' },
  search: {
    width: 96,
    fontSize: 11,
    border: '1px solid #e5e7eb',
    borderRadius: 8,
    padding: '2px 6px',
    background: '#ffffff',
  },
  detailsPanel: { border: '1px solid #e5e7eb', borderRadius: 16, padding: '8px 12px' },
  summary: {
    display: 'flex',
    justifyContent: 'space-between',
    cursor: 'pointer',
    fontSize: 14,
    fontWeight: 500,
  },
  summaryFee: { color: '#6b7280', fontWeight: 400 },
  details: {
    display: 'grid',
    gridTemplateColumns: 'auto 1fr',
    gap: '6px 12px',
    fontSize: 13,
    margin: '10px 0 4px',
  },
  dt: { color: '#6b7280' },
  dd: { margin: 0, textAlign: 'right', wordBreak: 'break-word' },
  swap: {
    fontSize: 18,
    fontWeight: 600,
    padding: 14,
    borderRadius: 16,
    border: 'none',
    background: '#4c5bff',
    color: 'white',
    cursor: 'pointer',
  },
  blocked: { background: '#b3261e' },
  secondary: {
    fontSize: 14,
    padding: 10,
    borderRadius: 12,
    border: '1px solid #e5e7eb',
    background: '#ffffff',
    cursor: 'pointer',
  },
  smallButton: {
    fontSize: 12,
    padding: '2px 8px',
    borderRadius: 8,
    border: '1px solid #d1d5db',
    background: '#ffffff',
    cursor: 'pointer',
  },
  steps: {
    listStyle: 'none',
    margin: 0,
    padding: '4px 2px',
    display: 'flex',
    flexDirection: 'column',
    gap: 6,
    fontSize: 13,
  },
  step: { display: 'flex', alignItems: 'center', gap: 8, minWidth: 0, whiteSpace: 'nowrap' },
  now: { color: '#4c5bff', fontSize: 12, paddingLeft: 28 },
  mark: {
    flex: 'none',
    width: 20,
    height: 20,
    borderRadius: '50%',
    display: 'inline-flex',
    alignItems: 'center',
    justifyContent: 'center',
    fontSize: 12,
    fontWeight: 700,
  },
  markDone: { background: '#dcfce7', color: '#15803d' },
  markBusy: { background: '#e0e7ff', color: '#4c5bff' },
  hash: {
    display: 'inline-block',
    maxWidth: 150,
    overflow: 'hidden',
    textOverflow: 'ellipsis',
    verticalAlign: 'bottom',
    fontFamily: 'ui-monospace, monospace',
    fontSize: 12,
  },
  success: {
    background: '#f0fdf4',
    border: '1px solid #bbf7d0',
    borderRadius: 16,
    padding: '10px 12px',
    display: 'flex',
    flexDirection: 'column',
    gap: 2,
  },
  successTitle: { color: '#166534', fontSize: 15 },
  successLine: { fontSize: 12, color: '#374151' },
  good: { margin: 0, fontSize: 13, color: '#166534' },
  bad: { margin: 0, fontSize: 14, color: '#b3261e', textAlign: 'center' },
  notice: { margin: 0, fontSize: 13, background: '#fff8e1', padding: '8px 10px', borderRadius: 12 },
  pending: { fontSize: 13, background: '#eef2ff', padding: '8px 10px', borderRadius: 12 },
  walletPanel: {
    border: '1px dashed #d1d5db',
    borderRadius: 16,
    padding: '10px 12px',
    background: '#fafafa',
  },
  toggles: { display: 'grid', gridTemplateColumns: '1fr 1fr', gap: '2px 12px', fontSize: 12, marginTop: 6 },
  walletLog: { fontSize: 11, color: '#555', margin: '6px 0 0', wordBreak: 'break-word' },
} as const
