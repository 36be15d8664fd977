import { expect, waitFor, type within } from 'storybook/test'

type Canvas = ReturnType<typeof within>

/**
 * The button named `name` once it can be clicked. `findByRole` alone returns a
 * disabled button, and a click on it does nothing: the widget's button is
 * labelled from the preview before the route that enables it has arrived.
 */
export async function enabledButton(canvas: Canvas, name: string | RegExp, timeout = 10_000) {
  let button: HTMLElement | undefined
  await waitFor(
    () => {
      button = canvas.getByRole('button', { name })
      expect(button).toBeEnabled()
    },
    { timeout },
  )
  return button as HTMLElement
}

/** `T` with each bigint written as a string (`123n`), as `serializable` returns it. */
export type Serializable<T> = T extends bigint
  ? `${bigint}n`
  : T extends readonly unknown[] | Record<string, unknown>
    ? { [K in keyof T]: Serializable<T[K]> }
    : T

/**
 * A copy of `value` with each bigint, in it or in its arrays and plain objects, written as the
 * string `123n`: what a play function passes to `expect` and its matchers. The Interactions
 * panel shows every argument of those calls, and a bigint inside an array or object breaks it
 * ("This addon has errors": Do not know how to serialize a BigInt). Put both sides through it,
 * `expect(serializable(actual)).toEqual(serializable(expected))`: the copies are equal when the
 * values are, and a bigint still differs from a number (`5n` becomes `'5n'`, `5` stays `5`).
 */
export function serializable<T>(value: T): Serializable<T> {
  const copy = (item: unknown): unknown => {
    if (typeof item === 'bigint') return `${item}n`
    if (Array.isArray(item)) return item.map(copy)
    if (Object.prototype.toString.call(item) === '[object Object]')
      return Object.fromEntries(Object.entries(item as object).map(([key, entry]) => [key, copy(entry)]))
    return item
  }
  return copy(value) as Serializable<T>
}

/**
 * The items of `expected` found in `items` in that order (each after the previous one), as far as
 * they go: equal to `expected` when `items` holds them in order, with anything in between.
 */
export function inOrder<T>(items: readonly T[], expected: readonly T[]): T[] {
  const found: T[] = []
  let from = 0
  for (const item of expected) {
    const at = items.indexOf(item, from)
    if (at < 0) break
    found.push(item)
    from = at + 1
  }
  return found
}

/** The types of the events the widget story's log shows, in order. */
export function loggedEvents(canvas: Canvas): string[] {
  const log = canvas.queryByRole('list', { name: 'events' })
  return log ? [...log.querySelectorAll('li')].map((item) => item.dataset.type ?? '') : []
}
