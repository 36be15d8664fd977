/** Hides every configured secret in a text; `cut` also shortens a text without leaving a piece of one. */
export type Redactor = {
  (text: string): string
  /** The first `length` characters, less a trailing piece of a secret that the cut split. */
  cut(text: string, length: number): string
}

/** Shorter tokens of a header value are too common to hide (`v2`, `json`). */
const minTokenLength = 6
/** Shorter whole values (a header value, a base-URL query value) are not hidden in free text. */
const minValueLength = 4
/** Authorization schemes and other words that are not secrets. */
const schemeWords = /^(bearer|basic|digest|negotiate|token|apikey|api-key|dpop)$/i

/**
 * The secret values of one request: every header value and its tokens (split
 * at white space, `=`, `,` and `;`, quotes dropped, scheme words such as
 * `Bearer` skipped, at least 6 characters), the user and password of a Basic
 * authorization, and every query value of the base URL.
 *
 * @example
 * secretsOf({ authorization: 'Bearer abc123def456' }, [['key', 'k-123456']])
 * // ['Bearer abc123def456', 'abc123def456', 'k-123456']
 */
export function secretsOf(
  headers: Record<string, string> | undefined,
  baseQuery: readonly (readonly [string, string])[],
): string[] {
  const secrets = new Set<string>()
  const add = (text: string, minLength: number) => text.length >= minLength && secrets.add(text)
  for (const value of Object.values(headers ?? {})) {
    if (typeof value !== 'string') continue
    add(value.trim(), minValueLength)
    for (const token of value.split(/[\s=,;]+/)) {
      const bare = token.replace(/^"+|"+$/g, '')
      if (!schemeWords.test(bare)) add(bare, minTokenLength)
    }
    const basic = /^\s*basic\s+([\w+/=-]+)\s*$/i.exec(value)?.[1]
    const decoded = basic && decodeBase64(basic)
    // The user:password pair, then each of its parts long enough.
    if (decoded)
      for (const part of [decoded, ...decoded.split(':')]) add(part, part === decoded ? 1 : minTokenLength)
  }
  for (const [, value] of baseQuery) add(value, minValueLength)
  return [...secrets]
}

function decodeBase64(text: string): string | undefined {
  try {
    const decoded = atob(text.replace(/-/g, '+').replace(/_/g, '/'))
    // Only text: a binary token is not echoed as such.
    return /^[\x20-\x7e]+$/.test(decoded) ? decoded : undefined
  } catch {
    return undefined
  }
}

/**
 * Every way a secret may be spelled in a body, a URL or a message: as it is,
 * percent-encoded (upper or lower case hex), form-encoded (`+` for spaces)
 * and JSON-escaped.
 */
function spellingsOf(secret: string): string[] {
  const percent = encodeURIComponent(secret)
  const form = new URLSearchParams({ v: secret }).toString().slice(2)
  const lower = (text: string) => text.replace(/%[0-9A-F]{2}/g, (hex) => hex.toLowerCase())
  return [secret, percent, lower(percent), form, lower(form), JSON.stringify(secret).slice(1, -1)]
}

/**
 * Builds a redactor from secret values. Every spelling of every secret
 * becomes `***`; longer spellings are matched first. The spellings and the
 * pattern are worked out on first use, so a request that succeeds pays
 * nothing.
 *
 * @example
 * const redact = createRedactor(['sk_live_123456'])
 * redact('bad key sk_live_123456') // 'bad key ***'
 */
export function createRedactor(secrets: readonly string[]): Redactor {
  let spellings: string[] | undefined
  let pattern: RegExp | undefined
  const allSpellings = () =>
    (spellings ??= [...new Set(secrets.flatMap(spellingsOf))]
      .filter((spelling) => spelling)
      .sort((a, b) => b.length - a.length))
  const redact = ((text: string) => {
    if (!text || !allSpellings().length) return text
    pattern ??= new RegExp(allSpellings().map(escapeRegExp).join('|'), 'g')
    return text.replace(pattern, '***')
  }) as Redactor
  redact.cut = (text, length) => {
    let out = text.slice(0, length)
    if (text.length > length)
      for (const spelling of allSpellings())
        for (let size = Math.min(spelling.length - 1, out.length); size > 0; size--)
          if (out.endsWith(spelling.slice(0, size))) {
            out = out.slice(0, -size)
            break
          }
    return out
  }
  return redact
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\/-]/g, '\\$&')
}

/**
 * Hides the secrets in an error the client is about to throw, and in every
 * error of its cause chain: each string field (message, shortMessage,
 * details, url, body, path…), each string of a list field (metaMessages), the
 * stack, and the issues of a validation error (their messages and paths; the
 * raw input they quote is dropped). Returns the same error.
 *
 * @example
 * throw redactError(error, createRedactor(secretsOf(headers, baseQuery)))
 */
export function redactError<error>(error: error, redact: Redactor): error {
  const seen = new Set<unknown>()
  for (
    let current: unknown = error;
    current instanceof Error && !seen.has(current);
    current = current.cause
  ) {
    seen.add(current)
    const target = current as unknown as Record<string, unknown>
    if (Array.isArray(target.issues)) for (const issue of target.issues) scrubIssue(issue, redact, 0)
    // The message, the stack and a cause given as text are own fields, but not enumerable ones.
    for (const key of ['message', 'stack', 'cause', ...Object.keys(target)]) {
      const value = target[key]
      if (typeof value === 'string') assign(target, key, redact(value))
      else if (Array.isArray(value) && value.every((item) => typeof item === 'string'))
        assign(
          target,
          key,
          value.map((item: string) => redact(item)),
        )
    }
  }
  return error
}

/**
 * An issue of a schema, in place: drops the input it quotes (nested issues'
 * too) and hides secrets in its strings (its message, its path). Returns the
 * value, strings redacted.
 */
function scrubIssue(value: unknown, redact: Redactor, depth: number): unknown {
  if (typeof value === 'string') return redact(value)
  if (typeof value === 'object' && value !== null && depth < 16) {
    const target = value as Record<string, unknown>
    delete target.input
    for (const key of Object.keys(target)) assign(target, key, scrubIssue(target[key], redact, depth + 1))
  }
  return value
}

function assign(target: Record<string, unknown>, key: string, value: unknown) {
  if (target[key] === value) return
  try {
    target[key] = value
  } catch {
    // A read-only field of someone else's error: left as it is.
  }
}
