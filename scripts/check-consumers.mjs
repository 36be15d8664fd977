// Proves the peer ranges in package.json by test (`npm run check:consumers`, run by CI).
//
// Packs the library (`npm pack`, whose prepack builds JS and types), then installs the tarball into
// throwaway consumer projects, each with `npm install --install-strategy=linked`, so that only
// declared dependencies and peers resolve, as under pnpm:
//   - oldest: the lowest version every peer range allows (react and react-dom at the floor with
//     @types/react of that major), msw at its floor, importing token-swap-hooks/mock/msw too;
//   - newest: the highest version every peer range allows, without msw (token-swap-hooks/mock
//     must work without the optional peer).
// The floors and ceilings are read from the ranges in package.json (`npm view name@range`), so
// package.json is the one place they live. In each consumer:
//   - tsc --noEmit with skipLibCheck: false, strict, moduleResolution bundler over a component and
//     code using every entry (scripts/consumers/src/app.tsx), the viem actions the library calls
//     with the parameters it passes (src/viem.ts), and the library's own framework-free sources
//     (this repository's src/, copied beside the installed package: the tarball ships no sources),
//     so that a viem API the library uses but the floor lacks fails here rather than in a user's app;
//   - tsc with moduleResolution node16 over the framework-free entries (src/node16.ts);
//   - vitest (jsdom, Testing Library): useSwapRoute inside <SwapProvider> against the loopback
//     mock server of token-swap-hooks/mock answers a bigint amountOut.
//
// Usage: node scripts/check-consumers.mjs [--only oldest|newest] [--with name@version]... [--keep]
//   --with overrides one package's version in the consumers checked (to probe a version inside the
//     ranges; to try one below a floor, lower the range in package.json first);
//   --keep leaves the temporary directory for inspection.
import { cpSync, mkdirSync, mkdtempSync, readFileSync, realpathSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { basename, dirname, join, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'
import { parseArgs } from 'node:util'
import { packLibrary, run as runCommand } from './run.mjs'

const repo = resolve(dirname(fileURLToPath(import.meta.url)), '..')
const templates = join(repo, 'scripts/consumers')
const packageJson = JSON.parse(readFileSync(join(repo, 'package.json'), 'utf8'))

const { values: options } = parseArgs({
  options: {
    only: { type: 'string' },
    with: { type: 'string', multiple: true, default: [] },
    keep: { type: 'boolean', default: false },
  },
})

class CheckError extends Error {}

/** Runs a command; resolves with its stdout, rejects with a CheckError carrying the end of its output. */
async function run(command, args, { cwd, label, env }) {
  const { code, stdout, output } = await runCommand(command, args, { cwd, env }).catch((error) => {
    throw new CheckError(`${label}: could not start ${command}: ${error.message}`)
  })
  if (code === 0) return stdout
  throw new CheckError(
    `${label} failed (${[command, ...args].join(' ')}, exit code ${code}):\n${output.trim().split('\n').slice(-60).join('\n')}`,
  )
}

const compareVersions = (a, b) => {
  const [x, y] = [a, b].map((version) => version.split(/[.+-]/).slice(0, 3).map(Number))
  return x[0] - y[0] || x[1] - y[1] || x[2] - y[2]
}

/** Every published version a range allows (no prereleases), oldest first. */
async function versionsIn(name, range) {
  const output = await run('npm', ['view', `${name}@${range}`, 'version', '--json'], {
    cwd: repo,
    label: `npm view ${name}@${range}`,
  })
  const versions = []
    .concat(output.trim() ? JSON.parse(output) : [])
    .filter((version) => !version.includes('-'))
  if (versions.length === 0)
    throw new CheckError(`No published version of ${name} satisfies "${range}" (package.json)`)
  return versions.sort(compareVersions)
}

/** The version installed in this repository, for the consumers' test tools (Node 20 compatible). */
function toolVersion(name) {
  return JSON.parse(readFileSync(join(repo, 'node_modules', name, 'package.json'), 'utf8')).version
}

const major = (version) => version.split('.')[0]

async function consumers() {
  const peers = packageJson.peerDependencies
  for (const name of ['react', '@tanstack/react-query', 'viem', 'msw'])
    if (!peers[name]) throw new CheckError(`package.json peerDependencies has no range for ${name}`)
  const ranges = Object.fromEntries(
    await Promise.all(
      Object.entries(peers).map(async ([name, range]) => [name, await versionsIn(name, range)]),
    ),
  )
  const typesReact = async (reactVersion, pick) => {
    const versions = await versionsIn('@types/react', `^${major(reactVersion)}`)
    const domVersions = await versionsIn('@types/react-dom', `^${major(reactVersion)}`)
    return { '@types/react': pick(versions), '@types/react-dom': pick(domVersions) }
  }
  const tools = Object.fromEntries(
    ['typescript', 'vitest', 'jsdom', '@testing-library/react', '@testing-library/dom', '@types/node'].map(
      (name) => [name, toolVersion(name)],
    ),
  )
  const oldest = (list) => list[0]
  const newest = (list) => list.at(-1)
  const all = [
    {
      name: 'oldest',
      msw: true,
      dependencies: {
        react: oldest(ranges.react),
        'react-dom': oldest(ranges.react),
        // @types/react of the floor's major: its newest, as `npm install @types/react@18` gives.
        ...(await typesReact(oldest(ranges.react), newest)),
        '@tanstack/react-query': oldest(ranges['@tanstack/react-query']),
        viem: oldest(ranges.viem),
        msw: oldest(ranges.msw),
        ...tools,
      },
    },
    {
      name: 'newest',
      msw: false,
      dependencies: {
        react: newest(ranges.react),
        'react-dom': newest(ranges.react),
        ...(await typesReact(newest(ranges.react), newest)),
        '@tanstack/react-query': newest(ranges['@tanstack/react-query']),
        viem: newest(ranges.viem),
        ...tools,
      },
    },
  ].filter((consumer) => !options.only || consumer.name === options.only)
  if (all.length === 0) throw new CheckError(`--only ${options.only}: no such consumer (oldest, newest)`)
  for (const spec of options.with) {
    const at = spec.lastIndexOf('@')
    if (at <= 0) throw new CheckError(`--with ${spec}: expected name@version`)
    for (const consumer of all) consumer.dependencies[spec.slice(0, at)] = spec.slice(at + 1)
  }
  return all
}

const compilerOptions = {
  target: 'ES2022',
  lib: ['ES2022', 'DOM', 'DOM.Iterable'],
  module: 'ESNext',
  moduleResolution: 'bundler',
  jsx: 'react-jsx',
  strict: true,
  skipLibCheck: false,
  noEmit: true,
  isolatedModules: true,
  types: [],
}

/** Writes one consumer project: package.json, the sources, the node16 tsconfig. */
function writeConsumer(directory, consumer, tarball) {
  cpSync(templates, directory, { recursive: true })
  const dependencies = { 'token-swap-hooks': `file:${tarball}`, ...consumer.dependencies }
  writeJson(join(directory, 'package.json'), {
    name: `consumer-${consumer.name}`,
    private: true,
    type: 'module',
    dependencies,
  })
  writeJson(join(directory, 'tsconfig.node16.json'), {
    // viem's dependency ox ships .d.ts that node16 rejects in older viem releases (ox 0.6.9, 0.8.6):
    // not ours to fix, so this project skips library checks and src/node16.ts asserts that our
    // types resolved to real types, not `any`.
    compilerOptions: {
      ...compilerOptions,
      module: 'node16',
      moduleResolution: 'node16',
      types: ['node'],
      skipLibCheck: true,
    },
    files: ['src/node16.ts'],
  })
}

/**
 * The main tsconfig, written after the install: the consumer's code, and the library's own
 * framework-free sources (everything token-swap-hooks/core reaches) compiled as the repository
 * compiles them against the viem installed, so that a viem API or parameter the library uses but
 * the viem floor lacks fails here. The package ships no sources: this repository's src/ (tests
 * aside) is copied into the installed package's real directory in the linked store, so that its
 * imports resolve as the package's own: its peer viem (it has no dependency of its own). (The React layer is
 * left out: it is written against the newest TanStack Query types and checks at run time what
 * older ones lack; the consumer's code covers its types.) One program, so viem is read once.
 */
function writeTsconfig(directory, consumer) {
  const installed = realpathSync(join(directory, 'node_modules/token-swap-hooks'))
  cpSync(join(repo, 'src'), join(installed, 'src'), {
    recursive: true,
    filter: (source) => !/\.(test|test-d)\.tsx?$/.test(source),
  })
  const librarySources = [
    join(
      installed,
      packageJson.exports['./core'].types.replace(/^\.\/dist\/types\//, 'src/').replace(/\.d\.ts$/, '.ts'),
    ),
  ]
  const repoOptions = JSON.parse(readFileSync(join(repo, 'tsconfig.json'), 'utf8')).compilerOptions
  writeJson(join(directory, 'tsconfig.json'), {
    compilerOptions: {
      ...compilerOptions,
      noUncheckedIndexedAccess: repoOptions.noUncheckedIndexedAccess,
      noImplicitOverride: repoOptions.noImplicitOverride,
      verbatimModuleSyntax: repoOptions.verbatimModuleSyntax,
    },
    files: [
      'src/app.tsx',
      'src/viem.ts',
      'test/useSwapRoute.test.tsx',
      ...(consumer.msw ? ['src/msw.ts'] : []),
      ...librarySources,
    ],
  })
}

function writeJson(path, value) {
  writeFileSync(path, `${JSON.stringify(value, null, 2)}\n`)
}

async function check(consumer, tarball, root) {
  const directory = join(root, consumer.name)
  mkdirSync(directory)
  writeConsumer(directory, consumer, tarball)
  const label = (step) => `[${consumer.name}] ${step}`
  const started = Date.now()
  const steps = []
  const step = async (name, command, args, env) => {
    const start = Date.now()
    await run(command, args, { cwd: directory, label: label(name), env })
    steps.push(`${name} ${((Date.now() - start) / 1000).toFixed(1)} s`)
  }
  await step('npm install --install-strategy=linked', 'npm', [
    'install',
    '--install-strategy=linked',
    '--no-audit',
    '--no-fund',
    '--prefer-offline',
    '--loglevel=error',
  ])
  writeTsconfig(directory, consumer)
  const tsc = join(directory, 'node_modules/.bin/tsc')
  await step("tsc (bundler, skipLibCheck: false; the consumer and the library's src/core)", tsc, [
    '-p',
    'tsconfig.json',
  ])
  await step('tsc (node16, core entries)', tsc, ['-p', 'tsconfig.node16.json'])
  await step('vitest (useSwapRoute against the loopback mock)', join(directory, 'node_modules/.bin/vitest'), [
    'run',
    '--environment',
    'jsdom',
    '--reporter',
    'dot',
  ])
  return { consumer, seconds: (Date.now() - started) / 1000, steps }
}

const started = Date.now()
const root = mkdtempSync(join(tmpdir(), 'token-swap-hooks-consumers-'))
let failed = false
try {
  const list = await consumers()
  for (const { name, dependencies } of list)
    console.log(
      `${name}: ${['react', '@types/react', '@tanstack/react-query', 'viem', 'msw']
        .filter((dependency) => dependencies[dependency])
        .map((dependency) => `${dependency}@${dependencies[dependency]}`)
        .join(', ')}`,
    )
  const tarball = await packLibrary(repo, root).catch((error) => {
    throw new CheckError(error.message)
  })
  console.log(`packed ${basename(tarball)} in ${((Date.now() - started) / 1000).toFixed(1)} s`)
  const results = await Promise.allSettled(list.map((consumer) => check(consumer, tarball, root)))
  for (const result of results) {
    if (result.status === 'fulfilled') {
      const { consumer, seconds, steps } = result.value
      console.log(`✓ ${consumer.name} (${seconds.toFixed(1)} s): ${steps.join('; ')}`)
    } else {
      failed = true
      const error = result.reason
      console.error(`✗ ${error instanceof CheckError ? error.message : error.stack}`)
    }
  }
} catch (error) {
  failed = true
  console.error(`✗ ${error instanceof CheckError ? error.message : error.stack}`)
} finally {
  if (options.keep) console.log(`kept ${root}`)
  else rmSync(root, { recursive: true, force: true })
}
if (failed) {
  console.error(
    '\ncheck-consumers: FAILED. A consumer within the peer ranges of package.json does not typecheck or ' +
      'does not work (above). Fix the library, or raise the range in peerDependencies to what passes.',
  )
  process.exit(1)
}
console.log(`check-consumers: every consumer passed in ${((Date.now() - started) / 1000).toFixed(1)} s`)
