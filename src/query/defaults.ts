/** The resources a provider's `queryDefaults` can tune, one per endpoint. */
export type QueryResource =
  | 'swapRoute'
  | 'swapInfo'
  | 'legacyPath'
  | 'pairs'
  | 'tokens'
  | 'tokensData'
  | 'legacyPairs'
  | 'legacyTokens'
  | 'tokenPrice'

/** A quote's: fresh for 10 s, polled every 15 s, kept for a minute. */
export const quoteDefaults = { staleTime: 10_000, gcTime: 60_000, refetchInterval: 15_000 } as const
/** A list's: fresh for 5 minutes, kept for 30. */
export const listDefaults = { staleTime: 300_000, gcTime: 1_800_000 } as const
/** A price's: fresh for 30 s, kept for 5 minutes. (Literal numbers: a product would keep an unused one in a bundle.) */
export const priceDefaults = { staleTime: 30_000, gcTime: 300_000 } as const

/**
 * Cache times per resource. Quotes are fresh for 10 s and polled every 15 s
 * (not in background tabs); prices are fresh for 30 s; lists for 5 minutes.
 * Override them per provider (`queryDefaults`) or per hook (`query`).
 */
export const queryDefaults = {
  swapRoute: quoteDefaults,
  swapInfo: quoteDefaults,
  legacyPath: quoteDefaults,
  tokenPrice: priceDefaults,
  pairs: listDefaults,
  tokens: listDefaults,
  tokensData: listDefaults,
  legacyPairs: listDefaults,
  legacyTokens: listDefaults,
} as const satisfies Record<QueryResource, { staleTime: number; gcTime: number; refetchInterval?: number }>
