/**
 * The guard's invariant, on anvil, over many random runs through a ChaosRouter whose behaviour is
 * drawn for each run (test/evm/contracts/ChaosRouter.sol): it pulls more or less than asked, pays
 * any amount of either token or of the native coin to anyone (the recipient, the payer, the
 * executor, itself, a stranger), refunds, leaves dust, re-enters the guard with a swap of its own
 * (or with one the user signed for Permit2), or reverts; with an ordinary ERC-20, a
 * fee-on-transfer token, a USDT-style token and the native coin; through both entries (`swap`,
 * paid by the harness contract that sends it, and `swapWithPermit2`, paid by a user who signed).
 *
 * For every run: a guarded swap that was mined kept both bounds (the payer spent at most
 * `amountIn` of token0, the recipient gained at least `minAmountOut` of token1) and left the
 * executor holding no more of token0, token1 or the native coin than before; every other run
 * reverted with nothing moved. The runs go many to a transaction (GuardInvariantHarness measures
 * around each), on one anvil, with no deployment per run.
 *
 * `GUARD_INVARIANT_RUNS` (default 1,000) and `GUARD_INVARIANT_SEED` (default: drawn, and printed
 * with any failure) set the length and the draw: `GUARD_INVARIANT_RUNS=20000 npm run
 * test:invariant` for a long run, `GUARD_INVARIANT_SEED=<seed>` to replay a failure.
 */
import { type Address, type Hex, maxUint256, parseEther, parseEventLogs, zeroAddress } from 'viem'
import { beforeAll, expect, test } from 'vitest'
import { encodeSwapWithPermit2 } from '../../src/core/execute/guard/encodeSwapWithPermit2.js'
import {
  permit2Address,
  swapGuardAddress,
  swapGuardExecutorAddress,
} from '../../src/core/execute/guard/swapGuard.js'
import { swapPermitTypedData } from '../../src/core/execute/guard/swapPermitTypedData.js'
import { chaosRouterAbi, guardInvariantHarnessAbi } from './abis.js'
import { type ChaosAction, chaosData } from './chaosKit.js'
import { compileContracts } from './compile.js'
import { approve, deploy, ensurePermit2, guardSwapData, mined, mint } from './guardKit.js'
import { setupSwapFixture } from './setup.js'

const runs = Number(process.env.GUARD_INVARIANT_RUNS ?? 1000)
const seed = Number(process.env.GUARD_INVARIANT_SEED ?? Math.floor(Math.random() * 2 ** 31))
/** Runs per transaction: well under anvil's 30,000,000 block gas limit even when every run nests. */
const perTransaction = 25

const evm = setupSwapFixture()

/** mulberry32: a small seeded generator, the same draw for the same seed on any machine. */
function generator(start: number) {
  let state = start >>> 0
  const next = () => {
    state = (state + 0x6d2b79f5) >>> 0
    let t = state
    t = Math.imul(t ^ (t >>> 15), t | 1)
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61)
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296
  }
  const below = (n: number) => Math.floor(next() * n)
  return {
    int: below,
    chance: (p: number) => next() < p,
    pick: <T>(items: readonly T[]): T => items[below(items.length)] as T,
    /** An amount around `scale`: 0, 1 wei, a fraction, the scale itself, a little more, or anything up to twice it. */
    amount: (scale: bigint): bigint => {
      const shape = below(6)
      if (shape === 0) return 0n
      if (shape === 1) return 1n
      if (shape === 2) return (scale * BigInt(below(1000))) / 1000n
      if (shape === 3) return scale
      if (shape === 4) return scale + BigInt(1 + below(1000))
      return (scale * BigInt(below(2001))) / 1000n
    },
  }
}

type Symbol = 'TKA' | 'FOT' | 'USDT' | 'ETH'
type Run = {
  entry: 'swap' | 'swapWithPermit2'
  payer: Address
  token0: Address
  token1: Address
  amountIn: bigint
  minAmountOut: bigint
  recipient: Address
  value: bigint
  call: Hex
  /** For the failure message. */
  story: string
}

let tokens: Record<Symbol, Address>
let chaos: Address
let harness: Address
let deadline: bigint

