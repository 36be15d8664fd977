/**
 * Code on the swap's path that tells a simulation from the mined transaction
 * (in eth_simulateV1 without validation and in eth_call, the gas price and
 * the base fee read 0), with the README's own setup: a trusted router and
 * spender, a floor 1% under an honest quote. Through the guard (the default)
 * each attack costs the user nothing but gas: the swap reverts on chain, on
 * the sequential path and in an atomic batch. With the guard bypassed
 * (`floorEnforcement: 'simulation'`), each steals: the simulation passed, the
 * mined swap paid less than the floor.
 */
import {
  type Address,
  createWalletClient,
  custom,
  type EIP1193Provider,
  encodeFunctionData,
  type Hex,
  http,
  maxUint256,
  parseEther,
} from 'viem'
import { beforeAll, describe, expect, test } from 'vitest'
import { testErc20Abi, testRouterAbi } from '../../../test/evm/abis.js'
import { compileContracts } from '../../../test/evm/compile.js'
import { defaultPools, type PoolConfig } from '../../../test/evm/fixture.js'
import { attackerAccount, routerSwapData } from '../../../test/evm/guardKit.js'
import { deployPermit2 } from '../../../test/evm/production/permit2.js'
import { jsonRpc } from '../../../test/evm/rpc.js'
import { setupSwapHarness } from '../../../test/evm/swapHarness.js'
import type { TestWallet } from '../../../test/evm/wallet.js'
import { getAmountOut } from '../../mock/amm.js'
import { BatchFailedError, TransactionRevertedError, UnsafeSwapOutcomeError } from '../errors/execute.js'
import { executeSwap } from './executeSwap.js'
import { permit2Address, swapGuardAddress } from './guard/swapGuard.js'
import type { FloorEnforcement } from './rules/planSwap.js'

// A shallow TKA/TKB pool (10,000 : 20,000), so that a sandwich of a few hundred TKA pays.
const pools: PoolConfig[] = defaultPools.map((pool) =>
  pool.tokenA === 'TKA' && pool.tokenB === 'TKB'
    ? { ...pool, reserveA: parseEther('10000'), reserveB: parseEther('20000') }
    : pool,
)
const h = setupSwapHarness({ pools })
const amountIn = parseEther('500')
const front = parseEther('5000')
const epsilon = parseEther('0.001')
const gwei = 10n ** 9n
let C: Awaited<ReturnType<typeof compileContracts>>

beforeAll(async () => {
  C = await compileContracts()
  // Permit2 at its canonical address, compiled from its published source.
  await deployPermit2(jsonRpc(h.fixture.rpcUrl), h.fixture.accounts.deployer.address)
}, 120_000)

/** The user's one-time approval of Permit2 for TKA, as most active wallets gave it. */
async function approvePermit2() {
  const hash = await h.fixture.userClient.writeContract({
    address: TKA(),
    abi: testErc20Abi,
    functionName: 'approve',
    args: [permit2Address, maxUint256],
  })
  await h.fixture.publicClient.waitForTransactionReceipt({ hash })
}

const TKA = () => h.address('TKA')
const TKB = () => h.address('TKB')
const user = () => h.fixture.accounts.user.address
const trusted = () => ({ [h.fixture.chain.id]: [h.fixture.router, h.fixture.spender] })

async function deploy(
  contract: { abi: readonly unknown[]; bytecode: Hex },
  args: unknown[],
): Promise<Address> {
  const { deployerClient, publicClient } = h.fixture
  const hash = await deployerClient.deployContract({
    abi: contract.abi as never,
    bytecode: contract.bytecode,
    args,
  })
  return (await publicClient.waitForTransactionReceipt({ hash })).contractAddress as Address
}

async function mint(token: Address, to: Address, amount: bigint) {
  const hash = await h.fixture.deployerClient.writeContract({
    address: token,
    abi: testErc20Abi,
    functionName: 'mint',
    args: [to, amount],
  })
  await h.fixture.publicClient.waitForTransactionReceipt({ hash })
}

async function deadline() {
  return (await h.fixture.publicClient.getBlock()).timestamp + 3600n
}

/** The honest output of `amountIn` TKA on the TKA/TKB pool as it is now. */
async function honestOut(amount: bigint) {
  return h.fixture.publicClient.readContract({
    address: h.fixture.router,
    abi: testRouterAbi,
    functionName: 'getAmountOut',
    args: [[TKA(), TKB()], amount],
  })
}

/** The service's `/swap/info` answer, once: an honest estimate around the attacker's calldata. */
function serve(body: {
  data: Hex
  transferAddress: Address
  approvalAddress: Address
  estimateAmount: bigint
}) {
  h.server.service.fail({
    status: 200,
    endpoint: '/swap/info',
    times: 1,
    body: {
      ...body,
      transferValue: '0',
      estimateAmount: String(body.estimateAmount),
      estimateTransferSeconds: 12,
      hopsCount: 1,
      fee: {},
    },
  })
}

