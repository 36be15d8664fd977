// `npm run check:structure`: the shape the code keeps (docs/ARCHITECTURE.md), checked in CI:
// - no import circle among the source files of src (type-only imports count: a circle cannot be read
//   bottom-up);
// - in src/core/execute, no arrow back up: rules/, records/, guard/ and types.ts import nothing of
//   run/ or of the public actions at the folder's top, and run/ imports no public action.
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs'
import { dirname, join, relative, resolve, sep } from 'node:path'
import { fileURLToPath } from 'node:url'

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..')
const files = []
const walk = (dir) => {
  for (const name of readdirSync(dir)) {
    const path = join(dir, name)
    if (statSync(path).isDirectory()) walk(path)
    else if (/\.tsx?$/.test(name) && !/\.test(-d)?\.tsx?$/.test(name)) files.push(path)
  }
}
walk(join(root, 'src'))

const candidates = (base) => [
  base,
  base.replace(/\.js$/, '.ts'),
  base.replace(/\.js$/, '.tsx'),
  `${base}.ts`,
  `${base}.tsx`,
]
const resolveImport = (from, spec) => {
  if (!spec.startsWith('.')) return undefined
  const base = resolve(dirname(from), spec)
  return candidates(base).find((path) => existsSync(path) && statSync(path).isFile())
}
const graph = new Map()
for (const file of files) {
  const deps = new Set()
  const source = readFileSync(file, 'utf8')
  for (const match of source.matchAll(
    /(?:import|export)\s[^'"`;]*?from\s*['"]([^'"]+)['"]|import\s*\(\s*['"]([^'"]+)['"]\s*\)/g,
  )) {
    const target = resolveImport(file, match[1] ?? match[2])
    if (target && target !== file) deps.add(target)
  }
  graph.set(file, deps)
}

// Tarjan's strongly connected components: every component of more than one file is a circle.
let index = 0
const indices = new Map()
const lows = new Map()
const stack = []
const onStack = new Set()
const circles = []
function connect(file) {
  indices.set(file, index)
  lows.set(file, index)
  index++
  stack.push(file)
  onStack.add(file)
  for (const dep of graph.get(file) ?? []) {
    if (!graph.has(dep)) continue
    if (!indices.has(dep)) {
      connect(dep)
      lows.set(file, Math.min(lows.get(file), lows.get(dep)))
    } else if (onStack.has(dep)) lows.set(file, Math.min(lows.get(file), indices.get(dep)))
  }
  if (lows.get(file) === indices.get(file)) {
    const component = []
    let member
    do {
      member = stack.pop()
      onStack.delete(member)
      component.push(member)
    } while (member !== file)
    if (component.length > 1) circles.push(component)
  }
}
for (const file of graph.keys()) if (!indices.has(file)) connect(file)

const execute = join(root, 'src', 'core', 'execute') + sep
const layer = (file) => {
  if (!file.startsWith(execute)) return undefined
  const [first] = relative(execute, file).split(sep)
  return first.endsWith('.ts') ? (first === 'types.ts' ? 'types' : 'actions') : first
}
// Who may import whom inside the executor (a layer may import itself).
const below = {
  actions: ['actions', 'run', 'rules', 'records', 'guard', 'types'],
  run: ['run', 'rules', 'records', 'guard', 'types'],
  rules: ['rules', 'records', 'guard', 'types'],
  records: ['records', 'types'],
  guard: ['guard', 'types'],
  types: ['types'],
}
const upward = []
for (const [file, deps] of graph) {
  const from = layer(file)
  if (!from) continue
  for (const dep of deps) {
    const to = layer(dep)
    if (to && !below[from]?.includes(to)) upward.push(`${relative(root, file)} → ${relative(root, dep)}`)
  }
}

for (const circle of circles) console.log(`circle: ${circle.map((file) => relative(root, file)).join(' → ')}`)
for (const arrow of upward) console.log(`upward arrow: ${arrow}`)
if (circles.length || upward.length) process.exitCode = 1
else
  console.log(
    `check:structure: ${files.length} files, no import circle, no arrow back up in src/core/execute`,
  )
