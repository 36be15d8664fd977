import type { Meta, StoryObj } from '@storybook/react-vite'
import { useState } from 'react'
import { expect, userEvent, waitFor, within } from 'storybook/test'
import { type TokenData, useTokensData } from '../src/exports/index.js'
import { emptyListStory, loadingStory, rateLimitedStory, serverErrorStory } from './support/commonStories.js'
import { market, storyService, withMockService } from './support/storyContext.js'
import { Card, ErrorView, QueryState, RateLimitBanner } from './support/ui.js'

type Args = { search: string }

/**
 * The figures a table shows, and how to find each in a record: the spec does not name the fields,
 * so the first key matching the pattern is read, whatever its spelling (`liquidity_usd`,
 * `liquidityUsd`…), and the column is headed by the name the service used.
 */
const columns = [
  { label: 'price', pattern: /price/i, format: 'usd' },
  { label: 'liquidity', pattern: /liquidity/i, format: 'compactUsd' },
  { label: '24h volume', pattern: /volume/i, format: 'compactUsd' },
  { label: 'market cap', pattern: /market_?cap|mcap/i, format: 'compactUsd' },
  { label: 'holders', pattern: /holders/i, format: 'integer' },
] as const

type Column = (typeof columns)[number]

/** A number sent as a number or a numeric string; undefined otherwise. */
function toNumber(value: unknown): number | undefined {
  const number = typeof value === 'number' ? value : typeof value === 'string' ? Number(value) : Number.NaN
  return typeof value === 'string' && value.trim() === ''
    ? undefined
    : Number.isFinite(number)
      ? number
      : undefined
}

function format(value: number, kind: Column['format']): string {
  if (kind === 'integer') return new Intl.NumberFormat('en-US', { maximumFractionDigits: 0 }).format(value)
  return new Intl.NumberFormat('en-US', {
    style: 'currency',
    currency: 'USD',
    ...(kind === 'compactUsd'
      ? { notation: 'compact', maximumFractionDigits: 2 }
      : { minimumFractionDigits: 2, maximumFractionDigits: value !== 0 && Math.abs(value) < 1 ? 6 : 2 }),
  }).format(value)
}

/** The key a column reads in these records (the first that matches), or undefined when none has it. */
function keyOf(records: TokenData[], column: Column): string | undefined {
  for (const record of records)
    for (const key of Object.keys(record))
      if (column.pattern.test(key) && toNumber(record[key]) !== undefined) return key
  return undefined
}

/** A market overview: one row per token, the service's figures as it names them. */
function TokensDataDemo({ search: initialSearch }: Args) {
  const [search, setSearch] = useState(initialSearch)
  const needle = search.trim().toLowerCase()
  const details = useTokensData({
    query: {
      select: (records) =>
        needle ? records.filter((record) => record.symbol?.toLowerCase().includes(needle)) : records,
    },
  })
  const records = details.data ?? []
  const keys = columns.map((column) => keyOf(records, column))
  const shown = new Set(['address', 'symbol', ...keys])
  const others = [...new Set(records.flatMap((record) => Object.keys(record)))].filter(
    (key) => !shown.has(key),
  )

  return (
    <Card title="useTokensData">
      <label>
        Search by symbol{' '}
        <input aria-label="search" value={search} onChange={(event) => setSearch(event.target.value)} />
      </label>
      <RateLimitBanner />
      {details.isPending && details.fetchStatus === 'fetching' && <p>Loading the tokens data…</p>}
      <ErrorView error={details.error} />
      {details.data && details.data.length === 0 && <p>No tokens</p>}
      {details.data && details.data.length > 0 && (
        <>
          <table style={{ borderCollapse: 'collapse', fontSize: 13 }}>
            <thead>
              <tr>
                <th align="left">symbol</th>
                {columns.map((column, index) => (
                  <th
                    key={column.label}
                    align="right"
                    title={column.label}
                    data-testid={`column-${column.label}`}
                  >
                    {keys[index] ?? column.label}
                  </th>
                ))}
              </tr>
            </thead>
            <tbody>
              {details.data.map((record, row) => (
                <tr key={record.address ?? record.symbol ?? row} data-testid={`row-${record.symbol ?? row}`}>
                  <td>{record.symbol ?? record.address ?? '?'}</td>
                  {columns.map((column, index) => {
                    const key = keys[index]
                    const value = key === undefined ? undefined : toNumber(record[key])
                    return (
                      <td
                        key={column.label}
                        align="right"
                        data-testid={`${column.label}-${record.symbol ?? row}`}
                      >
                        {value === undefined ? '–' : format(value, column.format)}
                      </td>
                    )
                  })}
                </tr>
              ))}
            </tbody>
          </table>
          {others.length > 0 && (
            <p style={{ fontSize: 12 }} data-testid="other-fields">
              Other fields, kept as sent: {others.join(', ')}
            </p>
          )}
        </>
      )}
      <QueryState status={details.status} fetchStatus={details.fetchStatus} />
    </Card>
  )
}

