import { describe, expect, test, vi } from 'vitest'
import { BaseError } from '../errors/base.js'
import { createRedactor, redactError, secretsOf } from './redact.js'

describe('secretsOf', () => {
  test('header values, their tokens and a Basic password; base-URL query values; not scheme words or short tokens', () => {
    expect(
      secretsOf(
        {
          authorization: 'Bearer abc123def456',
          cookie: 'session="s3ss10n-value"; theme=dark',
          proxy: `Basic ${btoa('alice:hunter2-horse')}`,
        },
        [
          ['key', 'k-123456'],
          ['chain', '1'],
        ],
      ),
    ).toEqual([
      'Bearer abc123def456',
      'abc123def456',
      'session="s3ss10n-value"; theme=dark',
      'session',
      's3ss10n-value',
      `Basic ${btoa('alice:hunter2-horse')}`,
      btoa('alice:hunter2-horse').replace(/=+$/, ''), // '=' separates tokens
      'alice:hunter2-horse',
      'hunter2-horse',
      'k-123456',
    ])
  })
})

describe('createRedactor', () => {
  const redact = createRedactor(['s3cret value"x'])

  test('raw, percent-encoded (either case), form-encoded and JSON-escaped spellings', () => {
    expect(
      redact(
        'a s3cret value"x b s3cret%20value%22x c s3cret+value%22x d s3cret%20value%22X e s3cret value\\"x',
      ),
    ).toBe('a *** b *** c *** d s3cret%20value%22X e ***')
    expect(redact('a s3cret%20value%22x'.toLowerCase())).toBe('a ***')
  })

  test('cut drops a trailing piece of a secret the cut split, and nothing else', () => {
    expect(redact.cut('hello s3cret val and more', 16)).toBe('hello ')
    expect(redact.cut('hello world and more', 11)).toBe('hello world')
    expect(redact.cut('short', 100)).toBe('short')
  })

  test('no secrets: the text as it is', () => {
    expect(createRedactor([])('anything')).toBe('anything')
    expect(createRedactor([]).cut('anything', 3)).toBe('any')
  })

  test('the spellings are worked out on first use, not when the redactor is built', () => {
    const encode = vi.spyOn(globalThis, 'encodeURIComponent')
    try {
      const lazy = createRedactor(['lazy-s3cret value'])
      expect(encode).not.toHaveBeenCalled()
      expect(lazy('x lazy-s3cret%20value y')).toBe('x *** y')
      expect(encode).toHaveBeenCalledTimes(1)
      expect(lazy.cut('x lazy-s3cret', 8)).toBe('x ')
      expect(encode).toHaveBeenCalledTimes(1)
    } finally {
      encode.mockRestore()
    }
  })
})

describe('redactError', () => {
  test('every string field, list of strings, the stack and the cause chain', () => {
    const cause = new Error('inner s3cret-token-1')
    const error = new BaseError('outer s3cret-token-1', {
      metaMessages: ['URL: x?k=s3cret-token-1'],
      details: 'd s3cret-token-1',
      cause,
    })
    Object.assign(error, { body: 'b s3cret-token-1', status: 401 })
    redactError(error, createRedactor(['s3cret-token-1']))
    const text = [
      error.message,
      error.stack,
      error.shortMessage,
      error.details,
      ...(error.metaMessages ?? []),
    ]
    text.push(cause.message, cause.stack ?? '', (error as unknown as { body: string }).body)
    expect(text.join('\n')).not.toContain('s3cret-token-1')
    expect(error.shortMessage).toBe('outer ***')
    expect((error as unknown as { status: number }).status).toBe(401)
  })
})
