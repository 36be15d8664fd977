import { maxUint256 } from './validate.js'

export type ParseAmountOptions = {
  /**
   * The decimal separator the user types. `'.'` (default) reads `,` as a
   * thousands separator (`1,000` is 1000), except a lone comma that cannot be
   * one (`1,5` is 1.5); `','` reads `,` as the separator and `.` as a
   * thousands separator; `'auto'` follows the runtime's locale (`Intl.NumberFormat`).
   */
  decimalSeparator?: '.' | ',' | 'auto' | undefined
}

export type ParseAmountReturnType = bigint | undefined

/**
 * Turns what a user typed in an amount field into an amount in the token's
 * smallest unit, or `undefined` when there is no amount yet or it cannot be
 * one: empty or partial input (`''`, `'.'`, `'-'`), text (`'abc'`), a
 * negative number, more decimals than the token has, or more than 2^256 - 1.
 * It never throws, so it is safe to call during render; an `undefined` amount
 * keeps a hook waiting quietly.
 *
 * @example
 * import { parseAmount } from 'token-swap-hooks'
 *
 * parseAmount('1.5', 18)   // 1500000000000000000n
 * parseAmount('.5', 6)     // 500000n
 * parseAmount('1,5', 6)    // 1500000n
 * parseAmount('1 000,25', 6, { decimalSeparator: ',' }) // 1000250000n
 * parseAmount('0.0000001', 6) // undefined: USDC has 6 decimals
 * parseAmount('', 18)      // undefined
 */
export function parseAmount(
  text: string | null | undefined,
  decimals: number | undefined,
  options: ParseAmountOptions = {},
): ParseAmountReturnType {
  if (typeof text !== 'string' || !Number.isInteger(decimals) || (decimals as number) < 0) return undefined
  const separator =
    options.decimalSeparator === 'auto'
      ? (new Intl.NumberFormat().formatToParts(1.5).find((part) => part.type === 'decimal')?.value ?? '.')
      : (options.decimalSeparator ?? '.')
  // Spaces (also non-breaking and thin ones) group digits; so does the other separator.
  let value = text.replace(/[\s\u00a0\u202f']/g, '')
  if (separator === ',') value = value.replace(/\./g, '').replace(',', '.')
  else if (!value.includes('.') && /^\d*,(\d{0,2}|\d{4,})$/.test(value))
    // One comma that cannot be grouping thousands ("1,5", "0,25"): a decimal comma.
    value = value.replace(',', '.')
  else value = value.replace(/,/g, '')
  const match = /^(\d*)(?:\.(\d*))?$/.exec(value)
  if (!match) return undefined
  const [, whole = '', fraction = ''] = match
  if (whole === '' && fraction === '') return undefined
  const kept = fraction.replace(/0+$/, '')
  if (kept.length > (decimals as number)) return undefined
  const amount = BigInt(`${whole || '0'}${kept.padEnd(decimals as number, '0')}`)
  return amount <= maxUint256 ? amount : undefined
}