beforeAll(async () => {
  const fixture = evm.fixture
  await ensurePermit2(fixture)
  const C = await compileContracts()
  const fot = await deploy(fixture, C.FeeOnTransferToken, ['Fee On Transfer', 'FOT', 18])
  tokens = {
    TKA: fixture.tokens.TKA.address,
    FOT: fot,
    USDT: fixture.tokens.USDT.address,
    ETH: fixture.tokens.ETH.address,
  }
  chaos = await deploy(fixture, C.ChaosRouter)
  harness = await deploy(fixture, C.GuardInvariantHarness, [swapGuardAddress, swapGuardExecutorAddress])
  const { user } = fixture.accounts
  const stock = parseEther('1000000000')
  for (const token of [tokens.TKA, tokens.FOT, tokens.USDT]) {
    for (const holder of [chaos, harness, user.address]) await mint(fixture, token, holder, stock)
    // The harness pays its `swap` runs, the router its nested swaps: both approve the guard; the user approves Permit2.
    for (const [contract, abi] of [
      [harness, guardInvariantHarnessAbi],
      [chaos, chaosRouterAbi],
    ] as const)
      await mined(
        fixture,
        fixture.deployerClient.writeContract({
          address: contract,
          abi,
          functionName: 'approve',
          args: [token, swapGuardAddress, maxUint256],
        }),
      )
    await approve(fixture, fixture.userClient, token, permit2Address, maxUint256)
  }
  for (const holder of [chaos, harness])
    await fixture.testClient.setBalance({ address: holder, value: parseEther('1000000') })
  deadline = (await fixture.publicClient.getBlock()).timestamp + 86_400n * 365n
}, 120_000)

/** Draws run `index`: its entry, tokens, amounts, recipient and the router's behaviour. */
async function draw(index: number, rng: ReturnType<typeof generator>): Promise<Run> {
  const fixture = evm.fixture
  const { user, recipient: other, deployer } = fixture.accounts
  const symbols: Symbol[] = ['TKA', 'FOT', 'USDT', 'ETH']
  const s0 = rng.pick(symbols)
  const s1 = rng.pick(symbols.filter((symbol) => symbol !== s0))
  const entry = s0 === 'ETH' ? 'swap' : rng.pick(['swap', 'swapWithPermit2'] as const)
  const token0 = tokens[s0]
  const token1 = tokens[s1]
  const payer = entry === 'swap' ? harness : user.address
  const scale = parseEther(String(1 + rng.int(100)))
  const amountIn = rng.amount(scale)
  const minAmountOut = rng.chance(0.3) ? 0n : rng.amount(scale)
  const recipient = rng.pick([user.address, other.address, harness, chaos])
  const spender = rng.chance(0.85) ? chaos : zeroAddress
  const anyone = [recipient, payer, swapGuardExecutorAddress, chaos, deployer.address]

  const actions: ChaosAction[] = []
  const count = 1 + rng.int(4)
  for (let i = 0; i < count; i++) {
    const kind = rng.pick(['pull', 'pull', 'pay', 'pay', 'pay', 'pay', 'nest', 'revert'] as const)
    if (kind === 'pull' && s0 !== 'ETH')
      actions.push({ kind: 'pull', token: token0, amount: rng.amount(amountIn) })
    else if (kind === 'pay' || kind === 'pull')
      actions.push({
        kind: 'pay',
        token: rng.pick([token0, token1, tokens.ETH]),
        to: rng.pick(anyone),
        amount: rng.amount(rng.chance(0.5) ? amountIn : scale * 2n),
      })
    else if (kind === 'nest') actions.push(await nested(rng, index, i))
    else if (rng.chance(0.3)) actions.push({ kind: 'revert' })
  }
  const data = chaosData(actions)
  const swap = { token0, amountIn, token1, minAmountOut, recipient, spender, router: chaos, data }
  const value =
    s0 !== 'ETH' ? (rng.chance(0.03) ? 1n : 0n) : rng.chance(0.9) ? amountIn : rng.amount(amountIn + 1n)
  let call: Hex
  if (entry === 'swap') call = guardSwapData(swap)
  else {
    const permit = {
      token0,
      amountIn,
      nonce: BigInt(index),
      deadline: rng.chance(0.03) ? 1n : deadline,
      witness: { token1, minAmountOut, recipient, spender, router: chaos, data },
    }
    const signature = await user.signTypedData(swapPermitTypedData({ ...permit, chainId: fixture.chain.id }))
    call = encodeSwapWithPermit2({ ...permit, owner: user.address, signature })
  }
  const story = `${entry} ${amountIn} ${s0} → ${s1} (floor ${minAmountOut}, value ${value}, spender ${spender === chaos ? 'router' : 'none'}) to ${recipient}; router: ${actions
    .map((action) =>
      action.kind === 'pull'
        ? `pull ${action.amount}`
        : action.kind === 'pay'
          ? `pay ${action.amount} of ${symbolOf(action.token)} to ${action.to}`
          : action.kind === 'call'
            ? `nested swap (value ${action.value ?? 0n})`
            : 'revert',
    )
    .join(', ')}`
  return { entry, payer, token0, token1, amountIn, minAmountOut, recipient, value, call, story }
}

const symbolOf = (token: Address) =>
  (Object.entries(tokens).find(([, address]) => address === token)?.[0] as Symbol | undefined) ?? token

