import {
  type Address,
  createPublicClient,
  createWalletClient,
  defineChain,
  type Hex,
  http,
  keccak256,
  parseEther,
} from 'viem'
import { privateKeyToAccount } from 'viem/accounts'
import { afterAll, beforeAll, describe, expect, test, vi } from 'vitest'
import { lookAlikeGuardAbi } from '../../../../test/evm/abis.js'
import { type StartAnvilReturnType, startAnvil } from '../../../../test/evm/anvil.js'
import { compileContracts } from '../../../../test/evm/compile.js'
import { anvilPrivateKeys, type SwapFixture } from '../../../../test/evm/fixture.js'
import {
  approve,
  deadlineIn,
  deploy,
  guardSwapData,
  mined,
  routerSwapData,
} from '../../../../test/evm/guardKit.js'
import { jsonRpc } from '../../../../test/evm/rpc.js'
import { setupSwapFixture } from '../../../../test/evm/setup.js'
import { deploySwapGuard, isSwapGuardDeployed } from '../../../guard/deploySwapGuard.js'
import { SwapGuardCodeMismatchError } from '../../errors/guard.js'
import {
  swapGuardAddress,
  swapGuardCodeHash,
  swapGuardExecutorAddress,
  swapGuardExecutorCodeHash,
} from './swapGuard.js'
import { swapGuardMissingCacheMs, verifySwapGuard } from './verifySwapGuard.js'

const evm = setupSwapFixture()

/** A public client of its own: `verifySwapGuard` caches per client. */
const clientFor = (rpcUrl: string, fixture?: SwapFixture) =>
  createPublicClient({ chain: fixture?.chain, transport: http(rpcUrl), pollingInterval: 50 })

let lookAlikeCode: Hex

beforeAll(async () => {
  const C = await compileContracts()
  const lookAlike = await deploy(evm.fixture, C.LookAlikeGuard)
  lookAlikeCode = (await evm.fixture.publicClient.getCode({ address: lookAlike })) as Hex
}, 60_000)

const setCode = (fixture: SwapFixture, address: Address, code: Hex) =>
  jsonRpc(fixture.rpcUrl)('anvil_setCode', [address, code])