/** The attacker's wallet (anvil's fourth account), holding `front` TKA approved to the spender, TKB too. */
async function armAttacker() {
  const attacker = createWalletClient({
    chain: h.fixture.chain,
    transport: http(h.fixture.rpcUrl),
    account: attackerAccount,
    pollingInterval: 50,
  })
  await mint(TKA(), attackerAccount.address, front)
  for (const token of [TKA(), TKB()]) {
    const hash = await attacker.writeContract({
      address: token,
      abi: testErc20Abi,
      functionName: 'approve',
      args: [h.fixture.spender, maxUint256],
    })
    await h.fixture.publicClient.waitForTransactionReceipt({ hash })
  }
  return attacker
}

type Attack = {
  /** What the service answers, and the swap's options (a router outside the allowlist waives it). */
  prepare(): Promise<{ body: Parameters<typeof serve>[0]; waive?: boolean; floor: bigint }>
  /** A wallet through which the attack happens as the swap is sent (a mempool sandwich). */
  wallet?(batch: boolean): Promise<TestWallet | EIP1193Provider>
}

const attacks: [string, () => Attack][] = [
  [
    "an in-transaction sandwich in the trusted router's multicall, by a contract on the path that does nothing when simulated",
    () => ({
      async prepare() {
        const bot = await deploy(C.GasAwareSandwich, [
          h.fixture.router,
          h.fixture.spender,
          TKA(),
          TKB(),
          front,
        ])
        await mint(TKA(), bot, front)
        const end = await deadline()
        const hop = routerSwapData({
          path: [TKA(), h.address('ETH')],
          amountIn: epsilon,
          to: bot,
          deadline: end,
        })
        const userIn = amountIn - 2n * epsilon
        const swap = routerSwapData({ path: [TKA(), TKB()], amountIn: userIn, to: user(), deadline: end })
        const data = encodeFunctionData({
          abi: testRouterAbi,
          functionName: 'multicall',
          args: [[hop, swap, hop]],
        })
        const honest = await honestOut(userIn)
        return {
          body: {
            data,
            transferAddress: h.fixture.router,
            approvalAddress: h.fixture.spender,
            estimateAmount: honest,
          },
          floor: (honest * 99n) / 100n,
        }
      },
    }),
  ],
  [
    'a router that pays from its own stock when the gas price is 0 and keeps the input when mined (allowlist waived)',
    () => ({
      async prepare() {
        const rate = 2n * 10n ** 18n
        const router = await deploy(C.GasPriceRouter, [rate])
        await mint(TKB(), router, parseEther('100000'))
        const data = routerSwapData({
          path: [TKA(), TKB()],
          amountIn,
          to: user(),
          deadline: await deadline(),
        })
        const quote = (amountIn * rate) / 10n ** 18n
        return {
          body: { data, transferAddress: router, approvalAddress: router, estimateAmount: quote },
          waive: true,
          floor: (quote * 99n) / 100n,
        }
      },
    }),
  ],
  [
    'a mempool sandwich of calldata with minAmountOut 0: front-run and back-run around the swap in one block',
    () => ({
      async prepare() {
        const data = routerSwapData({
          path: [TKA(), TKB()],
          amountIn,
          minAmountOut: 0n,
          to: user(),
          deadline: await deadline(),
        })
        const honest = await honestOut(amountIn)
        return {
          body: {
            data,
            transferAddress: h.fixture.router,
            approvalAddress: h.fixture.spender,
            estimateAmount: honest,
          },
          floor: (honest * 99n) / 100n,
        }
      },
      async wallet(batch) {
        const attacker = await armAttacker()
        const [reserveA, reserveB, feeBps] = await h.fixture.publicClient.readContract({
          address: h.fixture.router,
          abi: testRouterAbi,
          functionName: 'getPool',
          args: [TKA(), TKB()],
        })
        const bought = getAmountOut({ amountIn: front, reserveIn: reserveA, reserveOut: reserveB, feeBps })
        const end = await deadline()
        const runs = (direction: 'front' | 'back', fee: bigint) =>
          attacker.sendTransaction({
            to: h.fixture.router,
            data:
              direction === 'front'
                ? routerSwapData({
                    path: [TKA(), TKB()],
                    amountIn: front,
                    to: attackerAccount.address,
                    deadline: end,
                  })
                : routerSwapData({
                    path: [TKB(), TKA()],
                    amountIn: bought,
                    to: attackerAccount.address,
                    deadline: end,
                  }),
            gas: 1_500_000n,
            maxFeePerGas: fee,
            maxPriorityFeePerGas: fee,
          })
        // In a batch: the front-run lands right before it, the back-run right after.
        if (batch)
          return h.wallet({ eip5792: { beforeBatch: async () => void (await runs('front', 30n * gwei)) } })
        // One after the other: the swap waits in the mempool, the attacker's two around it (anvil orders by fee).
        const wallet = h.wallet()
        let swaps = 0
        return {
          request: async (args: { method: string; params?: unknown }) => {
            const [call] = (args.params ?? []) as { to?: Address }[]
            const isSwap =
              args.method === 'eth_sendTransaction' &&
              !!call?.to &&
              [swapGuardAddress, h.fixture.router].some((to) => to.toLowerCase() === call.to?.toLowerCase())
            if (!isSwap || swaps++) return wallet.provider.request(args as never)
            await h.fixture.testClient.setAutomine(false)
            try {
              const fees = {
                maxFeePerGas: `0x${(20n * gwei).toString(16)}`,
                maxPriorityFeePerGas: `0x${(20n * gwei).toString(16)}`,
              }
              const hash = await wallet.provider.request({
                method: 'eth_sendTransaction',
                params: [{ ...call, ...fees }],
              } as never)
              await runs('front', 30n * gwei)
              await runs('back', 10n * gwei)
              await h.fixture.testClient.mine({ blocks: 1 })
              return hash
            } finally {
              await h.fixture.testClient.setAutomine(true)
            }
          },
        } as EIP1193Provider
      },
    }),
  ],
]

