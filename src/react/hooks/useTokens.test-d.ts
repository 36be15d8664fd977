// Type tests: checked by `npm run typecheck` (tsc), never executed.
import type { Address } from 'viem'
import { expectTypeOf, test } from 'vitest'
import type { GetTokensErrorType } from '../../core/actions/getTokens.js'
import type { Token } from '../../core/schemas.js'
import { useSwapInfo } from './useSwapInfo.js'
import { useTokenPrice } from './useTokenPrice.js'
import { useTokens } from './useTokens.js'

test('lists are typed records; select narrows them', () => {
  const tokens = useTokens()
  expectTypeOf(tokens.data).toEqualTypeOf<Token[] | undefined>()
  expectTypeOf(tokens.error).toEqualTypeOf<GetTokensErrorType | null>()
  expectTypeOf(tokens.data?.[0]?.address).toEqualTypeOf<Address | undefined>()

  const symbols = useTokens({ query: { select: (list) => list.map((token) => token.symbol) } })
  expectTypeOf(symbols.data).toEqualTypeOf<string[] | undefined>()
})

test('price is a number; info amounts are bigints', () => {
  expectTypeOf(useTokenPrice({ address: '0x0000000000000000000000000000000000000001' }).data).toEqualTypeOf<
    number | undefined
  >()
  const info = useSwapInfo().data
  expectTypeOf(info?.estimateAmount).toEqualTypeOf<bigint | undefined>()
  expectTypeOf(info?.approvalAddress).toEqualTypeOf<Address | null | undefined>()
})
