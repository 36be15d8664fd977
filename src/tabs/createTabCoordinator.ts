import type { QueryClient, QueryKey } from '@tanstack/react-query'
import type { SwapClient } from '../core/client.js'
import { ensure, type InvalidParameterError } from '../core/errors/parameter.js'
import { isObject } from '../core/utils/validate.js'
import { createBus } from './bus.js'
import { namePrefix, pageEnvironment, type TabEnvironment } from './environment.js'
import { lockPendingSwapsAcrossTabs } from './lockPendingSwaps.js'
import { type SharedPolling, sharePolling } from './sharePolling.js'
import { shareRateLimiter } from './shareRateLimiter.js'

/** The parameters of `createTabCoordinator`: the client whose requests the tabs share, and the QueryClient whose quotes one tab polls for all. */
export type CreateTabCoordinatorParameters = {
  /**
   * The client whose requests share one budget with every tab of the origin
   * (the same `baseUrl` in each). Its limiter and `request` are wrapped in
   * place until `destroy()`.
   */
  client: SwapClient
  /**
   * The QueryClient of the swap queries: a query polled in several tabs is
   * fetched by one of them, which hands its data to the others. Without it,
   * only the budget and resumes are shared.
   */
  queryClient?: QueryClient | undefined
}

/** The tabs of one origin as one client of the service: whether it runs, which tab leads a quote, and `destroy()`. */
export type TabCoordinator = {
  /**
   * False where `BroadcastChannel`, Web Locks or a page are missing (Node, a
   * worker, an old browser): then the coordinator does nothing, and the client
   * behaves as without it.
   */
  readonly enabled: boolean
  /**
   * Without a key: whether this tab runs the rate-limit budget of every tab.
   * With a query key: whether this tab leads the polling of that query (it
   * fetches it for every tab); false when it does not poll it.
   */
  isLeader(queryKey?: QueryKey): boolean
  /** Stops coordinating: the client's own limiter and request again, every lock released. */
  destroy(): void
}

/** What `createTabCoordinator` returns: the coordinator. */
export type CreateTabCoordinatorReturnType = TabCoordinator

/** What `createTabCoordinator` throws: a client or QueryClient that is not one. */
export type CreateTabCoordinatorErrorType = InvalidParameterError

type Running = {
  queryClient: QueryClient | undefined
  isLeader(queryKey?: QueryKey): boolean
  stop(): void
  count: number
}

/** The coordinator of each client: a second one for the same client shares it (counted). */
const running = new WeakMap<SwapClient, Running>()

/**
 * Makes the tabs of one origin behave as one client of the service, with
 * `BroadcastChannel` and Web Locks:
 *
 * - **one rate-limit budget**: every request of every tab takes a slot of one
 *   token bucket, and a 429 in one tab pauses all of them, with the same
 *   `rateLimitedUntil`, `requestedUntil` and cap (`useRateLimitState()` shows it
 *   in each);
 * - **one tab polls each quote**: a query polled in several tabs
 *   (`useSwapRoute`, `useSwapInfo`…, with a `refetchInterval`) is fetched by the
 *   tab holding its lock, and the others get the service's answer, which their
 *   own query parses as a fetch would (its schema, its checks), with its
 *   `dataUpdatedAt` (never later than now); when that tab closes, another takes over;
 * - **one tab resumes a swap**: a resume holds a lock named after the record,
 *   so a second tab resuming the same record gets `SwapInProgressError`.
 *
 * Call it before the first render (the first requests are then coordinated
 * too), or use `useTabCoordinator()` inside the provider. Where a part is
 * missing (Node, an old browser), it does nothing (`enabled: false`).
 *
 * @example
 * import { QueryClient } from '@tanstack/react-query'
 * import { createSwapClient, SwapProvider } from 'token-swap-hooks'
 * import { createTabCoordinator } from 'token-swap-hooks/tabs'
 *
 * const client = createSwapClient({ baseUrl: 'https://swap.example.com' })
 * const queryClient = new QueryClient()
 * createTabCoordinator({ client, queryClient })
 *
 * export const App = () => <SwapProvider client={client} queryClient={queryClient}>…</SwapProvider>
 */
export function createTabCoordinator(parameters: CreateTabCoordinatorParameters): TabCoordinator {
  return coordinateTabs(parameters, pageEnvironment())
}

/** `createTabCoordinator` in a given environment (the tests' fake tabs); `undefined`: none. */
export function coordinateTabs(
  parameters: CreateTabCoordinatorParameters,
  environment: TabEnvironment | undefined,
): TabCoordinator {
  ensure(isObject(parameters), 'parameters', 'must be an object with a client', parameters)
  const { client, queryClient } = parameters
  ensure(
    isObject(client) && typeof client.baseUrl === 'string' && isObject(client.rateLimiter),
    'client',
    'must be a client from createSwapClient',
    client,
  )
  ensure(
    queryClient === undefined || (isObject(queryClient) && typeof queryClient.getQueryCache === 'function'),
    'queryClient',
    'must be a QueryClient',
    queryClient,
  )
  if (!environment) return { enabled: false, isLeader: () => false, destroy: () => {} }
  let shared = running.get(client)
  if (shared)
    ensure(
      shared.queryClient === queryClient,
      'queryClient',
      'must be the QueryClient this client is already coordinated with',
      queryClient,
    )
  else {
    shared = start(client, queryClient, environment)
    running.set(client, shared)
  }
  const current = shared
  current.count += 1
  let destroyed = false
  return {
    enabled: true,
    isLeader: (queryKey) => !destroyed && current.isLeader(queryKey),
    destroy() {
      if (destroyed) return
      destroyed = true
      current.count -= 1
      if (current.count > 0) return
      current.stop()
      running.delete(client)
    },
  }
}

function start(
  client: SwapClient,
  queryClient: QueryClient | undefined,
  environment: TabEnvironment,
): Running {
  // A random id, never shared with another tab (Web Locks, and so a coordinator, need a secure
  // context, where crypto.randomUUID is).
  const bus = createBus(environment, `${namePrefix}:${client.baseUrl}`, crypto.randomUUID())
  const limiter = shareRateLimiter({
    limiter: client.rateLimiter,
    bus,
    environment,
    lockName: `${namePrefix}:limiter:${client.baseUrl}`,
  })
  const polling: SharedPolling | undefined =
    queryClient && sharePolling({ client, queryClient, bus, environment })
  const unlock = lockPendingSwapsAcrossTabs(environment.locks)
  return {
    queryClient,
    count: 0,
    isLeader: (queryKey) => (queryKey ? !!polling?.isLeader(queryKey) : limiter.isLeader()),
    stop() {
      unlock()
      polling?.stop()
      limiter.stop()
      bus.close()
    },
  }
}
