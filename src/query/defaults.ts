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

const quote = { staleTime: 10 * second, gcTime: minute, refetchInterval: 15 * second } as const
const list = { staleTime: 5 * minute, gcTime: 30 * minute } as const
const price = { staleTime: 30 * second, gcTime: 5 * minute } as const

/**
 * Cache times per resource. Quotes are fresh for 10 s and polled every 15 s
 * (not in background tabs); prices are fresh for 30 s; lists for 5 minutes.
 * Override them per provider (`queryDefaults`) or per hook (`query`).
 */
export const queryDefaults = {
  swapRoute: quote,
  swapInfo: quote,
  legacyPath: quote,
  tokenPrice: price,
  pairs: list,
  tokens: list,
  tokensData: list,
  legacyPairs: list,
  legacyTokens: list,
} as const satisfies Record<QueryResource, { staleTime: number; gcTime: number; refetchInterval?: number }>
