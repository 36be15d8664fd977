import { InvalidParameterError } from '../errors/parameter.js'
import { HttpError, NetworkError, RateLimitError, TimeoutError } from '../errors/request.js'

/** At most this many tries per request: the first and two retries. */
export const maxAttempts = 3

/**
 * Whether a failed request is worth another try: 429, 5xx, network and
 * timeout errors are; 4xx (404 `NoRouteError` and 422 included), invalid
 * parameters, bad bodies, refused redirects (`RedirectError`), oversized
 * answers (`ResponseTooLargeError`) and aborts are not.
 *
 * @example
 * if (isRetryableError(error)) scheduleRetry()
 */
export function isRetryableError(error: unknown): boolean {
  if (error instanceof InvalidParameterError) return false
  if (error instanceof RateLimitError) return true
  if (error instanceof HttpError) return error.status >= 500
  return error instanceof NetworkError || error instanceof TimeoutError
}

/**
 * Milliseconds before retry number `failureCount + 1`: exponential backoff
 * (500 ms, 1 s, 2 s… at most 10 s) with full jitter; after a 429, the rest of
 * the client's pause (`rateLimitedUntil`, capped by `maxRateLimitPauseMs`;
 * when there is no pause, the error's `pausedForMs`, capped too, else its
 * `retryAfterMs`) plus a little jitter, so that retries after the pause do
 * not all leave at once.
 *
 * @example
 * getRetryDelay(1, new NetworkError({ url, cause })) // between 500 and 1000
 */
export function getRetryDelay(
  failureCount: number,
  error: unknown,
  rateLimitedUntil: number | undefined = undefined,
  random: () => number = Math.random,
): number {
  if (error instanceof RateLimitError) {
    // The client's pause when there is one (it may be shorter than the server asked: capped).
    const pause =
      rateLimitedUntil === undefined
        ? (error.pausedForMs ?? error.retryAfterMs ?? 0)
        : Math.max(0, rateLimitedUntil - Date.now())
    return pause + Math.round(random() * 250)
  }
  const ceiling = Math.min(10_000, 500 * 2 ** failureCount)
  return Math.round(ceiling / 2 + (random() * ceiling) / 2)
}
