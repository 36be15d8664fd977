import type { Pair, Token } from '../../src/exports/index.js'
import { sideOf } from './records.js'
import { ErrorView } from './ui.js'

type ListQuery<item> = {
  data: item[] | undefined
  error: { name: string; shortMessage?: string; message: string } | null
  isPending: boolean
  fetchStatus: string
}

const table = { borderCollapse: 'collapse', fontSize: 14 } as const

/** The states of a token list query (loading, error, empty) and its table. */
export function TokenList({ tokens }: { tokens: ListQuery<Token> }) {
  return (
    <>
      {tokens.isPending && tokens.fetchStatus === 'fetching' && <p>Loading the tokens…</p>}
      <ErrorView error={tokens.error} />
      {tokens.data?.length === 0 && <p>No tokens</p>}
      {!!tokens.data?.length && (
        <table style={table}>
          <thead>
            <tr>
              <th align="left">Symbol</th>
              <th align="left">Name</th>
              <th align="right">Decimals</th>
              <th align="left">Address</th>
              <th />
            </tr>
          </thead>
          <tbody>
            {tokens.data.map((token) => (
              <tr key={token.address} data-testid={`token-${token.symbol}`}>
                <td>{token.symbol}</td>
                <td>{token.name ?? ''}</td>
                <td align="right" data-testid={`decimals-${token.symbol}`}>
                  {token.decimals ?? '?'}
                </td>
                <td>
                  <code style={{ fontSize: 11 }}>{token.address}</code>
                </td>
                <td>{token.blacklisted ? '⚠ blacklisted' : ''}</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </>
  )
}

/** The states of a pair list query (loading, error, empty) and its table: tokens, reserves, fee. */
export function PairList({ pairs }: { pairs: ListQuery<Pair> }) {
  return (
    <>
      {pairs.isPending && pairs.fetchStatus === 'fetching' && <p>Loading the pairs…</p>}
      <ErrorView error={pairs.error} />
      {pairs.data?.length === 0 && <p>No pairs</p>}
      {!!pairs.data?.length && (
        <table style={table}>
          <thead>
            <tr>
              <th align="left">Pair</th>
              <th align="right">Reserve 0</th>
              <th align="right">Reserve 1</th>
              <th align="right">Fee</th>
              <th />
            </tr>
          </thead>
          <tbody>
            {pairs.data.map((pair) => {
              const [side0, side1] = [sideOf(pair, 0), sideOf(pair, 1)]
              return (
                <tr key={pair.address} data-testid={`pair-${pair.address}`} title={pair.address}>
                  <td data-testid="pair-symbols">
                    {side0.symbol} / {side1.symbol}
                  </td>
                  <td align="right">
                    {side0.reserve} {side0.symbol}
                  </td>
                  <td align="right">
                    {side1.reserve} {side1.symbol}
                  </td>
                  <td align="right">{typeof pair.feeBps === 'number' ? `${pair.feeBps / 100}%` : '–'}</td>
                  <td>{pair.blacklisted ? '⚠ blacklisted' : ''}</td>
                </tr>
              )
            })}
          </tbody>
        </table>
      )}
    </>
  )
}

/** A `select` keeping the tokens whose symbol contains `needle` (all when it is empty). */
export function bySymbol(needle: string) {
  const text = needle.trim().toLowerCase()
  return (list: Token[]) => (text ? list.filter((token) => token.symbol.toLowerCase().includes(text)) : list)
}
