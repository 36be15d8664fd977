import { useState, useSyncExternalStore } from 'react'
import type { Address } from 'viem'
import {
  defaultSlippage,
  getMinAmountOut,
  NoRouteError,
  parseAmount,
  QuoteChangedError,
  type Token,
  useExecuteSwap,
  usePendingSwaps,
  useSuggestedSlippage,
  useSwapPreview,
  useSwapRoute,
  useTokenBalances,
  useTokenPrice,
  useTokens,
} from '../src/exports/index.js'
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

  return (
    <section style={styles.card} aria-label="swap widget">
      <header style={{ display: 'flex', justifyContent: 'space-between', alignItems: 'baseline' }}>
        <h3 style={{ margin: 0 }}>Swap</h3>
        <span style={{ display: 'flex', flexDirection: 'column', fontSize: 12 }}>
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
        </span>
      </header>
      <p style={styles.note}>
        Simulated in-memory wallet (no extension, no real chain), account {account.slice(0, 10)}…
      </p>
      {wallet.requests.length > 0 && (
        <p data-testid="wallet-requests" style={styles.walletLog}>
          Wallet asked:{' '}
          {wallet.requests
            .slice(-8)
            .map(({ method, answer }) => `${method} (${answer})`)
            .join(' · ')}
        </p>
      )}
      <ErrorView error={tokensError} />
      <RateLimitBanner />
      {pending.pendingSwaps.map(({ record, status }) => (
        <div key={record.id} role="status" aria-label="interrupted swap" style={styles.pending}>
          A swap of {amountOf(record.amountIn, record.token0)} {symbolOf(record.token0)} →{' '}
          {symbolOf(record.token1)} was interrupted ({status}).{' '}
          {status === 'resumable' && (
            // The floor the user confirms now, shown on the button: a stored record cannot set it,
            // and the output goes to the connected account (no `to`), whatever the record says.
            <button
              type="button"
              onClick={() => pending.resume(record, { minAmountOut: BigInt(record.minAmountOut) })}
            >
              Finish the swap: at least {amountOf(record.minAmountOut, record.token1)}{' '}
              {symbolOf(record.token1)} to you
            </button>
          )}{' '}
          <button type="button" onClick={() => pending.dismiss(record)}>
            Dismiss
          </button>
        </div>
      ))}
      {pending.resumeState.data?.resumed === 'swapped' && (
        <p data-testid="resumed">The interrupted swap went through.</p>
      )}
      {pending.resumeState.data?.resumed === 'settled' && (
        <p>The interrupted swap had already ended ({pending.resumeState.data.status}).</p>
      )}
      {pending.resumeState.data?.resumed === 'nothing' && (
        <p>Nothing was sent ({pending.resumeState.data.status}).</p>
      )}
      <ErrorView error={pending.resumeState.error} />

      <div style={styles.row}>
        <TokenPicker label="From" tokens={tokens} value={token0} onChange={setToken0} />
        <input
          aria-label="amount"
          inputMode="decimal"
          placeholder="0.0"
          value={amount}
          onChange={(event) => setAmount(event.target.value)}
          style={styles.amount}
        />
      </div>
      <p style={styles.sub} data-testid="balance0">
        {usd(amountIn, decimals0, price0.data)}
        {balanceLine(token0)}
      </p>

      <div style={styles.row}>
        <TokenPicker label="To" tokens={tokens} value={token1} onChange={setToken1} />
        <output
          aria-label="amount out"
          style={{ ...styles.amount, opacity: route.isPlaceholderData ? 0.5 : 1 }}
        >
          {amountOut !== undefined && decimals1 !== undefined ? formatAmount(amountOut, decimals1) : '–'}
        </output>
      </div>
      <p style={styles.sub} data-testid="balance1">
        {usd(amountOut, decimals1, price1.data)}
        {balanceLine(token1)}
      </p>

      {route.error instanceof NoRouteError && <p role="alert">No route between these tokens.</p>}
      {route.error && !(route.error instanceof NoRouteError) && <ErrorView error={route.error} />}
      {route.data && (
        <dl style={styles.details}>
          <dt>Route</dt>
          <dd data-testid="route">
            {route.data.path.map(symbolOf).join(' → ')} ({route.data.path.length - 1} hop
            {route.data.path.length === 2 ? '' : 's'})
          </dd>
          <dt>Slippage</dt>
          <dd data-testid="slippage">
            {percent(slippage)}
            {chosenSlippage === undefined ? '' : ' (suggested)'}
          </dd>
          <dt>Suggested</dt>
          <dd data-testid="suggested-slippage">
            {percent(suggested.slippage)}{' '}
            {suggested.basis === 'quotes'
              ? `(measured: ${suggested.samples} quotes, largest move ${percent(suggested.largestMove ?? 0, 3)})`
              : '(default: fewer than two quotes)'}
            {suggested.capped ? ' (capped at your maximum: the swap may fail its floor)' : ''}{' '}
            <button
              type="button"
              onClick={() => setSlippage(suggested.slippage)}
              disabled={suggested.slippage === slippage}
            >
              Use suggested
            </button>
          </dd>
          <dt>Minimum received ({percent(slippage)} slippage)</dt>
          <dd data-testid="min-received">
            {minReceived !== undefined && decimals1 !== undefined
              ? `${formatAmount(minReceived, decimals1)} ${token1?.symbol}`
              : ''}
          </dd>
          <dt>Price impact</dt>
          <dd data-testid="price-impact" style={{ color: impactColors[p?.priceImpact?.warning ?? 'none'] }}>
            {p?.priceImpact ? `${(p.priceImpact.value * 100).toFixed(2)}%` : '–'}
            {p?.priceImpact?.warning === 'high' ? ' (high)' : ''}
            {p?.priceImpact?.warning === 'blocking' ? ' (too high to swap)' : ''}
          </dd>
          <dt>Network fee</dt>
          <dd data-testid="network-fee">
            {p?.networkFee ? `≈ ${formatAmount(p.networkFee.wei, 18, 8)} ETH` : '–'}
            {p ? ` · ${p.steps.join(' → ')}` : ''}
          </dd>
          <dt>Quote</dt>
          <dd data-testid="quote-age">
            {route.isPlaceholderData || route.isDebouncing
              ? 'updating…'
              : route.quotedAt
                ? `${Math.max(0, Math.round((now - route.quotedAt) / 1000))} s old${route.isFresh ? '' : ' (stale)'}`
                : ''}{' '}
            <button type="button" onClick={() => route.refetch()} disabled={route.isFetching}>
              Refresh
            </button>
          </dd>
        </dl>
      )}

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

      {swap.error instanceof QuoteChangedError && (
        <p role="alert" data-testid="quote-changed">
          The quote changed since you saw it: now{' '}
          {decimals1 !== undefined ? formatAmount(swap.error.newQuote.estimateAmount, decimals1) : ''}{' '}
          {token1?.symbol}.{' '}
          <button type="button" onClick={() => execute((swap.error as QuoteChangedError).newQuote)}>
            Accept the new quote
          </button>
        </p>
      )}
      {swap.step && (
        <ol aria-label="swap steps" style={styles.steps}>
          <li>Quote: {swap.step.swapInfo ? 'fresh quote fetched' : 'fetching…'}</li>
          {swap.isPending && <li data-testid="current-action">Now: {swap.step.action}</li>}
          {swap.step.mode === 'batch' && (
            <li data-testid="batch-step">
              Batch (approve and swap, one signature): {swap.step.batchId ?? swap.step.action}
              {swap.step.receipt ? ' (confirmed)' : ''}
            </li>
          )}
          {swap.step.mode !== 'batch' && swap.step.swapInfo?.approvalAddress && (
            <li data-testid="approval-step">
              Approval:{' '}
              {swap.step.approvalHash
                ? `${swap.step.approvalHash} ${swap.step.action === 'waiting-for-approval' ? '(confirming…)' : '(confirmed)'}`
                : swap.step.status === 'approving'
                  ? swap.step.action
                  : 'allowance already sufficient'}
            </li>
          )}
          {swap.step.mode !== 'batch' &&
            (swap.step.status === 'swapping' || swap.step.status === 'success') && (
              <li data-testid="swap-step">
                Swap:{' '}
                {swap.step.swapHash
                  ? `${swap.step.swapHash} ${swap.step.receipt ? '(confirmed)' : '(confirming…)'}`
                  : swap.step.action}
              </li>
            )}
        </ol>
      )}
      {swap.status === 'success' && swap.data && (
        <p data-testid="swap-success">
          {swap.data.realized ? (
            <>
              Swap complete: received{' '}
              {decimals1 !== undefined ? formatAmount(swap.data.realized.amountOut, decimals1) : ''}{' '}
              {token1?.symbol}.
            </>
          ) : (
            <>Swap complete (the node could not measure the amount received).</>
          )}
          <br />
          <span data-testid="swap-mode">
            {swap.data.mode === 'batch'
              ? `Sent as one batch of ${swap.data.transactionHashes.length} calls`
              : `Sent as ${swap.data.transactionHashes.length} transaction${swap.data.transactionHashes.length === 1 ? '' : 's'}`}{' '}
            ({swap.data.mode}), bounds enforced{' '}
            {swap.data.floorEnforcement === 'onchain' ? 'on chain' : 'in simulation'}.
          </span>
          <br />
          <span data-testid="allowance-left">
            Allowance left:{' '}
            {swap.data.leftoverAllowance
              ? `${decimals0 !== undefined ? formatAmount(swap.data.leftoverAllowance.amount, decimals0) : String(swap.data.leftoverAllowance.amount)} ${token0?.symbol} to ${swap.data.leftoverAllowance.spender.slice(0, 10)}…`
              : 'none'}
          </span>
        </p>
      )}
      {!(swap.error instanceof QuoteChangedError) && <ErrorView error={swap.error} />}
      {swap.status === 'error' || swap.status === 'success' ? (
        <button type="button" onClick={swap.reset}>
          New swap
        </button>
      ) : null}
    </section>
  )
}

