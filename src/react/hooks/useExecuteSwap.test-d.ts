// Type tests: checked by `npm run typecheck` (tsc), never executed.
import { expectTypeOf, test } from 'vitest'
import { useExecuteSwap } from './useExecuteSwap.js'

test('useExecuteSwap does not hand out the raw mutate functions', () => {
  const swap = useExecuteSwap()
  expectTypeOf(swap).not.toHaveProperty('mutate')
  expectTypeOf(swap).not.toHaveProperty('mutateAsync')
  expectTypeOf(swap.status).toEqualTypeOf<
    'idle' | 'quoting' | 'approving' | 'swapping' | 'success' | 'error'
  >()
})
