/** The quotes a swap was sent for (by object). */
const spent = new WeakSet<object>()

/**
 * Marks the accepted quote as spent once its swap is sent: executing it again
 * is refused, so a second click on a stale screen cannot repeat the swap.
 *
 * @example
 * markQuoteSpent(parameters.acceptedQuote)
 */
export function markQuoteSpent(quote: object | undefined): void {
  if (quote) spent.add(quote)
}

/**
 * Whether a swap was already sent for this accepted quote.
 *
 * @example
 * ensure(!isQuoteSpent(accepted), 'acceptedQuote', 'was already swapped: take a fresh quote', amount)
 */
export const isQuoteSpent = (quote: object): boolean => spent.has(quote)
