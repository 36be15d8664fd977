import type { Meta, StoryObj } from '@storybook/react-vite'
import { useState } from 'react'
import { expect, userEvent, waitFor, within } from 'storybook/test'
import { useLegacyTokens } from '../src/exports/index.js'
import { emptyListStory, loadingStory, rateLimitedStory, serverErrorStory } from './support/commonStories.js'
import { bySymbol, TokenList } from './support/lists.js'
import { market, storyService } from './support/storyContext.js'
import { Card, QueryState, RateLimitBanner } from './support/ui.js'

type Args = { search: string }

/** The legacy token list, narrowed on the client by a search box (`select`). */
function LegacyTokensDemo({ search: initialSearch }: Args) {
  const [search, setSearch] = useState(initialSearch)
  const tokens = useLegacyTokens({
    query: { select: bySymbol(search) },
  })

  return (
    <Card title="useLegacyTokens">
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
  title: 'Hooks/useLegacyTokens',
  component: LegacyTokensDemo,
  args: { search: '' },
  argTypes: {
    search: { control: 'text', description: 'Initial text of the search box (applied with `select`)' },
  },
  parameters: {
    docs: {
      // Each story in its own iframe on the docs page, so that each gets its own mock service.
      story: { inline: false, height: '460px' },
      description: {
        component: `
Every tradable token from the legacy \`/get_tokens\` endpoint (no parameters), cached for 5 minutes.
Records are typed \`Token\`: \`address\` and \`symbol\` are checked, every other field (\`decimals\`,
\`name\`…) is kept as sent. The endpoint has no filter: narrow the cached list on the client with
\`query.select\`.

\`\`\`tsx
import { useLegacyTokens } from 'token-swap-hooks'

// The legacy group, side by side with the current one.
const legacyTokens = useLegacyTokens()
\`\`\``,
      },
    },
  },
} satisfies Meta<typeof LegacyTokensDemo>

export default meta
type Story = StoryObj<typeof meta>

const listed = market.tokens.filter((token) => !token.blacklisted)

/** Every tradable token with its decimals; SCAM (blacklisted) is not tradable. */
export const Data: Story = {
  play: async ({ canvasElement }) => {
    const canvas = within(canvasElement)
    await expect(await canvas.findByTestId('token-DAI', {}, { timeout: 5000 })).toHaveTextContent(
      'Dai Stablecoin',
    )
    await expect(canvas.getAllByTestId(/^token-/)).toHaveLength(listed.length)
    await expect(canvas.getByTestId('decimals-USDT')).toHaveTextContent('6')
    await expect(canvas.getByTestId('decimals-WBTC')).toHaveTextContent('8')
    await expect(canvas.getByTestId('decimals-DAI')).toHaveTextContent('18')
    await expect(canvas.queryByTestId('token-SCAM')).toBeNull()
    await expect(storyService().count('/get_tokens')).toBe(1)
  },
}

/** Typing in the search box narrows the list with `select`: no new request. */
export const Filtered: Story = {
  play: async ({ canvasElement }) => {
    const canvas = within(canvasElement)
    await canvas.findByTestId('token-WETH', {}, { timeout: 5000 })
    await userEvent.type(canvas.getByLabelText('search'), 'u', { delay: 30 })
    await waitFor(() => expect(canvas.queryByTestId('token-WETH')).toBeNull())
    const symbols = canvas.getAllByTestId(/^token-/).map((row) => row.dataset.testid?.slice('token-'.length))
    await expect(symbols).toEqual(['USDC', 'USDT', 'UNI'])
    await userEvent.type(canvas.getByLabelText('search'), 'zz')
    await expect(await canvas.findByText('No tokens')).toBeVisible()
    await expect(storyService().count('/get_tokens')).toBe(1)
  },
}

/** The service answers an empty list. */
export const Empty: Story = emptyListStory('/get_tokens', 'No tokens')

/** A slow service: the loading state. */
export const Loading: Story = loadingStory('Loading the tokens…')

/** A 429 with Retry-After: 2: the whole client pauses (visibly), then the query retries and recovers. */
export const RateLimited: Story = rateLimitedStory('/get_tokens', async (canvas) => {
  await expect(await canvas.findByTestId('token-USDC', {}, { timeout: 8000 })).toBeVisible()
})

/** The service keeps failing: after three tries the typed HttpError is shown. */
export const ServerError: Story = serverErrorStory(
  '/get_tokens',
  'legacyTokens',
  503,
  '<html><h1>503 Service Unavailable</h1></html>',
)
