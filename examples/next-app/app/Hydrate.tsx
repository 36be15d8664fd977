'use client'

import { type DehydratedState, HydrationBoundary } from '@tanstack/react-query'
import { type ReactNode, useMemo } from 'react'
import { deserializeBigInts, type SerializedBigInts } from 'token-swap-hooks/query'

/** Puts the server's prefetched queries into the browser's QueryClient (the one SwapProvider provides). */
export function Hydrate({ state, children }: { state: SerializedBigInts; children: ReactNode }) {
  const hydrated = useMemo(() => deserializeBigInts<DehydratedState>(state), [state])
  return <HydrationBoundary state={hydrated}>{children}</HydrationBoundary>
}
