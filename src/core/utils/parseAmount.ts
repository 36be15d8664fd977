import { maxUint256 } from './validate.js'

/** How `parseAmount` reads text: the token's decimals and the separators it accepts. */
export type ParseAmountOptions = {
  /**
   * The decimal separator the user types. `'.'` (default) reads `,` as a
   * thousands separator where it groups well (`1,000`, `12,345.6`) and a
   * single comma that cannot group thousands as a decimal comma (`1,5`,
   * `0,250`); `','` swaps the two; `'auto'` follows the runtime's locale
   * (`Intl.NumberFormat`). Ambiguous or badly grouped text is `undefined`.
   */
  decimalSeparator?: '.' | ',' | 'auto' | undefined
}

export type ParseAmountReturnType = bigint | undefined

/** The most decimals a token can have: ERC-20's `decimals` is a uint8. */
const maxDecimals = 255
/** Digits of 2^256 − 1. */
const maxUint256Digits = 78

/**
 * The longest text that can still be an amount in `decimals`: the longest
 * amount written out (2^256 − 1's 78 digits, or `0.` and `decimals` digits,
 * with its point), a separator after every character of it, and 64
 * characters of spaces around: 224 characters for 18 decimals, 578 for 255.
 */
function maxTextLength(decimals: number): number {
  return 2 * (Math.max(maxUint256Digits, decimals) + 2) + 64
}

/**
 * Turns what a user typed in an amount field into an amount in the token's
 * smallest unit, or `undefined` when there is no amount yet or it cannot be
 * one: empty or partial input (`''`, `'.'`, `'-'`), text (`'abc'`), a
 * negative number, more decimals than the token has, or more than 2^256 - 1.
 * Text longer than any amount can be written in `decimals` (2^256 − 1 with a
 * separator after every character and 64 characters of spaces: 224
 * characters for 18 decimals, 578 for 255) is `undefined` before it is read,
 * so a pasted megabyte costs nothing; so are `decimals` over 255 (a token's
 * are a uint8). It never throws, so it is safe to call during render; an
 * `undefined` amount keeps a hook waiting quietly.
 *
 * Separators, with the default `'.'` (`','` swaps the roles of `.` and `,`):
 * - `.` is the decimal point; spaces and `'` group digits anywhere.
 * - `,` groups thousands only where it groups well: 1 to 3 digits (not
 *   starting with 0), then groups of exactly 3, all before the point
 *   (`1,000`, `1,000,000.5`).
 * - Without a point, a single `,` is a decimal comma (`1,5`, `0,250`, `,5`)
 *   unless exactly 3 digits follow it: then it groups thousands after 1 to 3
 *   digits (`1,500` is 1500), is a decimal comma after nothing or a lone `0`
 *   (`0,250`, `,500`), and is ambiguous after anything else (`1234,500`).
 * - Anything else with a comma is `undefined` rather than a wrong amount:
 *   `1.000,25`, `1,00,000`, `1,5,0`, `1234,500`.
 *
 * @example
 * import { parseAmount } from 'token-swap-hooks'
 *
 * parseAmount('1.5', 18)   // 1500000000000000000n
 * parseAmount('.5', 6)     // 500000n
 * parseAmount('1,5', 6)    // 1500000n
 * parseAmount('1,000.5', 6) // 1000500000n
 * parseAmount('1.000,25', 6) // undefined: a comma after the point
 * parseAmount('1 000,25', 6, { decimalSeparator: ',' }) // 1000250000n
 * parseAmount('0.0000001', 6) // undefined: USDC has 6 decimals
 * parseAmount('', 18)      // undefined
 * parseAmount('0'.repeat(1_000_000), 18) // undefined: longer than any amount (224 characters for 18 decimals)
 */
export function parseAmount(
  text: string | null | undefined,
  decimals: number | undefined,
  options: ParseAmountOptions = {},
): ParseAmountReturnType {
  if (
    typeof text !== 'string' ||
    !Number.isInteger(decimals) ||
    (decimals as number) < 0 ||
    (decimals as number) > maxDecimals
  )
    return undefined
  // Longer than any amount can be: refused before the text is read (BigInt of a megabyte of digits takes ~0.1 s).
  if (text.length > maxTextLength(decimals as number)) return undefined
  const separator =
    options.decimalSeparator === 'auto'
      ? (new Intl.NumberFormat().formatToParts(1.5).find((part) => part.type === 'decimal')?.value ?? '.')
      : (options.decimalSeparator ?? '.')
  // Spaces (also non-breaking and thin ones) and apostrophes group digits.
  let value = text.replace(/[\s\u00a0\u202f']/g, '')
  // The ',' convention is the '.' one with the two separators swapped.
  if (separator === ',') value = value.replace(/[.,]/g, (mark) => (mark === '.' ? ',' : '.'))
  // A single comma that cannot group thousands ("1,5", "0,250", ",500"): a decimal comma.
  if (/^\d*,(\d{0,2}|\d{4,})$|^0?,\d{3}$/.test(value)) value = value.replace(',', '.')
  // Commas grouping thousands well, all before the point ("1,000.5"); any other comma stays and fails below.
  else if (/^[1-9]\d{0,2}(,\d{3})+(\.\d*)?$/.test(value)) value = value.replace(/,/g, '')
  const match = /^(\d*)(?:\.(\d*))?$/.exec(value)
  if (!match) return undefined
  const [, whole = '', fraction = ''] = match
  if (whole === '' && fraction === '') return undefined
  const kept = fraction.replace(/0+$/, '')
  if (kept.length > (decimals as number)) return undefined
  const amount = BigInt(`${whole || '0'}${kept.padEnd(decimals as number, '0')}`)
  return amount <= maxUint256 ? amount : undefined
}
