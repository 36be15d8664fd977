/**
 * A hostile or compromised service, on a real chain: `/swap/info` answers
 * whatever the attacker likes (served over real HTTP by the loopback mock
 * service), and executeSwap must sign nothing that loses funds. Every attack
 * checks that the wallet was asked for nothing and that balances, allowances
 * and nonces are exactly as before; the honest controls check that real swaps
 * still pass with the realized amounts reported.
 */
import {
  type Address,
  createPublicClient,
  createWalletClient,
  custom,
  encodeFunctionData,
  erc20Abi,
  getAddress,
  type Hex,
  maxUint256,
  type PublicClient,
  parseEther,
} from 'viem'
import { privateKeyToAccount } from 'viem/accounts'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { hostileTokenAbi, testNftAbi, testPermit2Abi, testRouterAbi } from '../../../test/evm/abis.js'
import { type StartAnvilReturnType, startAnvil } from '../../../test/evm/anvil.js'
import { compileContracts, compileSolidity } from '../../../test/evm/compile.js'
import { anvilPrivateKeys } from '../../../test/evm/fixture.js'
import { jsonRpc } from '../../../test/evm/rpc.js'
import { setupSwapHarness } from '../../../test/evm/swapHarness.js'
import type { TestWallet } from '../../../test/evm/wallet.js'
import { swapRouterAbi } from '../../mock/routerAbi.js'
import {
  ChainMismatchError,
  SimulationUnavailableError,
  type SwapOutcomeViolation,
  SwapSimulationError,
  UnsafeSwapOutcomeError,
  UntrustedAddressError,
} from '../errors/execute.js'
import { InvalidParameterError } from '../errors/parameter.js'
import { type ExecuteSwapParameters, executeSwap } from './executeSwap.js'
import { swapGuardAddress } from './guard/swapGuard.js'

const h = setupSwapHarness()
const attacker: Address = '0x000000000000000000000000000000000000dEaD'
const nftId = 7n

let HTK: Address // a token with multicall, transferAndCall, increaseApproval and DAI's permit
let permit2: Address
let nft: Address
let otherChain: StartAnvilReturnType

beforeAll(async () => {
  const { deployerClient, publicClient, accounts } = h.fixture
  const { HostileToken, TestPermit2, TestNFT } = await compileContracts()
  const deploy = async (contract: { abi: readonly unknown[]; bytecode: Hex }, args: unknown[] = []) => {
    const hash = await deployerClient.deployContract({
      abi: contract.abi as never,
      bytecode: contract.bytecode,
      args,
    })
    const receipt = await publicClient.waitForTransactionReceipt({ hash })
    return getAddress(receipt.contractAddress as Address)
  }
  HTK = await deploy(HostileToken, ['Hostile', 'HTK', 18])
  permit2 = await deploy(TestPermit2)
  nft = await deploy(TestNFT)
  const mined = async (hash: Promise<Hex>) => publicClient.waitForTransactionReceipt({ hash: await hash })
  await mined(
    deployerClient.writeContract({
      address: HTK,
      abi: hostileTokenAbi,
      functionName: 'mint',
      args: [accounts.user.address, parseEther('500')],
    }),
  )
  await mined(
    deployerClient.writeContract({
      address: nft,
      abi: testNftAbi,
      functionName: 'mint',
      args: [accounts.user.address, nftId],
    }),
  )
  // The user approved Permit2 for TKB once, as Permit2 users do.
  await mined(
    h.fixture.userClient.writeContract({
      address: h.address('TKB'),
      abi: erc20Abi,
      functionName: 'approve',
      args: [permit2, maxUint256],
    }),
  )
  otherChain = await startAnvil({ chainId: 31_338 })
}, 30_000)
afterAll(async () => {
  await otherChain?.stop()
})

type Swap = Omit<ExecuteSwapParameters, 'walletClient' | 'publicClient'>

const trusted = () => ({ [h.fixture.chain.id]: [h.fixture.router, h.fixture.spender] })

/** The service's honest quote for a swap (route and output of the market the router holds). */
function honestQuote(token0: Address, token1: Address, amountIn: bigint) {
  const quote = h.market.quote({ token0, token1, amountIn })
  if (!quote) throw new Error('no route')
  return quote
}