describe('verifySwapGuard', () => {
  test("the fixture's deployment is 'verified': the exact code at both addresses", async () => {
    const fixture = evm.fixture
    const publicClient = clientFor(fixture.rpcUrl, fixture)
    expect(keccak256((await publicClient.getCode({ address: swapGuardAddress })) as Hex)).toBe(
      swapGuardCodeHash,
    )
    expect(keccak256((await publicClient.getCode({ address: swapGuardExecutorAddress })) as Hex)).toBe(
      swapGuardExecutorCodeHash,
    )
    expect(await verifySwapGuard({ publicClient })).toBe('verified')
    expect(await isSwapGuardDeployed({ publicClient })).toBe(true)
  })

  test("a look-alike at the guard's address passes a simulation and steals when mined: 'mismatch', isSwapGuardDeployed false, deploySwapGuard refuses sending nothing", async () => {
    const fixture = evm.fixture
    const { user } = fixture.accounts
    const TKA = fixture.tokens.TKA.address
    const TKB = fixture.tokens.TKB.address
    await setCode(fixture, swapGuardAddress, lookAlikeCode)
    const amountIn = parseEther('100')
    const swap = {
      token0: TKA,
      amountIn,
      token1: TKB,
      minAmountOut: 1n,
      recipient: user.address,
      spender: fixture.spender,
      router: fixture.router,
      data: routerSwapData({
        path: [TKA, TKB],
        amountIn,
        to: user.address,
        deadline: await deadlineIn(fixture),
      }),
    }
    await approve(fixture, fixture.userClient, TKA, swapGuardAddress, amountIn)

    // The simulation predicts an honest swap, with the guard's event.
    const { result } = await fixture.publicClient.simulateContract({
      account: user.address,
      address: swapGuardAddress,
      abi: lookAlikeGuardAbi,
      functionName: 'swap',
      args: [
        swap.token0,
        swap.amountIn,
        swap.token1,
        swap.minAmountOut,
        swap.recipient,
        swap.spender,
        swap.router,
        swap.data,
      ],
    })
    expect(result).toBeGreaterThan(parseEther('150'))

    // The code says otherwise.
    const publicClient = clientFor(fixture.rpcUrl, fixture)
    expect(await verifySwapGuard({ publicClient })).toBe('mismatch')
    expect(await isSwapGuardDeployed({ publicClient })).toBe(false)
    const error = await verifySwapGuard({ publicClient, throwOnMismatch: true }).catch((e: unknown) => e)
    expect(error).toBeInstanceOf(SwapGuardCodeMismatchError)
    expect(error).toMatchObject({
      name: 'SwapGuardCodeMismatchError',
      code: 'SWAP_GUARD_CODE_MISMATCH',
      chainId: fixture.chain.id,
      address: swapGuardAddress,
      expectedCodeHash: swapGuardCodeHash,
      foundCodeHash: keccak256(lookAlikeCode),
      hash: undefined,
    })
    expect((error as SwapGuardCodeMismatchError).shortMessage).toBe(
      `${swapGuardAddress} on chain ${fixture.chain.id} is not the swap guard: approve and sign nothing for it.`,
    )

    const deployer = fixture.accounts.deployer.address
    const nonce = await fixture.publicClient.getTransactionCount({ address: deployer })
    const refused = await deploySwapGuard({
      walletClient: fixture.deployerClient,
      publicClient: fixture.publicClient,
    }).catch((e: unknown) => e)
    expect(refused).toBeInstanceOf(SwapGuardCodeMismatchError)
    expect(refused).toMatchObject({ address: swapGuardAddress, foundCodeHash: keccak256(lookAlikeCode) })
    expect(await fixture.publicClient.getTransactionCount({ address: deployer })).toBe(nonce)

    // Why it matters: mined, the look-alike keeps the input and pays nothing.
    const before = await Promise.all([
      fixture.balanceOf(TKA, user.address),
      fixture.balanceOf(TKB, user.address),
    ])
    const receipt = await mined(
      fixture,
      fixture.userClient.sendTransaction({ to: swapGuardAddress, data: guardSwapData(swap) }),
    )
    expect(receipt.status).toBe('success')
    expect(
      await Promise.all([fixture.balanceOf(TKA, user.address), fixture.balanceOf(TKB, user.address)]),
    ).toEqual([before[0] - amountIn, before[1]])
  })

  test("other code at the executor's address alone is a 'mismatch' naming the executor", async () => {
    const fixture = evm.fixture
    await setCode(fixture, swapGuardExecutorAddress, lookAlikeCode)
    const publicClient = clientFor(fixture.rpcUrl, fixture)
    expect(await verifySwapGuard({ publicClient })).toBe('mismatch')
    await expect(verifySwapGuard({ publicClient, throwOnMismatch: true })).rejects.toMatchObject({
      address: swapGuardExecutorAddress,
      expectedCodeHash: swapGuardExecutorCodeHash,
      foundCodeHash: keccak256(lookAlikeCode),
    })
    // The guard without its executor is not the guard either.
    await setCode(fixture, swapGuardExecutorAddress, '0x')
    expect(await verifySwapGuard({ publicClient, fresh: true })).toBe('mismatch')
    await expect(verifySwapGuard({ publicClient, throwOnMismatch: true })).rejects.toMatchObject({
      address: swapGuardExecutorAddress,
      foundCodeHash: undefined,
    })
  })

  test('answers are cached per client and chain id: read once, read again for another chain id or when asked (fresh)', async () => {
    const fixture = evm.fixture
    const genuine = (await fixture.publicClient.getCode({ address: swapGuardAddress })) as Hex
    const publicClient = clientFor(fixture.rpcUrl, fixture)
    const getCode = vi.spyOn(publicClient, 'getCode')
    expect(await verifySwapGuard({ publicClient })).toBe('verified')
    expect(getCode).toHaveBeenCalledTimes(2)
    await setCode(fixture, swapGuardAddress, lookAlikeCode)
    // Cached for this client and chain: no read, the answer stands.
    expect(await verifySwapGuard({ publicClient })).toBe('verified')
    expect(getCode).toHaveBeenCalledTimes(2)
    // Another client reads.
    expect(await verifySwapGuard({ publicClient: clientFor(fixture.rpcUrl, fixture) })).toBe('mismatch')
    // fresh: reads again, and keeps the new answer.
    expect(await verifySwapGuard({ publicClient, fresh: true })).toBe('mismatch')
    expect(await verifySwapGuard({ publicClient })).toBe('mismatch')
    expect(getCode).toHaveBeenCalledTimes(4)

    // The node's chain changes under the client (an injected provider switching networks): the
    // answer kept for the first chain id is not used for the second, which is read.
    const request = jsonRpc(fixture.rpcUrl)
    await setCode(fixture, swapGuardAddress, genuine)
    try {
      await request('anvil_setChainId', [fixture.chain.id + 1])
      expect(await verifySwapGuard({ publicClient })).toBe('verified')
      expect(getCode).toHaveBeenCalledTimes(6)
    } finally {
      await request('anvil_setChainId', [fixture.chain.id])
    }
    // Back on the first chain id: its own cached answer.
    expect(await verifySwapGuard({ publicClient })).toBe('mismatch')
    expect(getCode).toHaveBeenCalledTimes(6)
  })

  test('concurrent calls share one read', async () => {
    const fixture = evm.fixture
    const publicClient = clientFor(fixture.rpcUrl, fixture)
    const getCode = vi.spyOn(publicClient, 'getCode')
    expect(await Promise.all([verifySwapGuard({ publicClient }), verifySwapGuard({ publicClient })])).toEqual(
      ['verified', 'verified'],
    )
    expect(getCode).toHaveBeenCalledTimes(2)
  })
})

