import { type Address, getAddress } from 'viem'
import { ensure, type InvalidParameterError } from '../core/errors/parameter.js'
import { isAddressLike } from '../core/utils/validate.js'
import { findBestRoute } from './findBestRoute.js'
import { defaultMockPairs, defaultMockRouter, defaultMockSpender, defaultMockTokens } from './fixtures.js'
import { getTokenLiquidityUsd, toUsd } from './getTokenLiquidityUsd.js'
import type {
  MockMarket,
  MockPair,
  MockPairParameters,
  MockToken,
  MockTokenParameters,
  Quote,
  QuoteParameters,
  QuoteReturnType,
} from './types.js'

/** The parameters of `createMockMarket`: its tokens and pools, router and spender (each with a default). */
export type CreateMockMarketParameters = {
  /**
   * The tokens. Default: `defaultMockTokens`. Only address, symbol and
   * decimals are required; see `MockTokenParameters` for the defaults.
   */
  tokens?: readonly MockTokenParameters[] | undefined
  /**
   * The pairs; their tokens must be among `tokens`. Default: those of
   * `defaultMockPairs` whose two tokens are in the market.
   */
  pairs?: readonly MockPairParameters[] | undefined
  /** The contract the calldata of `/swap/info` targets. Default `defaultMockRouter`. */
  router?: Address | undefined
  /** The ERC-20 spender of `/swap/info`. Default `defaultMockSpender`. */
  spender?: Address | undefined
  /** The longest route, in swaps. Default 3. */
  maxHops?: number | undefined
  /**
   * `estimateTransferSeconds` of `/swap/info`: a number, or a function of the
   * quote. Default `10 + 2 × swaps`.
   */
  estimateTransferSeconds?: number | ((quote: Quote) => number) | undefined
}

/** What `createMockMarket` returns: the market, which quotes swaps and moves its reserves. */
export type CreateMockMarketReturnType = MockMarket

/** What `createMockMarket` throws: a malformed token or pair. */
export type CreateMockMarketErrorType = InvalidParameterError

/**
 * Creates an in-memory market of tokens and constant-product pairs with a
 * pure best-route quoter. Deterministic: the same options give the same
 * market and the same quotes. Addresses are matched in any letter case and
 * returned checksummed.
 *
 * @example
 * import { createMockMarket } from 'token-swap-hooks/mock'
 *
 * const market = createMockMarket() // the default fixture
 * const quote = market.quote({
 *   token0: '0xC02aaA39b223FE8D0A0e5C4F27eAD9083C756Cc2', // WETH
 *   token1: '0xA0b86991c6218b36c1d19D4a2e9Eb0cE3606eB48', // USDC
 *   amountIn: 10n ** 18n,
 * })
 * // quote?.path, quote?.amountOut (bigint, USDC units)
 *
 * @example
 * // A market of your own tokens (e.g. ERC-20s deployed on a test chain)
 * const market = createMockMarket({
 *   tokens: [
 *     { address: tokenA, symbol: 'AAA', decimals: 18, priceUsd: 2 },
 *     { address: tokenB, symbol: 'BBB', decimals: 6, priceUsd: 1 },
 *   ],
 *   pairs: [{ address: pairAB, token0: tokenA, token1: tokenB, reserve0: 10n ** 24n, reserve1: 2n * 10n ** 12n }],
 *   router: routerAddress,
 *   spender: routerAddress,
 * })
 */
export function createMockMarket(parameters: CreateMockMarketParameters = {}): CreateMockMarketReturnType {
  const maxHops = parameters.maxHops ?? 3
  ensure(
    Number.isSafeInteger(maxHops) && maxHops >= 1,
    'maxHops',
    'must be an integer of at least 1',
    maxHops,
  )
  const router = checksum('router', parameters.router ?? defaultMockRouter)
  const spender = checksum('spender', parameters.spender ?? defaultMockSpender)
  const estimate = parameters.estimateTransferSeconds ?? ((quote: Quote) => 10 + 2 * quote.hops.length)
  ensure(
    typeof estimate !== 'number' || (Number.isFinite(estimate) && estimate >= 0),
    'estimateTransferSeconds',
    'must be a number of at least 0 or a function',
    estimate,
  )
  const estimateTransferSeconds = typeof estimate === 'number' ? () => estimate : estimate

  // Tokens, first without the figures that depend on the pairs; then the pairs.
  const tokensByAddress = checkTokens(parameters.tokens ?? defaultMockTokens)
  const pairInputs =
    parameters.pairs ??
    (parameters.tokens
      ? defaultMockPairs.filter(
          (pair) =>
            tokensByAddress.has(pair.token0.toLowerCase()) && tokensByAddress.has(pair.token1.toLowerCase()),
        )
      : defaultMockPairs)
  const pairsByAddress = new Map<string, MockPair>()
  const pairs = pairInputs.map((pair, index) =>
    checkPair(pair, `pairs[${index}]`, tokensByAddress, pairsByAddress),
  )

  const isTokenBlacklisted = (address: string) =>
    tokensByAddress.get(address.toLowerCase())?.blacklisted ?? false
  const isPairBlacklisted = (pair: MockPair) =>
    pair.blacklisted || isTokenBlacklisted(pair.token0) || isTokenBlacklisted(pair.token1)
  const routablePairs = pairs.filter((pair) => !isPairBlacklisted(pair))

  const tokens = [...tokensByAddress.values()].map((token) => marketToken(token, routablePairs))
  const tokensByLowerAddress = new Map(tokens.map((token) => [token.address.toLowerCase(), token]))

  return Object.freeze({
    tokens: Object.freeze(tokens),
    pairs: Object.freeze(pairs),
    router,
    spender,
    maxHops,
    estimateTransferSeconds,
    getToken(addressOrSymbol: string) {
      const key = addressOrSymbol.toLowerCase()
      return tokensByLowerAddress.get(key) ?? tokens.find((token) => token.symbol.toLowerCase() === key)
    },
    getPair(address: string) {
      return pairsByAddress.get(address.toLowerCase())
    },
    isPairBlacklisted,
    quote({ token0, token1, amountIn, maxHops: hops = maxHops }: QuoteParameters): QuoteReturnType {
      if (typeof token0 !== 'string' || typeof token1 !== 'string' || typeof amountIn !== 'bigint')
        return undefined
      for (const token of [token0, token1]) {
        const known = tokensByLowerAddress.get(token.toLowerCase())
        if (!known || known.blacklisted) return undefined
      }
      return findBestRoute({ pairs: routablePairs, token0, token1, amountIn, maxHops: hops })
    },
  })
}

