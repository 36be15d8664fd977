/**
 * The entries of `value` whose value is not `undefined`: so that an explicit
 * `undefined` never overrides a default when objects are spread.
 *
 * @example
 * ({ a: 1, ...withoutUndefined({ a: undefined, b: 2 }) }) // { a: 1, b: 2 }
 */
export function withoutUndefined<value extends object>(value: value): Partial<value> {
  return Object.fromEntries(
    Object.entries(value).filter(([, entry]) => entry !== undefined),
  ) as Partial<value>
}
