// Lists the functions of the library that are longer than a limit, by line span (from the line of
// their name or keyword to the line of their closing brace), and fails when any is.
//
//   node scripts/check-function-lengths.mjs                                  # src, at most 120 lines
//   node scripts/check-function-lengths.mjs --dir src/core/execute --max 60
//   node scripts/check-function-lengths.mjs --top 20                         # show the 20 longest
//
// Counted: function declarations and expressions, class and object-literal methods (getters,
// setters, constructors), and arrow functions, named after what they are assigned to (`const x =`,
// `x:`, a class field) or, when passed as an argument, after the function they are passed to. Left
// out: tests (`*.test.ts`, `*.test.tsx`, `*.test-d.ts`), stories and declaration files.
//
// TypeScript 7 has no JavaScript compiler API, so the files are read by a small lexer of our own
// rather than a parser: it knows strings, template literals (and the code inside `${}`), comments,
// regular expression literals (told from a division by the token before them) and, in .tsx files,
// JSX (its text may hold quotes and braces). It only needs to find each function's braces; a file
// whose brackets do not pair up is reported as unreadable (exit code 2) rather than measured wrong.
import { readdirSync, readFileSync } from 'node:fs'
import { join, relative } from 'node:path'
import { pathToFileURL } from 'node:url'

/** Identifiers after which a `/` starts a regular expression (and a `<` a JSX element), not a division. */
const operatorKeywords = new Set([
  'return',
  'typeof',
  'instanceof',
  'in',
  'of',
  'new',
  'delete',
  'void',
  'throw',
  'case',
  'do',
  'else',
  'yield',
  'await',
  'extends',
])

/** Words that look like a method when followed by `(…) {`, but are statements. */
const statementKeywords = new Set([
  'if',
  'for',
  'while',
  'switch',
  'catch',
  'with',
  'function',
  'return',
  'typeof',
  'await',
  'new',
  'else',
  'do',
  'try',
  'finally',
  'super',
  'import',
  'void',
  'yield',
  'throw',
  'delete',
])

/** Words allowed before a method's name. */
const memberModifiers = new Set([
  'async',
  'get',
  'set',
  'static',
  'public',
  'private',
  'protected',
  'readonly',
  'override',
  'abstract',
  'declare',
  'accessor',
])

