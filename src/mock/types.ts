import type { Address } from 'viem'

/** A token of the mock market, with the figures `/get_tokens_data` reports. */
export type MockToken = {
  /** The token's address (checksummed by the market). */
  address: Address
  symbol: string
  name: string
  decimals: number
  /** USD price of one whole token. */
  priceUsd: number
  /** Blacklisted tokens are never routed and hidden from lists unless `blacklist=true`. */
  blacklisted: boolean
  /** USD value of the token held in the market's (non-blacklisted) pairs. */
  liquidityUsd: number
  volume24hUsd: number
  /** In the token's smallest unit. */
  totalSupply: bigint
  /** In the token's smallest unit. */
  circulatingSupply: bigint
  marketCapUsd: number
  holders: number
  /** Sent in token records when set. */
  logoURI?: string | undefined
}

/**
 * A token as given to `createMockMarket`: address, symbol and decimals are
 * required; the rest defaults (name = symbol, price 0, not blacklisted,
 * liquidity computed from the pairs, market cap = price × circulating supply…).
 */
export type MockTokenParameters = Pick<MockToken, 'address' | 'symbol' | 'decimals'> &
  Partial<Omit<MockToken, 'address' | 'symbol' | 'decimals'>>

/** A constant-product pool between two tokens of the market. */
export type MockPair = {
  /** The pair's address (checksummed by the market). */
  address: Address
  token0: Address
  token1: Address
  /** Reserve of token0, in its smallest unit. */
  reserve0: bigint
  /** Reserve of token1, in its smallest unit. */
  reserve1: bigint
  /** The pool's fee in basis points (30 = 0.3%). */
  feeBps: number
  /** Blacklisted pairs are never routed and hidden from lists unless `blacklist=true`. */
  blacklisted: boolean
}

/** A pair as given to `createMockMarket`: the fee defaults to 30 bps, `blacklisted` to false. */
export type MockPairParameters = Omit<MockPair, 'feeBps' | 'blacklisted'> & {
  feeBps?: number | undefined
  blacklisted?: boolean | undefined
}

/** The parameters of a mock market's `quote`: the tokens and the input amount. */
export type QuoteParameters = {
  /** The input token, in any letter case. */
  token0: Address
  /** The output token, in any letter case. */
  token1: Address
  /** The input amount in token0's smallest unit. */
  amountIn: bigint
  /** At most this many swaps. Default: the market's `maxHops`. */
  maxHops?: number | undefined
}

/** One swap of a route. */
export type QuoteHop = {
  pair: Address
  tokenIn: Address
  tokenOut: Address
  feeBps: number
  amountIn: bigint
  amountOut: bigint
}

/** The best route of a quote. */
export type Quote = {
  /** Token addresses from token0 to token1 (the market's checksummed addresses). */
  path: Address[]
  /** Output in token1's smallest unit; always greater than 0. */
  amountOut: bigint
  /** The swaps, in order; `hops.length === path.length - 1`. */
  hops: QuoteHop[]
}

/** `undefined` when no route gives a positive output. */
export type QuoteReturnType = Quote | undefined

/** An in-memory market: tokens, constant-product pairs and a best-route quoter. */
export type MockMarket = {
  readonly tokens: readonly MockToken[]
  readonly pairs: readonly MockPair[]
  /** The contract `/swap/info` calldata is sent to (`transferAddress`). */
  readonly router: Address
  /** The ERC-20 spender (`approvalAddress`). */
  readonly spender: Address
  /** The longest route, in swaps. */
  readonly maxHops: number
  /** What `/swap/info` reports as `estimateTransferSeconds` for a quote. */
  readonly estimateTransferSeconds: (quote: Quote) => number
  /** A token by address (any case) or symbol (any case); `undefined` when unknown. */
  getToken(addressOrSymbol: string): MockToken | undefined
  /** A pair by address (any case); `undefined` when unknown. */
  getPair(address: string): MockPair | undefined
  /** True when the pair or one of its tokens is blacklisted. */
  isPairBlacklisted(pair: MockPair): boolean
  /**
   * The route with the highest output over all simple paths of up to
   * `maxHops` swaps, avoiding blacklisted pairs and tokens. Pure.
   */
  quote(parameters: QuoteParameters): QuoteReturnType
}

