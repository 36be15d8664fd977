import type { Meta, StoryObj } from '@storybook/react-vite'
import { useState } from 'react'
import { expect, userEvent, waitFor, within } from 'storybook/test'
import { useLegacyPairs } from '../src/exports/index.js'
import { emptyListStory, loadingStory, rateLimitedStory, serverErrorStory } from './support/commonStories.js'
import { PairList } from './support/lists.js'
import { sideOf } from './support/records.js'
import { market, storyService, tokens } from './support/storyContext.js'
import { Card, formatAmount, QueryState, RateLimitBanner } from './support/ui.js'

type Args = { search: string }

/** The legacy pairs list, narrowed on the client by a search box (`select`). */
function LegacyPairsDemo({ search: initialSearch }: Args) {
  const [search, setSearch] = useState(initialSearch)
  const needle = search.trim().toLowerCase()
  const pairs = useLegacyPairs({
    query: {
      select: (list) =>
        needle
          ? list.filter((pair) =>
              [sideOf(pair, 0).symbol, sideOf(pair, 1).symbol].some((symbol) =>
                symbol.toLowerCase().includes(needle),
              ),
            )
          : list,
    },
  })

  return (
    <Card title="useLegacyPairs">
      <label>
        Search by symbol{' '}
        <input aria-label="search" value={search} onChange={(event) => setSearch(event.target.value)} />
      </label>
      <RateLimitBanner />
      <PairList pairs={pairs} />
      <QueryState status={pairs.status} fetchStatus={pairs.fetchStatus} />
    </Card>
  )
}

const meta = {
  title: 'Hooks/useLegacyPairs',
  component: LegacyPairsDemo,
  args: { search: '' },
  argTypes: {
    search: { control: 'text', description: 'Initial text of the search box (applied with `select`)' },
  },
  parameters: {
    docs: {
      // Each story in its own iframe on the docs page, so that each gets its own mock service.
      story: { inline: false, height: '620px' },
      description: {
        component: `
Every supported pair from the legacy \`/get_pairs\` endpoint (no parameters), cached for 5 minutes.
Records are typed \`Pair\`: only \`address\` is checked, every other field is kept as sent. The endpoint
has no filter: narrow the cached list on the client with \`query.select\`.

\`\`\`tsx
import { useLegacyPairs } from 'token-swap-hooks'

// The legacy group, side by side with the current one.
const legacyPairs = useLegacyPairs()
\`\`\``,
      },
    },
  },
} satisfies Meta<typeof LegacyPairsDemo>

export default meta
type Story = StoryObj<typeof meta>

const listedPairs = market.pairs.filter((pair) => !market.isPairBlacklisted(pair))
const symbolsIn = (canvasElement: HTMLElement) =>
  within(canvasElement)
    .getAllByTestId('pair-symbols')
    .map((cell) => cell.textContent)

/** Every listed pair with its two symbols and reserves. */
export const Data: Story = {
  play: async ({ canvasElement }) => {
    const canvas = within(canvasElement)
    const tail = market.pairs.find((pair) => pair.token0 === tokens.TAIL)
    if (!tail) throw new Error('The mock market has no TAIL pair.')
    const row = await canvas.findByTestId(`pair-${tail.address}`, {}, { timeout: 5000 })
    await expect(row).toHaveTextContent('TAIL / LINK')
    await expect(row).toHaveTextContent(`${formatAmount(tail.reserve0, 18, 2)} TAIL`)
    await expect(row).toHaveTextContent(`${formatAmount(tail.reserve1, 18, 2)} LINK`)
    await expect(symbolsIn(canvasElement)).toHaveLength(listedPairs.length)
    await expect(symbolsIn(canvasElement).some((symbols) => symbols?.includes('SCAM'))).toBe(false)
    await expect(storyService().count('/get_pairs')).toBe(1)
  },
}

/** Typing in the search box narrows the list with `select`: no new request. */
export const Filtered: Story = {
  play: async ({ canvasElement }) => {
    const canvas = within(canvasElement)
    await canvas.findAllByTestId('pair-symbols', {}, { timeout: 5000 })
    await userEvent.type(canvas.getByLabelText('search'), 'link', { delay: 30 })
    await waitFor(() =>
      expect(symbolsIn(canvasElement)).toEqual(['LINK / WETH', 'LINK / USDC', 'TAIL / LINK']),
    )
    await userEvent.type(canvas.getByLabelText('search'), 'x')
    await expect(await canvas.findByText('No pairs')).toBeVisible()
    await expect(storyService().count('/get_pairs')).toBe(1)
  },
}

/** The service answers an empty list. */
export const Empty: Story = emptyListStory('/get_pairs', 'No pairs')

/** A slow service: the loading state. */
export const Loading: Story = loadingStory('Loading the pairs…')

/** A 429 with Retry-After: 2: the whole client pauses (visibly), then the query retries and recovers. */
export const RateLimited: Story = rateLimitedStory('/get_pairs', async (canvas) => {
  await expect((await canvas.findAllByTestId('pair-symbols', {}, { timeout: 8000 })).length).toBe(
    listedPairs.length,
  )
})

/** The service keeps failing: after three tries the typed HttpError is shown. */
export const ServerError: Story = serverErrorStory('/get_pairs', 'legacyPairs', 500)
