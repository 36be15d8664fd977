import { afterEach, describe, expect, test, vi } from 'vitest'
import { isSecureTarget, redactUrl } from './url.js'

afterEach(() => {
  vi.unstubAllGlobals()
})

describe('isSecureTarget (the final URL after redirects)', () => {
  test.each([
    ['https://mirror.test/x', false, true],
    ['http://127.0.0.1:8080/x', false, true],
    ['http://localhost/x', false, true],
    ['http://evil.test/x', false, false],
    ['http://evil.test/x', true, true],
    ['ftp://evil.test/x', true, false],
    ['not a url', false, false],
  ])('%s (allowInsecureHttp %s) → %s', (target, allowInsecureHttp, expected) => {
    expect(isSecureTarget(target, 'https://swap.test/x', allowInsecureHttp)).toBe(expected)
  })

  test('a same-origin base path on a plain-http page may end on that page’s origin, and only there', () => {
    vi.stubGlobal('location', { href: 'http://intranet.test/app/' })
    expect(isSecureTarget('http://intranet.test/api/v2/x', '/api/x', false)).toBe(true)
    expect(isSecureTarget('http://other.test/api/x', '/api/x', false)).toBe(false)
    // An absolute https request redirected down to http on the same host is refused.
    expect(isSecureTarget('http://intranet.test/x', 'https://intranet.test/x', false)).toBe(false)
  })
})

describe('redactUrl', () => {
  test('hides the base URL’s query values by position, whatever their spelling', () => {
    expect(
      redactUrl('https://swap.test/x?api+key=s%2Fecret&chain=1&amount_in=5', [
        ['api key', 's/ecret'],
        ['chain', '1'],
      ]),
    ).toBe('https://swap.test/x?api+key=***&chain=***&amount_in=5')
    expect(redactUrl('https://swap.test/x?empty=&a=1', [['empty', '']])).toBe(
      'https://swap.test/x?empty=&a=1',
    )
    expect(redactUrl('https://swap.test/x', [])).toBe('https://swap.test/x')
  })
})
