import { describe, expect, test } from 'vitest'
import type { PendingSwapStatus } from '../core/execute/rules/standing.js'
import { pendingSwapsRecheckDelay } from './pendingSwaps.js'

const found = (...statuses: PendingSwapStatus[]) => statuses.map((status) => ({ status }))

describe('pendingSwapsRecheckDelay: the pending-swaps check runs again only while something can still change on its own', () => {
  test.each([
    ['nothing found yet', undefined, 1, false],
    ['no records', found(), 1, false],
    ['only settled ones', found('confirmed', 'reverted', 'dropped'), 1, false],
    ['only resumable ones (waiting for the user, not the chain)', found('resumable'), 1, false],
    ['a pending one, first check', found('resumable', 'pending'), 1, 2_000],
    ['a pending one, second check', found('pending'), 2, 3_000],
    ['a pending one, third check', found('pending'), 3, 4_500],
    ['an unknown one (no node shows it yet)', found('unknown'), 1, 2_000],
    ['a pending one, tenth check: at most 30 s apart', found('pending'), 10, 30_000],
    ['a pending one, the hundredth check', found('pending'), 100, 30_000],
    ['a check count of 0 (before the first): the first delay', found('pending'), 0, 2_000],
  ] as const)('%s → %s', (_, records, checks, expected) => {
    expect(pendingSwapsRecheckDelay(records, checks)).toBe(expected)
  })

  test('the app sets its own delays, or turns the re-checks off', () => {
    expect(pendingSwapsRecheckDelay(found('pending'), 1, { initial: 500, max: 1_000 })).toBe(500)
    expect(pendingSwapsRecheckDelay(found('pending'), 3, { initial: 500, max: 1_000 })).toBe(1_000)
    expect(pendingSwapsRecheckDelay(found('pending'), 1, false)).toBe(false)
  })

  test('the delays never shrink from one check to the next', () => {
    let last = 0
    for (let checks = 1; checks < 50; checks++) {
      const delay = pendingSwapsRecheckDelay(found('pending'), checks) as number
      expect(delay).toBeGreaterThanOrEqual(last)
      last = delay
    }
  })
})
