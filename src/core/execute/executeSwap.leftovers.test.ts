/**
 * Nothing left behind for the next caller, on anvil: a trusted router that
 * pays part of the output into the guard's executor. What it leaves of the
 * swap's own tokens, the guard hands back on chain (token0 to the payer,
 * token1 to the recipient); a third token it cannot hand back (it cannot name
 * it) is refused before anything is signed, since anyone could take it next.
 */
import { type Address, parseEther, parseUnits } from 'viem'
import { beforeAll, describe, expect, test } from 'vitest'
import { testErc20Abi } from '../../../test/evm/abis.js'
import { chaosData } from '../../../test/evm/chaosKit.js'
import { compileContracts } from '../../../test/evm/compile.js'
import { setupSwapHarness } from '../../../test/evm/swapHarness.js'
import { UnsafeSwapOutcomeError } from '../errors/execute.js'
import { executeSwap } from './executeSwap.js'
import { swapGuardExecutorAddress } from './guard/swapGuard.js'

const h = setupSwapHarness()
const amountIn = parseEther('10')
const amountOut = parseEther('15')
let router: Address

beforeAll(async () => {
  const { ChaosRouter } = await compileContracts()
  const { deployerClient, publicClient } = h.fixture
  const hash = await deployerClient.deployContract({ abi: ChaosRouter.abi, bytecode: ChaosRouter.bytecode })
  router = (await publicClient.waitForTransactionReceipt({ hash })).contractAddress as Address
  // The router's own stock, which it pays out from.
  for (const [symbol, amount] of [
    ['TKB', parseEther('1000')],
    ['USDC', parseUnits('1000', 6)],
  ] as const) {
    const minted = await deployerClient.writeContract({
      address: h.address(symbol),
      abi: testErc20Abi,
      functionName: 'mint',
      args: [router, amount],
    })
    await publicClient.waitForTransactionReceipt({ hash: minted })
  }
}, 60_000)

/** Serves `/swap/info` once with ChaosRouter calldata, and runs the guarded swap of TKA for TKB. */
async function swapThrough(actions: Parameters<typeof chaosData>[0]) {
  h.server.service.fail({
    status: 200,
    endpoint: '/swap/info',
    times: 1,
    body: {
      data: chaosData(actions),
      transferAddress: router,
      approvalAddress: router,
      transferValue: '0',
      estimateAmount: String(amountOut),
      estimateTransferSeconds: 12,
      hopsCount: 1,
      fee: {},
    },
  })
  const wallet = h.wallet()
  const result = await executeSwap(h.swapClient(), {
    walletClient: wallet.walletClient,
    publicClient: h.fixture.publicClient,
    token0: h.address('TKA'),
    token1: h.address('TKB'),
    amountIn,
    minAmountOut: amountOut - parseEther('1'),
    trustedAddresses: { [h.fixture.chain.id]: [router] },
    storage: false,
  }).catch((error: unknown) => error)
  return { result, wallet }
}

const executorHolds = (symbol: 'TKA' | 'TKB' | 'USDC') =>
  h.fixture.publicClient.readContract({
    address: h.address(symbol),
    abi: testErc20Abi,
    functionName: 'balanceOf',
    args: [swapGuardExecutorAddress],
  })

describe('what a route leaves in the guard’s executor', () => {
  test('a third token paid into the executor (part of the output in USDC): refused before anything is signed', async () => {
    const user = h.fixture.accounts.user.address
    const { result, wallet } = await swapThrough([
      { kind: 'pull', token: h.address('TKA'), amount: amountIn },
      { kind: 'pay', token: h.address('TKB'), to: user, amount: amountOut },
      { kind: 'pay', token: h.address('USDC'), to: swapGuardExecutorAddress, amount: parseUnits('7.455', 6) },
    ])
    expect(result).toBeInstanceOf(UnsafeSwapOutcomeError)
    expect((result as UnsafeSwapOutcomeError).violations).toEqual([
      { type: 'stranded', token: h.address('USDC'), amount: parseUnits('7.455', 6) },
    ])
    expect(wallet.sendRequests()).toHaveLength(0)
    expect(await executorHolds('USDC')).toBe(0n)
  })

  test('token1 paid to the executor and token0 left in it: handed back on chain (token1 to the recipient, token0 to the payer); the executor keeps nothing', async () => {
    const before = { TKA: await h.balance('TKA'), TKB: await h.balance('TKB') }
    const { result } = await swapThrough([
      { kind: 'pull', token: h.address('TKA'), amount: amountIn - parseEther('1') },
      { kind: 'pay', token: h.address('TKB'), to: swapGuardExecutorAddress, amount: amountOut },
    ])
    expect(result).toMatchObject({ realized: { amountIn: amountIn - parseEther('1'), amountOut } })
    expect(before.TKA - (await h.balance('TKA'))).toBe(amountIn - parseEther('1'))
    expect((await h.balance('TKB')) - before.TKB).toBe(amountOut)
    for (const symbol of ['TKA', 'TKB', 'USDC'] as const) expect(await executorHolds(symbol)).toBe(0n)
  })
})
