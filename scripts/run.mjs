// Shared by the check scripts: running a command, and packing the library as npm would publish it.
import { spawn } from 'node:child_process'
import { join, resolve } from 'node:path'

/**
 * Runs a command to its end: `{ code, stdout, output }` (output: stdout and stderr interleaved).
 * Never rejects on a failing exit code; rejects only when the command cannot start.
 */
export function run(command, args, { cwd, env } = {}) {
  return new Promise((resolvePromise, reject) => {
    const child = spawn(command, args, {
      cwd,
      env: { ...process.env, ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    })
    let output = ''
    let stdout = ''
    child.stdout.on('data', (chunk) => {
      output += chunk
      stdout += chunk
    })
    child.stderr.on('data', (chunk) => {
      output += chunk
    })
    child.on('error', reject)
    child.on('close', (code) => resolvePromise({ code, stdout, output }))
  })
}

/**
 * `npm pack` of the repository into `destination` (its prepack script builds JS and types first);
 * resolves with the tarball's path. The build's own output shares stdout with npm's JSON, so the
 * file name is the last `"filename"` npm printed.
 */
export async function packLibrary(repo, destination) {
  const { code, stdout, output } = await run('npm', ['pack', '--json', '--pack-destination', destination], {
    cwd: repo,
  })
  const filename = [...stdout.matchAll(/"filename":\s*"([^"]+)"/g)].at(-1)?.[1]
  if (code !== 0 || !filename)
    throw new Error(
      `npm pack failed (exit code ${code}):\n${output.trim().split('\n').slice(-60).join('\n')}`,
    )
  return resolve(join(destination, filename))
}
