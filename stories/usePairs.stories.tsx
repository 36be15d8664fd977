import type { Meta, StoryObj } from '@storybook/react-vite'
import { expect, within } from 'storybook/test'
import { usePairs } from '../src/exports/index.js'
import { loadingStory, rateLimitedStory, serverErrorStory } from './support/commonStories.js'
import { PairList } from './support/lists.js'
import { market, storyService } from './support/storyContext.js'
import { Card, formatAmount, QueryState, RateLimitBanner } from './support/ui.js'

type Args = {
  filterByToken?: string[] | undefined
  filterByPair?: string[] | undefined
  blacklist: boolean
}

/** A pools table: the two tokens and their reserves. */
function PairsDemo({ filterByToken, filterByPair, blacklist }: Args) {
  const pairs = usePairs({
    filterByToken: filterByToken?.length ? filterByToken : undefined,
    filterByPair: filterByPair?.length ? filterByPair : undefined,
    blacklist,
  })

  return (
    <Card title="usePairs">
      <p style={{ fontSize: 12 }}>
        filterByToken: <code>{JSON.stringify(filterByToken ?? [])}</code> · blacklist:{' '}
        <code>{String(blacklist)}</code>
      </p>
      <RateLimitBanner />
      <PairList pairs={pairs} />
      <QueryState status={pairs.status} fetchStatus={pairs.fetchStatus} />
    </Card>
  )
}

const meta = {
  title: 'Hooks/usePairs',
  component: PairsDemo,
  args: { filterByToken: undefined, filterByPair: undefined, blacklist: false },
  argTypes: {
    filterByToken: {
      control: 'object',
      description: 'Sent as `filter_by_token`: token addresses or symbols, e.g. `["USDC"]`',
    },
    filterByPair: { control: 'object', description: 'Sent as `filter_by_pair`: pair addresses' },
    blacklist: { control: 'boolean', description: 'Include blacklisted pairs' },
  },
  parameters: {
    docs: {
      // Each story in its own iframe on the docs page, so that each gets its own mock service.
      story: { inline: false, height: '620px' },
      description: {
        component: `
Liquidity pairs from \`/overview/pairs\`, narrowed by \`filterByToken\` (address or symbol),
\`filterByPair\` and \`blacklist\`, sent as the spec names them; cached for 5 minutes. Pair records are
typed \`Pair\`: only \`address\` is checked, every other field (tokens, reserves…) is kept as sent.

\`\`\`tsx
import { usePairs } from 'token-swap-hooks'

// Lists, cached for 5 minutes; filters use the spec's names on the wire.
const pairs = usePairs({ filterByToken: ['USDC', WETH], blacklist: false })
\`\`\``,
      },
    },
  },
} satisfies Meta<typeof PairsDemo>

export default meta
type Story = StoryObj<typeof meta>

const listedPairs = market.pairs.filter((pair) => !market.isPairBlacklisted(pair))
const symbolsIn = (canvasElement: HTMLElement) =>
  within(canvasElement)
    .getAllByTestId('pair-symbols')
    .map((cell) => cell.textContent)

/** Every listed pair with its two symbols and reserves; blacklisted pairs are left out. */
export const Data: Story = {
  play: async ({ canvasElement }) => {
    const canvas = within(canvasElement)
    const first = market.pairs[0]
    if (!first) throw new Error('The mock market has no pairs.')
    const row = await canvas.findByTestId(`pair-${first.address}`, {}, { timeout: 5000 })
    await expect(row).toHaveTextContent('WETH / USDC')
    await expect(row).toHaveTextContent(`${formatAmount(first.reserve0, 18, 2)} WETH`)
    await expect(row).toHaveTextContent(`${formatAmount(first.reserve1, 6, 2)} USDC`)
    await expect(row).toHaveTextContent('0.05%')
    await expect(symbolsIn(canvasElement)).toHaveLength(listedPairs.length)
    await expect(symbolsIn(canvasElement).some((symbols) => symbols?.includes('SCAM'))).toBe(false)
    await expect(storyService().count('/overview/pairs')).toBe(1)
  },
}

/** `filterByToken: ['LINK']` (a control): only the pairs holding LINK, filtered by the service. */
export const Filtered: Story = {
  args: { filterByToken: ['LINK'] },
  play: async ({ canvasElement }) => {
    await within(canvasElement).findAllByTestId('pair-symbols', {}, { timeout: 5000 })
    await expect(symbolsIn(canvasElement)).toEqual(['LINK / WETH', 'LINK / USDC', 'TAIL / LINK'])
    const sent = storyService().log.find((entry) => entry.path === '/overview/pairs')
    await expect(sent?.query).toContainEqual(['filter_by_token', 'LINK'])
  },
}

/** `blacklist: true`: the blacklisted pairs (UNI/USDC, and those of SCAM) are listed too, flagged. */
export const WithBlacklisted: Story = {
  args: { blacklist: true },
  play: async ({ canvasElement }) => {
    const canvas = within(canvasElement)
    await canvas.findAllByTestId('pair-symbols', {}, { timeout: 5000 })
    await expect(symbolsIn(canvasElement)).toHaveLength(market.pairs.length)
    await expect(canvas.getAllByText('⚠ blacklisted')).toHaveLength(market.pairs.length - listedPairs.length)
  },
}

/** A filter that matches nothing: the service answers an empty list. */
export const Empty: Story = {
  args: { filterByToken: ['NOPE'] },
  play: async ({ canvasElement }) => {
    await expect(await within(canvasElement).findByText('No pairs', {}, { timeout: 5000 })).toBeVisible()
    await expect(storyService().count('/overview/pairs')).toBe(1)
  },
}

/** A slow service: the loading state. */
export const Loading: Story = loadingStory('Loading the pairs…')

/** A 429 with Retry-After: 2: the whole client pauses (visibly), then the query retries and recovers. */
export const RateLimited: Story = rateLimitedStory('/overview/pairs', async (canvas) => {
  await expect((await canvas.findAllByTestId('pair-symbols', {}, { timeout: 8000 })).length).toBe(
    listedPairs.length,
  )
})

/** The service keeps failing: after three tries the typed HttpError is shown. */
export const ServerError: Story = serverErrorStory('/overview/pairs', 'pairs', 500)
