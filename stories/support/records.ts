import type { Pair } from '../../src/exports/index.js'
import { market } from './storyContext.js'
import { formatAmount } from './ui.js'

/** A reserve as the service sent it (an integer string or a safe integer), as a bigint. */
export function toAmount(value: unknown): bigint | undefined {
  if (typeof value === 'bigint') return value
  if (typeof value === 'number' && Number.isSafeInteger(value) && value >= 0) return BigInt(value)
  if (typeof value === 'string' && /^(\d+|0x[0-9a-f]+)$/i.test(value.trim())) return BigInt(value.trim())
  return undefined
}

/**
 * One side of a pair record: the spec names only `address`, so the token, its symbol and its reserve
 * are read tolerantly (`token0`/`symbol0`/`reserve0` as the mock sends them); the decimals come
 * from the mock market, as a widget would take them from useTokens.
 */
export function sideOf(pair: Pair, side: 0 | 1) {
  const address = pair[`token${side}`]
  const token = typeof address === 'string' ? market.getToken(address) : undefined
  const sentSymbol = pair[`symbol${side}`]
  const symbol = typeof sentSymbol === 'string' ? sentSymbol : (token?.symbol ?? '?')
  const reserve = toAmount(pair[`reserve${side}`])
  return {
    symbol,
    reserve: reserve !== undefined && token ? formatAmount(reserve, token.decimals, 2) : '–',
  }
}
