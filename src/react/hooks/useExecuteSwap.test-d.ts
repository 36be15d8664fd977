// Type tests: checked by `npm run typecheck` (tsc), never executed.
import { expectTypeOf, test } from 'vitest'
import type { ExecuteSwapStatus } from '../../core/execute/executeSwap.js'
import { useExecuteSwap } from './useExecuteSwap.js'

test("useExecuteSwap is TanStack's mutation result without the raw mutate functions", () => {
  const swap = useExecuteSwap()
  expectTypeOf(swap).not.toHaveProperty('mutate')
  expectTypeOf(swap).not.toHaveProperty('mutateAsync')
  expectTypeOf(swap.status).toEqualTypeOf<'idle' | 'pending' | 'success' | 'error'>()
  expectTypeOf(swap.isPending).toEqualTypeOf<boolean>()
  expectTypeOf(swap.step?.status).toEqualTypeOf<ExecuteSwapStatus | undefined>()
  expectTypeOf(swap.data?.realized?.amountOut).toEqualTypeOf<bigint | undefined>()
})
