import { useId, useState } from 'react'
import {
  ChainMismatchError,
  ExecuteSwapError,
  InvalidParameterError,
  NoRouteError,
  parseAmount,
  QuoteBelowMinimumError,
  RateLimitError,
  type Token,
  UnsafeSwapOutcomeError,
  UntrustedAddressError,
  UserRejectedError,
  useExecuteSwap,
  useSwapRoute,
  useTokenPrice,
  useTokens,
} from 'token-swap-hooks'
import { type Address, formatUnits } from 'viem'

/** 1%: the floor is the accepted quote less this. */
const slippage = 0.01

const usd = new Intl.NumberFormat('en-US', { style: 'currency', currency: 'USD' })

export function SwapPage({ chainId, canSwap }: { chainId: number; canSwap: boolean }) {
  const tokens = useTokens()
  const [token0, setToken0] = useState<Address>()
  const [token1, setToken1] = useState<Address>()
  const [typed, setTyped] = useState('')

  const from = tokens.data?.find((token) => token.address === token0)
  const to = tokens.data?.find((token) => token.address === token1)
  // Never throws: '', '.', 'abc' or too many decimals are `undefined`, and the quote waits.
  const amountIn = parseAmount(typed, from?.decimals)

  const route = useSwapRoute({ token0, token1, amountIn })
  const price = useTokenPrice({ address: token0 })
  const swap = useExecuteSwap()

  const updating = route.isPlaceholderData || route.isDebouncing
  const { stage } = swap
  const canExecute =
    canSwap && !!token0 && !!token1 && !!amountIn && !!route.data && !updating && !swap.isPending

  return (
    <section>
      {tokens.error && <p role="alert">Tokens: {tokens.error.shortMessage}</p>}
      <TokenPicker label="From" tokens={tokens.data} value={token0} onChange={setToken0} />
      <TokenPicker label="To" tokens={tokens.data} value={token1} onChange={setToken1} />

      <label>
        Amount{' '}
        <input
          data-testid="amount"
          inputMode="decimal"
          placeholder="0.0"
          value={typed}
          onChange={(event) => setTyped(event.target.value)}
        />
      </label>
      <p data-testid="amount-state">
        {typed === ''
          ? 'Enter an amount'
          : amountIn === undefined
            ? `Not an amount${from?.decimals !== undefined ? ` (at most ${from.decimals} decimals)` : ''}`
            : `${formatUnits(amountIn, from?.decimals ?? 0)} ${from?.symbol ?? ''}`}
      </p>
      <p data-testid="usd-value">
        {amountIn !== undefined && from?.decimals !== undefined && price.data !== undefined
          ? `≈ ${usd.format(Number(formatUnits(amountIn, from.decimals)) * price.data)}`
          : price.error
            ? `No USD price: ${price.error.shortMessage}`
            : ''}
      </p>

      <p data-testid="quote" style={{ opacity: updating ? 0.5 : 1 }}>
        {route.error ? (
          <RouteError error={route.error} />
        ) : route.data && to?.decimals !== undefined ? (
          <>
            You receive{' '}
            <output data-testid="amount-out">{formatUnits(route.data.amountOut, to.decimals)}</output>{' '}
            {to.symbol} via {route.data.path.length - 1} {route.data.path.length === 2 ? 'hop' : 'hops'}
          </>
        ) : route.isFetching ? (
          'Quoting…'
        ) : (
          ''
        )}
        {updating && route.data && <span data-testid="updating"> updating…</span>}
      </p>

      <button
        type="button"
        data-testid="swap"
        disabled={!canExecute}
        onClick={() => {
          if (!token0 || !token1 || !amountIn || !route.data) return
          swap.execute({ token0, token1, amountIn, slippage, acceptedQuote: route.data })
        }}
      >
        {swap.isPending ? `${stage}…` : 'Swap'}
      </button>
      <p>
        Stage: <span data-testid="stage">{stage}</span> (slippage {slippage * 100}%, chain {chainId})
      </p>
      {swap.step?.approvalHash && (
        <p>
          Approval: <code data-testid="approval-hash">{swap.step.approvalHash}</code>
        </p>
      )}
      {swap.step?.swapHash && (
        <p>
          Swap: <code data-testid="swap-hash">{swap.step.swapHash}</code>
        </p>
      )}
      {swap.data && !swap.data.realized && (
        <p data-testid="realized">Swapped (the node could not measure the amounts)</p>
      )}
      {swap.data?.realized && from && to && (
        <p data-testid="realized">
          Spent{' '}
          <output data-testid="realized-in" data-raw={String(swap.data.realized.amountIn)}>
            {formatUnits(swap.data.realized.amountIn, from.decimals ?? 0)}
          </output>{' '}
          {from.symbol}, received{' '}
          <output data-testid="realized-out" data-raw={String(swap.data.realized.amountOut)}>
            {formatUnits(swap.data.realized.amountOut, to.decimals ?? 0)}
          </output>{' '}
          {to.symbol}
        </p>
      )}
      {swap.error && (
        <p role="alert" data-testid="swap-error">
          <SwapErrorMessage error={swap.error} />
        </p>
      )}
    </section>
  )
}

function TokenPicker({
  label,
  tokens,
  value,
  onChange,
}: {
  label: string
  tokens: Token[] | undefined
  value: Address | undefined
  onChange: (address: Address | undefined) => void
}) {
  const id = useId()
  return (
    <p>
      <label htmlFor={id}>{label} </label>
      <select
        id={id}
        data-testid={`token-${label.toLowerCase()}`}
        value={value ?? ''}
        disabled={!tokens}
        onChange={(event) => onChange((event.target.value || undefined) as Address | undefined)}
      >
        <option value="">{tokens ? 'Pick a token' : 'Loading tokens…'}</option>
        {tokens?.map((token) => (
          <option key={token.address} value={token.address}>
            {token.symbol}
            {token.name && token.name !== token.symbol ? ` (${token.name})` : ''}
          </option>
        ))}
      </select>
    </p>
  )
}

function RouteError({ error }: { error: Error }) {
  if (error instanceof NoRouteError) return <span role="alert">No route between these tokens</span>
  if (error instanceof RateLimitError) return <span role="alert">The service is busy, retrying…</span>
  if (error instanceof InvalidParameterError) return <span role="alert">Check {error.parameter}</span>
  return <span role="alert">{'shortMessage' in error ? String(error.shortMessage) : error.message}</span>
}

function SwapErrorMessage({ error }: { error: Error }) {
  const leftover =
    error instanceof ExecuteSwapError && error.leftoverAllowance?.amount
      ? ` An approval of ${error.leftoverAllowance.amount} was left to ${error.leftoverAllowance.spender}.`
      : ''
  if (error instanceof UserRejectedError) return <>Cancelled in the wallet.{leftover}</>
  if (error instanceof QuoteBelowMinimumError) return <>The price moved below your floor: try again.</>
  if (error instanceof ChainMismatchError) return <>Switch your wallet to the right network.</>
  if (error instanceof UntrustedAddressError)
    return <>The service asked to use an address this page does not trust. Nothing was signed.</>
  if (error instanceof UnsafeSwapOutcomeError)
    return (
      <>
        Refused: the swap would {error.violations.map((violation) => violation.type).join(', ')}.{leftover}
      </>
    )
  if (error instanceof InvalidParameterError)
    return (
      <>
        Check {error.parameter}: {error.shortMessage}
      </>
    )
  return (
    <>
      {error.name}: {'shortMessage' in error ? String(error.shortMessage) : error.message}
      {leftover}
    </>
  )
}