/** A `/swap/info` body: an honest-looking estimate around whatever the attacker wants signed. */
function info(overrides: {
  data: Hex
  transferAddress: Address
  approvalAddress?: Address | null
  transferValue?: bigint
  estimateAmount: bigint
}) {
  return {
    data: overrides.data,
    transferAddress: overrides.transferAddress,
    transferValue: String(overrides.transferValue ?? 0n),
    approvalAddress: overrides.approvalAddress === undefined ? h.fixture.spender : overrides.approvalAddress,
    estimateTransferSeconds: 12,
    estimateAmount: String(overrides.estimateAmount),
    hopsCount: 1,
    fee: {},
  }
}

/** From now on (once), `/swap/info` answers `body`, whatever was asked. */
function serve(body: unknown) {
  h.server.service.fail({ status: 200, endpoint: '/swap/info', body, times: 1 })
}

async function swapData(path: Address[], amountIn: bigint, minAmountOut: bigint, to: Address): Promise<Hex> {
  const block = await h.fixture.publicClient.getBlock()
  return encodeFunctionData({
    abi: swapRouterAbi,
    functionName: 'swap',
    args: [path, amountIn, minAmountOut, to, block.timestamp + 3600n],
  })
}

/** Everything the user owns or has granted, and how many transactions they sent, on both chains. */
async function funds() {
  const { publicClient, accounts } = h.fixture
  const user = accounts.user.address
  const erc20 = (token: Address, functionName: 'balanceOf' | 'allowance', args: readonly Address[]) =>
    publicClient.readContract({ address: token, abi: erc20Abi, functionName, args: args as never })
  const other = createPublicClient({ transport: custom({ request: rpc(otherChain.rpcUrl) }) })
  return {
    balances: {
      ETH: await publicClient.getBalance({ address: user }),
      TKA: await h.balance('TKA'),
      TKB: await h.balance('TKB'),
      USDC: await h.balance('USDC'),
      HTK: await erc20(HTK, 'balanceOf', [user]),
      attackerUSDC: await h.balance('USDC', attacker),
      attackerETH: await publicClient.getBalance({ address: attacker }),
    },
    allowances: {
      TKAspender: await h.allowance('TKA', h.fixture.spender),
      TKAguard: await h.allowance('TKA'),
      TKAattacker: await erc20(h.address('TKA'), 'allowance', [user, attacker]),
      HTKattacker: await erc20(HTK, 'allowance', [user, attacker]),
      permit2: await publicClient.readContract({
        address: permit2,
        abi: testPermit2Abi,
        functionName: 'allowance',
        args: [user, h.address('TKB'), attacker],
      }),
      nftOperator: await publicClient.readContract({
        address: nft,
        abi: testNftAbi,
        functionName: 'isApprovedForAll',
        args: [user, attacker],
      }),
    },
    nftOwner: await publicClient.readContract({
      address: nft,
      abi: testNftAbi,
      functionName: 'ownerOf',
      args: [nftId],
    }),
    nonce: await h.nonce(),
    otherChain: {
      nonce: await other.getTransactionCount({ address: user }),
      balance: await other.getBalance({ address: user }),
    },
  }
}

/** A JSON-RPC forwarder to a node, refusing some methods as a node without them does. */
function rpc(url: string, refuse: string[] = []) {
  const forward = jsonRpc(url)
  return ({ method, params }: { method: string; params?: unknown }) => {
    if (refuse.includes(method))
      throw Object.assign(new Error(`the method ${method} does not exist/is not available`), { code: -32601 })
    return forward(method, params)
  }
}

/** The fixture's node, seen through a client whose node has no eth_simulateV1 (the eth_call fallback). */
function publicClientWithoutSimulateV1(): PublicClient {
  return createPublicClient({
    chain: h.fixture.chain,
    transport: custom({ request: rpc(h.fixture.rpcUrl, ['eth_simulateV1']) }),
    pollingInterval: 50,
  }) as PublicClient
}

async function run(swap: Swap, options: { wallet?: TestWallet; publicClient?: PublicClient } = {}) {
  const wallet = options.wallet ?? h.wallet()
  const error = await executeSwap(h.swapClient(), {
    walletClient: wallet.walletClient,
    publicClient: options.publicClient ?? h.fixture.publicClient,
    ...swap,
  }).then(
    (result) => ({ result, error: undefined }),
    (error: unknown) => ({ result: undefined, error }),
  )
  return { ...error, sent: wallet.sendRequests(), wallet }
}