const identifierStart = /[\p{L}_$#]/u
const identifierPart = /[\p{L}\p{N}_$\u200c\u200d]/u

class LexError extends Error {}

/**
 * Whether a `<` where an expression may start opens a JSX element or fragment, rather than the
 * type parameters of a generic arrow function (`<value,>(…) =>`, `<value extends X>(…) =>`).
 */
const startsElement = (text) => /^<(>|[\p{L}][\w.:-]*(?![\w.:-])(?!\s*(,|extends\b)))/u.test(text)

/**
 * The tokens of a TypeScript (or TSX, with `jsx`) source: identifiers (`id`), numbers, strings,
 * template literals, regular expressions and JSX text are one token each; punctuation is one
 * character per token except `=>` and `...`. Comments and white space are dropped. Each token
 * has its `line` (1-based).
 */
export function tokenize(source, { jsx = false } = {}) {
  const tokens = []
  let at = 0
  let line = 1
  const push = (type, value, startLine) => tokens.push({ type, value, line: startLine })
  const fail = (message) => {
    throw new LexError(`${message} (line ${line})`)
  }
  const expressionCanStart = () => {
    const previous = tokens[tokens.length - 1]
    if (!previous || previous.type === 'jsx{') return true
    if (previous.type === 'id') return operatorKeywords.has(previous.value)
    if (previous.type !== 'punct') return false
    return !(previous.value === ')' || previous.value === ']' || previous.value === '}')
  }
  /** Advances over `count` characters, counting line breaks. */
  const advance = (count = 1) => {
    for (let index = 0; index < count; index += 1) if (source[at++] === '\n') line += 1
  }

  function quoted(quote, escapes = true) {
    const startLine = line
    advance()
    while (at < source.length && source[at] !== quote) {
      if (escapes && source[at] === '\\') advance()
      else if (quote !== '`' && escapes && source[at] === '\n') fail('unterminated string')
      advance()
    }
    if (at >= source.length) fail('unterminated string')
    advance()
    push('str', quote, startLine)
  }

  /** A template literal; the code of each `${…}` is tokenized in place. */
  function template() {
    const startLine = line
    advance()
    for (;;) {
      if (at >= source.length) fail('unterminated template literal')
      const char = source[at]
      if (char === '\\') advance(2)
      else if (char === '`') {
        advance()
        break
      } else if (char === '$' && source[at + 1] === '{') {
        advance(2)
        code(true)
      } else advance()
    }
    push('tpl', '`', startLine)
  }

  function regex() {
    const startLine = line
    advance()
    let inClass = false
    for (;;) {
      const char = source[at]
      if (char === undefined || char === '\n') fail('unterminated regular expression')
      if (char === '\\') advance()
      else if (char === '[') inClass = true
      else if (char === ']') inClass = false
      else if (char === '/' && !inClass) break
      advance()
    }
    advance()
    while (at < source.length && identifierPart.test(source[at])) advance()
    push('regex', '/', startLine)
  }

  /** A JSX element or fragment, from its `<` to the end of its closing tag. */
  function element() {
    const startLine = line
    advance() // <
    while (at < source.length && /[\w.:-]/.test(source[at])) advance()
    for (;;) {
      while (/\s/.test(source[at] ?? '')) advance()
      const char = source[at]
      if (char === undefined) fail('unterminated JSX element')
      if (char === '/' && source[at + 1] === '>') {
        advance(2)
        push('jsx', '<', startLine)
        return
      }
      if (char === '>') {
        advance()
        break
      }
      if (char === '{') jsxExpression()
      else if (char === '"' || char === "'") quoted(char, false)
      else if (char === '<') element()
      else advance()
    }
    children()
    push('jsx', '<', startLine)
  }

  /** A `{…}` in JSX: code, where an expression (and so a regular expression or an element) may start. */
  function jsxExpression() {
    push('jsx{', '{', line)
    advance()
    code(true)
    push('jsx}', '}', line)
  }

  /** The children of a JSX element up to and including its closing tag. */
  function children() {
    for (;;) {
      const char = source[at]
      if (char === undefined) fail('unterminated JSX element')
      if (char === '<' && source[at + 1] === '/') {
        while (at < source.length && source[at] !== '>') advance()
        advance()
        return
      }
      if (char === '<') element()
      else if (char === '{') jsxExpression()
      else advance()
    }
  }

  /** Code up to the end of the source or, with `inBraces`, to the `}` that closes an opened `{`. */
  function code(inBraces) {
    let depth = 0
    while (at < source.length) {
      const char = source[at]
      const next = source[at + 1]
      if (/\s/.test(char)) advance()
      else if (char === '/' && next === '/') while (at < source.length && source[at] !== '\n') advance()
      else if (char === '/' && next === '*') {
        const end = source.indexOf('*/', at + 2)
        if (end < 0) fail('unterminated comment')
        advance(end + 2 - at)
      } else if (char === '"' || char === "'") quoted(char)
      else if (char === '`') template()
      else if (char === '/' && expressionCanStart()) regex()
      else if (char === '<' && jsx && expressionCanStart() && startsElement(source.slice(at, at + 200)))
        element()
      else if (identifierStart.test(char)) {
        const startLine = line
        const start = at
        advance()
        while (at < source.length && identifierPart.test(source[at])) advance()
        push('id', source.slice(start, at), startLine)
      } else if (/\d/.test(char) || (char === '.' && /\d/.test(next ?? ''))) {
        const startLine = line
        while (at < source.length && /[\w.]/.test(source[at])) advance()
        push('num', '0', startLine)
      } else if (char === '=' && next === '>') {
        push('punct', '=>', line)
        advance(2)
      } else if (char === '.' && next === '.' && source[at + 2] === '.') {
        push('punct', '...', line)
        advance(3)
      } else {
        if (char === '{') depth += 1
        if (char === '}') {
          if (depth === 0 && inBraces) {
            advance()
            return
          }
          depth -= 1
        }
        push('punct', char, line)
        advance()
      }
    }
    if (inBraces) fail('unclosed ${ or { in JSX')
  }

  code(false)
  return tokens
}

/** For each bracket token, the index of its partner; fails when they do not pair up. */
function pairBrackets(tokens) {
  const partner = new Array(tokens.length).fill(-1)
  const open = []
  const closing = { ')': '(', ']': '[', '}': '{' }
  tokens.forEach((token, index) => {
    if (token.type !== 'punct') return
    if (token.value === '(' || token.value === '[' || token.value === '{') open.push(index)
    else if (token.value in closing) {
      const start = open.pop()
      if (start === undefined || tokens[start].value !== closing[token.value])
        throw new LexError(`unbalanced "${token.value}" (line ${token.line})`)
      partner[start] = index
      partner[index] = start
    }
  })
  if (open.length)
    throw new LexError(`unclosed "${tokens[open.at(-1)].value}" (line ${tokens[open.at(-1)].line})`)
  return partner
}

/**
 * Every function of a source with its name, first line and line span, longest first.
 *
 * @example
 * functionsOf('function f() {\n  return 1\n}') // [{ name: 'f', line: 1, end: 3, lines: 3 }]
 */
export function functionsOf(source, { jsx = false } = {}) {
  const tokens = tokenize(source, { jsx })
  const partner = pairBrackets(tokens)
  const is = (index, value) => tokens[index]?.type === 'punct' && tokens[index].value === value
  const isId = (index, value) =>
    tokens[index]?.type === 'id' && (value === undefined || tokens[index].value === value)
  const found = new Map()
  const add = (name, startIndex, endIndex) => {
    if (name === undefined) return
    const start = tokens[startIndex].line
    const end = tokens[endIndex].line
    if (!found.has(startIndex)) found.set(startIndex, { name, line: start, end, lines: end - start + 1 })
  }

  /** Past `<…>` generics starting at `index` (or `index` itself when there are none). */
  const skipGenerics = (index) => {
    if (!is(index, '<')) return index
    let depth = 0
    for (let at = index; at < tokens.length && at < index + 200; at += 1) {
      if (is(at, '(') || is(at, '[') || is(at, '{')) at = partner[at]
      else if (is(at, '<')) depth += 1
      else if (is(at, '>') && --depth === 0) return at + 1
      else if (is(at, ';')) return index
    }
    return index
  }

  /**
   * From the token after a parameter list: past a return type annotation, to the token that
   * ends it at depth 0 (`{` of a body, `=>`, or anything else that cannot be in a type).
   */
  const afterReturnType = (index) => {
    if (!is(index, ':')) return index
    let angles = 0
    const typeExpected = new Set([':', '|', '&', '<', ',', '(', '=>', '?', '['])
    for (let at = index + 1; at < tokens.length; at += 1) {
      const token = tokens[at]
      if (token.type === 'id' && (token.value === 'keyof' || token.value === 'typeof')) continue
      if (token.type.startsWith('jsx')) return at
      if (token.type !== 'punct') continue
      const previous = tokens[at - 1]
      if (token.value === '{') {
        if (angles > 0 || (previous.type === 'punct' && typeExpected.has(previous.value))) at = partner[at]
        else return at
      } else if (token.value === '(' || token.value === '[') at = partner[at]
      else if (token.value === '<') angles += 1
      else if (token.value === '>') angles -= 1
      else if (angles === 0 && token.value === '=>') {
        // A function type (`(): () => void {`) goes on; the arrow of an arrow function ends the type.
        if (!(previous.type === 'punct' && previous.value === ')' && is(partner[at - 1] - 1, ':'))) return at
      } else if (angles === 0 && (token.value === ';' || token.value === ',' || token.value === '='))
        return at
      else if (token.value === ')' || token.value === ']' || token.value === '}') return at
    }
    return tokens.length
  }

  /** The last token of an arrow function's expression body starting at `index`. */
  const expressionEnd = (index) => {
    const continues = new Set([
      '.',
      '?',
      ':',
      '&',
      '|',
      '+',
      '-',
      '*',
      '/',
      '%',
      '=',
      '<',
      '>',
      '!',
      ',',
      '=>',
    ])
    let last = index
    for (let at = index; at < tokens.length; at += 1) {
      const token = tokens[at]
      if (token.type === 'jsx{' || token.type === 'jsx}') break
      if (token.type === 'punct' && (token.value === ')' || token.value === ']' || token.value === '}')) break
      if (token.type === 'punct' && (token.value === ',' || token.value === ';')) break
      if (at > index && token.line > tokens[last].line) {
        const previous = tokens[last]
        const carriedOn =
          (previous.type === 'punct' && continues.has(previous.value) && previous.value !== ',') ||
          (token.type === 'punct' && continues.has(token.value) && token.value !== '!')
        if (!carriedOn) break
      }
      if (token.type === 'punct' && (token.value === '(' || token.value === '[' || token.value === '{'))
        at = partner[at]
      last = at
    }
    return last
  }

  /** What a function expression or arrow starting at `index` is called, from the tokens before it. */
  const nameBefore = (index) => {
    const previous = tokens[index - 1]
    if (!previous) return '(anonymous)'
    if (previous.type === 'punct' && previous.value === '=') {
      const target = tokens[index - 2]
      // A function type (`type Handler = (event: Event) => void`) is no function.
      if (target?.type === 'id' && isId(index - 3, 'type')) return undefined
      if (target?.type === 'id') return target.value
      // `const name: Type = …`: back to the declaration's keyword.
      for (let at = index - 2; at >= Math.max(0, index - 60); at -= 1)
        if (isId(at, 'const') || isId(at, 'let') || isId(at, 'var'))
          return isId(at + 1) ? tokens[at + 1].value : '(anonymous)'
      return '(anonymous)'
    }
    if (previous.type === 'punct' && previous.value === ':') {
      const key = tokens[index - 2]
      // The type of a variable (`const handle: (event: Event) => void = …`) is no function.
      if (isId(index - 3, 'const') || isId(index - 3, 'let') || isId(index - 3, 'var')) return undefined
      return key?.type === 'id' ? key.value : '(anonymous)'
    }
    if (previous.type === 'punct' && previous.value === '(') {
      const callee = tokens[index - 2]
      return callee?.type === 'id' ? `(passed to ${callee.value})` : '(anonymous)'
    }
    if (isId(index - 1, 'default')) return 'default'
    return '(anonymous)'
  }

  for (let index = 0; index < tokens.length; index += 1) {
    const token = tokens[index]
    // function name<…>(…): T { … }, and function expressions.
    if (token.type === 'id' && token.value === 'function' && !is(index - 1, '.')) {
      let at = index + 1
      if (is(at, '*')) at += 1
      const name = isId(at) ? tokens[at].value : undefined
      if (name !== undefined) at += 1
      at = skipGenerics(at)
      if (!is(at, '(')) continue
      const body = afterReturnType(partner[at] + 1)
      if (!is(body, '{')) continue
      const start = isId(index - 1, 'async') ? index - 1 : index
      add(name ?? nameBefore(start), start, partner[body])
      continue
    }
    // (…) => …, (…): T => …, async (…) => …, <T>(…) => …
    if (is(index, '(')) {
      const arrow = afterReturnType(partner[index] + 1)
      if (is(arrow, '=>')) {
        let start = index
        if (is(start - 1, '>')) {
          for (let at = start - 1; at >= 0 && at > start - 40; at -= 1)
            if (is(at, '<') && skipGenerics(at) === start) {
              start = at
              break
            }
        }
        if (isId(start - 1, 'async')) start -= 1
        const end = is(arrow + 1, '{') ? partner[arrow + 1] : expressionEnd(arrow + 1)
        add(nameBefore(start), start, end)
        tokens[arrow].claimed = true
        continue
      }
    }
    // x => …, async x => …
    if (is(index, '=>') && !token.claimed && isId(index - 1)) {
      let start = index - 1
      if (isId(start - 1, 'async')) start -= 1
      const end = is(index + 1, '{') ? partner[index + 1] : expressionEnd(index + 1)
      add(nameBefore(start), start, end)
      continue
    }
    // Methods: name(…) { … }, async name(…) { … }, get name() { … }, 'quoted'(…) { … }, in a class or an
    // object literal: the name comes after `{`, `,`, `;`, `}`, a modifier or `*`, or starts its line.
    if ((token.type === 'id' && !statementKeywords.has(token.value)) || token.type === 'str') {
      const open = skipGenerics(index + 1)
      if (!is(open, '(')) continue
      const previous = tokens[index - 1]
      const memberPosition =
        !previous ||
        previous.line < token.line ||
        (previous.type === 'punct' && ['{', ',', ';', '}', '*'].includes(previous.value)) ||
        (previous.type === 'id' && memberModifiers.has(previous.value))
      if (!memberPosition || is(index - 1, '.')) continue
      const body = afterReturnType(partner[open] + 1)
      if (!is(body, '{')) continue
      add(token.type === 'id' ? token.value : '(quoted method)', index, partner[body])
    }
  }
  return [...found.values()].sort((a, b) => b.lines - a.lines || a.line - b.line)
}

/** The library's source files under `dir`: .ts and .tsx, without tests, stories and declarations. */
export function sourceFiles(dir) {
  const files = []
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name)
    if (entry.isDirectory()) files.push(...sourceFiles(path))
    else if (
      /\.tsx?$/.test(entry.name) &&
      !/\.(test|test-d|stories|d)\.tsx?$/.test(entry.name) &&
      !/\.stories\./.test(entry.name)
    )
      files.push(path)
  }
  return files.sort()
}

