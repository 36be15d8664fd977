import { waitFor } from '@testing-library/react'
import { HttpResponse, http } from 'msw'
import { describe, expect, test } from 'vitest'
import { baseUrl, WETH } from '../../test/constants.js'
import { setupMswServer } from '../../test/msw.js'
import { renderSwapHook } from '../../test/react.js'
import { RedirectError, ResponseTooLargeError } from '../core/errors/request.js'
import { useTokens } from './hooks/useTokens.js'

const { server } = setupMswServer()
const tokens = [{ address: WETH, symbol: 'WETH' }]

/** The client settings of issue 10 reach the client the provider builds. */
describe('SwapProvider passes the hardening settings to its client', () => {
  test('redirect: refused by default, followed with redirect="follow"', async () => {
    server.use(
      http.get(
        `${baseUrl}/overview/tokens`,
        () => new HttpResponse(null, { status: 302, headers: { location: 'https://mirror.test/tokens' } }),
      ),
      http.get('https://mirror.test/tokens', () => HttpResponse.json(tokens)),
    )
    const refused = renderSwapHook(() => useTokens(), { provider: { baseUrl, rateLimit: false } })
    await waitFor(() => expect(refused.result.current.error).toBeInstanceOf(RedirectError))

    const followed = renderSwapHook(() => useTokens(), {
      provider: { baseUrl, rateLimit: false, redirect: 'follow' },
    })
    await waitFor(() => expect(followed.result.current.data).toEqual(tokens))
  })

  test("redirect: follow keeps the headers on the base URL's origin", async () => {
    server.use(
      http.get(
        `${baseUrl}/overview/tokens`,
        () => new HttpResponse(null, { status: 302, headers: { location: 'https://mirror.test/tokens' } }),
      ),
      http.get('https://mirror.test/tokens', () => HttpResponse.json(tokens)),
    )
    const settings = {
      baseUrl,
      rateLimit: false,
      redirect: 'follow',
      headers: { 'x-api-key': 'k-0123456789' },
    } as const
    const refused = renderSwapHook(() => useTokens(), { provider: settings })
    await waitFor(() => expect(refused.result.current.error).toMatchObject({ reason: 'crossOrigin' }))
  })

  test('maxResponseBytes', async () => {
    server.use(http.get(`${baseUrl}/overview/tokens`, () => HttpResponse.json(tokens)))
    const capped = renderSwapHook(() => useTokens(), {
      provider: { baseUrl, rateLimit: false, maxResponseBytes: 10 },
    })
    await waitFor(() => expect(capped.result.current.error).toBeInstanceOf(ResponseTooLargeError))
    // Not retried: one failure is final.
    expect(capped.result.current.failureCount).toBe(1)
  })
})
