import type { QuoteRequest } from '../schemas.js'

/** A fetched quote, with the swap it was fetched for. */
export function withQuotedFor<quote extends object>(
  quote: quote,
  { token0, token1, amountIn }: QuoteRequest,
): quote & { quotedFor: QuoteRequest } {
  return { ...quote, quotedFor: { token0, token1, amountIn } }
}
