// Type tests: checked by `npm run typecheck` (tsc), never executed.
import type { Address, BaseError as ViemBaseError } from 'viem'
import { expectTypeOf, test } from 'vitest'
import type { GetSwapInfoErrorType } from '../../core/actions/getSwapInfo.js'
import { InvalidParameterError } from '../../core/errors/parameter.js'
import type { HttpErrorType, NoRouteErrorType } from '../../core/errors/request.js'
import { type UseSwapPreviewErrorType, useSwapPreview } from './useSwapPreview.js'

declare const token0: Address
declare const token1: Address

test("error is the union of what getSwapPreview throws, with the library's fields", () => {
  const preview = useSwapPreview({ token0, token1, amountIn: 1n })
  expectTypeOf(preview.error).toEqualTypeOf<UseSwapPreviewErrorType | null>()
  // As on every other hook: the short message, and a switch on the name.
  expectTypeOf(preview.error?.shortMessage).toEqualTypeOf<string | undefined>()
  expectTypeOf<InvalidParameterError>().toExtend<NonNullable<typeof preview.error>>()
  expectTypeOf<ViemBaseError>().toExtend<NonNullable<typeof preview.error>>()
  if (preview.error instanceof InvalidParameterError) expectTypeOf(preview.error.parameter).toBeString()
  // The quote it is for keeps its own typed error.
  expectTypeOf(preview.quote.error).toEqualTypeOf<GetSwapInfoErrorType | null>()
})

test('the errors of a quote fetched by getSwapPreview are in the union', () => {
  expectTypeOf<NoRouteErrorType>().toExtend<UseSwapPreviewErrorType>()
  expectTypeOf<HttpErrorType>().toExtend<UseSwapPreviewErrorType>()
})

test('query options see the same error type', () => {
  useSwapPreview({
    token0,
    token1,
    amountIn: 1n,
    query: {
      retry: (_count, error) => {
        expectTypeOf(error).toEqualTypeOf<UseSwapPreviewErrorType>()
        return !(error instanceof InvalidParameterError)
      },
    },
  })
})