/** A fraction as a percentage: 0.005 → '0.50%'. */
const percent = (value: number, digits = 2) => `${(value * 100).toFixed(digits)}%`

const impactColors = { none: 'inherit', high: '#a15c00', blocking: '#b3261e' } as const

/** A token select with a search box: type a symbol to narrow the list. */
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
    <span style={{ display: 'inline-flex', flexDirection: 'column', gap: 4 }}>
      <input
        aria-label={`${label} token search`}
        placeholder="Search symbol"
        value={search}
        onChange={(event) => setSearch(event.target.value)}
        style={{ width: 110 }}
      />
      <select
        aria-label={`${label} token`}
        value={value?.address ?? ''}
        onChange={(event) => onChange(tokens.find((token) => token.address === event.target.value))}
      >
        <option value="" disabled>
          {label}
        </option>
        {shown.map((token) => (
          <option key={token.address} value={token.address}>
            {token.symbol}
          </option>
        ))}
      </select>
    </span>
  )
}

const styles = {
  card: {
    fontFamily: 'system-ui, sans-serif',
    border: '1px solid #ddd',
    borderRadius: 16,
    padding: 20,
    width: 460,
    display: 'flex',
    flexDirection: 'column',
    gap: 6,
  },
  note: {
    fontSize: 12,
    color: '#6b5900',
    background: '#fff8d6',
    padding: '4px 8px',
    borderRadius: 6,
    margin: 0,
  },
  row: { display: 'flex', gap: 8, alignItems: 'flex-end' },
  amount: { flex: 1, fontSize: 24, padding: 6, minHeight: 32, border: '1px solid #ccc', borderRadius: 8 },
  sub: { fontSize: 12, color: '#666', margin: 0, minHeight: 16 },
  details: {
    display: 'grid',
    gridTemplateColumns: 'auto 1fr',
    gap: '2px 12px',
    fontSize: 13,
    margin: '8px 0',
  },
  swap: {
    fontSize: 18,
    padding: 10,
    borderRadius: 10,
    border: 'none',
    background: '#2b59ff',
    color: 'white',
  },
  steps: { fontSize: 12, wordBreak: 'break-all', paddingLeft: 18 },
  blocked: { background: '#b3261e' },
  pending: { fontSize: 13, background: '#eef3ff', padding: '6px 8px', borderRadius: 8 },
  walletLog: { fontSize: 11, color: '#555', margin: 0, wordBreak: 'break-word' },
} as const
