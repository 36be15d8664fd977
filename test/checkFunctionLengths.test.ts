// scripts/check-function-lengths.mjs: what it counts as a function, how it measures one, and the
// lexer traps that would throw its brace matching off (strings, templates, comments, regular
// expressions, JSX text).
import { execFileSync } from 'node:child_process'
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, describe, expect, test } from 'vitest'
import { functionsOf } from '../scripts/check-function-lengths.mjs'

const spans = (source: string, jsx = false) =>
  functionsOf(source, { jsx })
    .map(({ name, line, lines }) => `${name}@${line}:${lines}`)
    .sort()

describe('what counts as a function', () => {
  test('declarations, methods, getters, constructors, object-literal methods and named arrows', () => {
    const source = [
      'export async function declared(a: number): Promise<{ a: number }> {', // 1
      '  return { a }',
      '}',
      'class Box<value> {',
      '  #value: value',
      '  constructor(value: value) {', // 6
      '    this.#value = value',
      '  }',
      '  get value(): value {', // 9
      '    return this.#value',
      '  }',
      '  static of<item>(item: item): Box<item> {', // 12
      '    return new Box(item)',
      '  }',
      '}',
      'const literal = {',
      '  post(type: string, fields = {}) {', // 17
      '    if (type) {',
      '      for (const key of Object.keys(fields)) {',
      '        console.log(key)',
      '      }',
      '    }',
      '  },',
      "  'quoted'() {}, // 24",
      '  property: (x: number): { y: number } => ({', // 25
      '    y: x,',
      '  }),',
      '}',
      'const arrow = async <item,>(item: item) => {', // 29
      '  return item',
      '}',
      'const typed: (x: number) => number = function named(x) {', // 32
      '  return x',
      '}',
      'const concise = (x: number) =>', // 35
      '  x +',
      '  1',
      'let single = x => x', // 38
      'type Handler = (event: Event) => void',
      'items.forEach((item) => {', // 40
      '  use(item)',
      '})',
    ].join('\n')
    expect(spans(source)).toEqual([
      '(passed to forEach)@40:3',
      '(quoted method)@24:1',
      'arrow@29:3',
      'concise@35:3',
      'constructor@6:3',
      'declared@1:3',
      'named@32:3',
      'of@12:3',
      'post@17:7',
      'property@25:3',
      'single@38:1',
      'value@9:3',
    ])
  })

  test('strings, templates, comments and regular expressions hold no brace that counts', () => {
    const source = [
      'function tricky(text: string) {', // 1
      // biome-ignore lint/suspicious/noTemplateCurlyInString: the source of a template literal, as text
      "  const open = '{' + \"}\" + `${'{'}${`}${{ a: 1 }.a}`}`",
      "  // a comment with a brace } and a quote '",
      '  /* and { another',
      '     over lines } */',
      '  const ratio = text.length / 2 / 3',
      '  const pattern = /[}{]\\/\\}/g',
      '  if (ratio) return text.replace(/}/, "")',
      '  return typeof /{/.source',
      '}',
      'function after() {', // 11
      '  return 1',
      '}',
    ].join('\n')
    expect(spans(source)).toEqual(['after@11:3', 'tricky@1:10'])
  })

  test('JSX text may hold quotes and braces; code inside it is read as code', () => {
    const source = [
      'export function Page({ items }: { items: string[] }) {', // 1
      '  return (',
      '    <ul title="it\'s {not} code">',
      "      <li>Don't {'{'} stop</li>",
      '      {items.map((item) => (', // 5
      '        <li key={item} onClick={() => {', // 6
      '          console.log(item)',
      '        }}>{item} > 1</li>',
      '      ))}',
      '      <>fragment</>',
      '    </ul>',
      '  )',
      '}',
      'const generic = <value,>(value: value) => {', // 14
      '  return value < 1',
      '}',
    ].join('\n')
    expect(spans(source, true)).toEqual([
      '(anonymous)@6:3',
      '(passed to map)@5:5',
      'Page@1:13',
      'generic@14:3',
    ])
  })
})

describe('the command', () => {
  const dir = mkdtempSync(join(tmpdir(), 'function-lengths-'))
  afterAll(() => rmSync(dir, { recursive: true, force: true }))
  const body = (lines: number) =>
    Array.from({ length: lines - 2 }, (_, index) => `  use(${index})`).join('\n')
  mkdirSync(join(dir, 'src', 'deep'), { recursive: true })
  writeFileSync(join(dir, 'src', 'deep', 'long.ts'), `export function long() {\n${body(130)}\n}\n`)
  writeFileSync(join(dir, 'src', 'short.ts'), `export const short = () => {\n${body(30)}\n}\n`)
  // Tests and stories are not measured.
  writeFileSync(join(dir, 'src', 'long.test.ts'), `function longTest() {\n${body(300)}\n}\n`)
  writeFileSync(join(dir, 'src', 'long.stories.tsx'), `function longStory() {\n${body(300)}\n}\n`)
  const script = join(process.cwd(), 'scripts', 'check-function-lengths.mjs')
  const run = (...args: string[]) => {
    try {
      return {
        code: 0,
        out: execFileSync('node', [script, ...args], { cwd: dir, encoding: 'utf8', stdio: 'pipe' }),
      }
    } catch (error) {
      const { status, stdout, stderr } = error as { status: number; stdout: string; stderr: string }
      return { code: status, out: stdout + stderr }
    }
  }

  test('fails, naming file and line, when a function is longer than --max (120 by default)', () => {
    expect(run()).toEqual({
      code: 1,
      out: '1 function(s) in src longer than 120 lines:\n  130  src/deep/long.ts:1  long\n',
    })
    expect(run('--dir', 'src/deep', '--max', '129').code).toBe(1)
  })

  test('passes and shows the longest when none is', () => {
    expect(run('--max', '130')).toEqual({
      code: 0,
      out: [
        'No function in src is longer than 130 lines (2 functions); the longest:',
        '  130  src/deep/long.ts:1  long',
        '   30  src/short.ts:1  short',
        '',
      ].join('\n'),
    })
  })

  test('a file it cannot read is an error (exit 2), not a wrong count', () => {
    writeFileSync(join(dir, 'src', 'broken.ts'), 'function broken() {\n  const text = `unclosed\n}\n')
    const result = run('--max', '500')
    expect(result.code).toBe(2)
    expect(result.out).toContain('unreadable: src/broken.ts: unterminated template literal')
    rmSync(join(dir, 'src', 'broken.ts'))
  })
})
