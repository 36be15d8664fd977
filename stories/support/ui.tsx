import { type ReactNode, useEffect, useState } from 'react'
import { formatUnits } from 'viem'
import { useRateLimitState } from '../../src/exports/index.js'

/** A bigint amount in a token's units, trimmed to a readable precision. */
export function formatAmount(amount: bigint, decimals: number, digits = 6): string {
  const [whole, fraction = ''] = formatUnits(amount, decimals).split('.')
  const trimmed = fraction.slice(0, digits).replace(/0+$/, '')
  return trimmed ? `${whole}.${trimmed}` : (whole ?? '0')
}

/**
 * A typed error, as a widget would show it: its class and its short message, then its stable
 * `code` (every error of the library has one, e.g. `USER_REJECTED`), what an app translates.
 */
export function ErrorView({
  error,
}: {
  error: { name: string; shortMessage?: string; message: string; code?: unknown } | null
}) {
  if (!error) return null
  return (
    <p role="alert" style={{ color: '#b3261e', margin: '8px 0' }}>
      <strong>{error.name}</strong>: {error.shortMessage ?? error.message}
      {typeof error.code === 'string' && (
        <>
          {' '}
          <code data-testid="error-code" style={{ fontSize: 11, background: '#fbe9e7', padding: '0 4px' }}>
            {error.code}
          </code>
        </>
      )}
    </p>
  )
}

/** Shows the client-wide 429 pause, counting down, from useRateLimitState. */
export function RateLimitBanner() {
  const { rateLimitedUntil } = useRateLimitState()
  useNow(rateLimitedUntil !== undefined) // re-render while the countdown runs
  if (rateLimitedUntil === undefined) return null
  const seconds = Math.max(0, Math.ceil((rateLimitedUntil - Date.now()) / 1000))
  return (
    <p role="status" aria-label="rate limited" style={{ background: '#fff4ce', padding: 8, borderRadius: 6 }}>
      Rate limited by the service: every request waits, resuming in {seconds} s
    </p>
  )
}

/** The current time, re-rendering every 250 ms while `active`. */
export function useNow(active = true) {
  const [now, setNow] = useState(() => Date.now())
  useEffect(() => {
    if (!active) return
    const timer = setInterval(() => setNow(Date.now()), 250)
    return () => clearInterval(timer)
  }, [active])
  return now
}

export function Card({ title, children }: { title: string; children: ReactNode }) {
  return (
    <section
      style={{
        fontFamily: 'system-ui, sans-serif',
        border: '1px solid #ddd',
        borderRadius: 12,
        padding: 16,
        maxWidth: 560,
      }}
    >
      <h3 style={{ marginTop: 0 }}>{title}</h3>
      {children}
    </section>
  )
}

/** The query's state in one line, for the stories' tests and readers. */
export function QueryState({ status, fetchStatus }: { status: string; fetchStatus: string }) {
  return (
    <p style={{ color: '#666', fontSize: 12 }} data-testid="query-state">
      status: {status} · fetchStatus: {fetchStatus}
    </p>
  )
}
