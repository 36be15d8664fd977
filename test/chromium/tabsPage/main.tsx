// A page of the dapp the tabs tests and the tabs bench open several times (pages of one browser
// context, one origin): a polled quote through SwapProvider and useSwapRoute, against the mock
// service named by ?service=, coordinated unless ?coordinate=0. window.tabs lets the test read it.
import { QueryClient } from '@tanstack/react-query'
import { createRoot } from 'react-dom/client'
import { createPublicClient, createWalletClient, custom } from 'viem'
import { privateKeyToAccount } from 'viem/accounts'
import { mainnet } from 'viem/chains'
import { getTokenPrice, type PendingSwap, resumeSwap } from '../../../src/exports/core.js'
import {
  createSwapClient,
  SwapProvider,
  useRateLimitState,
  useSwapRoute,
} from '../../../src/exports/index.js'
import { getSwapRouteQueryKey } from '../../../src/exports/query.js'
import { createTabCoordinator } from '../../../src/exports/tabs.js'

const parameters = new URLSearchParams(location.search)
const service = parameters.get('service') ?? 'http://127.0.0.1:8787'
const interval = Number(parameters.get('interval') ?? 15_000)

const WETH = '0xC02aaA39b223FE8D0A0e5C4F27eAD9083C756Cc2'
const USDC = '0xA0b86991c6218b36c1d19D4a2e9Eb0cE3606eB48'
const route = { token0: WETH, token1: USDC, amountIn: 10n ** 18n } as const

let requests = 0
const client = createSwapClient({
  baseUrl: service,
  maxRateLimitPauseMs: Number(parameters.get('maxPause') ?? 60_000),
  fetch: (input, init) => {
    requests += 1
    return fetch(input, init)
  },
})
const queryClient = new QueryClient()
// Before the first render: the first requests are coordinated too.
const coordinator =
  parameters.get('coordinate') === '0' ? undefined : createTabCoordinator({ client, queryClient })
const key = getSwapRouteQueryKey({ baseUrl: client.baseUrl, ...route })

function Quote() {
  const { data } = useSwapRoute({ ...route, query: { refetchInterval: interval } })
  const { rateLimitedUntil } = useRateLimitState()
  return (
    <p>
      {data ? `${data.amountOut}` : 'Loading…'}
      {rateLimitedUntil ? ' (paused)' : ''}
    </p>
  )
}

createRoot(document.getElementById('root') as HTMLElement).render(
  <SwapProvider client={client} queryClient={queryClient}>
    <Quote />
  </SwapProvider>,
)

// A wallet and a node that answer nothing but count what they are asked; the first eth_chainId
// waits for unblock(), so a resume stays inside its claim as long as the test wants.
const asked: string[] = []
let blocked: Promise<void> | undefined
let unblock = () => {}
const transport = custom(
  {
    request: async ({ method }: { method: string }) => {
      asked.push(method)
      if (method === 'eth_chainId') {
        blocked ??= new Promise<void>((resolve) => (unblock = resolve))
        await blocked
      }
      throw new Error(`This test node does not serve ${method}.`)
    },
  },
  { retryCount: 0 },
)
const account = privateKeyToAccount('0x59c6995e998f97a5a0044966f0945389dc9e86dae88c7a8412f4603b6b78690d')
const walletClient = createWalletClient({ account, chain: mainnet, transport })
const publicClient = createPublicClient({ chain: mainnet, transport })
const recordOf = (id: string): PendingSwap => ({
  id,
  version: 2,
  chainId: mainnet.id,
  account: account.address,
  baseUrl: client.baseUrl,
  token0: WETH,
  token1: USDC,
  amountIn: '1000',
  to: account.address,
  minAmountOut: '1',
  step: 'approved',
  journal: [{ step: 'approve', event: 'mined', hash: `0x${'1'.repeat(64)}`, at: 1 }],
  createdAt: 1,
  updatedAt: 1,
})
let resuming: Promise<string> | undefined

const tabs = {
  enabled: coordinator?.enabled ?? false,
  /** Requests this page sent to the service. */
  requests: () => requests,
  /** Whether this page leads the polling of the quote. */
  leads: () => coordinator?.isLeader(key) ?? false,
  /** Whether this page runs the origin's rate-limit budget. */
  runsBudget: () => coordinator?.isLeader() ?? false,
  /** The quote in this page's cache: its amount (a bigint, written with an n), when it was fetched. */
  quote() {
    const state = queryClient.getQueryState(key)
    const data = state?.data as { amountOut: unknown; quotedFor: { amountIn: unknown } } | undefined
    if (!data || !state) return undefined
    return {
      amountOut:
        typeof data.amountOut === 'bigint' ? `${data.amountOut}n` : `not a bigint: ${data.amountOut}`,
      amountIn: typeof data.quotedFor.amountIn === 'bigint' ? `${data.quotedFor.amountIn}n` : 'not a bigint',
      dataUpdatedAt: state.dataUpdatedAt,
    }
  },
  rateLimit: () => client.rateLimiter.getState(),
  /** One price request of this page (not coordinated: it goes to the service): 'ok' or the error's name. */
  price: () =>
    getTokenPrice(client, { address: USDC }).then(
      () => 'ok',
      (error: Error) => error.name,
    ),
  /** Starts resuming the record `id` (it waits at eth_chainId until unblock()). */
  startResume(id: string) {
    blocked = undefined
    resuming = resumeSwap(client, {
      walletClient,
      publicClient,
      record: recordOf(id),
      minAmountOut: 1n,
      storage: false,
      dangerouslyTrustAnyAddress: true,
    }).then(
      (result) => `resolved: ${result.resumed}`,
      (error: Error) => error.name,
    )
  },
  resumeOutcome: () => resuming,
  unblock: () => unblock(),
  /** What the node and the wallet were asked. */
  asked: () => [...asked],
}
Object.assign(window, { tabs })
export type TabsPage = typeof tabs
