import { type CrossTabClaim, setCrossTabClaim } from '../core/execute/records/claims.js'
import type { LockManagerLike } from './environment.js'

/**
 * What a record's lock is named after its id. It keeps the prefix of the
 * protocol's first version (`namePrefix` moved on when the channel's messages
 * changed): tabs of either version still refuse each other a resume of one record.
 */
const swapLockPrefix = 'token-swap-hooks/tabs/1:swap:'

export type { CrossTabClaim as ClaimAcrossTabs } from '../core/execute/records/claims.js'

let installed: { count: number; previous: CrossTabClaim | undefined } | undefined

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
  if (!installed) {
    installed = { count: 0, previous: setCrossTabClaim((id) => claimAcrossTabs(locks, id)) }
  }
  const current = installed
  current.count += 1
  let done = false
  return () => {
    if (done) return
    done = true
    current.count -= 1
    if (current.count === 0 && installed === current) {
      setCrossTabClaim(current.previous)
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
