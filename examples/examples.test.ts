// `npm run test:examples`: the example apps, as a user gets them. The library is packed (`npm pack`,
// which builds it first); each example is copied out of the repository (so nothing resolves
// from the repository's node_modules or src), installs the tarball and its own dependencies from
// the registry, is built and served as in production, and is driven in Chromium against the mock
// service, whose market is built from tokens, pools, router and spender deployed on a real anvil.
import { type ChildProcess, spawn } from 'node:child_process'
import {
  cpSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  renameSync,
  rmSync,
} from 'node:fs'
import { tmpdir } from 'node:os'
import { basename, join, resolve, sep } from 'node:path'
import { type Browser, chromium, type Page } from 'playwright-core'
import { type Address, erc20Abi, formatUnits, parseUnits } from 'viem'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { chromiumArgs, chromiumPath } from '../scripts/chromium.mjs'
import { swapGuardAddress } from '../src/core/execute/guard/swapGuard.js'
import { createMockMarket } from '../src/mock/createMockMarket.js'
import { type MockServer, startMockServer } from '../src/mock/startMockServer.js'
import type { MockMarket } from '../src/mock/types.js'
import { getFreePort, type StartAnvilReturnType, startAnvil } from '../test/evm/anvil.js'
import { anvilPrivateKeys, deploySwapFixture, type SwapFixture } from '../test/evm/fixture.js'

const root = resolve(import.meta.dirname, '..')
/**
 * Outside the repository: no parent node_modules to fall back on, no parent lockfile for Next.js
 * to adopt. A fresh directory per run (removed afterwards), so that runs sharing a machine never
 * meet; with EXAMPLES_WORKDIR, that directory, kept, and its node_modules reused by the next run.
 */
const keepWorkRoot = Boolean(process.env.EXAMPLES_WORKDIR)
const workRoot = keepWorkRoot
  ? resolve(process.env.EXAMPLES_WORKDIR as string)
  : mkdtempSync(join(tmpdir(), 'token-swap-hooks-examples-'))
if (workRoot === root || workRoot.startsWith(root + sep))
  throw new Error(`EXAMPLES_WORKDIR must be outside the repository, not ${workRoot}`)
const tarball = join(workRoot, 'token-swap-hooks.tgz')

// What the market says one whole token is worth, so that the page has a USD value to show.
const pricesUsd: Record<string, number> = { ETH: 3000, TKA: 1.5, TKB: 0.75, USDC: 1, USDT: 1, BAD: 0 }
const names: Record<string, string> = {
  ETH: 'Ether',
  TKA: 'Token A',
  TKB: 'Token B',
  USDC: 'USD Coin',
  USDT: 'Tether USD',
  BAD: 'Approve Disabled',
}

// Wall-clock seconds of each part, printed at the end.
const timings: { part: string; seconds: number }[] = []
const seconds = (since: number) => Math.round((performance.now() - since) / 100) / 10
async function timed<value>(part: string, run: () => Promise<value>): Promise<value> {
  const start = performance.now()
  try {
    return await run()
  } finally {
    timings.push({ part, seconds: seconds(start) })
  }
}

/** Runs a command to completion; rejects with the end of its output when it fails. */
function run(command: string, args: string[], options: { cwd: string; env?: NodeJS.ProcessEnv }) {
  return new Promise<string>((resolvePromise, reject) => {
    const child = spawn(command, args, {
      cwd: options.cwd,
      env: { ...process.env, ...options.env },
      stdio: ['ignore', 'pipe', 'pipe'],
    })
    let output = ''
    child.stdout.on('data', (chunk) => (output += chunk))
    child.stderr.on('data', (chunk) => (output += chunk))
    child.once('error', reject)
    child.once('close', (code) => {
      if (code === 0) resolvePromise(output)
      else
        reject(
          new Error(
            `\`${command} ${args.join(' ')}\` in ${options.cwd} exited ${code}:\n${output.slice(-6000)}`,
          ),
        )
    })
  })
}

type Served = { url: string; output: () => string; stop: () => Promise<void> }

/**
 * Starts a server (in its own process group, so that stopping it stops its children too) and
 * resolves once `url` answers; rejects with its output when it exits or does not answer in time.
 */
