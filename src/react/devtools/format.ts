'use client'

/**
 * What the panel writes for any value it shows: a bigint as its decimal
 * digits, a string as is, an object as JSON with its bigints written the same
 * way (never a "Do not know how to serialize a BigInt"), `–` for nothing.
 *
 * @example
 * formatValue(10n ** 18n) // '1000000000000000000'
 * formatValue({ amountOut: 5n }) // '{"amountOut":"5"}'
 */
export function formatValue(value: unknown): string {
  if (value === undefined || value === null || value === '') return '–'
  if (typeof value === 'bigint') return value.toString()
  if (typeof value === 'string') return value
  if (typeof value === 'number' || typeof value === 'boolean') return String(value)
  try {
    return JSON.stringify(value, (_, item) => (typeof item === 'bigint' ? item.toString() : item)) ?? '–'
  } catch {
    // A cycle, or a getter that throws: the panel never crashes on what it is shown.
    return Object.prototype.toString.call(value)
  }
}

/**
 * A duration for people: `450 ms`, `3.2 s`, `2 min 5 s`, `1 h 4 min`; `∞` for
 * an infinite one (a `staleTime` of `Infinity` or `'static'`).
 *
 * @example
 * formatDuration(3200) // '3.2 s'
 */
export function formatDuration(ms: number | undefined): string {
  if (ms === undefined || Number.isNaN(ms)) return '–'
  if (ms === Number.POSITIVE_INFINITY) return '∞'
  const sign = ms < 0 ? '−' : ''
  const abs = Math.abs(ms)
  if (abs < 1000) return `${sign}${Math.round(abs)} ms`
  if (abs < 10_000) return `${sign}${(Math.floor(abs / 100) / 10).toFixed(1)} s`
  if (abs < 60_000) return `${sign}${Math.floor(abs / 1000)} s`
  if (abs < 3_600_000) {
    const minutes = Math.floor(abs / 60_000)
    const seconds = Math.floor((abs % 60_000) / 1000)
    return `${sign}${minutes} min${seconds ? ` ${seconds} s` : ''}`
  }
  const hours = Math.floor(abs / 3_600_000)
  const minutes = Math.floor((abs % 3_600_000) / 60_000)
  return `${sign}${hours} h${minutes ? ` ${minutes} min` : ''}`
}

/**
 * A hex string (an address, a hash) shortened to its ends: `0xC02a…6Cc2`.
 * Anything else is `formatValue`'d.
 *
 * @example
 * shortHex('0xC02aaA39b223FE8D0A0e5C4F27eAD9083C756Cc2') // '0xC02a…6Cc2'
 */
export function shortHex(value: unknown): string {
  if (typeof value !== 'string' || !/^0x[0-9a-fA-F]{12,}$/.test(value)) return formatValue(value)
  return `${value.slice(0, 6)}…${value.slice(-4)}`
}
