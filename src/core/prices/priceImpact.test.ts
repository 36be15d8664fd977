import { describe, expect, test } from 'vitest'
import { PriceImpactTooHighError } from '../errors/priceImpact.js'
import { defaultPriceImpactThresholds, isKnownPrice, priceImpactOf } from './priceImpact.js'

const e18 = 10n ** 18n

describe('priceImpactOf: the one price-impact rule the preview shows and the execution enforces', () => {
  test.each([
    ['a fair quote', e18, e18, [18, 18], [1, 1], { value: 0, warning: 'none' }],
    ['4.99% lost: no warning', 100n * e18, 95_010_000n, [18, 6], [1, 1], { warning: 'none' }],
    ['5% lost: high', 100n * e18, 95_000_000n, [18, 6], [1, 1], { warning: 'high' }],
    ['14.99% lost: high', 100n * e18, 85_010_000n, [18, 6], [1, 1], { warning: 'high' }],
    ['15% lost: blocking', 100n * e18, 85_000_000n, [18, 6], [1, 1], { warning: 'blocking' }],
    ['16.67% lost (the trial): blocking', 6n * e18, 5n * e18, [18, 18], [1, 1], { warning: 'blocking' }],
    ['a gain: negative impact, none', e18, 2n * e18, [18, 18], [1, 1], { value: -1, warning: 'none' }],
  ] as const)('%s', (_, amountIn, amountOut, decimals, prices, expected) => {
    expect(priceImpactOf({ amountIn, amountOut, decimals, prices })).toMatchObject(expected)
  })

  test.each([
    ['no price for the input', [undefined, 1]],
    ['no price for the output', [1, undefined]],
    ['an input priced at 0', [0, 1]],
    ['an input priced below 0', [-1, 1]],
    // A service answers 0 for a token it cannot price: not a 100 % gap that blocks the swap.
    ['an output priced at 0 (the service has no price for it)', [1, 0]],
    ['an output priced below 0', [1, -1]],
    ['an infinite price', [1, Infinity]],
    ['a price that is not a number', [Number.NaN, 1]],
  ] as const)('%s: unknown (undefined), never a guess', (_, prices) => {
    expect(priceImpactOf({ amountIn: e18, amountOut: e18, decimals: [18, 18], prices })).toBeUndefined()
  })

  test('an input amount of 0 is unknown; the thresholds are the caller’s', () => {
    expect(
      priceImpactOf({ amountIn: 0n, amountOut: e18, decimals: [18, 18], prices: [1, 1] }),
    ).toBeUndefined()
    const loose = { high: 0.5, blocking: 0.9 }
    expect(
      priceImpactOf({
        amountIn: 6n * e18,
        amountOut: 5n * e18,
        decimals: [18, 18],
        prices: [1, 1],
        thresholds: loose,
      })?.warning,
    ).toBe('none')
    expect(defaultPriceImpactThresholds).toEqual({ high: 0.05, blocking: 0.15 })
  })

  test.each([
    [1, true],
    [0.0001, true],
    [0, false],
    [-1, false],
    [Number.NaN, false],
    [Infinity, false],
    [undefined, false],
  ] as const)('isKnownPrice(%s) is %s: the one rule of a known price', (price, known) => {
    expect(isKnownPrice(price)).toBe(known)
  })

  test('PriceImpactTooHighError carries its facts as fields, with a stable code', () => {
    const error = new PriceImpactTooHighError({
      value: 1 / 6,
      valueIn: 6,
      valueOut: 5,
      blocking: 0.15,
      amountOut: 5n * e18,
    })
    expect(error.code).toBe('PRICE_IMPACT_TOO_HIGH')
    expect(error.shortMessage).toBe('Price impact 16.67% is at or above the 15% limit.')
    expect(error).toMatchObject({
      value: 1 / 6,
      valueIn: 6,
      valueOut: 5,
      blocking: 0.15,
      amountOut: 5n * e18,
    })
  })
})
