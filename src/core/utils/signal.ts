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
 * One signal that aborts when the caller's signal aborts or after `timeoutMs`.
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
  return {
    signal: controller.signal,
    timedOut: () => timedOut,
    clear() {
      clearTimeout(timer)
      signal?.removeEventListener('abort', onAbort)
    },
  }
}
