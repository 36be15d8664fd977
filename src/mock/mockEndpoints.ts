import type { Endpoint } from '../core/types.js'
import { createQueryReader, type QueryReader } from './createQueryReader.js'
import { getSwapInfoBody } from './getSwapInfoBody.js'
import { toUsd } from './getTokenLiquidityUsd.js'
import type { MockMarket, MockPair, MockToken } from './types.js'

/** What an endpoint answers: a status and a JSON body. */
export type MockReply = { status: number; body: unknown }

export type MockEndpoint = (market: MockMarket, query: URLSearchParams) => MockReply

const noPath = (): MockReply => ({
  status: 404,
  body: { detail: 'No path found between token0 and token1' },
})

const invalid = (query: QueryReader): MockReply => ({ status: 422, body: { detail: query.issues } })

/** token0, token1 and amount_in, shared by `/swap/route`, `/swap/info` and `/get_path`. */
function readRouteQuery(query: QueryReader) {
  const token0 = query.address('token0', true)
  const token1 = query.address('token1', true)
  const amountIn = query.positiveInteger('amount_in', true)
  if (token0 && token1 && token0.toLowerCase() === token1.toLowerCase())
    query.addIssue({
      loc: ['query', 'token1'],
      msg: 'Value error, token1 must differ from token0',
      type: 'value_error',
      input: token1,
    })
  return { token0, token1, amountIn }
}

function route(market: MockMarket, params: URLSearchParams): MockReply {
  const query = createQueryReader(params)
  const { token0, token1, amountIn } = readRouteQuery(query)
  if (query.issues.length || !token0 || !token1 || amountIn === undefined) return invalid(query)
  const quote = market.quote({ token0, token1, amountIn })
  if (!quote) return noPath()
  return { status: 200, body: { path: quote.path, amount_out: quote.amountOut.toString() } }
}

function swapInfo(market: MockMarket, params: URLSearchParams): MockReply {
  const query = createQueryReader(params)
  const { token0, token1, amountIn } = readRouteQuery(query)
  const to = query.address('to', true)
  const slippage = query.float('slippage', { min: 0, max: 1 })
  const deadline = query.positiveInteger('deadline', false)
  if (query.issues.length || !token0 || !token1 || amountIn === undefined || !to) return invalid(query)
  const body = getSwapInfoBody({ market, token0, token1, amountIn, to, slippage, deadline })
  return body ? { status: 200, body } : noPath()
}

/** True when the token's address or symbol equals one of the filter values (any case). */
function matchesToken(token: MockToken | undefined, filters: string[]): boolean {
  if (!token) return false
  const address = token.address.toLowerCase()
  const symbol = token.symbol.toLowerCase()
  return filters.some((filter) => {
    const value = filter.toLowerCase()
    return value === address || value === symbol
  })
}

function tokenRecord(token: MockToken) {
  return {
    address: token.address,
    symbol: token.symbol,
    name: token.name,
    decimals: token.decimals,
    blacklisted: token.blacklisted,
    ...(token.logoURI !== undefined ? { logoURI: token.logoURI } : {}),
  }
}

function pairRecord(market: MockMarket, pair: MockPair) {
  const token0 = market.getToken(pair.token0) as MockToken
  const token1 = market.getToken(pair.token1) as MockToken
  return {
    address: pair.address,
    token0: pair.token0,
    token1: pair.token1,
    symbol0: token0.symbol,
    symbol1: token1.symbol,
    reserve0: pair.reserve0.toString(),
    reserve1: pair.reserve1.toString(),
    feeBps: pair.feeBps,
    fee: pair.feeBps / 10_000,
    liquidityUsd:
      Math.round(
        (toUsd(pair.reserve0, token0.decimals, token0.priceUsd) +
          toUsd(pair.reserve1, token1.decimals, token1.priceUsd)) *
          100,
      ) / 100,
    blacklisted: market.isPairBlacklisted(pair),
  }
}

function tokenData(token: MockToken) {
  return {
    address: token.address,
    symbol: token.symbol,
    name: token.name,
    decimals: token.decimals,
    price_usd: token.priceUsd,
    liquidity_usd: token.liquidityUsd,
    volume_24h_usd: token.volume24hUsd,
    total_supply: token.totalSupply.toString(),
    circulating_supply: token.circulatingSupply.toString(),
    market_cap_usd: token.marketCapUsd,
    holders: token.holders,
  }
}

function overviewPairs(market: MockMarket, params: URLSearchParams): MockReply {
  const query = createQueryReader(params)
  const byToken = query.array('filter_by_token')
  const byPair = query.array('filter_by_pair').map((value) => value.toLowerCase())
  const blacklist = query.boolean('blacklist') ?? false
  if (query.issues.length) return invalid(query)
  const pairs = market.pairs.filter(
    (pair) =>
      (blacklist || !market.isPairBlacklisted(pair)) &&
      (byToken.length === 0 ||
        matchesToken(market.getToken(pair.token0), byToken) ||
        matchesToken(market.getToken(pair.token1), byToken)) &&
      (byPair.length === 0 || byPair.includes(pair.address.toLowerCase())),
  )
  return { status: 200, body: { pairs: pairs.map((pair) => pairRecord(market, pair)) } }
}

function overviewTokens(market: MockMarket, params: URLSearchParams): MockReply {
  const query = createQueryReader(params)
  const byToken = query.array('filter_by_token')
  const blacklist = query.boolean('blacklist') ?? false
  if (query.issues.length) return invalid(query)
  const tokens = market.tokens.filter(
    (token) => (blacklist || !token.blacklisted) && (byToken.length === 0 || matchesToken(token, byToken)),
  )
  return { status: 200, body: { tokens: tokens.map(tokenRecord) } }
}

function tokenPrice(market: MockMarket, params: URLSearchParams): MockReply {
  const query = createQueryReader(params)
  const address = query.address('address', true)
  if (query.issues.length || !address) return invalid(query)
  const token = market.tokens.find((token) => token.address.toLowerCase() === address.toLowerCase())
  if (!token) return { status: 404, body: { detail: 'Token not found' } }
  return { status: 200, body: { address: token.address, price: token.priceUsd } }
}

const listedTokens = (market: MockMarket) => market.tokens.filter((token) => !token.blacklisted)

/**
 * The nine endpoints of the service over a market, as pure functions of the
 * query string. Paths are relative to the service's base path.
 *
 * @example
 * const { status, body } = mockEndpoints['/overview/tokens'](market, new URLSearchParams('blacklist=true'))
 */
export const mockEndpoints: Record<Endpoint, MockEndpoint> = {
  '/swap/route': route,
  '/swap/info': swapInfo,
  '/overview/pairs': overviewPairs,
  '/overview/tokens': overviewTokens,
  '/overview/token/price': tokenPrice,
  '/get_path': route,
  '/get_pairs': (market) => ({
    status: 200,
    body: market.pairs
      .filter((pair) => !market.isPairBlacklisted(pair))
      .map((pair) => pairRecord(market, pair)),
  }),
  '/get_tokens': (market) => ({ status: 200, body: listedTokens(market).map(tokenRecord) }),
  '/get_tokens_data': (market) => ({ status: 200, body: listedTokens(market).map(tokenData) }),
}

/**
 * True when `path` is one of the nine endpoints.
 *
 * @example
 * if (isEndpoint(path)) reply = mockEndpoints[path](market, url.searchParams)
 */
export function isEndpoint(path: string): path is Endpoint {
  return Object.hasOwn(mockEndpoints, path)
}