/** Runs an attack and checks that nothing was signed and nothing moved. */
async function refused(swap: Swap, options: Parameters<typeof run>[1] = {}) {
  const before = await funds()
  const outcome = await run(swap, options)
  expect(outcome.error).toBeDefined()
  expect(outcome.sent).toHaveLength(0)
  expect(await funds()).toEqual(before)
  return outcome.error
}

const violationsOf = (error: unknown) => (error as UnsafeSwapOutcomeError).violations

const TKA = () => h.address('TKA')
const USDC = () => h.address('USDC')

describe('1. without an allowlist', () => {
  test('executeSwap refuses to start: trustedAddresses is required, no request, nothing signed', async () => {
    serve(
      info({ data: '0x', transferAddress: attacker, approvalAddress: attacker, estimateAmount: 10n ** 9n }),
    )
    h.server.service.clearLog()
    const error = await refused({
      token0: TKA(),
      token1: USDC(),
      amountIn: parseEther('1'),
      minAmountOut: 1n,
    })
    expect(error).toBeInstanceOf(InvalidParameterError)
    expect(error).toMatchObject({ parameter: 'trustedAddresses' })
    expect(h.server.service.count('/swap/info')).toBe(0)
    h.server.service.clearFailures()
  })

  test.each([
    ['an ERC-20 input: approval and transfer to the attacker, data 0x', 'TKA', undefined],
    ['a native input: the value straight to the attacker', 'ETH', null],
  ] as const)(
    '%s: refused by the allowlist, and by the outcome check when the allowlist is waived',
    async (_, symbol, approval) => {
      const token0 = h.address(symbol)
      const amountIn = parseEther('1')
      const floor = (honestQuote(token0, USDC(), amountIn).amountOut * 99n) / 100n
      const body = info({
        data: '0x',
        transferAddress: attacker,
        approvalAddress: approval === null ? null : attacker,
        transferValue: symbol === 'ETH' ? amountIn : 0n,
        estimateAmount: honestQuote(token0, USDC(), amountIn).amountOut,
      })
      const swap = { token0, token1: USDC(), amountIn, minAmountOut: floor }

      serve(body)
      const listed = await refused({ ...swap, trustedAddresses: trusted() })
      expect(listed).toBeInstanceOf(UntrustedAddressError)
      expect(listed).toMatchObject({ address: attacker, chainId: h.fixture.chain.id })

      serve(body)
      const waived = await refused({ ...swap, dangerouslyTrustAnyAddress: true })
      expect(waived).toBeInstanceOf(UnsafeSwapOutcomeError)
      expect(violationsOf(waived)).toContainEqual({
        type: 'underpaid',
        token: USDC(),
        amount: 0n,
        limit: floor,
      })
    },
  )
})

