import { describe, expect, test } from 'vitest'
import { InvalidParameterError } from '../errors/parameter.js'
import { suggestSlippage } from './suggestSlippage.js'

const million = 1_000_000n

describe('suggestSlippage: clamp(roundUp(2 × largestMove + priceImpact / 4, 0.0005), min, max)', () => {
  test.each([
    // quotes, priceImpact, max, → slippage, basis, capped
    { quotes: [], impact: undefined, max: undefined, slippage: 0.005, basis: 'default', capped: false },
    {
      quotes: [million],
      impact: undefined,
      max: undefined,
      slippage: 0.005,
      basis: 'default',
      capped: false,
    },
    { quotes: [million], impact: 0.02, max: undefined, slippage: 0.01, basis: 'default', capped: false },
    {
      quotes: [million, million, million],
      impact: undefined,
      max: undefined,
      slippage: 0.001,
      basis: 'quotes',
      capped: false,
    },
    {
      quotes: [million, 999_000n],
      impact: undefined,
      max: undefined,
      slippage: 0.002,
      basis: 'quotes',
      capped: false,
    },
    {
      quotes: [million, 998_000n, 1_001_000n],
      impact: 0.004,
      max: 0.01,
      slippage: 0.0075,
      basis: 'quotes',
      capped: false,
    },
    {
      quotes: [million, 1_010_000n],
      impact: undefined,
      max: undefined,
      slippage: 0.02,
      basis: 'quotes',
      capped: false,
    },
    {
      quotes: [million, 950_000n],
      impact: undefined,
      max: 0.03,
      slippage: 0.03,
      basis: 'quotes',
      capped: true,
    },
    {
      quotes: [million, million],
      impact: -0.01,
      max: undefined,
      slippage: 0.001,
      basis: 'quotes',
      capped: false,
    },
    // 18-decimal amounts beyond a float's precision: a move of one part in a million still counts.
    {
      quotes: [10n ** 30n, 10n ** 30n - 10n ** 24n],
      impact: undefined,
      max: undefined,
      slippage: 0.001,
      basis: 'quotes',
      capped: false,
    },
    {
      quotes: [10n ** 30n, 10n ** 30n - 10n ** 27n],
      impact: undefined,
      max: undefined,
      slippage: 0.002,
      basis: 'quotes',
      capped: false,
    },
  ])(
    '$quotes.length quotes, impact $impact, max $max → $slippage ($basis)',
    ({ quotes, impact, max, slippage, basis, capped }) => {
      expect(suggestSlippage({ quotes, priceImpact: impact, max })).toMatchObject({
        slippage,
        basis,
        capped,
        samples: quotes.length,
      })
    },
  )

  test('only the last 20 quotes count: an old jump ages out', () => {
    const steady = Array.from({ length: 20 }, () => million)
    expect(suggestSlippage({ quotes: [million, 900_000n, ...steady] }).slippage).toBe(0.001)
    expect(suggestSlippage({ quotes: [900_000n, ...steady] }).largestMove).toBe(0)
  })

  test('min and max bound it; min above max, a bad amount or a bad max is an InvalidParameterError naming it', () => {
    expect(suggestSlippage({ quotes: [million, million], min: 0.004 }).slippage).toBe(0.004)
    for (const [parameters, parameter] of [
      [{ quotes: [million, 0n] }, 'quotes[1]'],
      [{ quotes: [million, 5] }, 'quotes[1]'],
      [{ quotes: 'x' }, 'quotes'],
      [{ quotes: [], max: 2 }, 'max'],
      [{ quotes: [], min: 0.02, max: 0.01 }, 'min'],
      [{ quotes: [], priceImpact: Number.NaN }, 'priceImpact'],
    ] as const) {
      const error = (() => {
        try {
          suggestSlippage(parameters as never)
        } catch (caught) {
          return caught
        }
      })()
      expect(error).toBeInstanceOf(InvalidParameterError)
      expect(error).toMatchObject({ parameter })
    }
  })
})
