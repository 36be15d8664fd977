/** The standard error for an aborted operation. */
export function abortError(signal?: AbortSignal): DOMException {
  const reason: unknown = signal?.reason
  if (reason instanceof DOMException && reason.name === 'AbortError') return reason
  return new DOMException('The operation was aborted.', 'AbortError')
}

/** Resolves `promise`, or rejects as soon as `signal` aborts (even if the work ignores it). */
export function raceAbort<T>(promise: Promise<T>, signal: AbortSignal): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    const onAbort = () => reject(signal.reason)
    if (signal.aborted) onAbort()
    else signal.addEventListener('abort', onAbort, { once: true })
    // The work may still settle after an abort (often with its own AbortError): nobody waits for it.
    promise.then(resolve, reject).finally(() => signal.removeEventListener('abort', onAbort))
  })
}

/**
 * One signal that aborts when the caller's signal aborts or after `timeoutMs`,
 * as a tuple `[signal, timedOut, clear]` (a tuple's names minify away):
 * `timedOut()` tells which happened; `clear()` stops the timer.
 */
export function withTimeout(signal: AbortSignal | undefined, timeoutMs: number) {
  const controller = new AbortController()
  let timedOut = false
  const onAbort = () => controller.abort(signal?.reason)
  if (signal?.aborted) onAbort()
  else signal?.addEventListener('abort', onAbort, { once: true })
  const timer =
    Number.isFinite(timeoutMs) && timeoutMs > 0
      ? setTimeout(() => {
          timedOut = true
          controller.abort(new DOMException('The request timed out.', 'TimeoutError'))
        }, timeoutMs)
      : undefined
  return [
    controller.signal,
    /** Whether the timeout (not the caller) aborted. */
    () => timedOut,
    /** Stops the timer and forgets the caller's signal. */
    () => {
      clearTimeout(timer)
      signal?.removeEventListener('abort', onAbort)
    },
  ] as const
}
