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
import type { ExecuteSwapParameters, SwapEvent } from '../core/execute/executeSwap.js'
import type { SwapPreview } from '../core/execute/getSwapPreview.js'
import type { PriceImpactThresholds } from '../core/prices/priceImpact.js'
import type { SwapInfo } from '../core/schemas.js'
import type { SlippageSetting } from '../core/slippage/slippageFor.js'
import type { QueryResource } from '../query/defaults.js'
import type { QueryDefaultsOverride } from './types.js'

/** Per-resource overrides of the query defaults (staleTime, gcTime, refetchInterval, retry…). */
export type SwapQueryDefaults = { [resource in QueryResource]?: QueryDefaultsOverride }

/** Defaults for `useExecuteSwap`, so that every swap button below the provider shares them. */
export type SwapExecutionDefaults = Pick<
  ExecuteSwapParameters,
  | 'walletClient'
  | 'publicClient'
  | 'chainId'
  | 'trustedAddresses'
  | 'dangerouslyTrustAnyAddress'
  | 'floorEnforcement'
  | 'batch'
  | 'storage'
  | 'paymaster'
> & {
  slippage: SlippageSetting
  onEvent: (event: SwapLifecycleEvent) => void
  /**
   * The price-impact limits the preview shows and every execution of an
   * accepted quote is held to (a changed quote the user accepts included).
   * Default `defaultPriceImpactThresholds` (warn from 5%, block from 15%);
   * `false`: no limit.
   */
  priceImpactThresholds: PriceImpactThresholds | false
}

/**
 * What `onEvent` reports, for analytics and logs: the quote a preview was
 * built on (`'quote'`), the preview (`'preview'`), then the execution's events
 * (`SwapEvent`: approval and swap sent and mined, success, failure with the
 * error's stable `code`).
 */
export type SwapLifecycleEvent =
  | SwapEvent
  | { type: 'quote'; swapInfo: SwapInfo; quotedAt: number }
  | { type: 'preview'; preview: SwapPreview }

/** The provider's props that become execution defaults, in one list (the compiler keeps it complete). */
const executionSettings = [
  'walletClient',
  'publicClient',
  'chainId',
  'trustedAddresses',
  'dangerouslyTrustAnyAddress',
  'floorEnforcement',
  'batch',
  'storage',
  'paymaster',
  'slippage',
  'onEvent',
  'priceImpactThresholds',
] as const satisfies readonly (keyof SwapExecutionDefaults)[]

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
  /**
   * Where the user's bounds hold: `'onchain'` (default), in the mined
   * transaction, through the library's swap guard; `'simulation'`, in the
   * simulation only (see `executeSwap`'s `floorEnforcement`).
   */
  floorEnforcement?: SwapExecutionDefaults['floorEnforcement'] | undefined
  /** How approval and swap are sent: `'auto'` (one EIP-5792 batch where the wallet can), `'never'`, `'require'`. */
  batch?: SwapExecutionDefaults['batch'] | undefined
  /**
   * Price-impact limits for the preview and for every execution of an
   * accepted quote (a changed one included). Default: warn from 5%, block
   * from 15%; `false`: none.
   */
  priceImpactThresholds?: SwapExecutionDefaults['priceImpactThresholds'] | undefined
  /**
   * Where executions record their progress, for `usePendingSwaps` after a
   * reload. Default: `localStorage` in a browser, memory elsewhere; `false` records nothing.
   */
  storage?: SwapExecutionDefaults['storage'] | undefined
  /**
   * The slippage of every swap below (`useExecuteSwap`, `useSwapPreview`,
   * resume) that does not give its own: a number, or one per pair
   * (`({ token0, token1 }) => number | undefined`). Default `defaultSlippage` (0.005).
   */
  slippage?: SlippageSetting | undefined
  /** An ERC-7677 paymaster for the batch, used only where the wallet reports `paymasterService` for the chain. */
  paymaster?: SwapExecutionDefaults['paymaster'] | undefined
  /**
   * Every swap's events below the provider (quote, preview, approval and swap
   * sent and mined, success, failure with its `code`), for analytics. A
   * callback that throws changes nothing.
   */
  onEvent?: SwapExecutionDefaults['onEvent'] | undefined
  children?: ReactNode
}

