/** Claims a record across the tabs of the origin: its release, or `undefined` when another tab holds it. */
export type CrossTabClaim = (id: string) => Promise<(() => void) | undefined>

let acrossTabs: CrossTabClaim | undefined

/**
 * Sets (or, with `undefined`, removes) the claim every execution and resume
 * also takes across tabs: `token-swap-hooks/tabs` installs the record's Web
 * Lock here. Returns the claim it replaced.
 *
 * @example
 * const previous = setCrossTabClaim((id) => claimAcrossTabs(navigator.locks, id))
 */
export function setCrossTabClaim(claim: CrossTabClaim | undefined): CrossTabClaim | undefined {
  const previous = acrossTabs
  acrossTabs = claim
  return previous
}

/** The records whose execution runs in this JS context (this page): not interrupted, never resumed. */
const running = new Set<string>()

/**
 * Marks the record `id` as run by an execution of this JS context until the
 * returned release is called (when that execution ends); `undefined` when one
 * already runs it. `settlePendingSwaps` skips such a record, `checkPendingSwap`
 * reports it `'pending'`, and `resumeSwap` refuses it: a page refetching its
 * pending swaps mid-swap must not offer, or send, its own live swap again.
 *
 * The page's claim is taken at once (a second claim in the same tick is
 * refused). Once `setCrossTabClaim` was given a claim (`token-swap-hooks/tabs`
 * does: the record's Web Lock), it is taken too, so `undefined` also when
 * another tab of the origin runs the record; without it, nothing else is asked.
 *
 * @example
 * const release = await claimPendingSwap(record.id)
 * if (!release) throw new SwapInProgressError({ recordId: record.id })
 * try { … } finally { release() }
 */
export async function claimPendingSwap(id: string): Promise<(() => void) | undefined> {
  if (running.has(id)) return undefined
  running.add(id)
  const unlock = acrossTabs ? await acrossTabs(id) : () => {}
  if (!unlock) running.delete(id)
  return (
    unlock &&
    (() => {
      running.delete(id)
      unlock()
    })
  )
}

/** Whether an execution of this JS context runs the record `id` (see `claimPendingSwap`). */
export function isPendingSwapRunning(id: string): boolean {
  return running.has(id)
}
