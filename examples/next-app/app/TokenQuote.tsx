'use client'

import { useEffect, useState } from 'react'
import { NoRouteError, parseAmount, useSwapRoute, useTokens } from 'token-swap-hooks'
import { type Address, formatUnits } from 'viem'

/**
 * The token list (already in the server HTML: useTokens() reads the hydrated entry, no request)
 * and a quote for a typed amount between two picked tokens.
 */
export function TokenQuote() {
  const tokens = useTokens()
  const [token0, setToken0] = useState<Address>()
  const [token1, setToken1] = useState<Address>()
  const [typed, setTyped] = useState('')
  const [hydrated, setHydrated] = useState(false)
  useEffect(() => setHydrated(true), [])

  const from = tokens.data?.find((token) => token.address === token0)
  const to = tokens.data?.find((token) => token.address === token1)
  const amountIn = parseAmount(typed, from?.decimals)
  const route = useSwapRoute({ token0, token1, amountIn })

  return (
    <div data-hydrated={hydrated}>
      {tokens.error && <p role="alert">{tokens.error.shortMessage}</p>}
      <ul data-testid="token-list">
        {tokens.data?.map((token) => (
          <li key={token.address} data-address={token.address}>
            <strong>{token.symbol}</strong> {token.name} ({token.decimals ?? '?'} decimals)
          </li>
        ))}
      </ul>

      <h2>Quote</h2>
      <select
        aria-label="From"
        data-testid="token-from"
        value={token0 ?? ''}
        onChange={(event) => setToken0((event.target.value || undefined) as Address | undefined)}
      >
        <option value="">From…</option>
        {tokens.data?.map((token) => (
          <option key={token.address} value={token.address}>
            {token.symbol}
          </option>
        ))}
      </select>
      <select
        aria-label="To"
        data-testid="token-to"
        value={token1 ?? ''}
        onChange={(event) => setToken1((event.target.value || undefined) as Address | undefined)}
      >
        <option value="">To…</option>
        {tokens.data?.map((token) => (
          <option key={token.address} value={token.address}>
            {token.symbol}
          </option>
        ))}
      </select>
      <input
        aria-label="Amount"
        data-testid="amount"
        inputMode="decimal"
        placeholder="0.0"
        value={typed}
        onChange={(event) => setTyped(event.target.value)}
      />
      <p data-testid="quote" style={{ opacity: route.isPlaceholderData || route.isDebouncing ? 0.5 : 1 }}>
        {route.error instanceof NoRouteError ? (
          'No route between these tokens'
        ) : route.error ? (
          route.error.shortMessage
        ) : route.data && to?.decimals !== undefined ? (
          <>
            <output data-testid="amount-out">{formatUnits(route.data.amountOut, to.decimals)}</output>{' '}
            {to.symbol}
          </>
        ) : (
          ''
        )}
      </p>
    </div>
  )
}