/** What `SwapProvider` takes: the client (or its config), the query defaults and the execution defaults. */
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
  const { queryClient: queryClientProp, queryDefaults, children } = props
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

  const execution: Partial<SwapExecutionDefaults> = {}
  for (const name of executionSettings) (execution as Record<string, unknown>)[name] = props[name]
  // biome-ignore lint/correctness/useExhaustiveDependencies: the execution props, one by one, stand for execution.
  const value = useMemo(
    (): SwapContextValue => ({ client, queryClient, queryDefaults: queryDefaults ?? {}, execution }),
    [client, queryClient, queryDefaults, ...Object.values(execution)],
  )
  const provided = createElement(SwapContext.Provider, { value }, children)
  // Alone, the provider also provides its QueryClient, so useQuery, useQueryClient and the
  // devtools work below it; inside an app's QueryClientProvider, the app's stays the one they see.
  return outer ? provided : createElement(QueryClientProvider, { client: queryClient }, provided)
}

/**
 * The plain client settings a provider passes on (the functions `fetch`,
 * `headers` and `transformResponse` go through refs). The compiler keeps the
 * list complete: a setting added to `SwapClientConfig` must be named here.
 */
const plainSettings = [
  'baseUrl',
  'allowInsecureHttp',
  'timeoutMs',
  'arrayFormat',
  'rateLimit',
  'maxRateLimitPauseMs',
  'redirect',
  'maxResponseBytes',
] as const satisfies readonly Exclude<keyof SwapClientConfig, 'fetch' | 'headers' | 'transformResponse'>[]

/** Compiles only while `plainSettings` names every plain setting of `SwapClientConfig`. */
const _plainSettingsComplete: Exclude<
  keyof SwapClientConfig,
  'fetch' | 'headers' | 'transformResponse'
> extends (typeof plainSettings)[number]
  ? true
  : never = true

/**
 * The client the props describe. Every client setting reaches
 * `createSwapClient`, and the client is recreated only when one of them
 * changes; `fetch`, `headers` and `transformResponse` are read through refs,
 * so inline functions do not reset the cache or the rate limiter on every render.
 */
function useClientFromProps(props: SwapProviderProps): SwapClient {
  const { client, headers, transformResponse } = props
  // A setting left undefined is the client's default (createSwapClient's), and no part of the key.
  const settings: Record<string, unknown> = {}
  for (const name of plainSettings) settings[name] = props[name]
  // The functions are read from the latest props when they are called.
  const latest = useRef(props as Partial<SwapClientConfig>)
  latest.current = props as Partial<SwapClientConfig>
  const hasHeaders = headers !== undefined
  const hasTransform = transformResponse !== undefined
  // Plain values (strings, numbers, the rate limit object): one string stands for all of them.
  const settingsKey = JSON.stringify(settings)

  // biome-ignore lint/correctness/useExhaustiveDependencies: settingsKey stands for the settings; functions are read through a ref.
  return useMemo(() => {
    if (client) return client
    return createSwapClient({
      ...(settings as SwapClientConfig),
      fetch: (input, init) => (latest.current.fetch ?? globalThis.fetch)(input, init),
      headers: hasHeaders
        ? () => {
            const headers = latest.current.headers
            return typeof headers === 'function' ? headers() : (headers ?? {})
          }
        : undefined,
      transformResponse: hasTransform
        ? (body, context) => {
            const transform = latest.current.transformResponse
            return transform ? transform(body, context) : body
          }
        : undefined,
    })
  }, [client, settingsKey, hasHeaders, hasTransform])
}