function parseArguments(argv) {
  const options = { dir: 'src', max: 120, top: 10 }
  for (let index = 0; index < argv.length; index += 1) {
    const [flag, inline] = argv[index].split('=', 2)
    const value = inline ?? argv[++index]
    if (flag === '--dir') options.dir = value
    else if (flag === '--max' || flag === '--top') {
      const number = Number(value)
      if (!Number.isInteger(number) || number < 1)
        throw new Error(`${flag} needs a whole number, got ${value}`)
      options[flag.slice(2)] = number
    } else throw new Error(`unknown option ${argv[index]} (use --dir, --max, --top)`)
  }
  return options
}

function main() {
  let options
  try {
    options = parseArguments(process.argv.slice(2))
  } catch (error) {
    console.error(error.message)
    process.exit(2)
  }
  const all = []
  const unreadable = []
  for (const file of sourceFiles(options.dir)) {
    const name = relative(process.cwd(), file)
    try {
      for (const fn of functionsOf(readFileSync(file, 'utf8'), { jsx: file.endsWith('.tsx') }))
        all.push({ ...fn, file: name })
    } catch (error) {
      if (!(error instanceof LexError)) throw error
      unreadable.push(`${name}: ${error.message}`)
    }
  }
  all.sort((a, b) => b.lines - a.lines || a.file.localeCompare(b.file) || a.line - b.line)
  const over = all.filter((fn) => fn.lines > options.max)
  const shown = over.length ? over : all.slice(0, options.top)
  const format = (fn) => `${String(fn.lines).padStart(5)}  ${fn.file}:${fn.line}  ${fn.name}`
  console.log(
    over.length
      ? `${over.length} function(s) in ${options.dir} longer than ${options.max} lines:`
      : `No function in ${options.dir} is longer than ${options.max} lines (${all.length} functions); the longest:`,
  )
  for (const fn of shown) console.log(format(fn))
  for (const line of unreadable) console.error(`unreadable: ${line}`)
  if (unreadable.length) process.exit(2)
  if (over.length) process.exit(1)
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) main()