/** A swap of the router's own through the guard in the middle of the run (or one the user signed, submitted by the router). */
async function nested(
  rng: ReturnType<typeof generator>,
  index: number,
  position: number,
): Promise<ChaosAction> {
  const fixture = evm.fixture
  const { user, recipient: other, deployer } = fixture.accounts
  const symbols: Symbol[] = ['TKA', 'FOT', 'USDT', 'ETH']
  const s0 = rng.pick(symbols)
  const s1 = rng.pick(symbols.filter((symbol) => symbol !== s0))
  const amountIn = rng.amount(parseEther('5'))
  const recipient = rng.pick([user.address, other.address, chaos, deployer.address])
  const actions: ChaosAction[] = [
    ...(s0 === 'ETH' ? [] : [{ kind: 'pull' as const, token: tokens[s0], amount: rng.amount(amountIn) }]),
    {
      kind: 'pay',
      token: rng.pick([tokens[s0], tokens[s1], tokens.ETH]),
      to: rng.pick([recipient, swapGuardExecutorAddress, chaos]),
      amount: rng.amount(parseEther('5')),
    },
  ]
  const swap = {
    token0: tokens[s0],
    amountIn,
    token1: tokens[s1],
    minAmountOut: rng.chance(0.5) ? 0n : rng.amount(parseEther('5')),
    recipient,
    spender: chaos,
    router: chaos,
    data: chaosData(actions),
  }
  if (s0 !== 'ETH' && rng.chance(0.3)) {
    // A swap the user signed, submitted from inside another's router call.
    const { token0, token1, minAmountOut, spender, router, data } = swap
    const permit = {
      token0,
      amountIn,
      nonce: BigInt(1_000_000_000 + index * 16 + position),
      deadline,
      witness: { token1, minAmountOut, recipient, spender, router, data },
    }
    const signature = await user.signTypedData(swapPermitTypedData({ ...permit, chainId: fixture.chain.id }))
    return {
      kind: 'call',
      to: swapGuardAddress,
      data: encodeSwapWithPermit2({ ...permit, owner: user.address, signature }),
    }
  }
  return {
    kind: 'call',
    to: swapGuardAddress,
    data: guardSwapData(swap),
    value: s0 === 'ETH' ? amountIn : 0n,
  }
}

test(`the invariant over ${runs} random runs (seed ${seed}): bounds kept by every mined swap, the executor never left holding more, every other run reverted with nothing moved`, async () => {
  const fixture = evm.fixture
  const rng = generator(seed)
  const tally = { mined: 0, reverted: 0, swap: 0, swapWithPermit2: 0, nested: 0 }
  for (let first = 0; first < runs; first += perTransaction) {
    const batch: Run[] = []
    for (let index = first; index < Math.min(runs, first + perTransaction); index++)
      batch.push(await draw(index, rng))
    const receipt = await mined(
      fixture,
      fixture.deployerClient.writeContract({
        address: harness,
        abi: guardInvariantHarnessAbi,
        functionName: 'runAll',
        args: [
          BigInt(first),
          batch.map(({ payer, token0, token1, recipient, value, call }) => ({
            payer,
            token0,
            token1,
            recipient,
            value,
            call,
          })),
        ],
        gas: 29_000_000n,
      }),
      `runs ${first}… (seed ${seed})`,
    )
    const measured = parseEventLogs({
      abi: guardInvariantHarnessAbi,
      eventName: 'Measured',
      logs: receipt.logs,
    })
    expect(measured, `seed ${seed}`).toHaveLength(batch.length)
    for (const { args } of measured) {
      const index = Number(args.index)
      const run = batch[index - first] as Run
      const [payer0, payer1, recipient0, recipient1, exec00, exec01, exec10, exec11, execN0, execN1] =
        args.balances
      const where = `seed ${seed}, run ${index}: ${run.story}`
      tally[run.entry]++
      if (run.story.includes('nested')) tally.nested++
      if (args.ok) {
        tally.mined++
        expect(
          payer0 - payer1 <= run.amountIn,
          `${where}: the payer spent ${payer0 - payer1} > amountIn`,
        ).toBe(true)
        expect(
          recipient1 - recipient0 >= run.minAmountOut,
          `${where}: the recipient got ${recipient1 - recipient0} < floor`,
        ).toBe(true)
        expect(
          exec01 <= exec00 && exec11 <= exec10 && execN1 <= execN0,
          `${where}: the executor holds more than before`,
        ).toBe(true)
      } else {
        tally.reverted++
        expect(
          [payer1, recipient1, exec01, exec11, execN1],
          `${where}: reverted (${args.returned.slice(0, 74)}) yet something moved`,
        ).toEqual([payer0, recipient0, exec00, exec10, execN0])
      }
    }
  }
  console.log(`guard invariant: seed ${seed}, ${runs} runs`, tally)
  // Not vacuous: both outcomes, both entries and nested swaps are well represented.
  expect(tally.mined, `seed ${seed}`).toBeGreaterThan(runs / 10)
  expect(tally.reverted, `seed ${seed}`).toBeGreaterThan(runs / 10)
  expect(Math.min(tally.swap, tally.swapWithPermit2), `seed ${seed}`).toBeGreaterThan(runs / 5)
  expect(tally.nested, `seed ${seed}`).toBeGreaterThan(runs / 20)
}, 600_000)
