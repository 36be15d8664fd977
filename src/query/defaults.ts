const second = 1000
const minute = 60 * second

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

/** A quote's: fresh for 10 s, polled every 15 s. */
export const quoteDefaults = { staleTime: 10 * second, gcTime: minute, refetchInterval: 15 * second } as const
/** A list's: fresh for 5 minutes. */
export const listDefaults = { staleTime: 5 * minute, gcTime: 30 * minute } as const
/** A price's: fresh for 30 s. */
export const priceDefaults = { staleTime: 30 * second, gcTime: 5 * minute } as const

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
