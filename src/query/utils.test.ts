import { describe, expect, test } from 'vitest'
import { createSwapClient } from '../core/client.js'
import { deserializeBigInts, hashFn, serializeBigInts, withRateLimitPause } from './utils.js'

describe('hashFn', () => {
  test('turns bigints into strings and ignores key order', () => {
    expect(hashFn(['swapRoute', { b: 2n ** 80n, a: 'x' }])).toBe(
      '["swapRoute",{"a":"x","b":"1208925819614629174706176"}]',
    )
    expect(hashFn(['k', { a: 1, b: 2 }])).toBe(hashFn(['k', { b: 2, a: 1 }]))
  })

  test('leaves out undefined fields, so a missing and an undefined parameter share a key', () => {
    expect(hashFn(['tokens', { baseUrl: 'u', blacklist: undefined }])).toBe(
      hashFn(['tokens', { baseUrl: 'u' }]),
    )
  })
})

describe('serializeBigInts / deserializeBigInts', () => {
  test('round-trip through JSON', () => {
    const data = { path: ['0xa'], amountOut: 2n ** 200n, nested: [{ v: 0n }], n: 1, s: '1' }
    const wire = JSON.stringify(serializeBigInts(data))
    expect(wire).toContain(
      '"amountOut":{"$bigint":"1606938044258990275541962092341162602522202993782792835301376"}',
    )
    expect(deserializeBigInts(JSON.parse(wire))).toEqual(data)
  })
})

describe('withRateLimitPause', () => {
  test('keeps the interval, or waits for the end of a 429 pause', () => {
    const client = createSwapClient({ baseUrl: 'https://swap.test', rateLimit: false })
    const interval = withRateLimitPause(client, 15_000) as (query: unknown) => number
    expect(interval({})).toBe(15_000)
    client.rateLimiter.onRateLimited(60_000)
    expect(interval({})).toBeGreaterThan(59_000)
    expect(withRateLimitPause(client, false)).toBe(false)
    expect(withRateLimitPause(client, undefined)).toBeUndefined()
    const fn = withRateLimitPause(client, () => false) as (query: unknown) => number | false
    expect(fn({})).toBe(false)
  })
})
