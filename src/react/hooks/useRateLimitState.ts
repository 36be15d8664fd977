import { useSyncExternalStore } from 'react'
import type { RateLimitState } from '../../core/rateLimiter.js'
import { useSwapContext } from './useSwapClient.js'

export type UseRateLimitStateReturnType = RateLimitState

/**
 * Whether the client is paused after a 429, and until when. Every request of
 * the client waits until `rateLimitedUntil`; show it to the user.
 *
 * @example
 * const { rateLimitedUntil } = useRateLimitState()
 * if (rateLimitedUntil) return <p>Busy, retrying in {Math.ceil((rateLimitedUntil - Date.now()) / 1000)} s</p>
 */
export function useRateLimitState(): UseRateLimitStateReturnType {
  const { rateLimiter } = useSwapContext('useRateLimitState').client
  return useSyncExternalStore(rateLimiter.subscribe, rateLimiter.getState, rateLimiter.getState)
}
