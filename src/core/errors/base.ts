export type BaseErrorParameters = {
  /** Extra lines shown under the short message. */
  metaMessages?: string[] | undefined
  /** A longer explanation, or the message of the cause. */
  details?: string | undefined
  /** The error that caused this one. */
  cause?: unknown
}

/** `BaseError` narrowed by its `name`, as a function's `…ErrorType` union lists it. */
export type BaseErrorType = BaseError & { name: 'BaseError' }

/**
 * The root of every error the library throws. Catch it to handle them all;
 * narrow with `instanceof` or `error.name` to handle one kind.
 *
 * @example
 * import { BaseError, getSwapRoute } from 'token-swap-hooks/core'
 *
 * try {
 *   await getSwapRoute(client, { token0, token1, amountIn: 10n ** 18n })
 * } catch (error) {
 *   if (error instanceof BaseError) console.error(error.shortMessage)
 * }
 */
export class BaseError extends Error {
  /** A one-line summary, safe to show to a user. */
  declare shortMessage: string
  /** A longer explanation, or the message of the cause. */
  declare details: string
  declare metaMessages: string[] | undefined

  override name = 'BaseError'

  constructor(shortMessage: string, { metaMessages, details: given, cause }: BaseErrorParameters = {}) {
    const details =
      given ?? (cause instanceof BaseError ? cause.details : cause instanceof Error ? cause.message : '')
    super(
      [
        shortMessage,
        ...(metaMessages?.length ? ['', ...metaMessages] : []),
        ...(details ? ['', `Details: ${details}`] : []),
      ].join('\n'),
      cause === undefined ? undefined : { cause },
    )
    this.shortMessage = shortMessage
    this.details = details
    this.metaMessages = metaMessages
  }

  /**
   * A stable code for translations and analytics: the class's name in
   * CONSTANT_CASE, without `Error` (`NoRouteError` → `'NO_ROUTE'`,
   * `UserRejectedError` → `'USER_REJECTED'`). It changes only when the class
   * is renamed, which is a breaking change.
   *
   * @example
   * t(`errors.${error.code}`) // 'errors.RATE_LIMIT'
   */
  get code(): string {
    return this.name
      .replace(/Error$/, '')
      .replace(/(?<=[a-z\d])(?=[A-Z])/g, '_')
      .toUpperCase()
  }

  /**
   * Walks the `cause` chain and returns the deepest error, or the first one
   * for which `fn` returns true (`null` when none matches).
   *
   * @example
   * const rateLimit = error.walk((e) => e instanceof RateLimitError)
   */
  walk(): unknown
  walk(fn: (error: unknown) => boolean): unknown
  walk(fn?: (error: unknown) => boolean): unknown {
    return walk(this, fn)
  }
}

/**
 * Walks an error's `cause` chain (of any error, not only ours).
 *
 * @example
 * const rejected = walk(error, (e) => (e as { code?: number }).code === 4001)
 */
export function walk(error: unknown, fn?: (error: unknown) => boolean): unknown {
  let current = error
  const seen = new Set<unknown>()
  while (current !== null && current !== undefined && !seen.has(current)) {
    seen.add(current)
    if (fn?.(current)) return current
    const next = (current as { cause?: unknown }).cause
    if (next === undefined || next === null) break
    current = next
  }
  return fn ? null : current
}
