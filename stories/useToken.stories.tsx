import type { Meta, StoryObj } from '@storybook/react-vite'
import { useEffect, useState } from 'react'
import { expect, userEvent, within } from 'storybook/test'
import { useToken } from '../src/exports/index.js'
import { unlistedBytes32Token } from './support/simulatedWallet.js'
import { market, storyService, tokens } from './support/storyContext.js'
import { Card, ErrorView, QueryState } from './support/ui.js'

type Args = { address: string }

const warnings = {
  'not-a-token': 'This address is not a token: nothing can be swapped for it.',
  unlisted:
    'Unknown token: the service does not list it. Anyone can deploy a token with any name; check the address.',
  blacklisted: 'The service blacklists this token: it will not route it.',
} as const

/** A token picker's "paste an address" field: what is there on chain, and what the service says of it. */
function TokenDemo({ address: initial }: Args) {
  const [address, setAddress] = useState(initial)
  useEffect(() => setAddress(initial), [initial])
  const token = useToken({ address })
  const data = token.data

  return (
    <Card title="useToken">
      <label>
        Paste a token address{' '}
        <input
          aria-label="address"
          value={address}
          size={46}
          onChange={(event) => setAddress(event.target.value)}
        />
      </label>
      {!address.trim() && <p>Paste an address to import a token.</p>}
      {token.isPending && token.fetchStatus === 'fetching' && <p>Reading the token…</p>}
      <ErrorView error={token.error} />
      {data && (
        <div
          data-testid="token"
          style={{ border: '1px solid #ddd', borderRadius: 8, padding: 12, marginTop: 8 }}
        >
          <p style={{ fontSize: 18, margin: 0 }}>
            <strong data-testid="symbol">{data.symbol ?? '?'}</strong>{' '}
            <span data-testid="name">{data.name ?? '(no name)'}</span>
          </p>
          <p style={{ fontSize: 12, margin: '4px 0' }} data-testid="facts">
            kind: {data.kind} · decimals: {data.decimals ?? 'none'} · service: {data.listing}
          </p>
          {data.warning && (
            <p
              role="status"
              data-testid="warning"
              style={{ background: '#fff4ce', padding: 8, borderRadius: 6 }}
            >
              {warnings[data.warning]}
            </p>
          )}
          {data.kind === 'no-contract' && (
            <p
              role="status"
              data-testid="no-contract"
              style={{ background: '#fff4ce', padding: 8, borderRadius: 6 }}
            >
              Nothing is deployed at this address on this chain (another chain's token, or a wallet).
            </p>
          )}
          {data.kind === 'token' && data.decimals === undefined && (
            <p role="status">This token has no decimals: its amounts cannot be shown in units.</p>
          )}
        </div>
      )}
      <QueryState status={token.status} fetchStatus={token.fetchStatus} />
    </Card>
  )
}

const meta = {
  title: 'Hooks/useToken',
  component: TokenDemo,
  args: { address: tokens.USDC },
  argTypes: { address: { control: 'text' } },
  parameters: {
    docs: {
      story: { inline: false, height: '320px' },
      description: {
        component: `
A token pasted by its address (from \`token-swap-hooks\`): its name, symbol and decimals read on
chain (one \`eth_call\` through a reader placed by a state override; four plain calls on a node
that refuses overrides, as this simulated chain does), \`bytes32\` names decoded, a contract that
is not a token said so, and whether the service lists it (\`/overview/tokens\`, filtered to it).
Empty text waits quietly; text that is not an address is an \`InvalidParameterError\`, nothing sent.

\`\`\`tsx
import { useToken } from 'token-swap-hooks'

const { data: token, error } = useToken({ address: pasted })
if (token?.warning === 'unlisted') return <p>Unknown token {token.symbol}: check its address</p>
\`\`\``,
      },
    },
  },
} satisfies Meta<typeof TokenDemo>

export default meta
type Story = StoryObj<typeof meta>

/** A listed token: its name and symbol as the chain answers them, no warning. */
export const Listed: Story = {
  play: async ({ canvasElement }) => {
    const canvas = within(canvasElement)
    await expect(await canvas.findByTestId('symbol', {}, { timeout: 5000 })).toHaveTextContent('USDC')
    await expect(canvas.getByTestId('facts')).toHaveTextContent('kind: token · decimals: 6 · service: listed')
    await expect(canvas.queryByTestId('warning')).toBeNull()
    // One list request, filtered to the token.
    await expect(storyService().count('/overview/tokens')).toBe(1)
  },
}

/** A token the service does not list, whose name and symbol are `bytes32` (as MKR's): decoded, and flagged unknown. */
export const UnlistedBytes32: Story = {
  args: { address: unlistedBytes32Token },
  play: async ({ canvasElement }) => {
    const canvas = within(canvasElement)
    await expect(await canvas.findByTestId('symbol', {}, { timeout: 5000 })).toHaveTextContent('MKR')
    await expect(canvas.getByTestId('name')).toHaveTextContent('Maker')
    await expect(canvas.getByTestId('facts')).toHaveTextContent('decimals: 18 · service: unlisted')
    await expect(canvas.getByTestId('warning')).toHaveTextContent(/^Unknown token/)
  },
}

/** A token the service blacklists. */
export const Blacklisted: Story = {
  args: { address: tokens.SCAM },
  play: async ({ canvasElement }) => {
    const canvas = within(canvasElement)
    await expect(await canvas.findByTestId('warning', {}, { timeout: 5000 })).toHaveTextContent(/blacklists/)
    await expect(canvas.getByTestId('facts')).toHaveTextContent('service: blacklisted')
  },
}

/** A contract that is not a token (here the service's router): said so, no symbol made up. */
export const NotAToken: Story = {
  args: { address: market.router },
  play: async ({ canvasElement }) => {
    const canvas = within(canvasElement)
    await expect(await canvas.findByTestId('warning', {}, { timeout: 5000 })).toHaveTextContent(/not a token/)
    await expect(canvas.getByTestId('symbol')).toHaveTextContent('?')
  },
}

/** An address with nothing deployed on this chain. */
export const NoContract: Story = {
  args: { address: '0x000000000000000000000000000000000000dEaD' },
  play: async ({ canvasElement }) => {
    const canvas = within(canvasElement)
    await expect(await canvas.findByTestId('no-contract', {}, { timeout: 5000 })).toBeVisible()
    await expect(canvas.getByTestId('facts')).toHaveTextContent('kind: no-contract')
  },
}

/** Nothing pasted: quiet, nothing read or requested; then a paste reads the token. */
export const MissingInput: Story = {
  args: { address: '' },
  play: async ({ canvasElement }) => {
    const canvas = within(canvasElement)
    await expect(canvas.getByText('Paste an address to import a token.')).toBeVisible()
    await new Promise((resolve) => setTimeout(resolve, 400))
    await expect(canvas.getByTestId('query-state')).toHaveTextContent('status: pending · fetchStatus: idle')
    await expect(storyService().count('/overview/tokens')).toBe(0)
    await userEvent.type(canvas.getByLabelText('address'), ` ${tokens.DAI} `)
    await expect(await canvas.findByTestId('symbol', {}, { timeout: 5000 })).toHaveTextContent('DAI')
  },
}

/** Text that is not an address: an InvalidParameterError naming `address`, nothing sent. */
export const MalformedInput: Story = {
  args: { address: '0x12ab' },
  play: async ({ canvasElement }) => {
    const canvas = within(canvasElement)
    await expect(await canvas.findByRole('alert', {}, { timeout: 5000 })).toHaveTextContent(
      /^InvalidParameterError: Invalid parameter "address"/,
    )
    await expect(storyService().count('/overview/tokens')).toBe(0)
  },
}
