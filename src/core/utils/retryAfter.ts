/** The latest time a `Date` can hold (year 275760), in epoch milliseconds. */
export const latestTime = 8.64e15

/**
 * Reads how long to wait from `Retry-After` (seconds or an HTTP date),
 * `RateLimit-Reset` / `X-RateLimit-Reset` (seconds, or a Unix time) or the `t`
 * parameter of a structured `RateLimit` header. `undefined` when none is usable.
 * The value is what the server asked, uncapped (a client caps its pause with
 * `maxRateLimitPauseMs`): never negative, and never past the latest time a
 * `Date` can hold, whatever the digits.
 *
 * @example
 * parseRetryAfter(new Headers({ 'retry-after': '2' })) // 2000
 */
export function parseRetryAfter(headers: Headers, now = Date.now()): number | undefined {
  const clamp = (ms: number) => Math.min(Math.max(0, Math.round(ms)), latestTime - now)
  const retryAfter = headers.get('retry-after')?.trim()
  if (retryAfter) {
    if (/^\d+(\.\d+)?$/.test(retryAfter)) return clamp(Number(retryAfter) * 1000)
    const date = Date.parse(retryAfter)
    if (!Number.isNaN(date)) return clamp(date - now)
  }
  for (const name of ['ratelimit-reset', 'x-ratelimit-reset', 'x-rate-limit-reset']) {
    const value = headers.get(name)?.trim()
    if (value && /^\d+(\.\d+)?$/.test(value)) return clamp(resetToMs(Number(value), now))
  }
  const structured = headers.get('ratelimit')
  const t = structured?.match(/(?:^|[;,\s])t=(\d+)/)?.[1]
  if (t) return clamp(Number(t) * 1000)
  return undefined
}

function resetToMs(value: number, now: number): number {
  // Unix time in milliseconds, in seconds, or else a number of seconds to wait.
  if (value > 1e12) return value - now
  if (value > 1e9) return value * 1000 - now
  return value * 1000
}