async function serve(
  command: string,
  args: string[],
  options: { cwd: string; env?: NodeJS.ProcessEnv; url: string; timeoutMs?: number },
): Promise<Served> {
  const child: ChildProcess = spawn(command, args, {
    cwd: options.cwd,
    env: { ...process.env, ...options.env },
    stdio: ['ignore', 'pipe', 'pipe'],
    detached: true,
  })
  let output = ''
  child.stdout?.on('data', (chunk) => (output += chunk))
  child.stderr?.on('data', (chunk) => (output += chunk))
  let exited = false
  const closed = new Promise<void>((resolvePromise) =>
    child.once('close', () => {
      exited = true
      resolvePromise()
    }),
  )
  const stop = async () => {
    if (exited || child.pid === undefined) return
    process.kill(-child.pid, 'SIGTERM')
    const timer = setTimeout(() => child.pid && !exited && process.kill(-child.pid, 'SIGKILL'), 5_000)
    await closed
    clearTimeout(timer)
  }
  const deadline = Date.now() + (options.timeoutMs ?? 60_000)
  for (;;) {
    if (exited)
      throw new Error(`\`${command} ${args.join(' ')}\` exited before serving:\n${output.slice(-6000)}`)
    try {
      const response = await fetch(options.url, { signal: AbortSignal.timeout(2_000) })
      if (response.ok) return { url: options.url, output: () => output, stop }
    } catch {}
    if (Date.now() > deadline) {
      await stop()
      throw new Error(`${options.url} did not answer in time:\n${output.slice(-6000)}`)
    }
    await new Promise((r) => setTimeout(r, 200))
  }
}

/** Copies an example out of the repository (sources only; an earlier run's node_modules is kept). */
function stage(name: string): string {
  const from = join(import.meta.dirname, name)
  const to = join(workRoot, name)
  mkdirSync(to, { recursive: true })
  for (const entry of readdirSync(to))
    if (entry !== 'node_modules') rmSync(join(to, entry), { recursive: true })
  const skipped = new Set([
    'node_modules',
    'dist',
    '.next',
    'next-env.d.ts',
    '.env.local',
    'tsconfig.tsbuildinfo',
  ])
  cpSync(from, to, { recursive: true, filter: (path) => !skipped.has(basename(path)) })
  return to
}

// As the examples' READMEs say: naming the tarball makes npm unpack it even when a copy of the same
// version is in node_modules already (a plain `npm install` would keep that one).
const npmInstall = (cwd: string) =>
  run('npm', ['install', '../token-swap-hooks.tgz', '--no-audit', '--no-fund', '--loglevel=error'], { cwd })

/** Polls until `read` returns a value that passes `check` (or times out with the last value). */
async function until<value>(
  what: string,
  read: () => Promise<value>,
  check: (value: value) => boolean,
  timeoutMs = 15_000,
): Promise<value> {
  const deadline = Date.now() + timeoutMs
  let last: value | undefined
  for (;;) {
    last = await read()
    if (check(last)) return last
    if (Date.now() > deadline) throw new Error(`Timed out waiting for ${what}; last value: ${String(last)}`)
    await new Promise((r) => setTimeout(r, 100))
  }
}

const text = (page: Page, testId: string) =>
  page
    .getByTestId(testId)
    .textContent({ timeout: 1_000 })
    .catch(() => null)

let anvil: StartAnvilReturnType
let fixture: SwapFixture
let market: MockMarket
let mock: MockServer
let browser: Browser
const servers: Served[] = []

beforeAll(async () => {
  if (!existsSync(chromiumPath))
    throw new Error(
      `No Chromium at ${chromiumPath}: sudo apt-get install -y chromium, or set CHROMIUM_PATH to a Chromium or Chrome.`,
    )
  mkdirSync(workRoot, { recursive: true })
  for (const entry of readdirSync(workRoot)) if (entry.endsWith('.tgz')) rmSync(join(workRoot, entry))
  // As a release is made: `npm pack`, whose prepack script builds the JS and the types.
  await timed('library: npm pack (prepack builds)', () =>
    run('npm', ['pack', '--silent', '--pack-destination', workRoot], { cwd: root }),
  )
  const packed = readdirSync(workRoot).filter((entry) => /^token-swap-hooks-.*\.tgz$/.test(entry))
  expect(packed).toHaveLength(1)
  renameSync(join(workRoot, packed[0]!), tarball)

  await timed('anvil + fixture + mock server', async () => {
    anvil = await startAnvil()
    fixture = await deploySwapFixture({ rpcUrl: anvil.rpcUrl, chainId: anvil.chainId })
    const { tokens, pools, router, spender } = fixture.market
    market = createMockMarket({
      tokens: tokens.map((token) => ({
        ...token,
        name: names[token.symbol],
        priceUsd: pricesUsd[token.symbol],
      })),
      pairs: pools,
      router,
      spender,
    })
    mock = await startMockServer({ market })
  })
  browser = await chromium.launch({ executablePath: chromiumPath, args: chromiumArgs })
})