describe('2. a transfer or an approval wrapped in other calldata', () => {
  const user = () => h.fixture.accounts.user.address
  const variants: [string, () => { transferAddress: Address; data: Hex }, (error: unknown) => void][] = [
    [
      'multicall([transfer(attacker, all)]) on a token the user holds',
      () => ({
        transferAddress: HTK,
        data: encodeFunctionData({
          abi: hostileTokenAbi,
          functionName: 'multicall',
          args: [
            [
              encodeFunctionData({
                abi: erc20Abi,
                functionName: 'transfer',
                args: [attacker, parseEther('500')],
              }),
            ],
          ],
        }),
      }),
      (error) =>
        expect(violationsOf(error)).toContainEqual({
          type: 'outflow',
          token: HTK,
          amount: parseEther('500'),
        }),
    ],
    [
      'safeTransferFrom(user, attacker, id) on an NFT the user holds',
      () => ({
        transferAddress: nft,
        data: encodeFunctionData({
          abi: testNftAbi,
          functionName: 'safeTransferFrom',
          args: [user(), attacker, nftId],
        }),
      }),
      (error) => expect(violationsOf(error)).toContainEqual({ type: 'outflow', token: nft, amount: nftId }),
    ],
    [
      'transferAndCall(attacker, all, 0x)',
      () => ({
        transferAddress: HTK,
        data: encodeFunctionData({
          abi: hostileTokenAbi,
          functionName: 'transferAndCall',
          args: [attacker, parseEther('500'), '0x'],
        }),
      }),
      (error) =>
        expect(violationsOf(error)).toContainEqual({
          type: 'outflow',
          token: HTK,
          amount: parseEther('500'),
        }),
    ],
    [
      'increaseApproval(attacker, max)',
      () => ({
        transferAddress: HTK,
        data: encodeFunctionData({
          abi: hostileTokenAbi,
          functionName: 'increaseApproval',
          args: [attacker, maxUint256],
        }),
      }),
      (error) =>
        expect(violationsOf(error)).toContainEqual({ type: 'approval', token: HTK, spender: attacker }),
    ],
    [
      "Permit2's approve(token, attacker, max, far) over the user's standing Permit2 approval",
      () => ({
        transferAddress: permit2,
        data: encodeFunctionData({
          abi: testPermit2Abi,
          functionName: 'approve',
          args: [h.address('TKB'), attacker, 2n ** 160n - 1n, 2 ** 48 - 1],
        }),
      }),
      (error) =>
        expect(violationsOf(error)).toContainEqual({
          type: 'approval',
          token: h.address('TKB'),
          spender: attacker,
        }),
    ],
    [
      'setApprovalForAll(attacker, true) on an NFT collection',
      () => ({
        transferAddress: nft,
        data: encodeFunctionData({
          abi: testNftAbi,
          functionName: 'setApprovalForAll',
          args: [attacker, true],
        }),
      }),
      (error) =>
        expect(violationsOf(error)).toContainEqual({ type: 'approval', token: nft, spender: attacker }),
    ],
    [
      "DAI's permit(holder, attacker, …) with a forged signature",
      () => ({
        transferAddress: HTK,
        data: encodeFunctionData({
          abi: hostileTokenAbi,
          functionName: 'permit',
          args: [user(), attacker, 0n, 0n, true, 27, `0x${'11'.repeat(32)}`, `0x${'22'.repeat(32)}`],
        }),
      }),
      (error) => {
        expect(error).toBeInstanceOf(SwapSimulationError)
        expect(error).toMatchObject({ stage: 'swap', reason: 'HostileToken: invalid permit' })
      },
    ],
  ]

  test.each(variants)(
    '%s: refused by the allowlist, by the guard, and by the outcome check of the calldata signed as it is',
    async (_, attack, check) => {
      const amountIn = parseEther('1')
      const estimate = honestQuote(TKA(), USDC(), amountIn).amountOut
      const swap = { token0: TKA(), token1: USDC(), amountIn, minAmountOut: (estimate * 99n) / 100n }
      const body = info({ ...attack(), approvalAddress: null, estimateAmount: estimate })

      serve(body)
      expect(await refused({ ...swap, trustedAddresses: trusted() })).toBeInstanceOf(UntrustedAddressError)

      // Through the guard, the calldata runs as the guard's executor, which holds none of the
      // user's assets or approvals: it moves nothing of theirs, and pays nothing to the recipient.
      serve(body)
      const guarded = await refused({ ...swap, dangerouslyTrustAnyAddress: true })
      expect(guarded).toMatchObject({
        name: expect.stringMatching(/^(UnsafeSwapOutcome|SwapSimulation)Error$/),
      })

      // Signed as it is (the opt-out), the outcome check sees what it would take.
      serve(body)
      const waived = await refused({
        ...swap,
        dangerouslyTrustAnyAddress: true,
        floorEnforcement: 'simulation',
      })
      if (!(waived instanceof SwapSimulationError)) expect(waived).toBeInstanceOf(UnsafeSwapOutcomeError)
      check(waived)
    },
  )

  test('a trusted router: an honest swap bundled with a swap of another token to the attacker (multicall)', async () => {
    const amountIn = parseEther('1')
    const honest = honestQuote(TKA(), USDC(), amountIn)
    const floor = (honest.amountOut * 99n) / 100n
    // An earlier session left an infinite TKB allowance to the spender; the bundle spends it for the attacker.
    await h.approve('TKA', amountIn, h.fixture.spender)
    await h.approve('TKB', maxUint256, h.fixture.spender)
    const user = h.fixture.accounts.user.address
    const data = encodeFunctionData({
      abi: testRouterAbi,
      functionName: 'multicall',
      args: [
        [
          await swapData(honest.path, amountIn, 0n, user),
          await swapData([h.address('TKB'), USDC()], parseEther('100'), 0n, attacker),
        ],
      ],
    })
    const swap = { token0: TKA(), token1: USDC(), amountIn, minAmountOut: floor, trustedAddresses: trusted() }
    serve(info({ data, transferAddress: h.fixture.router, estimateAmount: honest.amountOut }))
    const error = await refused({ ...swap, floorEnforcement: 'simulation' })
    expect(error).toBeInstanceOf(UnsafeSwapOutcomeError)
    // token0 and token1 are within bounds: only the other asset gives it away.
    expect(violationsOf(error)).toEqual([
      { type: 'outflow', token: h.address('TKB'), amount: parseEther('100') },
    ])
    // Through the guard the router's caller is the guard's executor: the spender pulls from it, not
    // from the user, so the bundle cannot reach the user's TKB at all (its simulation reverts).
    serve(info({ data, transferAddress: h.fixture.router, estimateAmount: honest.amountOut }))
    expect(await refused(swap)).toBeInstanceOf(SwapSimulationError)
  })
})

