import type { Address } from 'viem'
import { market } from './storyContext.js'

/** Token symbols of the mock market, for story controls. */
export const tokenSymbols = market.tokens.map((token) => token.symbol)

export type TokenSymbol = string

/** The address of a mock market token by symbol. */
export function addressOf(symbol: TokenSymbol | undefined): Address | undefined {
  return symbol ? market.getToken(symbol)?.address : undefined
}

export const tokenControl = { control: { type: 'select' }, options: tokenSymbols } as const
