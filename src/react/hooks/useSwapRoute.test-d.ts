// Type tests: checked by `npm run typecheck` (tsc), never executed.
import type { Address } from 'viem'
import { expectTypeOf, test } from 'vitest'
import type { GetSwapRouteErrorType } from '../../core/actions/getSwapRoute.js'
import type { NoRouteError } from '../../core/errors/request.js'
import { useSwapRoute } from './useSwapRoute.js'

declare const token0: Address
declare const token1: Address

test('data is a typed route with a bigint amount; error is the union of typed errors', () => {
  const result = useSwapRoute({ token0, token1, amountIn: 1n })
  expectTypeOf(result.data?.path).toEqualTypeOf<Address[] | undefined>()
  expectTypeOf(result.data?.amountOut).toEqualTypeOf<bigint | undefined>()
  // The swap the route was fetched for, always set by the library.
  expectTypeOf(result.data?.quotedFor).toEqualTypeOf<
    { token0: Address; token1: Address; amountIn: bigint } | undefined
  >()
  expectTypeOf(result.error).toEqualTypeOf<GetSwapRouteErrorType | null>()
  expectTypeOf<NoRouteError>().toExtend<NonNullable<typeof result.error>>()
  expectTypeOf(result.quotedAt).toEqualTypeOf<number | undefined>()
  expectTypeOf(result.isFresh).toEqualTypeOf<boolean>()
  // Keys are plain JSON: amounts as decimal strings.
  expectTypeOf(result.queryKey[1].amountIn).toEqualTypeOf<string | undefined>()
})

test('select narrows data', () => {
  const result = useSwapRoute({
    token0,
    token1,
    amountIn: 1n,
    query: { select: (route) => route.amountOut },
  })
  expectTypeOf(result.data).toEqualTypeOf<bigint | undefined>()
})

test('parameters are typed: amounts are bigints, tokens addresses', () => {
  // @ts-expect-error amountIn must be a bigint, not a number
  useSwapRoute({ token0, token1, amountIn: 1 })
  // @ts-expect-error token0 must be an address
  useSwapRoute({ token0: 'WETH', token1, amountIn: 1n })
  // Incomplete input is allowed: the hook stays disabled.
  useSwapRoute({ token0 })
  useSwapRoute()
})
