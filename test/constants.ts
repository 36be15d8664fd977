import type { Address } from 'viem'

export const baseUrl = 'https://swap.test'

export const WETH: Address = '0xC02aaA39b223FE8D0A0e5C4F27eAD9083C756Cc2'
export const USDC: Address = '0xA0b86991c6218b36c1d19D4a2e9Eb0cE3606eB48'
export const DAI: Address = '0x6B175474E89094C44Da98b954EedeAC495271d0F'
export const ALICE: Address = '0x70997970C51812dc3A010C7d01b50e0d17dc79C8'