const meta = {
  title: 'Hooks/useTokensData',
  component: TokensDataDemo,
  args: { search: '' },
  argTypes: {
    search: { control: 'text', description: 'Initial text of the search box (applied with `select`)' },
  },
  parameters: {
    docs: {
      // Each story in its own iframe on the docs page, so that each gets its own mock service.
      story: { inline: false, height: '500px' },
      description: {
        component: `
Detailed data per token (liquidity, volume, token economics) from the legacy \`/get_tokens_data\`
endpoint, cached for 5 minutes. The spec does not name the fields, so records are kept as sent
(\`TokenData\`: \`address\` and \`symbol\` are checked only when present, every other field is
\`unknown\`); this demo finds each figure by a pattern on the key and heads the column with the
service's own name.

\`\`\`tsx
import { useTokensData } from 'token-swap-hooks'

const details = useTokensData()        // liquidity, volume, token economics, as the service names them
\`\`\``,
      },
    },
  },
} satisfies Meta<typeof TokensDataDemo>

export default meta
type Story = StoryObj<typeof meta>

const listed = market.tokens.filter((token) => !token.blacklisted)

/** One row per listed token, headed by the service's field names. */
export const Data: Story = {
  play: async ({ canvasElement }) => {
    const canvas = within(canvasElement)
    await canvas.findByTestId('row-WETH', {}, { timeout: 5000 })
    await expect(canvas.getAllByTestId(/^row-/)).toHaveLength(listed.length)
    await expect(canvas.getByTestId('column-price')).toHaveTextContent('price_usd')
    await expect(canvas.getByTestId('column-liquidity')).toHaveTextContent('liquidity_usd')
    await expect(canvas.getByTestId('column-24h volume')).toHaveTextContent('volume_24h_usd')
    await expect(canvas.getByTestId('column-market cap')).toHaveTextContent('market_cap_usd')
    await expect(canvas.getByTestId('column-holders')).toHaveTextContent('holders')
    const weth = market.getToken('WETH')
    if (!weth) throw new Error('The mock market has no WETH.')
    await expect(canvas.getByTestId('price-WETH')).toHaveTextContent('$3,000.00')
    await expect(canvas.getByTestId('liquidity-WETH')).toHaveTextContent(
      format(weth.liquidityUsd, 'compactUsd'),
    )
    await expect(canvas.getByTestId('24h volume-WETH')).toHaveTextContent(
      format(weth.volume24hUsd, 'compactUsd'),
    )
    await expect(canvas.getByTestId('market cap-WETH')).toHaveTextContent(
      format(weth.marketCapUsd, 'compactUsd'),
    )
    await expect(canvas.getByTestId('holders-WETH')).toHaveTextContent('1,150,000')
    await expect(canvas.getByTestId('other-fields')).toHaveTextContent('total_supply')
    await expect(storyService().count('/get_tokens_data')).toBe(1)
  },
}

/** Another service's spelling (camelCase, a `{ data: [...] }` envelope, numeric strings): read all the same. */
export const OtherFieldNames: Story = {
  parameters: {
    mockService: withMockService({
      setup: (service) =>
        service.fail({
          status: 200,
          times: 1,
          endpoint: '/get_tokens_data',
          body: {
            data: [
              {
                symbol: 'AAA',
                priceUsd: '2.5',
                liquidityUsd: 1_500_000,
                volume24h: '250000',
                marketCap: 9e9,
              },
              { symbol: 'BBB', priceUsd: 0.0042, tvl: 10 },
            ],
          },
        }),
    }),
  },
  play: async ({ canvasElement }) => {
    const canvas = within(canvasElement)
    await canvas.findByTestId('row-AAA', {}, { timeout: 5000 })
    await expect(canvas.getByTestId('column-liquidity')).toHaveTextContent('liquidityUsd')
    await expect(canvas.getByTestId('column-24h volume')).toHaveTextContent('volume24h')
    await expect(canvas.getByTestId('price-AAA')).toHaveTextContent('$2.50')
    await expect(canvas.getByTestId('liquidity-AAA')).toHaveTextContent('$1.5M')
    await expect(canvas.getByTestId('market cap-AAA')).toHaveTextContent('$9B')
    await expect(canvas.getByTestId('price-BBB')).toHaveTextContent('$0.0042')
    await expect(canvas.getByTestId('liquidity-BBB')).toHaveTextContent('–')
    await expect(canvas.getByTestId('column-holders')).toHaveTextContent('holders')
    await expect(canvas.getByTestId('other-fields')).toHaveTextContent('tvl')
  },
}

/** Typing in the search box narrows the rows with `select`: no new request. */
export const Filtered: Story = {
  play: async ({ canvasElement }) => {
    const canvas = within(canvasElement)
    await canvas.findByTestId('row-WETH', {}, { timeout: 5000 })
    await userEvent.type(canvas.getByLabelText('search'), 'eth', { delay: 30 })
    await waitFor(() => expect(canvas.queryByTestId('row-USDC')).toBeNull())
    const symbols = canvas.getAllByTestId(/^row-/).map((row) => row.dataset.testid?.slice('row-'.length))
    await expect(symbols).toEqual(['ETH', 'WETH'])
    await expect(storyService().count('/get_tokens_data')).toBe(1)
  },
}

/** The service answers an empty list. */
export const Empty: Story = emptyListStory('/get_tokens_data', 'No tokens')

/** A slow service: the loading state. */
export const Loading: Story = loadingStory('Loading the tokens data…')

/** A 429 with Retry-After: 2: the whole client pauses (visibly), then the query retries and recovers. */
export const RateLimited: Story = rateLimitedStory('/get_tokens_data', async (canvas) => {
  await expect(await canvas.findByTestId('row-WETH', {}, { timeout: 8000 })).toBeVisible()
})

/** The service keeps failing: after three tries the typed HttpError is shown. */
export const ServerError: Story = serverErrorStory('/get_tokens_data', 'tokensData', 500)
