import { type Address, parseUnits } from 'viem'
import { nativeTokenAddress } from '../core/constants.js'
import { getTokenLiquidityUsd, toUsd } from './getTokenLiquidityUsd.js'
import type { MockPair, MockToken } from './types.js'

/** The default router: the contract `/swap/info` calldata targets (`transferAddress`). Not a real contract. */
export const defaultMockRouter: Address = '0x5A4B5A4B00000000000000000000000000000001'

/** The default ERC-20 spender (`approvalAddress`). Not a real contract. */
export const defaultMockSpender: Address = '0x5a4B5A4B00000000000000000000000000000002'

/** The addresses of the default tokens, by symbol (real mainnet addresses, plus three made-up ones). */
export const mockTokenAddresses = {
  ETH: nativeTokenAddress,
  WETH: '0xC02aaA39b223FE8D0A0e5C4F27eAD9083C756Cc2',
  USDC: '0xA0b86991c6218b36c1d19D4a2e9Eb0cE3606eB48',
  USDT: '0xdAC17F958D2ee523a2206206994597C13D831ec7',
  DAI: '0x6B175474E89094C44Da98b954EedeAC495271d0F',
  WBTC: '0x2260FAC5E5542a773Aa44fBCfeDf7C193bc2C599',
  LINK: '0x514910771AF9Ca656af840dff83E8264EcF986CA',
  UNI: '0x1f9840a85d5aF5bf1D1762F925BDADdC4201F984',
  /** Made up; blacklisted. */
  SCAM: '0x5cA35ca35ca35cA35CA35Ca35cA35ca35CA35ca3',
  /** Made up; in no pair, so no route reaches it. */
  LONE: '0x10E010e010e010e010e010e010e010e010E010E0',
  /** Made up; paired only with LINK, so most of its routes take two or three swaps. */
  TAIL: '0x7a117A117A117a117A117a117a117A117a117A11',
} as const satisfies Record<string, Address>

type FixtureSymbol = keyof typeof mockTokenAddresses

const decimalsOf: Record<FixtureSymbol, number> = {
  ETH: 18,
  WETH: 18,
  USDC: 6,
  USDT: 6,
  DAI: 18,
  WBTC: 8,
  LINK: 18,
  UNI: 18,
  SCAM: 18,
  LONE: 18,
  TAIL: 18,
}

const pair = (
  address: Address,
  [symbol0, amount0]: [FixtureSymbol, string],
  [symbol1, amount1]: [FixtureSymbol, string],
  feeBps: number,
  blacklisted = false,
): MockPair => ({
  address,
  token0: mockTokenAddresses[symbol0],
  token1: mockTokenAddresses[symbol1],
  reserve0: parseUnits(amount0, decimalsOf[symbol0]),
  reserve1: parseUnits(amount1, decimalsOf[symbol1]),
  feeBps,
  blacklisted,
})

/**
 * The default pairs. Reserves match the default prices (ETH 3 000 USD, WBTC
 * 60 000, LINK 15, UNI 8, TAIL 0.75); WETH/USDC has two pools (0.05% and
 * 0.3%); ETH (the native sentinel) is a pool token like any other; UNI/USDC
 * and SCAM/USDC are blacklisted (UNI/USDC is mispriced, so routing through it
 * would pay more); SCAM/WETH is not flagged but its SCAM token is.
 */