/** Milliseconds, or a range picked from uniformly per request. */
export type MockLatency = number | { min: number; max: number }

/** A token bucket per client: `burst ?? requestsPerSecond` tokens, refilled continuously. */
export type MockRateLimit = {
  requestsPerSecond: number
  burst?: number | undefined
  /**
   * The most clients tracked at once (default 10 000): beyond it the least
   * recently seen client's bucket is dropped (it starts again full). Buckets
   * that have refilled are dropped anyway.
   */
  maxClients?: number | undefined
}

/** A failure injected with `service.fail(...)`. */
export type MockFailure = {
  /** The status to answer with. Default 500 (ignored with `network`). */
  status?: number | undefined
  /** Fail at the network level (`Response.error()`), as a dropped connection. */
  network?: boolean | undefined
  /**
   * How many requests fail. Default `Infinity` when `endpoint` is given
   * (until `clearFailures()`), else 1.
   */
  times?: number | undefined
  /** Only requests to this path (relative to the base path, e.g. `/swap/route`). */
  endpoint?: string | undefined
  /**
   * The body: a string (sent as `text/html` when it starts with `<`, else
   * `text/plain`) or a JSON value. Default `{ "detail": "Injected failure" }`.
   */
  body?: unknown
  /** Overrides the content-type picked from the body. */
  contentType?: string | undefined
  /** Extra response headers. */
  headers?: Record<string, string> | undefined
}

/** One request seen by a mock service. */
export type MockRequestLogEntry = {
  method: string
  /** The path relative to the service's base path (`/swap/route`), or the full path outside it. */
  path: string
  /** The query parameters as sent, in order, decoded. */
  query: [string, string][]
  /** The status answered; 0 for an injected network error. */
  status: number
  clientId: string
  /** When the request arrived, epoch milliseconds. */
  time: number
}

/** The options of a mock service (`createMockService`, `startMockServer`, `createSwapHandlers`): its base path, latency, rate limit and log size. */
export type MockServiceOptions = {
  /** The path prefix the endpoints live under, e.g. `/api/v2`. Default `''`. */
  basePath?: string | undefined
  /** Delay before answering. Default none. */
  latency?: MockLatency | undefined
  /** Server-side rate limit per client. Default none. */
  rateLimit?: MockRateLimit | false | undefined
  /**
   * The most entries `log` keeps; beyond it the oldest are dropped, so a
   * long-running mock server does not grow without end. Default 10 000;
   * `Infinity` keeps everything, `0` nothing (then `count()` is always 0).
   */
  maxLogEntries?: number | undefined
}

/** What a transport passes along with a request. */
export type MockRequestContext = {
  /** The remote address, used as client id when there is no `x-client-id` header. */
  clientAddress?: string | undefined
}

/** The HTTP behaviour of the mock, independent of any transport. */
export type MockService = {
  readonly market: MockMarket
  /** The normalized base path (`''` or `/prefix` without a trailing slash). */
  readonly basePath: string
  /** Answers one request; resolves with `Response.error()` for an injected network failure. */
  handle(request: Request, context?: MockRequestContext): Promise<Response>
  /**
   * The requests seen, in arrival order (including 4xx, 429 and injected
   * failures): the newest `maxLogEntries` (default 10 000).
   */
  readonly log: readonly MockRequestLogEntry[]
  clearLog(): void
  /** How many requests (preflights excluded) were logged, optionally only those to `path`. */
  count(path?: string): number
  setLatency(latency: MockLatency | undefined): void
  setRateLimit(rateLimit: MockRateLimit | false | undefined): void
  /** Makes the next request(s) fail; see `MockFailure`. */
  fail(failure?: MockFailure): void
  clearFailures(): void
  /** Restores latency and rate limit to the creation options, clears failures, buckets and the log. */
  reset(): void
}
