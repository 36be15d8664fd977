'use client'

import { useCallback, useRef } from 'react'

/**
 * `fn`, guarded so that a call while one is in flight returns the running
 * promise instead of starting another: a synchronous guard, so a second click
 * in the same tick sees it (React state would not yet).
 */
export function useSingleFlight<args extends unknown[], result>(
  fn: (...args: args) => Promise<result>,
): (...args: args) => Promise<result> {
  const inFlight = useRef<Promise<result> | null>(null)
  return useCallback(
    (...args: args) => {
      if (inFlight.current) return inFlight.current
      const promise = fn(...args).finally(() => {
        inFlight.current = null
      })
      inFlight.current = promise
      return promise
    },
    [fn],
  )
}
