import { expect } from 'storybook/test'
import { storyBaseUrl } from './storyContext.js'

/** Secrets a story configures on its client: a failure report must hold none of them. */
export const storySecrets = {
  bearer: 'SECRET-story-bearer-5d1c9e72',
  apiKey: 'KEY-story-api-8a2f4b61',
  queryKey: 'QKEY-story-tenant-3e7b0c94',
} as const

/** The story provider's settings that carry them: an Authorization and an API-key header, a key in the base URL. */
export const secretClientSettings = {
  baseUrl: `${storyBaseUrl}?key=${storySecrets.queryKey}`,
  headers: { Authorization: `Bearer ${storySecrets.bearer}`, 'x-api-key': storySecrets.apiKey },
}

/**
 * Stubs `navigator.clipboard.writeText` (Chromium asks for a permission and a focused document
 * otherwise): returns the texts written, in order.
 */
export function captureClipboard(): string[] {
  const written: string[] = []
  Object.defineProperty(navigator, 'clipboard', {
    configurable: true,
    value: { writeText: async (text: string) => void written.push(text) },
  })
  return written
}

/** A copied report: JSON, schema 1, about `errorName`, holding no configured secret. */
export async function expectReport(text: string | undefined, errorName: string) {
  await expect(text).toBeDefined()
  for (const secret of Object.values(storySecrets)) await expect(text).not.toContain(secret)
  const report = JSON.parse(text as string)
  await expect(report).toMatchObject({
    schemaVersion: 1,
    library: { name: 'token-swap-hooks' },
    error: { name: errorName },
  })
  return report
}