export const defaultMockPairs: readonly MockPair[] = [
  pair('0x3729E5A9bB0da9E9853166c4A18F058FcbE0eA9d', ['WETH', '20000'], ['USDC', '60000000'], 5),
  pair('0x108204d187E412bFC1e9deC6Fa423Ec5b2e1e3c2', ['WETH', '5000'], ['USDC', '15000000'], 30),
  pair('0xdc01a287f0521366C10088DE88C47b8D54aade6F', ['WETH', '8000'], ['USDT', '24000000'], 30),
  pair('0x3cA3e9fE2590AE9D77C0217Cd88d667b61Cfc1E3', ['WETH', '5000'], ['DAI', '15000000'], 30),
  pair('0x3934842a6e68E766285Dc981455aad87087F129E', ['USDC', '50000000'], ['USDT', '50000000'], 1),
  pair('0xBf507B212C7aD0F6d02c45a266CDF9A6045090C3', ['USDC', '40000000'], ['DAI', '40000000'], 1),
  pair('0x2027822109D02216fd139BD07BdE7eAfB63AC792', ['WBTC', '500'], ['WETH', '10000'], 30),
  pair('0x3755f9e7Fd58F5b48C439A08b23B70dee6155FE7', ['WBTC', '200'], ['USDC', '12000000'], 30),
  pair('0xc7604aDC789C90EA3C4371A52234E0B085BC7298', ['LINK', '1000000'], ['WETH', '5000'], 30),
  pair('0xb1b14D5689F5f06084d7A7B0813fe39ef82821A7', ['LINK', '400000'], ['USDC', '6000000'], 30),
  pair('0x633699CC45D294dA2f2e821FAc9eb5a39D216f1D', ['UNI', '1500000'], ['WETH', '4000'], 30),
  pair('0x1adB9E9F5dC90dC6e4078E07d848AACBB83644bB', ['ETH', '10000'], ['USDC', '30000000'], 5),
  pair('0x97209988B7CB2091157208745bd3a37DB9604948', ['ETH', '50000'], ['WETH', '50000'], 1),
  pair('0x3B72B0F923a80D1eCb64D8A0a4847Baf502a1aB1', ['ETH', '2000'], ['DAI', '6000000'], 30),
  pair('0xa08B6A5f06EDB2e7578674552F14Dd7e21B3d246', ['TAIL', '2000000'], ['LINK', '100000'], 100),
  pair('0x1Aa272c20727484960b7B47BE96e97F731c780fC', ['SCAM', '1000000000'], ['WETH', '100'], 30),
  pair('0x32e78a6d86E70c47eBe39F2491f79E87c4a72329', ['UNI', '500000'], ['USDC', '8000000'], 30, true),
  pair('0x5a891b4643764581f390DeC0Ea12A4beE9137Df5', ['SCAM', '1000000000'], ['USDC', '300000'], 30, true),
]

const blacklistedTokens = new Set<FixtureSymbol>(['SCAM'])
const listedPairs = defaultMockPairs.filter(
  (pair) =>
    !pair.blacklisted &&
    ![pair.token0, pair.token1].some((address) =>
      [...blacklistedTokens].some((symbol) => mockTokenAddresses[symbol] === address),
    ),
)

const token = (
  symbol: FixtureSymbol,
  name: string,
  priceUsd: number,
  supply: { total: string; circulating?: string },
  volume24hUsd: number,
  holders: number,
): MockToken => {
  const address = mockTokenAddresses[symbol]
  const decimals = decimalsOf[symbol]
  const totalSupply = parseUnits(supply.total, decimals)
  const circulatingSupply = parseUnits(supply.circulating ?? supply.total, decimals)
  const blacklisted = blacklistedTokens.has(symbol)
  return {
    address,
    symbol,
    name,
    decimals,
    priceUsd,
    blacklisted,
    liquidityUsd: blacklisted
      ? 0
      : getTokenLiquidityUsd({ token: { address, decimals, priceUsd }, pairs: listedPairs }),
    volume24hUsd,
    totalSupply,
    circulatingSupply,
    marketCapUsd: toUsd(circulatingSupply, decimals, priceUsd),
    holders,
  }
}

/**
 * The default tokens: the native-coin sentinel (ETH), WETH, USDC, USDT, DAI,
 * WBTC, LINK and UNI at their mainnet addresses and decimals, plus SCAM
 * (blacklisted), LONE (in no pair) and TAIL (paired only with LINK). Prices
 * and figures are a plausible snapshot, not live data.
 */
export const defaultMockTokens: readonly MockToken[] = [
  token('ETH', 'Ether', 3000, { total: '120450000' }, 15_000_000_000, 270_000_000),
  token('WETH', 'Wrapped Ether', 3000, { total: '2950000' }, 1_200_000_000, 1_150_000),
  token('USDC', 'USD Coin', 1, { total: '35000000000' }, 6_500_000_000, 2_600_000),
  token('USDT', 'Tether USD', 1, { total: '60000000000' }, 30_000_000_000, 6_500_000),
  token('DAI', 'Dai Stablecoin', 1, { total: '3600000000' }, 250_000_000, 560_000),
  token('WBTC', 'Wrapped BTC', 60000, { total: '150000' }, 300_000_000, 62_000),
  token(
    'LINK',
    'ChainLink Token',
    15,
    { total: '1000000000', circulating: '587000000' },
    400_000_000,
    780_000,
  ),
  token('UNI', 'Uniswap', 8, { total: '1000000000', circulating: '600000000' }, 150_000_000, 380_000),
  token('SCAM', 'Totally Legit Token', 0.0003, { total: '1000000000000' }, 42_000, 1_337),
  token('LONE', 'Lonely Token', 2.5, { total: '10000000', circulating: '4000000' }, 0, 12),
  token('TAIL', 'Long Tail', 0.75, { total: '100000000', circulating: '40000000' }, 250_000, 2_150),
]
