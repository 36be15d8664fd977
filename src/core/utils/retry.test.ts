import { describe, expect, test } from 'vitest'
import { InvalidParameterError } from '../errors/parameter.js'
import {
  HttpError,
  NetworkError,
  NoRouteError,
  RateLimitError,
  RedirectError,
  ResponseTooLargeError,
  TimeoutError,
} from '../errors/request.js'
import { ResponseValidationError } from '../errors/response.js'
import { getRetryDelay, isRetryableError } from './retry.js'

const url = 'https://swap.test/swap/route'

describe('isRetryableError', () => {
  test.each([
    [new RateLimitError({ url, body: '', retryAfterMs: 1000 }), true],
    [new HttpError({ status: 500, url, body: '' }), true],
    [new HttpError({ status: 503, url, body: '' }), true],
    [new NetworkError({ url, cause: new TypeError('fetch failed') }), true],
    [new TimeoutError({ url, timeoutMs: 10 }), true],
    [new HttpError({ status: 400, url, body: '' }), false],
    [new HttpError({ status: 422, url, body: '' }), false],
    [new NoRouteError({ url, body: '', token0: '0xa', token1: '0xb' }), false],
    [new InvalidParameterError({ parameter: 'amountIn', rule: 'x', value: 0n }), false],
    [new ResponseValidationError({ endpoint: '/swap/route', path: '$', problem: 'x', url }), false],
    [new ResponseTooLargeError({ url, maxBytes: 10 }), false],
    [new RedirectError({ reason: 'refused', url }), false],
    [new RedirectError({ reason: 'insecure', url, location: 'http://x.test' }), false],
    [new DOMException('aborted', 'AbortError'), false],
    [new Error('anything else'), false],
  ])('%s → %s', (error, expected) => {
    expect(isRetryableError(error)).toBe(expected)
  })
})

describe('getRetryDelay', () => {
  test('doubles with full jitter between half and all of the ceiling, capped at 10 s', () => {
    const error = new NetworkError({ url, cause: null })
    expect(getRetryDelay(0, error, undefined, () => 0)).toBe(250)
    expect(getRetryDelay(0, error, undefined, () => 1)).toBe(500)
    expect(getRetryDelay(1, error, undefined, () => 1)).toBe(1000)
    expect(getRetryDelay(2, error, undefined, () => 0.5)).toBe(1500)
    expect(getRetryDelay(10, error, undefined, () => 1)).toBe(10_000)
  })

  test('after a 429 it waits for the rest of the client’s pause', () => {
    const error = new RateLimitError({ url, body: '', retryAfterMs: 100 })
    const delay = getRetryDelay(0, error, Date.now() + 2000, () => 0)
    expect(delay).toBeGreaterThan(1900)
    expect(delay).toBeLessThanOrEqual(2000)
    expect(getRetryDelay(0, error, undefined, () => 1)).toBe(350)
  })

  test('after a 429 whose pause the client capped, it waits for the client’s pause, not for what the server asked', () => {
    const error = new RateLimitError({ url, body: '', retryAfterMs: 3_600_000 })
    expect(getRetryDelay(0, error, Date.now() + 60_000, () => 0)).toBeLessThanOrEqual(60_000)
  })

  test('with no pause state, the error’s own pause (bounded by the client’s cap), not what the server asked', () => {
    // A client capped at one minute met Retry-After: 3600; the pause is over by the time the state is read.
    const error = new RateLimitError({ url, body: '', retryAfterMs: 3_600_000, pausedForMs: 60_000 })
    expect(getRetryDelay(0, error, undefined, () => 0)).toBe(60_000)
    // An error built without a pause (by hand): the server's word.
    expect(
      getRetryDelay(0, new RateLimitError({ url, body: '', retryAfterMs: 2_000 }), undefined, () => 0),
    ).toBe(2_000)
    expect(
      getRetryDelay(0, new RateLimitError({ url, body: '', retryAfterMs: undefined }), undefined, () => 0),
    ).toBe(0)
  })
})
