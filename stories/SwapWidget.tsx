import { useEffect, useMemo, useState, useSyncExternalStore } from 'react'
import { type Address, parseUnits } from 'viem'
import { useExecuteSwap } from '../src/exports/execute.js'
import {
  getMinAmountOut,
  NoRouteError,
  type Token,
  useSwapRoute,
  useTokenPrice,
  useTokens,
} from '../src/exports/index.js'
import type { SimulatedWallet } from './support/simulatedWallet.js'
import { ErrorView, formatAmount, RateLimitBanner, tokenDecimals, useNow } from './support/ui.js'

export type SwapWidgetProps = {
  /** Symbols preselected in the pickers. */
  defaultToken0?: string
  defaultToken1?: string
  defaultAmount?: string
  /** Accepted slippage, 0 to 1. */
  slippage?: number
  /** The simulated wallet of the story: shown, and switchable to rejecting. */
  wallet: SimulatedWallet
}

/**
 * A complete swap widget, built only from the public hooks of token-swap-hooks:
 * token pickers (useTokens), a decimals-aware amount, the live route
 * (useSwapRoute), USD values (useTokenPrice), the minimum received, the
 * quote's age, and approve → swap (useExecuteSwap).
 */
export function SwapWidget({
  defaultToken0 = 'USDC',
  defaultToken1 = 'WETH',
  defaultAmount = '',
  slippage = 0.005,
  wallet,
}: SwapWidgetProps) {
  const { data: tokens = [], error: tokensError } = useTokens()
  const bySymbol = (symbol: string) => tokens.find((token) => token.symbol === symbol)
  const [token0, setToken0] = useState<Token>()
  const [token1, setToken1] = useState<Token>()
  useEffect(() => {
    if (!token0 && tokens.length) setToken0(bySymbol(defaultToken0))
    if (!token1 && tokens.length) setToken1(bySymbol(defaultToken1))
  })
  const [amount, setAmount] = useState(defaultAmount)
  const decimals0 = tokenDecimals(token0)
  const decimals1 = tokenDecimals(token1)
  const amountIn = useMemo(() => {
    if (decimals0 === undefined || !/^\d*\.?\d*$/.test(amount) || amount === '' || amount === '.')
      return undefined
    try {
      return parseUnits(amount, decimals0)
    } catch {
      return undefined
    }
  }, [amount, decimals0])

  const route = useSwapRoute({ token0: token0?.address, token1: token1?.address, amountIn })
  const price0 = useTokenPrice({ address: token0?.address })
  const price1 = useTokenPrice({ address: token1?.address })
  const swap = useExecuteSwap()
  const now = useNow(route.quotedAt !== undefined)
  // The simulated wallet's balances and settings, re-read whenever it changes.
  useSyncExternalStore(wallet.subscribe, () => wallet.version)
  const rejecting = wallet.rejecting

  const amountOut = route.data?.amountOut
  const minReceived = amountOut !== undefined ? getMinAmountOut(amountOut, slippage) : undefined
  const usd = (value: bigint | undefined, decimals: number | undefined, price: number | undefined) =>
    value !== undefined && decimals !== undefined && price !== undefined
      ? `≈ $${(Number(formatAmount(value, decimals, 8)) * price).toLocaleString('en-US', { maximumFractionDigits: 2 })}`
      : ''
  // TanStack's status, refined by the flow's own while it runs: quoting → approving → swapping.
  const stage = swap.isPending ? (swap.step?.status ?? 'quoting') : swap.status
  const busy = swap.isPending
  const symbolOf = (address: string) =>
    tokens.find((token) => token.address === address)?.symbol ?? address.slice(0, 8)

  return (
    <section style={styles.card} aria-label="swap widget">
      <header style={{ display: 'flex', justifyContent: 'space-between', alignItems: 'baseline' }}>
        <h3 style={{ margin: 0 }}>Swap</h3>
        <label style={{ fontSize: 12 }}>
          <input
            type="checkbox"
            checked={rejecting}
            onChange={(event) => wallet.setRejecting(event.target.checked)}
          />{' '}
          Wallet rejects signatures
        </label>
      </header>
      <p style={styles.note}>
        Simulated in-memory wallet (no extension, no real chain), account{' '}
        {wallet.walletClient.account.address.slice(0, 10)}…
      </p>
      <ErrorView error={tokensError} />
      <RateLimitBanner />

      <div style={styles.row}>
        <TokenPicker label="From" tokens={tokens} value={token0} onChange={setToken0} />
        <input
          aria-label="amount"
          inputMode="decimal"
          placeholder="0.0"
          value={amount}
          onChange={(event) => setAmount(event.target.value.replace(',', '.'))}
          style={styles.amount}
        />
      </div>
      <p style={styles.sub}>
        {usd(amountIn, decimals0, price0.data)}
        {token0 && decimals0 !== undefined
          ? ` · balance ${formatAmount(wallet.balanceOf(token0.address), decimals0)} ${token0.symbol}`
          : ''}
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
      <p style={styles.sub}>
        {usd(amountOut, decimals1, price1.data)}
        {token1 && decimals1 !== undefined
          ? ` · balance ${formatAmount(wallet.balanceOf(token1.address), decimals1)} ${token1.symbol}`
          : ''}
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
          <dt>Minimum received ({(slippage * 100).toFixed(2)}% slippage)</dt>
          <dd data-testid="min-received">
            {minReceived !== undefined && decimals1 !== undefined
              ? `${formatAmount(minReceived, decimals1)} ${token1?.symbol}`
              : ''}
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
        style={styles.swap}
        disabled={!route.data || route.isPlaceholderData || !amountIn || !token0 || !token1 || busy}
        onClick={() =>
          token0 &&
          token1 &&
          amountIn &&
          swap.execute({
            token0: token0.address as Address,
            token1: token1.address as Address,
            amountIn,
            slippage,
            acceptedQuote: route.data,
          })
        }
      >
        {stage === 'quoting'
          ? 'Getting a fresh quote…'
          : stage === 'approving'
            ? `Approving ${token0?.symbol}…`
            : stage === 'swapping'
              ? 'Swapping…'
              : 'Swap'}
      </button>

      {swap.step && (
        <ol aria-label="swap steps" style={styles.steps}>
          <li>Quote: {swap.step.swapInfo ? 'fresh quote fetched' : 'fetching…'}</li>
          {swap.step.swapInfo?.approvalAddress && (
            <li data-testid="approval-step">
              Approval:{' '}
              {swap.step.approvalHash
                ? `${swap.step.approvalHash} ${swap.step.action === 'waiting-for-approval' ? '(confirming…)' : '(confirmed)'}`
                : swap.step.status === 'approving'
                  ? swap.step.action
                  : 'allowance already sufficient'}
            </li>
          )}
          {(swap.step.status === 'swapping' || swap.step.status === 'success') && (
            <li data-testid="swap-step">
              Swap:{' '}
              {swap.step.swapHash
                ? `${swap.step.swapHash} ${swap.step.receipt ? '(confirmed)' : '(confirming…)'}`
                : swap.step.action}
            </li>
          )}
        </ol>
      )}
      {swap.status === 'success' && <p data-testid="swap-success">Swap complete.</p>}
      <ErrorView error={swap.error} />
      {swap.status === 'error' || swap.status === 'success' ? (
        <button type="button" onClick={swap.reset}>
          New swap
        </button>
      ) : null}
    </section>
  )
}

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
} as const