describe('3. with the allowlist, calldata that is not the quote', () => {
  for (const [label, publicClient, optIn] of [
    ['eth_simulateV1', () => h.fixture.publicClient as PublicClient, {}],
    [
      'the eth_call fallback (opted in)',
      publicClientWithoutSimulateV1,
      { dangerouslyAllowBalancesOnlySimulation: true },
    ],
  ] as const) {
    describe(`measured with ${label}`, () => {
      test('swap(path, amountIn, 0, to = attacker) with an honest estimate and a 99% floor', async () => {
        const amountIn = parseEther('2')
        const honest = honestQuote(TKA(), USDC(), amountIn)
        const floor = (honest.amountOut * 99n) / 100n
        serve(
          info({
            data: await swapData(honest.path, amountIn, 0n, attacker),
            transferAddress: h.fixture.router,
            estimateAmount: honest.amountOut,
          }),
        )
        const error = await refused(
          {
            token0: TKA(),
            token1: USDC(),
            amountIn,
            minAmountOut: floor,
            trustedAddresses: trusted(),
            ...optIn,
          },
          { publicClient: publicClient() },
        )
        expect(error).toBeInstanceOf(UnsafeSwapOutcomeError)
        expect(violationsOf(error)).toEqual([{ type: 'underpaid', token: USDC(), amount: 0n, limit: floor }])
        expect((error as UnsafeSwapOutcomeError).outcome.method).toBe(
          label === 'eth_simulateV1' ? 'eth_simulateV1' : 'eth_call',
        )
      })

      test('after an infinite approval: calldata spending 1000× the asked amountIn', async () => {
        // An earlier session's infinite approval to the spender.
        await h.approve('TKA', maxUint256, h.fixture.spender)
        const amountIn = parseEther('1')
        const honest = honestQuote(TKA(), USDC(), amountIn)
        const user = h.fixture.accounts.user.address
        const body = info({
          data: await swapData(honest.path, amountIn * 1000n, 0n, user),
          transferAddress: h.fixture.router,
          estimateAmount: honest.amountOut,
        })
        const swap = {
          token0: TKA(),
          token1: USDC(),
          amountIn,
          minAmountOut: (honest.amountOut * 99n) / 100n,
          trustedAddresses: trusted(),
          ...optIn,
        }
        // Through the guard, the router pulls from the guard's executor, never from the user.
        serve(body)
        expect(await refused(swap, { publicClient: publicClient() })).toBeInstanceOf(SwapSimulationError)
        serve(body)
        const error = await refused(
          { ...swap, floorEnforcement: 'simulation' },
          { publicClient: publicClient() },
        )
        // Signed as it is, only eth_simulateV1 can measure it: without it nothing would, and nothing is signed.
        if (label !== 'eth_simulateV1') return expect(error).toBeInstanceOf(SimulationUnavailableError)
        expect(error).toBeInstanceOf(UnsafeSwapOutcomeError)
        expect(violationsOf(error)).toContainEqual({
          type: 'overspent',
          token: TKA(),
          amount: amountIn * 1000n,
          limit: amountIn,
        } satisfies SwapOutcomeViolation)
      })

      test('an honest swap passes, and reports what the simulation predicted and what the chain did', async () => {
        const amountIn = parseEther('3')
        const honest = honestQuote(TKA(), USDC(), amountIn)
        const before = await funds()
        const { result, error, sent } = await run(
          {
            token0: TKA(),
            token1: USDC(),
            amountIn,
            acceptedQuote: honest,
            slippage: 0.01,
            trustedAddresses: trusted(),
            ...optIn,
          },
          { publicClient: publicClient() },
        )
        expect(error).toBeUndefined()
        expect(sent).toHaveLength(2)
        expect(result?.simulated).toMatchObject({ amountIn, amountOut: honest.amountOut })
        expect(result?.realized).toEqual({ amountIn, amountOut: honest.amountOut, method: 'receipt' })
        const after = await funds()
        expect(after.balances.TKA).toBe(before.balances.TKA - amountIn)
        expect(after.balances.USDC).toBe(before.balances.USDC + honest.amountOut)
        expect(after.allowances.TKAspender).toBe(0n)
        expect(after.allowances.TKAguard).toBe(0n)
        expect(after.nonce).toBe(before.nonce + 2)
      })
    })
  }

  test('native in and native out: honest swaps pass, realized amounts exact to the wei', async () => {
    const amountIn = parseEther('1.25')
    const toUsdc = honestQuote(h.address('ETH'), USDC(), amountIn)
    const first = await run({
      token0: h.address('ETH'),
      token1: USDC(),
      amountIn,
      acceptedQuote: toUsdc,
      trustedAddresses: trusted(),
    })
    expect(first.error).toBeUndefined()
    expect(first.result?.realized).toEqual({ amountIn, amountOut: toUsdc.amountOut, method: 'receipt' })

    const usdcIn = 1_000_000_000n // 1000 USDC
    const toEth = honestQuote(USDC(), h.address('ETH'), usdcIn)
    const second = await run({
      token0: USDC(),
      token1: h.address('ETH'),
      amountIn: usdcIn,
      acceptedQuote: toEth,
      trustedAddresses: trusted(),
    })
    expect(second.error).toBeUndefined()
    expect(second.result?.realized).toEqual({
      amountIn: usdcIn,
      amountOut: toEth.amountOut,
      method: 'receipt',
    })
  })
})