afterAll(async () => {
  await browser?.close()
  for (const server of servers) await server.stop()
  await mock?.stop()
  await anvil?.stop()
  if (!keepWorkRoot) rmSync(workRoot, { recursive: true, force: true })
  if (timings.length) {
    console.log(
      ['examples: seconds per part', ...timings.map(({ part, seconds }) => `  ${part}: ${seconds}`)].join(
        '\n',
      ),
    )
  }
})

/** A page that fails the test on any uncaught error in the browser. */
async function openPage(url: string) {
  const page = await browser.newPage()
  const errors: string[] = []
  watchErrors(page, errors)
  await page.goto(url)
  return { page, errors }
}

/** Collects uncaught errors, console errors and failed responses of a page. */
function watchErrors(page: Page, errors: string[]) {
  page.on('pageerror', (error) => errors.push(error.message))
  page.on('console', (message) => {
    if (message.type() === 'error') errors.push(`${message.text()} (${message.location().url})`)
  })
  page.on('response', (response) => {
    if (response.status() >= 400) errors.push(`${response.status()} ${response.url()}`)
  })
}

describe('vite-swap: a swap page (Vite + React)', () => {
  let url: string

  beforeAll(async () => {
    const dir = stage('vite-swap')
    await timed('vite-swap: npm install', () => npmInstall(dir))
    await timed('vite-swap: npm run build (tsc + vite build)', () =>
      run('npm', ['run', 'build', '--silent'], {
        cwd: dir,
        env: {
          VITE_SWAP_URL: mock.url,
          VITE_CHAIN_ID: String(anvil.chainId),
          VITE_RPC_URL: anvil.rpcUrl,
          VITE_TRUSTED_ADDRESSES: `${fixture.router},${fixture.spender}`,
          // The fixture's user: anvil's second default account, holding the test tokens.
          VITE_DEV_PRIVATE_KEY: anvilPrivateKeys[1],
        },
      }),
    )
    const port = await getFreePort()
    const preview = await timed('vite-swap: vite preview up', () =>
      serve(
        process.execPath,
        [
          join(dir, 'node_modules/vite/bin/vite.js'),
          'preview',
          '--host',
          '127.0.0.1',
          '--port',
          String(port),
          '--strictPort',
        ],
        { cwd: dir, url: `http://127.0.0.1:${port}/` },
      ),
    )
    servers.push(preview)
    url = preview.url
  })

  test('picks two tokens, parses the amount, quotes, prices, swaps; the balances move by the realized amounts', async () => {
    const start = performance.now()
    const { page, errors } = await openPage(url)
    const user = fixture.accounts.user.address
    const tka = fixture.tokens.TKA
    const usdc = fixture.tokens.USDC

    await page.getByTestId('dev-wallet-banner').waitFor()
    expect(await text(page, 'wallet')).toContain(user)

    // The pickers are filled from useTokens.
    const from = page.getByTestId('token-from')
    await until(
      'the token list',
      () => from.locator('option').allTextContents(),
      (o) => o.length > 1,
    )
    const options = await from.locator('option').allTextContents()
    for (const symbol of ['ETH', 'TKA', 'TKB', 'USDC', 'USDT']) expect(options.join('|')).toContain(symbol)
    await from.selectOption(tka.address)
    await page.getByTestId('token-to').selectOption(usdc.address)

    // What people type: nothing crashes, nothing is quoted, the page says why.
    const amount = page.getByTestId('amount')
    for (const typed of ['', '.', 'abc', '1.0000000000000000001', '-1']) {
      await amount.fill(typed)
      const state = await text(page, 'amount-state')
      expect(errors, `errors in the page after typing ${JSON.stringify(typed)}`).toEqual([])
      expect(state ?? '(no amount line: the page is gone)', `typed ${JSON.stringify(typed)}`).toMatch(
        typed === '' ? /Enter an amount/ : /Not an amount/,
      )
    }
    expect(await text(page, 'amount-out')).toBeNull()

    // A first amount, then "1,5" (a decimal comma): the quote shows "updating…" meanwhile.
    await amount.fill('1')
    const one = market.quote({ token0: tka.address, token1: usdc.address, amountIn: parseUnits('1', 18) })!
    await until(
      'the quote for 1 TKA',
      () => text(page, 'amount-out'),
      (t) => t === formatUnits(one.amountOut, 6),
    )
    await amount.pressSequentially(',5')
    await page.getByTestId('updating').waitFor({ timeout: 2_000 })
    const amountIn = parseUnits('1.5', 18)
    const quote = market.quote({ token0: tka.address, token1: usdc.address, amountIn })!
    expect(await text(page, 'amount-state')).toBe('1.5 TKA')
    await until(
      'the quote for 1,5 TKA',
      () => text(page, 'amount-out'),
      (t) => t === formatUnits(quote.amountOut, 6),
    )
    await page.getByTestId('updating').waitFor({ state: 'detached' })
    expect(await text(page, 'quote')).toMatch(new RegExp(`via ${quote.hops.length} hops?`))
    await until(
      'the USD value',
      () => text(page, 'usd-value'),
      (t) => t === '≈ $2.25',
    )

    // Swap with the development wallet; the flow approves, then swaps.
    const before = { tka: await fixture.balanceOf('TKA', user), usdc: await fixture.balanceOf('USDC', user) }
    const swap = page.getByTestId('swap')
    await until('an enabled Swap button', () => swap.isEnabled(), Boolean)
    const clicked = performance.now()
    await swap.click()
    const outcome = await until(
      'the end of the swap',
      async () =>
        (await text(page, 'swap-error')) !== null
          ? 'error'
          : (await page.getByTestId('realized').count())
            ? 'success'
            : 'pending',
      (state) => state !== 'pending',
      60_000,
    )
    expect(outcome, `the swap failed: ${await text(page, 'swap-error')}`).toBe('success')
    timings.push({ part: 'vite-swap: Swap clicked → success shown', seconds: seconds(clicked) })
    expect(await text(page, 'stage')).toBe('success')

    const realizedIn = BigInt((await page.getByTestId('realized-in').getAttribute('data-raw'))!)
    const realizedOut = BigInt((await page.getByTestId('realized-out').getAttribute('data-raw'))!)
    expect(realizedIn).toBe(amountIn)
    // Nobody else trades on this chain: the router pays exactly what the market quoted.
    expect(realizedOut).toBe(quote.amountOut)
    expect(await text(page, 'realized-out')).toBe(formatUnits(realizedOut, 6))

    const after = { tka: await fixture.balanceOf('TKA', user), usdc: await fixture.balanceOf('USDC', user) }
    expect(before.tka - after.tka).toBe(realizedIn)
    expect(after.usdc - before.usdc).toBe(realizedOut)

    // Both hashes are shown, and are what the chain has: an approval of TKA, then the swap through
    // the library's swap guard (which calls the router, and reverts below the user's floor).
    const approvalHash = (await text(page, 'approval-hash')) as `0x${string}`
    const swapHash = (await text(page, 'swap-hash')) as `0x${string}`
    const approval = await fixture.publicClient.getTransactionReceipt({ hash: approvalHash })
    const swapReceipt = await fixture.publicClient.getTransactionReceipt({ hash: swapHash })
    expect([approval.status, approval.to?.toLowerCase()]).toEqual(['success', tka.address.toLowerCase()])
    expect([swapReceipt.status, swapReceipt.to?.toLowerCase()]).toEqual([
      'success',
      swapGuardAddress.toLowerCase(),
    ])
    const allowanceOf = (spender: Address) =>
      fixture.publicClient.readContract({
        address: tka.address as Address,
        abi: erc20Abi,
        functionName: 'allowance',
        args: [user, spender],
      })
    expect(await allowanceOf(swapGuardAddress)).toBe(0n) // exactly amountIn was approved, and the swap used it all
    expect(await allowanceOf(fixture.spender)).toBe(0n) // the service's spender was never approved

    expect(errors).toEqual([])
    await page.close()
    timings.push({ part: 'vite-swap: drive in Chromium', seconds: seconds(start) })
  })
})

