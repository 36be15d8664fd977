import { expect, test } from 'vitest'
import { InvalidParameterError } from '../errors/parameter.js'
import { getMinAmountOut } from './getMinAmountOut.js'

test.each([
  [1_000_000n, 0.005, 995_000n],
  [1_000_000n, 0, 1_000_000n],
  [1_000_000n, 1, 0n],
  [999n, 0.05, 949n],
  [0n, 0.05, 0n],
  [10n ** 30n, 0.000001, 10n ** 30n - 10n ** 24n],
])('getMinAmountOut(%s, %s) = %s', (amount, slippage, expected) => {
  expect(getMinAmountOut(amount, slippage)).toBe(expected)
})

test.each([
  [1n, 1.5],
  [1n, -0.1],
  [-1n, 0.1],
])('rejects (%s, %s)', (amount, slippage) => {
  expect(() => getMinAmountOut(amount, slippage)).toThrow(InvalidParameterError)
})
