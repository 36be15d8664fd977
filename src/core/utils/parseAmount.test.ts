import fc from 'fast-check'
import { formatUnits, maxUint256 } from 'viem'
import { describe, expect, test } from 'vitest'
import { parseAmount } from './parseAmount.js'

describe('parseAmount', () => {
  test.each([
    ['1', 18, 10n ** 18n],
    ['1.5', 18, 15n * 10n ** 17n],
    ['.5', 6, 500_000n],
    ['1.', 6, 1_000_000n],
    ['0.000001', 6, 1n],
    ['1.500000', 6, 1_500_000n], // trailing zeros are not extra decimals
    ['1,5', 6, 1_500_000n], // a lone comma that cannot group thousands
    ['0,25', 6, 250_000n],
    ['0,250', 6, 250_000n], // grouped thousands never start with 0: a decimal comma
    [',5', 6, 500_000n],
    [',500', 6, 500_000n], // nothing to group before it: a decimal comma, as ".500"
    ['1,5000', 6, 1_500_000n],
    ['1234,5', 6, 1_234_500_000n],
    ['1,', 6, 1_000_000n],
    ['1,000', 6, 1_000_000_000n], // a comma grouping thousands
    ['1,500', 6, 1_500_000_000n],
    ['123,456,789', 0, 123_456_789n],
    ['1,000,000.5', 6, 1_000_000_500_000n],
    ['1,000.', 6, 1_000_000_000n],
    [' 12 ', 0, 12n],
    ['1\u00a0000', 0, 1000n],
  ])('%o with %i decimals is %s', (text, decimals, amount) => {
    expect(parseAmount(text, decimals)).toBe(amount)
  })

  test.each([
    ['1,5', 6, 1_500_000n],
    ['1.000,25', 6, 1_000_250_000n],
    ['1 000,25', 6, 1_000_250_000n],
    ['1.000', 6, 1_000_000_000n], // a point grouping thousands
    ['1.000.000', 0, 1_000_000n],
    ['1.5', 6, 1_500_000n], // a lone point that cannot group thousands: the decimal point
    ['0.250', 6, 250_000n],
    ['.500', 6, 500_000n],
    ['1234.5', 6, 1_234_500_000n],
  ])('with decimalSeparator ",": %o with %i decimals is %s', (text, decimals, amount) => {
    expect(parseAmount(text, decimals, { decimalSeparator: ',' })).toBe(amount)
  })

  test.each([
    ['1,000.25'], // a point after the comma
    ['1.00,5'],
    ['1.5.3'],
    ['1,5,3'],
    ['1234.500'], // 3 digits after a lone point, but no thousands before it: ambiguous
    ['01.500'],
  ])('with decimalSeparator ",": %o is no amount (undefined)', (text) => {
    expect(parseAmount(text, 6, { decimalSeparator: ',' })).toBeUndefined()
  })

  test.each([
    [''],
    ['.'],
    [','],
    ['-'],
    ['-1'],
    ['abc'],
    ['1e5'],
    ['1.2.3'],
    ['0x10'],
    ['1.0000001'], // more decimals than USDC has
    ['1.000,25'], // a comma after the point: no reading is safe
    ['1.5,0'],
    ['1,00,000'], // not grouped by thousands
    ['1,0000,000'],
    ['1,5,0'],
    ['01,000'],
    ['0,250,000'],
    [',500,000'],
    ['1,00.5'],
    ['1234,500'], // 3 digits after a lone comma, but no thousands before it: ambiguous
    ['01,500'],
    ['1,000,'],
    ['1'.repeat(100)], // more than 2^256 - 1
  ])('%o is no amount (undefined), never a throw', (text) => {
    expect(parseAmount(text, 6)).toBeUndefined()
  })

  test('no decimals known yet, or no text: undefined', () => {
    expect(parseAmount('1', undefined)).toBeUndefined()
    expect(parseAmount(undefined, 18)).toBeUndefined()
    expect(parseAmount('1', -1)).toBeUndefined()
    expect(parseAmount('1', 1.5)).toBeUndefined()
  })

  test('"auto" follows the runtime locale', () => {
    const separator = new Intl.NumberFormat()
      .formatToParts(1.5)
      .find((part) => part.type === 'decimal')?.value
    expect(parseAmount(`1${separator}5`, 1, { decimalSeparator: 'auto' })).toBe(15n)
  })

  test('any amount formatted with formatUnits parses back to itself', () => {
    fc.assert(
      fc.property(
        fc.bigInt({ min: 0n, max: 2n ** 200n }),
        fc.integer({ min: 0, max: 36 }),
        (amount, decimals) => {
          expect(parseAmount(formatUnits(amount, decimals), decimals)).toBe(amount)
        },
      ),
    )
  })

  test('any amount grouped by thousands parses back to itself, in either convention', () => {
    fc.assert(
      fc.property(
        fc.bigInt({ min: 0n, max: 2n ** 200n }),
        fc.integer({ min: 0, max: 36 }),
        (amount, decimals) => {
          const [whole = '', fraction] = formatUnits(amount, decimals).split('.')
          const groups = whole.replace(/\B(?=(\d{3})+$)/g, ' ').split(' ')
          const english = groups.join(',') + (fraction === undefined ? '' : `.${fraction}`)
          const german = groups.join('.') + (fraction === undefined ? '' : `,${fraction}`)
          expect(parseAmount(english, decimals)).toBe(amount)
          expect(parseAmount(german, decimals, { decimalSeparator: ',' })).toBe(amount)
        },
      ),
    )
  })

  test('a megabyte of digits (pasted, or sent by a script) is no amount (undefined), refused before it is read', () => {
    const megabyte = 2 ** 20
    // Each of these is an amount today, however long: leading zeros, trailing zeros, padding.
    expect(parseAmount('0'.repeat(megabyte), 18)).toBeUndefined()
    expect(parseAmount(`1.${'0'.repeat(megabyte)}`, 18)).toBeUndefined()
    expect(parseAmount(`${'0'.repeat(megabyte)}1`, 0)).toBeUndefined()
    expect(parseAmount(`${' '.repeat(megabyte)}1`, 6)).toBeUndefined()
    expect(parseAmount('1'.repeat(megabyte), 255)).toBeUndefined()
  })

  test('the longest amount there is (2^256 − 1) parses in any decimals up to 255, grouped, spaced and padded', () => {
    for (const decimals of [0, 6, 18, 77, 78, 79, 255]) {
      const text = formatUnits(maxUint256, decimals)
      expect(parseAmount(text, decimals), `${decimals} decimals`).toBe(maxUint256)
      // Trailing zeros to the token's decimals, as formatUnits never writes them.
      const [whole = '', fraction = ''] = text.split('.')
      const padded = `${whole}.${fraction.padEnd(decimals, '0')}`
      expect(parseAmount(padded, decimals), `${decimals} decimals, padded`).toBe(maxUint256)
      // A space between every two characters, and some around.
      const spaced = `  ${[...padded].join(' ')}\t `
      expect(parseAmount(spaced, decimals), `${decimals} decimals, spaced`).toBe(maxUint256)
      // Thousands grouped in both conventions.
      const groups = whole.replace(/\B(?=(\d{3})+$)/g, ' ').split(' ')
      expect(parseAmount(`${groups.join(',')}.${fraction}`, decimals)).toBe(maxUint256)
      expect(parseAmount(`${groups.join('.')},${fraction}`, decimals, { decimalSeparator: ',' })).toBe(
        maxUint256,
      )
    }
  })

  test('more decimals than a token can have (255, a uint8) is no amount (undefined)', () => {
    expect(parseAmount('1', 256)).toBeUndefined()
    expect(parseAmount(`0.${'0'.repeat(255)}1`, 256)).toBeUndefined() // 1 in the smallest unit, were there such a token
    expect(parseAmount('1', 1_000_000)).toBeUndefined()
  })

  test('never throws, whatever the text', () => {
    fc.assert(
      fc.property(fc.string(), fc.integer({ min: -2, max: 40 }), (text, decimals) => {
        const amount = parseAmount(text, decimals)
        expect(amount === undefined || typeof amount === 'bigint').toBe(true)
      }),
    )
  })
})
