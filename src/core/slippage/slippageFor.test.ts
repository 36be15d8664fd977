import type { Address } from 'viem'
import { expect, test } from 'vitest'
import { type SlippageSetting, slippageFor } from './slippageFor.js'

const USDC = '0xA0b86991c6218b36c1d19D4a2e9Eb0cE3606eB48' as Address
const USDT = '0xdAC17F958D2ee523a2206206994597C13D831ec7' as Address
const WETH = '0xC02aaA39b223FE8D0A0e5C4F27eAD9083C756Cc2' as Address
const stable = new Set([USDC, USDT].map((token) => token.toLowerCase()))
const perPair: SlippageSetting = ({ token0, token1 }) =>
  stable.has(token0.toLowerCase()) && stable.has(token1.toLowerCase()) ? 0.001 : undefined

test.each([
  { setting: undefined, pair: { token0: USDC, token1: USDT }, expected: undefined },
  { setting: 0.01, pair: { token0: USDC, token1: WETH }, expected: 0.01 },
  { setting: perPair, pair: { token0: USDC, token1: USDT }, expected: 0.001 },
  { setting: perPair, pair: { token0: USDC, token1: WETH }, expected: undefined },
  // A pair not chosen yet: the function is not asked.
  { setting: perPair, pair: { token0: USDC, token1: undefined }, expected: undefined },
])('slippageFor($setting, …) → $expected', ({ setting, pair, expected }) => {
  expect(slippageFor(setting, pair)).toBe(expected)
})