describe('4. a wallet that moves to another chain during the flow', () => {
  /** A swap whose wallet moves to the other node (and chain) right before the swap is sent. */
  async function swapWhileMoving(token0: Address, amountIn: bigint) {
    const wallet = h.wallet()
    const before = await funds()
    const outcome = await run(
      {
        token0,
        token1: USDC(),
        amountIn,
        acceptedQuote: honestQuote(token0, USDC(), amountIn),
        trustedAddresses: trusted(),
        onStep: (step) => {
          if (step.action === 'sending-swap')
            wallet.moveTo({ rpcUrl: otherChain.rpcUrl, chainId: otherChain.chainId })
        },
      },
      { wallet },
    )
    expect(outcome.error).toBeInstanceOf(ChainMismatchError)
    expect(outcome.error).toMatchObject({
      expectedChainId: h.fixture.chain.id,
      actualChainId: otherChain.chainId,
    })
    return { ...outcome, before, after: await funds() }
  }

  test('after the checks, before the swap (native in): refused, nothing sent on either chain', async () => {
    const { sent, before, after } = await swapWhileMoving(h.address('ETH'), parseEther('5'))
    expect(sent).toHaveLength(0)
    expect(after).toEqual(before)
  })

  test('between the approval and the swap: the swap is refused, the allowance left is reported', async () => {
    const amountIn = parseEther('1')
    const { sent, error, before, after } = await swapWhileMoving(TKA(), amountIn)
    expect(sent).toHaveLength(1) // the approval, on the right chain
    expect((error as ChainMismatchError).leftoverAllowance).toMatchObject({
      spender: swapGuardAddress,
      amount: amountIn,
    })
    expect(after.otherChain).toEqual(before.otherChain)
    expect({ ...after.balances, ETH: 0n }).toEqual({ ...before.balances, ETH: 0n }) // only the approval's gas was paid
    expect(after.allowances.TKAguard).toBe(amountIn)
    expect(after.nonce).toBe(before.nonce + 1)
  })

  test('a local account (the key in the app) whose node moves to another chain: refused, with the chain it is on', async () => {
    // A wallet client signing with the user's key, over a node the app can move to another chain.
    let url = h.fixture.rpcUrl
    const forward = jsonRpc(() => url)
    const walletClient = createWalletClient({
      account: privateKeyToAccount(anvilPrivateKeys[1]),
      transport: custom({ request: ({ method, params }) => forward(method, params) }),
    })
    const before = await funds()
    const amountIn = parseEther('5')
    const error = await executeSwap(h.swapClient(), {
      walletClient,
      publicClient: h.fixture.publicClient,
      token0: h.address('ETH'),
      token1: USDC(),
      amountIn,
      acceptedQuote: honestQuote(h.address('ETH'), USDC(), amountIn),
      trustedAddresses: trusted(),
      onStep: (step) => {
        if (step.action === 'sending-swap') url = otherChain.rpcUrl
      },
    }).catch((e: unknown) => e)
    expect(error).toBeInstanceOf(ChainMismatchError)
    expect(error).toMatchObject({
      expectedChainId: h.fixture.chain.id,
      actualChainId: otherChain.chainId,
      client: 'wallet',
    })
    expect(await funds()).toEqual(before) // nothing sent, on either chain
  })

  test('a wallet that moves as it sends and ignores the chain id: reported with the hash it sent elsewhere, not waited for', async () => {
    const wallet = h.wallet()
    const other = { rpcUrl: otherChain.rpcUrl, chainId: otherChain.chainId }
    let moved = false
    // Between the library's re-check and eth_sendTransaction, the wallet moves, and sends without the chain id.
    const provider = {
      request: async (args: { method: string; params?: unknown }) => {
        if (args.method !== 'eth_sendTransaction' || moved) return wallet.provider.request(args as never)
        moved = true
        wallet.moveTo(other)
        const [{ chainId: _, ...transaction }] = args.params as [{ chainId?: Hex }]
        return wallet.provider.request({ method: 'eth_sendTransaction', params: [transaction] } as never)
      },
    }
    const walletClient = createWalletClient({
      account: h.fixture.accounts.user.address,
      transport: custom(provider),
      pollingInterval: 50,
    })
    const before = await funds()
    const amountIn = parseEther('5')
    const error = await executeSwap(h.swapClient(), {
      walletClient,
      publicClient: h.fixture.publicClient,
      token0: h.address('ETH'),
      token1: USDC(),
      amountIn,
      acceptedQuote: honestQuote(h.address('ETH'), USDC(), amountIn),
      trustedAddresses: trusted(),
      // Waiting for it on the swap's chain would outlast the test.
      receiptTimeoutMs: 120_000,
    }).catch((e: unknown) => e)
    expect(error).toBeInstanceOf(ChainMismatchError)
    const { hash } = error as ChainMismatchError
    expect(error).toMatchObject({ expectedChainId: h.fixture.chain.id, actualChainId: otherChain.chainId })
    // The hash is the transaction that went to the other chain; nothing moved on the swap's chain.
    const elsewhere = createPublicClient({ transport: custom({ request: rpc(otherChain.rpcUrl) }) })
    expect((await elsewhere.getTransaction({ hash: hash as Hex })).from).toBe(
      h.fixture.accounts.user.address.toLowerCase(),
    )
    const after = await funds()
    expect(after.balances).toEqual(before.balances)
    expect(after.nonce).toBe(before.nonce)
  })

  test('every transaction carries the chain id, so a wallet that checks it refuses a moved chain too', async () => {
    const amountIn = parseEther('1')
    const { sent, error } = await run({
      token0: TKA(),
      token1: USDC(),
      amountIn,
      acceptedQuote: honestQuote(TKA(), USDC(), amountIn),
      trustedAddresses: trusted(),
    })
    expect(error).toBeUndefined()
    for (const request of sent)
      expect((request.params as [{ chainId?: Hex }])[0].chainId).toBe(`0x${h.fixture.chain.id.toString(16)}`)
  })
})

