// `npm run docs:dev` and `npm run docs:build`: the site's own dependencies installed when missing
// (site/ is its own npm package: TypeScript 5 for twoslash, beside the repository's TypeScript 7),
// the package built when dist is missing (`docs:build` always builds it: the site compiles its
// code against what the package ships), then VitePress. After a build, the Storybook's static
// build is copied in (site/.vitepress/dist/storybook) when there is one, so the site links to it.
//
// Usage: node site/scripts/docs.mjs dev|build|preview [vitepress options…]
import { spawnSync } from 'node:child_process'
import { cpSync, existsSync, rmSync } from 'node:fs'
import { dirname, join, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'

const site = resolve(dirname(fileURLToPath(import.meta.url)), '..')
const repository = resolve(site, '..')
const [command = 'dev', ...rest] = process.argv.slice(2)

/** @param {string} file @param {string[]} args @param {string} cwd */
function run(file, args, cwd) {
  const result = spawnSync(file, args, { cwd, stdio: 'inherit' })
  if (result.status !== 0) process.exit(result.status ?? 1)
}

if (!existsSync(join(site, 'node_modules/.bin/vitepress'))) {
  console.log('docs: installing the site’s dependencies (npm ci in site/)')
  run('npm', ['ci', '--no-audit', '--no-fund'], site)
}
if (command === 'build' || !existsSync(join(repository, 'dist/types/exports/index.d.ts'))) {
  console.log('docs: building the package (the site compiles its code against dist)')
  run('npm', ['run', 'build', '--silent'], repository)
}
run(join(site, 'node_modules/.bin/vitepress'), [command, ...rest], site)

if (command === 'build') {
  const storybook = join(repository, 'storybook-static')
  const target = join(site, '.vitepress/dist/storybook')
  rmSync(target, { recursive: true, force: true })
  if (existsSync(join(storybook, 'index.html'))) {
    cpSync(storybook, target, { recursive: true })
    console.log('docs: the Storybook build copied to site/.vitepress/dist/storybook')
  } else {
    console.log(
      'docs: no storybook-static/ (npm run build-storybook): the site links to a Storybook it does not hold',
    )
  }
}
