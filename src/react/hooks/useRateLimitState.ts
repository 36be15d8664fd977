'use client'

import { useSyncExternalStore } from 'react'
import type { RateLimitState } from '../../core/rateLimiter.js'
import { useSwapContext } from './useSwapClient.js'

/** What `useRateLimitState` returns: until when the client is paused after a 429 (`rateLimitedUntil`), what the server asked for, and whether the pause was capped. */
export type UseRateLimitStateReturnType = RateLimitState

/**
 * Whether the client is paused after a 429, and until when. Every request of
 * the client waits until `rateLimitedUntil`; show it to the user. A server
 * may ask for a longer pause than the client's `maxRateLimitPauseMs`
 * (default one minute): the client then pauses for that long only,
 * `capped` is true and `requestedUntil` tells what the server asked.
 *
 * @example
 * const { rateLimitedUntil, capped } = useRateLimitState()
 * if (rateLimitedUntil)
 *   return (
 *     <p>
 *       Busy, retrying in {Math.ceil((rateLimitedUntil - Date.now()) / 1000)} s
 *       {capped ? ' (the service asked for longer: it may still refuse)' : ''}
 *     </p>
 *   )
 */
export function useRateLimitState(): UseRateLimitStateReturnType {
  const { rateLimiter } = useSwapContext().client
  return useSyncExternalStore(rateLimiter.subscribe, rateLimiter.getState, rateLimiter.getState)
}
