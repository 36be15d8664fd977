import { describe, expect, test } from 'vitest'
import { BaseError, walk } from './base.js'
import { InvalidParameterError } from './parameter.js'
import { HttpError, NetworkError, NoRouteError, RateLimitError, TimeoutError } from './request.js'
import { ResponseValidationError } from './response.js'

describe('BaseError', () => {
  test('message is the short message, meta lines and details', () => {
    const error = new BaseError('Something failed.', {
      metaMessages: ['URL: https://swap.test'],
      cause: new Error('socket hang up'),
    })
    expect(error.message).toMatchInlineSnapshot(`
      "Something failed.

      URL: https://swap.test

      Details: socket hang up"
    `)
    expect(error.shortMessage).toBe('Something failed.')
    expect(error.details).toBe('socket hang up')
    expect(error.name).toBe('BaseError')
  })

  test('walk finds the deepest cause, or the first match', () => {
    const root = Object.assign(new Error('User rejected the request.'), { code: 4001 })
    const middle = new BaseError('Wallet failed.', { cause: root })
    const top = new BaseError('Swap failed.', { cause: middle })
    expect(top.walk()).toBe(root)
    expect(top.walk((e) => (e as { code?: number }).code === 4001)).toBe(root)
    expect(top.walk((e) => e instanceof TypeError)).toBeNull()
    expect(walk('not an error')).toBe('not an error')
  })

  test('walk survives a cause cycle', () => {
    const a = new BaseError('a')
    const b = new BaseError('b', { cause: a })
    ;(a as { cause?: unknown }).cause = b
    expect(walk(b, () => false)).toBeNull()
  })

  test('every error has a stable name and extends BaseError', () => {
    const errors = [
      new InvalidParameterError({ parameter: 'amountIn', rule: 'must be greater than 0', value: 0n }),
      new HttpError({ status: 500, url: 'https://swap.test/x', body: 'oops' }),
      new NoRouteError({ url: 'https://swap.test/swap/route', body: '', token0: '0xa', token1: '0xb' }),
      new RateLimitError({ url: 'https://swap.test/x', body: '', retryAfterMs: 2500 }),
      new NetworkError({ url: 'https://swap.test/x', cause: new TypeError('fetch failed') }),
      new TimeoutError({ url: 'https://swap.test/x', timeoutMs: 100 }),
      new ResponseValidationError({
        endpoint: '/swap/route',
        path: '$.path[0]',
        problem: 'expected an address',
        url: 'u',
      }),
    ]
    expect(errors.every((e) => e instanceof BaseError)).toBe(true)
    expect(errors.map((e) => [e.name, e.shortMessage])).toMatchInlineSnapshot(`
      [
        [
          "InvalidParameterError",
          "Invalid parameter "amountIn": must be greater than 0.",
        ],
        [
          "HttpError",
          "The swap service answered 500.",
        ],
        [
          "NoRouteError",
          "No route from 0xa to 0xb.",
        ],
        [
          "RateLimitError",
          "The swap service is rate limiting this client: it pauses its requests for 3 s.",
        ],
        [
          "NetworkError",
          "The swap service could not be reached.",
        ],
        [
          "TimeoutError",
          "The swap service did not answer within 100 ms.",
        ],
        [
          "ResponseValidationError",
          "Unexpected response from /swap/route at $.path[0]: expected an address.",
        ],
      ]
    `)
  })
})
