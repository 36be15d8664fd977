import { beforeEach, describe, expect, test, vi } from 'vitest'
import { baseUrl, WETH } from '../../test/constants.js'
import { getTokens } from './actions/getTokens.js'
import { createSwapClient } from './client.js'
import { HttpError } from './errors/request.js'
import type * as redactModule from './utils/redact.js'

// Counts the redactors a client builds and what they are asked to do, delegating to the real ones.
const counts = vi.hoisted(() => ({ created: 0, used: 0 }))
vi.mock('./utils/redact.js', async (importOriginal) => {
  const original = await importOriginal<typeof redactModule>()
  return {
    ...original,
    createRedactor: (secrets: readonly string[]) => {
      counts.created += 1
      const real = original.createRedactor(secrets)
      const redact = ((text: string) => {
        counts.used += 1
        return real(text)
      }) as redactModule.Redactor
      redact.cut = (text, length) => {
        counts.used += 1
        return real.cut(text, length)
      }
      return redact
    },
  }
})

const apiKey = 'sk_live_0123456789abcdef'
const tokens = [{ address: WETH, symbol: 'WETH' }]
const ok: typeof fetch = async () => Response.json(tokens)

beforeEach(() => {
  counts.created = 0
  counts.used = 0
})

describe('the redactor of a client', () => {
  test('a headers object: one redactor for the base URL and one for the headers, whatever the number of requests; a success redacts nothing', async () => {
    const client = createSwapClient({
      baseUrl: `${baseUrl}?tenant=acme-secret-tenant`,
      rateLimit: false,
      headers: { 'x-api-key': apiKey },
      fetch: ok,
    })
    for (let i = 0; i < 3; i++) expect(await getTokens(client)).toEqual(tokens)
    expect(counts).toEqual({ created: 2, used: 0 })
  })

  test('a headers function: a new redactor only when the values change', async () => {
    let key = apiKey
    const client = createSwapClient({
      baseUrl,
      rateLimit: false,
      headers: () => ({ 'x-api-key': key }),
      fetch: ok,
    })
    await getTokens(client)
    await getTokens(client)
    expect(counts.created).toBe(2)
    key = 'sk_live_another_key_0987654321'
    await getTokens(client)
    expect(counts).toEqual({ created: 3, used: 0 })
  })

  test('a headers object changed in place after the client was made: its new value is hidden too', async () => {
    const headers: Record<string, string> = { 'x-api-key': apiKey }
    const echo: typeof fetch = async (_, init) =>
      Response.json({ detail: `bad key ${new Headers(init?.headers).get('x-api-key')}` }, { status: 401 })
    const client = createSwapClient({ baseUrl, rateLimit: false, headers, fetch: echo })
    expect((await getTokens(client).catch((e) => e)).details).toBe('bad key ***')
    headers['x-api-key'] = 'sk_live_rotated_key_0987654321'
    const error = await getTokens(client).catch((e) => e)
    expect(error).toBeInstanceOf(HttpError)
    expect(error.details).toBe('bad key ***')
    expect(`${error.message} ${error.body}`).not.toContain('rotated')
  })
})

describe('client.redact: the same redactor for any text (a failure report, issue 27)', () => {
  test('the base URL’s query values always; the header values once a request has read them', async () => {
    let key = apiKey
    const client = createSwapClient({
      baseUrl: `${baseUrl}?tenant=acme-secret-tenant`,
      rateLimit: false,
      headers: () => ({ Authorization: `Bearer ${key}` }),
      fetch: ok,
    })
    const text = `tenant acme-secret-tenant, key ${apiKey}`
    expect(client.redact(text)).toBe(`tenant ***, key ${apiKey}`)
    await getTokens(client)
    expect(client.redact(text)).toBe('tenant ***, key ***')
    expect(client.redact(encodeURIComponent(text))).not.toMatch(/acme-secret|sk_live/)
    // A rotated key: the values the last request sent.
    key = 'sk_live_rotated_key_0987654321'
    await getTokens(client)
    expect(client.redact(`old ${apiKey} new ${key}`)).toBe(`old ${apiKey} new ***`)
  })
})