describe("'missing' is not kept for long", () => {
  let bare: StartAnvilReturnType
  beforeAll(async () => {
    bare = await startAnvil()
  }, 30_000)
  afterAll(() => bare?.stop())

  test(`'missing' on a chain without the guard, kept ${swapGuardMissingCacheMs / 1000} s then read again; deploySwapGuard refreshes its own client's answer at once`, async () => {
    const chain = defineChain({
      id: bare.chainId,
      name: 'Anvil',
      nativeCurrency: { name: 'Ether', symbol: 'ETH', decimals: 18 },
      rpcUrls: { default: { http: [bare.rpcUrl] } },
    })
    const deployerClient = clientFor(bare.rpcUrl)
    const otherClient = clientFor(bare.rpcUrl)
    const walletClient = createWalletClient({
      chain,
      transport: http(bare.rpcUrl),
      account: privateKeyToAccount(anvilPrivateKeys[1]),
    })
    expect(await verifySwapGuard({ publicClient: deployerClient })).toBe('missing')
    expect(await verifySwapGuard({ publicClient: otherClient })).toBe('missing')
    expect(await isSwapGuardDeployed({ publicClient: otherClient })).toBe(false)

    const now = Date.now()
    const clock = vi.spyOn(Date, 'now').mockReturnValue(now + 1_000)
    try {
      const deployed = await deploySwapGuard({ walletClient, publicClient: deployerClient })
      expect(deployed.status).toBe('deployed')
      expect(await verifySwapGuard({ publicClient: deployerClient })).toBe('verified')
      // The other client's answer is kept for the window, then read again.
      expect(await verifySwapGuard({ publicClient: otherClient })).toBe('missing')
      clock.mockReturnValue(now + swapGuardMissingCacheMs + 1)
      expect(await verifySwapGuard({ publicClient: otherClient })).toBe('verified')
    } finally {
      clock.mockRestore()
    }
  })
})
