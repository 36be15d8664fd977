import { describe, expect, test } from 'vitest'
import { latestTime, parseRetryAfter } from './retryAfter.js'

const now = 1_700_000_000_000
const parse = (headers: Record<string, string>) => parseRetryAfter(new Headers(headers), now)

describe('parseRetryAfter', () => {
  test.each([
    [{ 'retry-after': '2' }, 2_000],
    [{ 'retry-after': '1.5' }, 1_500],
    [{ 'retry-after': new Date(now + 5_000).toUTCString() }, 5_000],
    [{ 'ratelimit-reset': '7' }, 7_000],
    [{ 'x-ratelimit-reset': String(now / 1000 + 9) }, 9_000], // a Unix time in seconds
    [{ 'x-rate-limit-reset': String(now + 11_000) }, 11_000], // in milliseconds
    [{ ratelimit: 'limit=10, remaining=0, t=4' }, 4_000],
  ])('%o: %i ms', (headers, ms) => {
    expect(parse(headers)).toBe(ms)
  })

  test('what the server asked, uncapped: the client caps its pause, not the parser', () => {
    expect(parse({ 'retry-after': '7200' })).toBe(7_200_000)
    expect(parse({ 'x-ratelimit-reset': String(now / 1000 + 86_400) })).toBe(86_400_000)
    expect(parse({ 'retry-after': '1000000000000' })).toBe(1e15)
  })

  test('never negative, and never past the latest time a Date holds, whatever the digits', () => {
    expect(parse({ 'retry-after': new Date(now - 60_000).toUTCString() })).toBe(0)
    expect(parse({ 'x-ratelimit-reset': String(now / 1000 - 60) })).toBe(0)
    expect(parse({ 'retry-after': '9'.repeat(400) })).toBe(latestTime - now)
    expect(parse({ 'ratelimit-reset': '9'.repeat(20) })).toBe(latestTime - now)
    expect(
      Number.isFinite(new Date(now + (parse({ 'retry-after': '9'.repeat(400) }) as number)).getTime()),
    ).toBe(true)
  })

  test('no usable header: undefined', () => {
    expect(parse({})).toBeUndefined()
    expect(parse({ 'retry-after': 'soon' })).toBeUndefined()
    expect(parse({ 'ratelimit-reset': '-3' })).toBeUndefined()
  })
})
