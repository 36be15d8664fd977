import { BaseError } from './base.js'

/** `ResponseValidationError` narrowed by its `name`, as a function's `…ErrorType` union lists it. */
export type ResponseValidationErrorType = ResponseValidationError & {
  name: 'ResponseValidationError'
}

/**
 * A 2xx response whose body is not what the endpoint promises: not JSON, empty,
 * or a field of the wrong type. `path` points at the bad field (`$[3].address`).
 *
 * @example
 * if (error instanceof ResponseValidationError) report(error.endpoint, error.path)
 */
export class ResponseValidationError extends BaseError {
  override name = 'ResponseValidationError' as const
  declare endpoint: string
  /** Where in the body the problem is, as a JSONPath-like string (`$` is the body). */
  declare path: string
  declare url: string

  constructor({
    endpoint,
    path,
    problem,
    url,
    cause,
  }: { endpoint: string; path: string; problem: string; url: string; cause?: unknown }) {
    super(`Unexpected response from ${endpoint} at ${path}: ${problem}.`, {
      metaMessages: [`URL: ${url}`],
      cause,
      details: problem,
    })
    this.endpoint = endpoint
    this.path = path
    this.url = url
  }
}

/** Renders a zod issue path as `$.a[0].b`. */
export function formatPath(path: readonly PropertyKey[]): string {
  let out = '$'
  for (const key of path) {
    if (typeof key === 'number') out += `[${key}]`
    else if (typeof key === 'string' && /^[A-Za-z_$][\w$]*$/.test(key)) out += `.${key}`
    else out += `[${JSON.stringify(String(key))}]`
  }
  return out
}