describe('5. leftover allowances', () => {
  test('revokeOnFailure: a swap rejected after the approval was mined leaves no allowance', async () => {
    const amountIn = parseEther('1')
    const wallet = h.wallet({ reject: (method, count) => method === 'eth_sendTransaction' && count === 1 })
    const before = await funds()
    const { error, sent } = await run(
      {
        token0: TKA(),
        token1: USDC(),
        amountIn,
        acceptedQuote: honestQuote(TKA(), USDC(), amountIn),
        trustedAddresses: trusted(),
        revokeOnFailure: true,
      },
      { wallet },
    )
    expect(error).toMatchObject({ name: 'UserRejectedError', stage: 'swap' })
    expect((error as UserRejected).leftoverAllowance).toMatchObject({
      amount: 0n,
      revokeHash: expect.stringMatching(/^0x/),
    })
    expect(sent).toHaveLength(3) // approve, the rejected swap, approve(guard, 0)
    const after = await funds()
    expect(after.allowances.TKAguard).toBe(0n)
    expect(after.balances.TKA).toBe(before.balances.TKA)
    expect(after.nonce).toBe(before.nonce + 2)
  })
})

type UserRejected = { leftoverAllowance: unknown }

describe('6. the node, never a quote, says which simulation runs', () => {
  /** The bundle of section 2: an honest swap plus a swap of the user's TKB (left approved) to the attacker. */
  async function bundleSpendingTkb(amountIn: bigint) {
    const honest = honestQuote(TKA(), USDC(), amountIn)
    await h.approve('TKB', maxUint256)
    const data = encodeFunctionData({
      abi: testRouterAbi,
      functionName: 'multicall',
      args: [
        [
          await swapData(honest.path, amountIn, 0n, h.fixture.accounts.user.address),
          await swapData([h.address('TKB'), USDC()], parseEther('100'), 0n, attacker),
        ],
      ],
    })
    return {
      honest,
      body: info({ data, transferAddress: h.fixture.router, estimateAmount: honest.amountOut }),
    }
  }

  test('a node without eth_simulateV1 is refused, nothing signed: its fallback cannot see the other token leave', async () => {
    const amountIn = parseEther('1')
    const { honest, body } = await bundleSpendingTkb(amountIn)
    const swap = {
      token0: TKA(),
      token1: USDC(),
      amountIn,
      minAmountOut: (honest.amountOut * 99n) / 100n,
      trustedAddresses: trusted(),
    }
    serve(body)
    const error = await refused(swap, { publicClient: publicClientWithoutSimulateV1() })
    expect(error).toBeInstanceOf(SimulationUnavailableError)
  })

  test('a call reverting with "eth_simulateV1: method not supported" is a revert, and the client keeps eth_simulateV1', async () => {
    const { Poison } = await compileSolidity({
      sources: {
        'Poison.sol': `// SPDX-License-Identifier: MIT
pragma solidity ^0.8.20;
contract Poison {
    fallback() external payable { revert("eth_simulateV1: method not supported"); }
}`,
      },
    })
    const { deployerClient, publicClient: fixtureClient } = h.fixture
    if (!Poison) throw new Error('Poison did not compile')
    const hash = await deployerClient.deployContract({ abi: Poison.abi, bytecode: Poison.bytecode })
    const poison = getAddress(
      (await fixtureClient.waitForTransactionReceipt({ hash })).contractAddress as Address,
    )
    // One public client of its own for both swaps (what a client learned is kept per client).
    const publicClient = createPublicClient({
      chain: h.fixture.chain,
      pollingInterval: 50,
      transport: custom({ request: rpc(h.fixture.rpcUrl) }),
    }) as PublicClient
    const amountIn = parseEther('1')
    const honest = honestQuote(TKA(), USDC(), amountIn)
    const trustedToo = { [h.fixture.chain.id]: [h.fixture.router, h.fixture.spender, poison] }
    serve(info({ data: '0x12345678', transferAddress: poison, estimateAmount: honest.amountOut }))
    const error = await refused(
      {
        token0: TKA(),
        token1: USDC(),
        amountIn,
        minAmountOut: (honest.amountOut * 99n) / 100n,
        trustedAddresses: trustedToo,
      },
      { publicClient },
    )
    expect(error).toBeInstanceOf(SwapSimulationError)
    expect((error as SwapSimulationError).reason).toBe('eth_simulateV1: method not supported')

    // The next quote on the same client is measured in full, with every log.
    const { result, error: next } = await run(
      { token0: TKA(), token1: USDC(), amountIn, acceptedQuote: honest, trustedAddresses: trustedToo },
      { publicClient },
    )
    expect(next).toBeUndefined()
    expect(result?.simulated.method).toBe('eth_simulateV1')
  })
})