/** The user's TKA, TKB, and TKA allowances to the guard and to the spender. */
async function funds() {
  return {
    TKA: await h.balance('TKA'),
    TKB: await h.balance('TKB'),
    guard: await h.allowance('TKA', swapGuardAddress),
    spender: await h.allowance('TKA', h.fixture.spender),
  }
}

async function attack(
  make: () => Attack,
  batch: boolean,
  floorEnforcement: FloorEnforcement,
  permit2: 'approve' | 'never' = 'never',
) {
  const scenario = make()
  const { body, waive, floor } = await scenario.prepare()
  const wallet = scenario.wallet ? await scenario.wallet(batch) : h.wallet(batch ? { eip5792: {} } : {})
  const provider = 'provider' in wallet ? wallet.provider : wallet
  // A wallet's gas estimate runs as a simulation does (the attacker's contract idle): the mined
  // attack needs more, which a generous limit gives it, as an attacker would see to.
  const generous = {
    request: (args: { method: string; params?: unknown }) => {
      if (args.method !== 'eth_sendTransaction') return provider.request(args as never)
      const [call] = args.params as [Record<string, unknown>]
      return provider.request({ method: args.method, params: [{ gas: '0x16e360', ...call }] } as never)
    },
  } as EIP1193Provider
  const walletClient = createWalletClient({
    account: user(),
    transport: custom(generous),
    pollingInterval: 50,
  })
  const before = await funds()
  serve(body)
  const error = await executeSwap(h.swapClient(), {
    walletClient,
    publicClient: h.fixture.publicClient,
    token0: TKA(),
    token1: TKB(),
    amountIn,
    minAmountOut: floor,
    ...(waive ? { dangerouslyTrustAnyAddress: true } : { trustedAddresses: trusted() }),
    floorEnforcement,
    batch: batch ? 'require' : 'never',
    permit2,
    revokeOnFailure: true,
    storage: false,
  }).then(
    () => undefined,
    (e: unknown) => e,
  )
  return { error, before, after: await funds(), floor }
}

describe.each([
  ['one transaction after the other', false],
  ['an atomic EIP-5792 batch', true],
] as const)('%s', (_, batch) => {
  describe.each(attacks)('%s', (__, make) => {
    test('through the guard: the swap reverts on chain; the user keeps every token and allowance, and pays only gas', async () => {
      const { error, before, after } = await attack(make, batch, 'onchain')
      expect(error).toBeInstanceOf(batch ? BatchFailedError : TransactionRevertedError)
      if (!batch) expect(error).toMatchObject({ stage: 'swap' })
      // The approval the flow made went with the revert (a batch) or was revoked (revokeOnFailure).
      expect(after).toEqual(before)
    })

    test('through the guard, token0 taken through a Permit2 signature: the swap reverts on chain; the user keeps every token, and pays only gas', async () => {
      // One transaction after the other: Permit2 approved already, the signature and one swap. In a
      // batch: the one-time Permit2 approval and the signed swap, as one.
      if (!batch) await approvePermit2()
      const { error, before, after } = await attack(make, batch, 'onchain', 'approve')
      expect(error).toBeInstanceOf(batch ? BatchFailedError : TransactionRevertedError)
      if (!batch) expect(error).toMatchObject({ stage: 'swap' })
      expect(after).toEqual(before)
    })

    test('bypassed (floorEnforcement: simulation): the simulation passed, and the mined swap paid under the floor', async () => {
      const { error, before, after, floor } = await attack(make, batch, 'simulation')
      expect(error).toBeInstanceOf(UnsafeSwapOutcomeError)
      expect(error).toMatchObject({ stage: 'receipt' })
      expect(after.TKA).toBe(before.TKA - amountIn)
      expect(after.TKB - before.TKB).toBeLessThan(floor)
    })
  })
})
