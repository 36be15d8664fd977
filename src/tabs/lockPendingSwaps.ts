import type { LockManagerLike } from './environment.js'

/**
 * What a record's lock is named after its id. It keeps the prefix of the
 * protocol's first version (`namePrefix` moved on when the channel's messages
 * changed): tabs of either version still refuse each other a resume of one record.
 */
const swapLockPrefix = 'token-swap-hooks/tabs/1:swap:'

/**
 * Where `claimPendingSwap` (src/core/execute/records/pendingSwaps.ts) looks for a
 * cross-tab claim: a function of the record id resolving with the release of
 * the record's Web Lock, or `undefined` when another tab holds it. A global
 * symbol, so that the execute entries import nothing of this one.
 */
export const claimAcrossTabsKey = Symbol.for('token-swap-hooks.claimPendingSwap')

export type ClaimAcrossTabs = (id: string) => Promise<(() => void) | undefined>

let installed: { count: number } | undefined

/**
 * From now until the returned function is called, every execution and every
 * resume of a recorded swap also holds the Web Lock named after the record's
 * id: a resume of a record that another tab of the origin runs (executes or
 * resumes) is refused with `SwapInProgressError`, and nothing is sent. Counted:
 * the claim stays until every caller has called its uninstall.
 *
 * @example
 * const uninstall = lockPendingSwapsAcrossTabs(navigator.locks)
 */
export function lockPendingSwapsAcrossTabs(locks: LockManagerLike): () => void {
  const page = globalThis as { [claimAcrossTabsKey]?: ClaimAcrossTabs }
  if (!installed) {
    installed = { count: 0 }
    page[claimAcrossTabsKey] = (id) => claimAcrossTabs(locks, id)
  }
  const current = installed
  current.count += 1
  let done = false
  return () => {
    if (done) return
    done = true
    current.count -= 1
    if (current.count === 0 && installed === current) {
      delete page[claimAcrossTabsKey]
      installed = undefined
    }
  }
}

/**
 * Takes the record's lock if no other tab holds it: the release, or
 * `undefined` when it is held. A lock manager that fails claims nothing
 * across tabs (the page's own claim still holds): as without the coordinator.
 *
 * @example
 * const release = await claimAcrossTabs(navigator.locks, record.id)
 * if (!release) throw new SwapInProgressError({ recordId: record.id })
 */
export function claimAcrossTabs(locks: LockManagerLike, id: string): Promise<(() => void) | undefined> {
  const none = () => {}
  return new Promise((resolve) => {
    try {
      locks
        .request(`${swapLockPrefix}${id}`, { ifAvailable: true }, (lock) => {
          if (!lock) return resolve(undefined)
          return new Promise<void>((release) => resolve(() => release()))
        })
        .catch(() => resolve(none))
    } catch {
      resolve(none)
    }
  })
}
