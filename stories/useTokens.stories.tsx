import type { Meta, StoryObj } from '@storybook/react-vite'
import { useState } from 'react'
import { expect, userEvent, waitFor, within } from 'storybook/test'
import { useTokens } from '../src/exports/index.js'
import { loadingStory, rateLimitedStory, serverErrorStory } from './support/commonStories.js'
import { bySymbol, TokenList } from './support/lists.js'
import { market, storyService } from './support/storyContext.js'
import { Card, QueryState, RateLimitBanner } from './support/ui.js'

type Args = { filterByToken?: string[] | undefined; blacklist: boolean; search: string }

/** A token picker's list: the service's tokens, narrowed on the client by a search box (`select`). */
function TokensDemo({ filterByToken, blacklist, search: initialSearch }: Args) {
  const [search, setSearch] = useState(initialSearch)
  const tokens = useTokens({
    filterByToken: filterByToken?.length ? filterByToken : undefined,
    blacklist,
    query: { select: bySymbol(search) },
  })

  return (
    <Card title="useTokens">
      <label>
        Search by symbol{' '}
        <input aria-label="search" value={search} onChange={(event) => setSearch(event.target.value)} />
      </label>
      <RateLimitBanner />
      <TokenList tokens={tokens} />
      <QueryState status={tokens.status} fetchStatus={tokens.fetchStatus} />
    </Card>
  )
}

const meta = {
  title: 'Hooks/useTokens',
  component: TokensDemo,
  args: { filterByToken: undefined, blacklist: false, search: '' },
  argTypes: {
    filterByToken: { control: 'object', description: 'Sent as `filter_by_token` (addresses or symbols)' },
    blacklist: { control: 'boolean', description: 'Include blacklisted tokens' },
    search: { control: 'text', description: 'Initial text of the search box (applied with `select`)' },
  },
  parameters: {
    docs: {
      // Each story in its own iframe on the docs page, so that each gets its own mock service.
      story: { inline: false, height: '480px' },
      description: {
        component: `
The available tokens, from \`/overview/tokens\`, cached for 5 minutes. \`filterByToken\` and
\`blacklist\` are sent as the spec names them (\`filter_by_token\`, \`blacklist\`); \`query.select\`
narrows (or reshapes) the cached list on the client, without a new request. Token records are typed
\`Token\`: \`address\` and \`symbol\` are checked, every other field (\`decimals\`, \`name\`…) is kept as
sent, typed \`unknown\`.

\`\`\`tsx
import { useTokens } from 'token-swap-hooks'

// Lists, cached for 5 minutes; filters use the spec's names on the wire.
const tokens = useTokens({ query: { select: (list) => list.filter((t) => t.symbol !== 'SCAM') } })
\`\`\``,
      },
    },
  },
} satisfies Meta<typeof TokensDemo>

export default meta
type Story = StoryObj<typeof meta>

const listed = market.tokens.filter((token) => !token.blacklisted)

/** Every listed token with its decimals; SCAM (blacklisted) is left out by the service. */
export const Data: Story = {
  play: async ({ canvasElement }) => {
    const canvas = within(canvasElement)
    await expect(await canvas.findByTestId('token-USDC', {}, { timeout: 5000 })).toHaveTextContent('USD Coin')
    await expect(canvas.getAllByTestId(/^token-/)).toHaveLength(listed.length)
    await expect(canvas.getByTestId('decimals-USDC')).toHaveTextContent('6')
    await expect(canvas.getByTestId('decimals-WBTC')).toHaveTextContent('8')
    await expect(canvas.getByTestId('decimals-WETH')).toHaveTextContent('18')
    await expect(canvas.queryByTestId('token-SCAM')).toBeNull()
    await expect(storyService().count('/overview/tokens')).toBe(1)
  },
}

/** `blacklist: true`: SCAM is listed too, flagged. */
export const WithBlacklisted: Story = {
  args: { blacklist: true },
  play: async ({ canvasElement }) => {
    const canvas = within(canvasElement)
    await expect(await canvas.findByTestId('token-SCAM', {}, { timeout: 5000 })).toHaveTextContent(
      '⚠ blacklisted',
    )
    await expect(canvas.getAllByTestId(/^token-/)).toHaveLength(market.tokens.length)
    await expect(canvas.getByTestId('token-USDC')).not.toHaveTextContent('blacklisted')
    const sent = storyService().log.find((entry) => entry.path === '/overview/tokens')
    await expect(sent?.query).toContainEqual(['blacklist', 'true'])
  },
}

/** Typing in the search box narrows the list with `select`: no new request. */
export const Filtered: Story = {
  play: async ({ canvasElement }) => {
    const canvas = within(canvasElement)
    await canvas.findByTestId('token-WETH', {}, { timeout: 5000 })
    await userEvent.type(canvas.getByLabelText('search'), 'us', { delay: 30 })
    await waitFor(() => expect(canvas.queryByTestId('token-WETH')).toBeNull())
    const symbols = canvas.getAllByTestId(/^token-/).map((row) => row.dataset.testid?.slice('token-'.length))
    await expect(symbols).toEqual(['USDC', 'USDT'])
    await userEvent.type(canvas.getByLabelText('search'), 'x')
    await expect(await canvas.findByText('No tokens')).toBeVisible()
    await expect(storyService().count('/overview/tokens')).toBe(1)
  },
}

/** A filter that matches nothing: the service answers an empty list. */
export const Empty: Story = {
  args: { filterByToken: ['NOPE'] },
  play: async ({ canvasElement }) => {
    await expect(await within(canvasElement).findByText('No tokens', {}, { timeout: 5000 })).toBeVisible()
    const sent = storyService().log.find((entry) => entry.path === '/overview/tokens')
    await expect(sent?.query).toContainEqual(['filter_by_token', 'NOPE'])
  },
}

/** A slow service: the loading state. */
export const Loading: Story = loadingStory('Loading the tokens…')

/** A 429 with Retry-After: 2: the whole client pauses (visibly), then the query retries and recovers. */
export const RateLimited: Story = rateLimitedStory('/overview/tokens', async (canvas) => {
  await expect(await canvas.findByTestId('token-USDC', {}, { timeout: 8000 })).toBeVisible()
})

/** The service keeps failing: after three tries the typed HttpError is shown. */
export const ServerError: Story = serverErrorStory('/overview/tokens', 'tokens', 503)