type TokenInput = MockTokenParameters & { address: Address }

/**
 * The market's tokens as given, checked (a checksummed, unique address, a
 * symbol, decimals from 0 to 255, a price and supplies of at least 0), by
 * lower-case address.
 */
function checkTokens(tokenInputs: readonly MockTokenParameters[]): Map<string, TokenInput> {
  const tokensByAddress = new Map<string, TokenInput>()
  tokenInputs.forEach((token, index) => {
    const where = `tokens[${index}]`
    const address = checksum(`${where}.address`, token.address)
    ensure(!tokensByAddress.has(address.toLowerCase()), `${where}.address`, 'must be unique', token.address)
    ensure(
      typeof token.symbol === 'string' && token.symbol !== '',
      `${where}.symbol`,
      'must be a non-empty string',
      token.symbol,
    )
    ensure(
      Number.isInteger(token.decimals) && token.decimals >= 0 && token.decimals <= 255,
      `${where}.decimals`,
      'must be an integer from 0 to 255',
      token.decimals,
    )
    ensure(
      token.priceUsd === undefined || (Number.isFinite(token.priceUsd) && token.priceUsd >= 0),
      `${where}.priceUsd`,
      'must be a finite number of at least 0',
      token.priceUsd,
    )
    for (const field of ['totalSupply', 'circulatingSupply'] as const) {
      const value = token[field]
      ensure(
        value === undefined || (typeof value === 'bigint' && value >= 0n),
        `${where}.${field}`,
        'must be a bigint of at least 0',
        value,
      )
    }
    tokensByAddress.set(address.toLowerCase(), { ...token, address })
  })
  return tokensByAddress
}

/**
 * A pair as given (`where` names it in errors), checked: a checksummed
 * address not in `pairsByAddress` yet (where the pair is added), two
 * different tokens of the market, reserves and a fee in basis points. Frozen.
 */
function checkPair(
  pair: MockPairParameters,
  where: string,
  tokensByAddress: Map<string, TokenInput>,
  pairsByAddress: Map<string, MockPair>,
): MockPair {
  const address = checksum(`${where}.address`, pair.address)
  ensure(!pairsByAddress.has(address.toLowerCase()), `${where}.address`, 'must be unique', pair.address)
  const [token0, token1] = (['token0', 'token1'] as const).map((field) => {
    const token = tokensByAddress.get(String(pair[field]).toLowerCase())
    ensure(token, `${where}.${field}`, 'must be the address of one of the market’s tokens', pair[field])
    return token.address
  }) as [Address, Address]
  ensure(token0 !== token1, `${where}.token1`, 'must differ from token0', pair.token1)
  for (const field of ['reserve0', 'reserve1'] as const)
    ensure(
      typeof pair[field] === 'bigint' && pair[field] >= 0n,
      `${where}.${field}`,
      'must be a bigint of at least 0 (smallest units)',
      pair[field],
    )
  const feeBps = pair.feeBps ?? 30
  ensure(
    Number.isInteger(feeBps) && feeBps >= 0 && feeBps < 10_000,
    `${where}.feeBps`,
    'must be an integer from 0 to 9999 (basis points)',
    feeBps,
  )
  const resolved: MockPair = Object.freeze({
    address,
    token0,
    token1,
    reserve0: pair.reserve0,
    reserve1: pair.reserve1,
    feeBps,
    blacklisted: pair.blacklisted ?? false,
  })
  pairsByAddress.set(address.toLowerCase(), resolved)
  return resolved
}

/**
 * A token of the market with every figure filled in: what was given, or
 * worked out (its liquidity from the pairs it can be routed through, its
 * market cap from its circulating supply and price). Frozen.
 */
function marketToken(token: TokenInput, routablePairs: MockPair[]): MockToken {
  const priceUsd = token.priceUsd ?? 0
  const totalSupply = token.totalSupply ?? 0n
  const circulatingSupply = token.circulatingSupply ?? totalSupply
  const blacklisted = token.blacklisted ?? false
  return Object.freeze({
    address: token.address,
    symbol: token.symbol,
    name: token.name ?? token.symbol,
    decimals: token.decimals,
    priceUsd,
    blacklisted,
    liquidityUsd:
      token.liquidityUsd ??
      (blacklisted ? 0 : getTokenLiquidityUsd({ token: { ...token, priceUsd }, pairs: routablePairs })),
    volume24hUsd: token.volume24hUsd ?? 0,
    totalSupply,
    circulatingSupply,
    marketCapUsd: token.marketCapUsd ?? toUsd(circulatingSupply, token.decimals, priceUsd),
    holders: token.holders ?? 0,
    ...(token.logoURI !== undefined ? { logoURI: token.logoURI } : {}),
  })
}

function checksum(parameter: string, address: unknown): Address {
  ensure(isAddressLike(address), parameter, 'must be an address (0x followed by 40 hex digits)', address)
  return getAddress(address.toLowerCase())
}
