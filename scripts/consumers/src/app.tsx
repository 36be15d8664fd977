// A consumer app as a user writes it, against the packed package: every entry but mock/msw (src/msw.ts),
// the main types.
import { QueryClient } from '@tanstack/react-query'
import { useState } from 'react'
import {
  type InvalidParameterError,
  NoRouteError,
  parseAmount,
  type Route,
  SwapProvider,
  type SwapProviderProps,
  UnsafeSwapOutcomeError,
  type UseExecuteSwapReturnType,
  useExecuteSwap,
  useSwapRoute,
  useSwapRouteForOutput,
  useTokenBalances,
  useTokens,
} from 'token-swap-hooks'
import {
  createSwapClient,
  type ExecuteSwapReturnType,
  executeSwap,
  getSwapRoute,
  HttpError,
  RateLimitError,
  type SwapClient,
} from 'token-swap-hooks/core'
import { swapDevtoolsPlugin } from 'token-swap-hooks/devtools'
import { type DeploySwapGuardReturnType, isSwapGuardDeployed } from 'token-swap-hooks/guard'
import { createMockMarket, mockTokenAddresses, startMockServer } from 'token-swap-hooks/mock'
import {
  deserializeBigInts,
  getSwapRouteQueryKey,
  getSwapRouteQueryOptions,
  getTokensQueryOptions,
  serializeBigInts,
} from 'token-swap-hooks/query'
import { useTabCoordinator } from 'token-swap-hooks/tabs'
import { type Address, createPublicClient, createWalletClient, custom, formatUnits, http } from 'viem'
import { mainnet } from 'viem/chains'

const { WETH, USDC } = mockTokenAddresses
const ROUTER: Address = '0x1111111111111111111111111111111111111111'
const SPENDER: Address = '0x2222222222222222222222222222222222222222'

export function Swap({ token0, token1 }: { token0: Address; token1: Address }) {
  const [typed, setTyped] = useState('1.5')
  const amountIn = parseAmount(typed, 18)
  const route = useSwapRoute({
    token0,
    token1,
    amountIn,
    query: { refetchInterval: false, staleTime: 5_000 },
  })
  const tokens = useTokens({ query: { select: (list) => list.filter((token) => token.symbol !== 'SCAM') } })
  const exact = useSwapRouteForOutput({ token0, token1, amountOut: 10n ** 6n })
  const balances = useTokenBalances({ account: '0x3333333333333333333333333333333333333333' })
  const amountInForExact: bigint | undefined = exact.data?.amountIn
  const held: number | undefined = balances.data?.balances.length
  void amountInForExact
  void held
  useTabCoordinator()
  const fresh: boolean = route.isFresh && !route.isPlaceholderData && !route.isDebouncing
  const { execute, executeAsync, isPending, step, error, data }: UseExecuteSwapReturnType = useExecuteSwap({
    trustedAddresses: { [mainnet.id]: [ROUTER, SPENDER] },
  })
  const amountOut: bigint | undefined = route.data?.amountOut
  const decimals: number | undefined = tokens.data?.find((token) => token.address === token1)?.decimals
  const invalid: InvalidParameterError | undefined = undefined
  void invalid
  void executeAsync
  return (
    <div>
      <input value={typed} onChange={(event) => setTyped(event.target.value)} />
      {route.error instanceof NoRouteError && <p>No route</p>}
      {route.error && <p>{route.error.shortMessage}</p>}
      {amountOut !== undefined && (
        <p style={{ opacity: fresh ? 1 : 0.5 }}>{formatUnits(amountOut, decimals ?? 18)}</p>
      )}
      <button
        type="button"
        disabled={!route.data || amountIn === undefined || isPending}
        onClick={() =>
          amountIn !== undefined &&
          execute({ token0, token1, amountIn, slippage: 0.01, acceptedQuote: route.data })
        }
      >
        {step?.status === 'approving' ? 'Approving…' : 'Swap'}
      </button>
      {error instanceof UnsafeSwapOutcomeError && <p>{error.violations.length} violations</p>}
      {data && <p>{String(data.realized?.amountOut ?? 'not measured')}</p>}
    </div>
  )
}

export function App({ baseUrl }: { baseUrl: string }) {
  const props: SwapProviderProps = {
    baseUrl,
    rateLimit: { requestsPerSecond: 10 },
    queryClient: new QueryClient(),
    queryDefaults: { tokens: { staleTime: 60_000 } },
    trustedAddresses: { [mainnet.id]: [ROUTER, SPENDER] },
  }
  return (
    <SwapProvider {...props}>
      <Swap token0={WETH} token1={USDC} />
    </SwapProvider>
  )
}

/** Without React: the client, an action, the factories, the cache, executeSwap. */
export async function withoutReact(baseUrl: string): Promise<ExecuteSwapReturnType | undefined> {
  const client: SwapClient = createSwapClient({ baseUrl })
  const queryClient = new QueryClient()
  const route: Route = await getSwapRoute(client, { token0: WETH, token1: USDC, amountIn: 10n ** 18n })
  await queryClient.fetchQuery(
    getSwapRouteQueryOptions(client, { token0: WETH, token1: USDC, amountIn: 10n ** 18n }),
  )
  await queryClient.prefetchQuery(getTokensQueryOptions(client))
  const cached: Route | undefined = queryClient.getQueryData(
    getSwapRouteQueryKey({ baseUrl: client.baseUrl, token0: WETH, token1: USDC, amountIn: 10n ** 18n }),
  )
  const roundTrip: Route = deserializeBigInts(serializeBigInts(route))
  void cached
  void roundTrip

  const transport = custom({ request: async () => null })
  const walletClient = createWalletClient({
    account: '0x3333333333333333333333333333333333333333',
    chain: mainnet,
    transport,
  })
  const publicClient = createPublicClient({ chain: mainnet, transport: http() })
  try {
    return await executeSwap(client, {
      walletClient,
      publicClient,
      token0: WETH,
      token1: USDC,
      amountIn: 10n ** 18n,
      minAmountOut: route.amountOut,
      trustedAddresses: { [mainnet.id]: [ROUTER, SPENDER] },
    })
  } catch (error) {
    if (error instanceof RateLimitError) return undefined
    if (error instanceof HttpError) return undefined
    throw error
  }
}

/** The guard's deployment (token-swap-hooks/guard) and the devtools panel (token-swap-hooks/devtools). */
export async function guardAndDevtools(baseUrl: string): Promise<DeploySwapGuardReturnType | boolean> {
  const publicClient = createPublicClient({ chain: mainnet, transport: http(baseUrl) })
  void swapDevtoolsPlugin()
  return isSwapGuardDeployed({ publicClient })
}

/** The loopback mock server from token-swap-hooks/mock, which needs no msw. */
export async function mockServer(): Promise<string> {
  const server = await startMockServer({ market: createMockMarket(), latency: 0 })
  await server.stop()
  return server.url
}
