'use client'

import { QueryClient, QueryClientContext, QueryClientProvider } from '@tanstack/react-query'
import {
  createContext,
  createElement,
  type ReactNode,
  useContext,
  useEffect,
  useMemo,
  useRef,
  useState,
} from 'react'
import { createSwapClient, type SwapClient, type SwapClientConfig } from '../core/client.js'
import type { ExecuteSwapParameters } from '../core/execute/executeSwap.js'
import type { RateLimitConfig } from '../core/rateLimiter.js'
import type { QueryResource } from '../query/defaults.js'
import type { QueryDefaultsOverride } from './types.js'

/** Per-resource overrides of the query defaults (staleTime, gcTime, refetchInterval, retry…). */
export type SwapQueryDefaults = { [resource in QueryResource]?: QueryDefaultsOverride }

/** Defaults for `useExecuteSwap`, so that every swap button below the provider shares them. */
export type SwapExecutionDefaults = Pick<
  ExecuteSwapParameters,
  'walletClient' | 'publicClient' | 'chainId' | 'trustedAddresses' | 'dangerouslyTrustAnyAddress'
>

export type SwapContextValue = {
  client: SwapClient
  queryClient: QueryClient
  queryDefaults: SwapQueryDefaults
  execution: Partial<SwapExecutionDefaults>
}

export const SwapContext = createContext<SwapContextValue | undefined>(undefined)

type SharedProps = {
  /**
   * The QueryClient for the swap queries. Default: the one of an enclosing
   * `QueryClientProvider`, else one the provider creates. The provider never
   * changes that client's defaults: swap defaults are applied per query.
   */
  queryClient?: QueryClient | undefined
  /** Overrides of the defaults per resource, e.g. `{ tokens: { staleTime: 60_000 } }`. */
  queryDefaults?: SwapQueryDefaults | undefined
  /** The wallet `useExecuteSwap` signs with (wagmi: `useWalletClient().data`). */
  walletClient?: SwapExecutionDefaults['walletClient'] | undefined
  /** The client `useExecuteSwap` reads and waits with (wagmi: `usePublicClient()`). */
  publicClient?: SwapExecutionDefaults['publicClient'] | undefined
  /** The chain swaps are for. Default: the public client's chain. */
  chainId?: number | undefined
  /**
   * The only spenders and routers `useExecuteSwap` will approve or call, per
   * chain: `{ [mainnet.id]: [ROUTER, SPENDER] }`. Swaps are refused without it.
   */
  trustedAddresses?: SwapExecutionDefaults['trustedAddresses'] | undefined
  /** Waives `trustedAddresses` and relies on the outcome check alone. Never set it in an app. */
  dangerouslyTrustAnyAddress?: boolean | undefined
  children?: ReactNode
}

export type SwapProviderProps = SharedProps &
  (
    | ({ client?: undefined } & SwapClientConfig)
    | ({ client: SwapClient } & { [key in keyof SwapClientConfig]?: undefined })
  )

/**
 * Supplies the swap client, the QueryClient and the query defaults to every
 * hook below it. Give it a `baseUrl` (and any client setting), or a ready
 * `client`. Outside any `QueryClientProvider` it also provides its QueryClient
 * to its children; it is a client component (`'use client'`), so it can sit in
 * a Next.js App Router layout.
 *
 * @example
 * import { SwapProvider } from 'token-swap-hooks'
 *
 * <SwapProvider baseUrl="https://swap.example.com" rateLimit={{ requestsPerSecond: 10 }}>
 *   <SwapWidget />
 * </SwapProvider>
 */
export function SwapProvider(props: SwapProviderProps) {
  const {
    queryClient: queryClientProp,
    queryDefaults,
    walletClient,
    publicClient,
    chainId,
    trustedAddresses,
    dangerouslyTrustAnyAddress,
    children,
  } = props
  const client = useClientFromProps(props)

  const outer = useContext(QueryClientContext)
  const [owned] = useState(() => new QueryClient())
  const queryClient = queryClientProp ?? outer ?? owned

  // Mounting is reference counted, so this is safe for a client an enclosing
  // QueryClientProvider mounts too; it makes focus and reconnect refetches work
  // for a client nobody else mounts.
  useEffect(() => {
    queryClient.mount()
    return () => queryClient.unmount()
  }, [queryClient])

  const value = useMemo(
    () => ({
      client,
      queryClient,
      queryDefaults: queryDefaults ?? {},
      execution: { walletClient, publicClient, chainId, trustedAddresses, dangerouslyTrustAnyAddress },
    }),
    [
      client,
      queryClient,
      queryDefaults,
      walletClient,
      publicClient,
      chainId,
      trustedAddresses,
      dangerouslyTrustAnyAddress,
    ],
  )
  const provided = createElement(SwapContext.Provider, { value }, children)
  // Alone, the provider also provides its QueryClient, so useQuery, useQueryClient and the
  // devtools work below it; inside an app's QueryClientProvider, the app's stays the one they see.
  return outer ? provided : createElement(QueryClientProvider, { client: queryClient }, provided)
}

/**
 * The client the props describe. Recreated only when a setting that shapes
 * requests changes (base URL, timeout, array format, rate limit, redirects,
 * size and pause caps); `fetch`,
 * `headers` and `transformResponse` are read through refs, so inline
 * functions do not reset the cache or the rate limiter on every render.
 */
function useClientFromProps(props: SwapProviderProps): SwapClient {
  const fetchRef = useRef(props.fetch)
  const headersRef = useRef(props.headers)
  const transformRef = useRef(props.transformResponse)
  fetchRef.current = props.fetch
  headersRef.current = props.headers
  transformRef.current = props.transformResponse

  const {
    client,
    baseUrl,
    timeoutMs,
    arrayFormat,
    allowInsecureHttp,
    redirect,
    maxResponseBytes,
    maxRateLimitPauseMs,
  } = props
  const rateLimitKey = rateLimitToKey(props.rateLimit)
  const hasHeaders = props.headers !== undefined
  const hasTransform = props.transformResponse !== undefined

  // biome-ignore lint/correctness/useExhaustiveDependencies: rateLimitKey stands for props.rateLimit; functions are read through refs.
  return useMemo(() => {
    if (client) return client
    return createSwapClient({
      baseUrl: baseUrl as string,
      timeoutMs,
      arrayFormat,
      allowInsecureHttp,
      redirect,
      maxResponseBytes,
      maxRateLimitPauseMs,
      rateLimit: props.rateLimit,
      fetch: (input, init) => (fetchRef.current ?? globalThis.fetch)(input, init),
      headers: hasHeaders
        ? () => {
            const headers = headersRef.current
            return typeof headers === 'function' ? headers() : (headers ?? {})
          }
        : undefined,
      transformResponse: hasTransform
        ? (body, context) => (transformRef.current ? transformRef.current(body, context) : body)
        : undefined,
    })
  }, [
    client,
    baseUrl,
    timeoutMs,
    arrayFormat,
    allowInsecureHttp,
    redirect,
    maxResponseBytes,
    maxRateLimitPauseMs,
    rateLimitKey,
    hasHeaders,
    hasTransform,
  ])
}

function rateLimitToKey(rateLimit: RateLimitConfig | false | undefined): string {
  if (rateLimit === undefined) return 'default'
  if (rateLimit === false) return 'off'
  return `${rateLimit.requestsPerSecond}/${rateLimit.burst ?? ''}`
}
