/** Claims a record across the tabs of the origin: its release, or `undefined` when another tab holds it. */
export type CrossTabClaim = (id: string) => Promise<(() => void) | undefined>

let acrossTabs: CrossTabClaim | undefined

/**
 * Sets (`undefined`: removes) the claim every execution also takes across tabs (`token-swap-hooks/tabs`
 * installs a Web Lock); returns the one replaced.
 * @example const previous = setCrossTabClaim((id) => claimAcrossTabs(navigator.locks, id))
 */
export function setCrossTabClaim(claim: CrossTabClaim | undefined): CrossTabClaim | undefined {
  const previous = acrossTabs
  acrossTabs = claim
  return previous
}

/** The records whose execution runs in this JS context: not interrupted, never resumed. */
const running = new Set<string>()

/**
 * Marks the record `id` as run by an execution of this page until the release is called; `undefined` when one
 * already runs it (here, or in another tab through the cross-tab claim): it is then skipped by
 * `settlePendingSwaps`, `'pending'` to `checkPendingSwap`, refused by `resumeSwap`.
 * @example const release = await claimPendingSwap(record.id) // undefined: it runs elsewhere
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

/**
 * Whether an execution of this JS context runs the record `id`.
 * @example if (isPendingSwapRunning(record.id)) return { status: 'pending' }
 */
export const isPendingSwapRunning = (id: string): boolean => running.has(id)