describe('next-app: App Router, SwapProvider in the layout, a server-prefetched token list', () => {
  let url: string

  beforeAll(async () => {
    const dir = stage('next-app')
    const env = { NEXT_TELEMETRY_DISABLED: '1' }
    await timed('next-app: npm install', () => npmInstall(dir))
    await timed('next-app: next build', () => run('npm', ['run', 'build', '--silent'], { cwd: dir, env }))
    const port = await getFreePort()
    const server = await timed('next-app: next start up', () =>
      serve(
        process.execPath,
        [
          join(dir, 'node_modules/next/dist/bin/next'),
          'start',
          '--hostname',
          '127.0.0.1',
          '--port',
          String(port),
        ],
        // The service URL is read at request time: one build serves any environment.
        { cwd: dir, env: { ...env, SWAP_URL: mock.url }, url: `http://127.0.0.1:${port}/` },
      ),
    )
    servers.push(server)
    url = server.url
  })

  test("app/page.tsx is rendered as the site's Next.js guide says (the same route segment options)", () => {
    const options = (code: string) =>
      code.match(/^export const (dynamic|revalidate|fetchCache|dynamicParams) = .*$/gm) ?? []
    const guide = readFileSync(join(root, 'site/guides/nextjs.md'), 'utf8')
    const recipe = /^<!-- file: app\/page\.tsx -->\n```tsx\n([\s\S]*?)^```$/m.exec(guide)?.[1]
    expect(recipe, 'the Next.js guide gives app/page.tsx').toBeDefined()
    expect(options(recipe ?? '')).toEqual(["export const dynamic = 'force-dynamic'"])
    const page = readFileSync(join(import.meta.dirname, 'next-app/app/page.tsx'), 'utf8')
    expect(options(page)).toEqual(options(recipe ?? ''))
  })

  test('the token list is in the server HTML, as the service lists it at request time; the browser never fetches it, and a typed amount gets a quote', async () => {
    const start = performance.now()
    const listed = ['ETH', 'TKA', 'TKB', 'USDC', 'USDT']

    // A token the service lists only now, after the build: in the HTML only if the page is
    // rendered per request. A page left static is rendered once by `next build`, with the list
    // of build time (or none: the build gets no SWAP_URL), and served so until the next deploy.
    const { tokens: current } = (await (await fetch(`${mock.url}/overview/tokens`)).json()) as {
      tokens: Record<string, unknown>[]
    }
    const late = {
      ...current[0],
      address: '0x0000000000000000000000000000000000001a7e',
      symbol: 'LATE',
      name: 'Listed after the build',
    }
    mock.service.fail({
      status: 200,
      endpoint: '/overview/tokens',
      times: 1,
      body: { tokens: [...current, late] },
    })

    // The HTML as served, before any JavaScript: the list is there.
    const countBefore = mock.service.count('/overview/tokens')
    const html = await (await fetch(url)).text()
    const list = /<ul data-testid="token-list">(.*?)<\/ul>/s.exec(html)?.[1] ?? ''
    for (const symbol of [...listed, 'LATE'])
      expect(list, `${symbol} in the server HTML`).toContain(`<strong>${symbol}</strong>`)
    expect(mock.service.count('/overview/tokens')).toBe(countBefore + 1) // the server's prefetch

    // In Chromium: hydrated from the server's state, no /overview/tokens request from the browser.
    const requests: string[] = []
    const browserContext = await browser.newContext()
    const page = await browserContext.newPage()
    const errors: string[] = []
    watchErrors(page, errors)
    page.on('request', (request) => requests.push(request.url()))
    await page.goto(url)
    await page.locator('[data-hydrated="true"]').waitFor()
    expect(await page.getByTestId('token-list').locator('li').count()).toBe(market.tokens.length)

    const tka = fixture.tokens.TKA
    const usdc = fixture.tokens.USDC
    await page.getByTestId('token-from').selectOption(tka.address)
    await page.getByTestId('token-to').selectOption(usdc.address)
    await page.getByTestId('amount').fill('2,5')
    const quote = market.quote({
      token0: tka.address,
      token1: usdc.address,
      amountIn: parseUnits('2.5', 18),
    })!
    await until(
      'the quote for 2,5 TKA',
      () => text(page, 'amount-out'),
      (t) => t === formatUnits(quote.amountOut, 6),
    )

    const toService = requests.filter((request) => request.startsWith(mock.url))
    expect(toService.some((request) => request.includes('/swap/route'))).toBe(true) // the browser does talk to it
    expect(toService.filter((request) => request.includes('/overview/tokens'))).toEqual([])
    // The service saw two list requests in all: the HTML fetched above and the page's own SSR.
    expect(mock.service.count('/overview/tokens')).toBe(countBefore + 2)

    expect(errors).toEqual([])
    await browserContext.close()
    timings.push({ part: 'next-app: drive in Chromium', seconds: seconds(start) })
  })
})
