import {
  type Address,
  type Chain,
  createPublicClient,
  createTestClient,
  createWalletClient,
  defineChain,
  erc20Abi,
  getAddress,
  type Hash,
  type Hex,
  http,
  maxUint256,
  type PrivateKeyAccount,
  parseEther,
  parseUnits,
  type TransactionReceipt,
  zeroAddress,
} from 'viem'
import { privateKeyToAccount } from 'viem/accounts'
import { afterAll, afterEach, beforeAll, beforeEach } from 'vitest'
import { isNativeToken, nativeTokenAddress } from '../../../src/core/constants.js'
import { testErc20Abi } from '../abis.js'
import { type StartAnvilParameters, type StartAnvilReturnType, startAnvil } from '../anvil.js'
import { compileContracts } from '../compile.js'
import { anvilPrivateKeys } from '../fixture.js'
import { jsonRpc } from '../rpc.js'
import {
  nonfungiblePositionManagerAbi,
  uniswapV2FactoryAbi,
  uniswapV2Router02Abi,
  uniswapV3FactoryAbi,
  weth9Abi,
} from './abis.js'
import {
  type PublishedContractName,
  publishedArtifact,
  v2PairInitCodeHash,
  v3PoolInitCodeHash,
} from './artifacts.js'
import { deployPermit2, permit2Address } from './permit2.js'

/*
 * Uniswap as users meet it, on anvil: WETH9, the V2 factory and Router02, the
 * V3 factory with its pools, NonfungiblePositionManager, SwapRouter02,
 * QuoterV2 and the Universal Router, each deployed from the creation bytecode
 * its npm package publishes (never recompiled), and Permit2 at its canonical
 * address. Tokens are the rig's TestERC20 and UsdtLikeToken; pools are made
 * by the published factories and funded through the published routers and
 * position manager, as a liquidity provider would.
 */

/** The ERC-20 tokens the rig deploys (WETH9 aside). `SCAM` has a pool the reference service blacklists; `LONE` has none. */
export type ProductionTokenSymbol = 'TKA' | 'TKB' | 'USDC' | 'USDT' | 'SCAM' | 'LONE'
/** A side of a pool: a token, or WETH9. */
export type PoolSideSymbol = ProductionTokenSymbol | 'WETH'
/** Every token of the deployment, `ETH` being the library's native sentinel. */
export type UniswapTokenSymbol = PoolSideSymbol | 'ETH'

export type UniswapToken = {
  address: Address
  symbol: UniswapTokenSymbol
  name: string
  decimals: number
  /** `usdt-like`: approve refuses to change a non-zero allowance (UsdtLikeToken). */
  kind: 'native' | 'weth' | 'erc20' | 'usdt-like'
}

/** The V3 fee tiers the published factory enables, in hundredths of a basis point (3000 = 0.3%). */
export type V3Fee = 500 | 3000 | 10000

/** A tier's tick spacing, as UniswapV3Factory's constructor sets it. */
export const v3TickSpacing: Record<V3Fee, number> = { 500: 10, 3000: 60, 10000: 200 }

/** A V2 pair to create and fund, amounts in each token's smallest unit. */
export type V2PairConfig = {
  tokens: readonly [PoolSideSymbol, PoolSideSymbol]
  amounts: readonly [bigint, bigint]
}

/**
 * A V3 pool to create, initialise at the price `amounts[1] / amounts[0]` and
 * fund with one full-range position holding those amounts.
 */
export type V3PoolConfig = V2PairConfig & { fee: V3Fee }

/** A pool as deployed: its contract, its tokens in the pool's own order (lower address first). */
export type UniswapPool = {
  protocol: 'v2' | 'v3'
  address: Address
  token0: Address
  token1: Address
  symbols: readonly [PoolSideSymbol, PoolSideSymbol]
  /** Hundredths of a basis point: 3000 for every V2 pair, the tier for a V3 pool. */
  fee: number
}

const e18 = (amount: string) => parseEther(amount)
const e6 = (amount: string) => parseUnits(amount, 6)

const tokenConfigs: Record<
  ProductionTokenSymbol,
  { name: string; decimals: number; contract: 'TestERC20' | 'UsdtLikeToken' }
> = {
  TKA: { name: 'Token A', decimals: 18, contract: 'TestERC20' },
  TKB: { name: 'Token B', decimals: 18, contract: 'TestERC20' },
  USDC: { name: 'USD Coin', decimals: 6, contract: 'TestERC20' },
  USDT: { name: 'Tether USD', decimals: 6, contract: 'UsdtLikeToken' },
  SCAM: { name: 'Scam Token', decimals: 18, contract: 'TestERC20' },
  LONE: { name: 'Lonely Token', decimals: 18, contract: 'TestERC20' },
}

export const productionTokenSymbols = Object.keys(tokenConfigs) as ProductionTokenSymbol[]

/*
 * Prices the pools agree on: ETH 3000 USD, TKA 1.5, TKB 0.75, USDC and USDT 1.
 * The graph gives every route the tests need one protocol at a time:
 *   V2 only: TKA/TKB, WETH/USDT (so TKA → TKB and USDT → ETH are V2 swaps, TKA → WETH → USDT two V2 hops);
 *   V3 only: TKB/USDC (0.3%), USDC/USDT (0.05%) (TKB → USDC → USDT, two V3 hops);
 *   both: WETH/USDC (V2, V3 0.05% and 0.3%) and WETH/TKA (V2, V3 0.3%), where the best one wins.
 */
export const defaultV2Pairs: readonly V2PairConfig[] = [
  { tokens: ['WETH', 'USDC'], amounts: [e18('500'), e6('1500000')] },
  { tokens: ['WETH', 'TKA'], amounts: [e18('500'), e18('1000000')] },
  { tokens: ['TKA', 'TKB'], amounts: [e18('1000000'), e18('2000000')] },
  { tokens: ['WETH', 'USDT'], amounts: [e18('500'), e6('1500000')] },
  { tokens: ['WETH', 'SCAM'], amounts: [e18('50'), e18('1000000')] },
]

export const defaultV3Pools: readonly V3PoolConfig[] = [
  { tokens: ['WETH', 'USDC'], amounts: [e18('300'), e6('900000')], fee: 500 },
  { tokens: ['WETH', 'USDC'], amounts: [e18('300'), e6('900000')], fee: 3000 },
  { tokens: ['WETH', 'TKA'], amounts: [e18('200'), e18('400000')], fee: 3000 },
  { tokens: ['TKB', 'USDC'], amounts: [e18('1000000'), e6('750000')], fee: 3000 },
  { tokens: ['USDC', 'USDT'], amounts: [e6('1000000'), e6('1000000')], fee: 500 },
]

/** What the user (anvil's second account) holds of each token after the deployment, besides 10,000 ETH. */
export const defaultUniswapUserBalances: Record<ProductionTokenSymbol, bigint> = {
  TKA: e18('10000'),
  TKB: e18('10000'),
  USDC: e6('100000'),
  USDT: e6('100000'),
  SCAM: 0n,
  LONE: e18('1000'),
}

/** The published contracts of the deployment (and Permit2, compiled from its published source). */
export type UniswapContracts = {
  weth: Address
  v2Factory: Address
  v2Router: Address
  v3Factory: Address
  positionManager: Address
  swapRouter02: Address
  quoterV2: Address
  universalRouter: Address
  permit2: Address
}

export type DeployUniswapParameters = {
  rpcUrl: string
  chainId: number
  /** @default defaultV2Pairs */
  v2Pairs?: readonly V2PairConfig[] | undefined
  /** @default defaultV3Pools */
  v3Pools?: readonly V3PoolConfig[] | undefined
  /** Merged over `defaultUniswapUserBalances`. */
  userBalances?: Partial<Record<ProductionTokenSymbol, bigint>> | undefined
}

export type UniswapDeployment = {
  chain: Chain
  rpcUrl: string
  /** anvil's first three accounts: who deployed and funded the pools, who swaps, who receives. */
  accounts: { deployer: PrivateKeyAccount; user: PrivateKeyAccount; recipient: PrivateKeyAccount }
  publicClient: ReturnType<typeof createClients>['publicClient']
  testClient: ReturnType<typeof createClients>['testClient']
  deployerClient: ReturnType<typeof createClients>['deployerClient']
  userClient: ReturnType<typeof createClients>['userClient']
  contracts: UniswapContracts
  /** The creation transaction of each published contract, to prove its bytes are the package's. */
  creations: Record<Exclude<keyof UniswapContracts, 'permit2'>, { name: PublishedContractName; hash: Hash }>
  /** keccak256 of the published pair and pool creation code (what the routers embed). */
  initCodeHashes: { v2Pair: Hex; v3Pool: Hex }
  tokens: Record<UniswapTokenSymbol, UniswapToken>
  pools: UniswapPool[]
  /** A token's address by symbol (`ETH` is the native sentinel). */
  address(symbol: UniswapTokenSymbol): Address
  /** Balance of a token (by symbol or address; `ETH` or the sentinel reads the native balance). */
  balanceOf(token: UniswapTokenSymbol | Address, owner: Address): Promise<bigint>
  /** Mints a rig token (anyone can) to `to`. */
  mint(symbol: ProductionTokenSymbol, to: Address, amount: bigint): Promise<void>
  /** `evm_snapshot`: the id to give to `revert`. */
  snapshot(): Promise<Hex>
  /** `evm_revert` to a snapshot (anvil drops it: take a new one to revert again). */
  revert(id: Hex): Promise<void>
}

function createClients(chain: Chain, rpcUrl: string) {
  const transport = http(rpcUrl)
  const [deployer, user, recipient] = anvilPrivateKeys.map((key) => privateKeyToAccount(key)) as [
    PrivateKeyAccount,
    PrivateKeyAccount,
    PrivateKeyAccount,
  ]
  const pollingInterval = 50
  return {
    accounts: { deployer, user, recipient },
    publicClient: createPublicClient({ chain, transport, pollingInterval }),
    testClient: createTestClient({ chain, transport, mode: 'anvil', pollingInterval }),
    deployerClient: createWalletClient({ chain, transport, account: deployer, pollingInterval }),
    userClient: createWalletClient({ chain, transport, account: user, pollingInterval }),
  }
}

/** ⌊√value⌋ for a bigint (Newton's method). */
function sqrt(value: bigint): bigint {
  if (value < 2n) return value
  let x = value
  let y = (x + 1n) / 2n
  while (y < x) {
    x = y
    y = (x + value / x) / 2n
  }
  return x
}

/**
 * The pool price `amount1 / amount0` as Uniswap V3 stores it: √price · 2^96,
 * where amount0 is of the token with the lower address.
 *
 * @example
 * encodeSqrtPriceX96(10n ** 18n, 3000n * 10n ** 6n) // ETH at 3000 USDC, WETH being token0
 */
export function encodeSqrtPriceX96(amount0: bigint, amount1: bigint): bigint {
  return sqrt((amount1 << 192n) / amount0)
}

/** The widest range a tier's tick spacing allows (MIN_TICK and MAX_TICK rounded inwards). */
export function fullRangeTicks(fee: V3Fee): { tickLower: number; tickUpper: number } {
  const spacing = v3TickSpacing[fee]
  const maxTick = 887272
  return {
    tickLower: -Math.floor(maxTick / spacing) * spacing,
    tickUpper: Math.floor(maxTick / spacing) * spacing,
  }
}

/**
 * Why a mined transaction reverted, for an error message: its gas limit and use, and the
 * innermost failing call of its trace (anvil's call tracer).
 */
async function whyReverted(rpcUrl: string, receipt: TransactionReceipt): Promise<string> {
  try {
    const request = jsonRpc(rpcUrl)
    const [transaction, trace] = (await Promise.all([
      request('eth_getTransactionByHash', [receipt.transactionHash]),
      request('debug_traceTransaction', [receipt.transactionHash, { tracer: 'callTracer' }]),
    ])) as [{ gas: Hex }, CallFrame]
    let deepest: CallFrame = trace
    const visit = (frame: CallFrame) => {
      if (frame.error) deepest = frame
      for (const call of frame.calls ?? []) visit(call)
    }
    visit(trace)
    return ` (gas limit ${BigInt(transaction.gas)}, used ${receipt.gasUsed}; ${deepest.to}: ${deepest.error} ${deepest.output ?? ''})`
  } catch {
    return ''
  }
}

type CallFrame = { to?: string; error?: string; output?: string; calls?: CallFrame[] }

/** Far enough in the future for every liquidity call of the deployment. */
const farDeadline = 2n ** 40n

/**
 * Deploys Uniswap V2 and V3 from their published npm artifacts on a running
 * node, with Permit2 at its canonical address, the rig's tokens, funded V2
 * pairs and V3 pools, and the user's balances. Deterministic: on a fresh
 * anvil, every contract lands at the same address each time (the same
 * deployer, the same nonces; Permit2 through the deterministic deployer).
 * From then on each block is exactly one second after the previous one
 * (`anvil_setBlockTimestampInterval`), so gas is the same in an estimate and
 * in its block, and from run to run.
 *
 * @example
 * const anvil = await startAnvil()
 * const uniswap = await deployUniswap({ rpcUrl: anvil.rpcUrl, chainId: anvil.chainId })
 * const { swapRouter02, quoterV2 } = uniswap.contracts
 */
export async function deployUniswap({
  rpcUrl,
  chainId,
  v2Pairs = defaultV2Pairs,
  v3Pools = defaultV3Pools,
  userBalances,
}: DeployUniswapParameters): Promise<UniswapDeployment> {
  const chain = defineChain({
    id: chainId,
    name: 'Anvil',
    nativeCurrency: { name: 'Ether', symbol: 'ETH', decimals: 18 },
    rpcUrls: { default: { http: [rpcUrl] } },
  })
  const clients = createClients(chain, rpcUrl)
  const { publicClient, testClient, deployerClient, accounts } = clients
  const deployer = accounts.deployer.address

  const mined = async (hash: Promise<Hash>, what: string): Promise<TransactionReceipt> => {
    const receipt = await publicClient.waitForTransactionReceipt({ hash: await hash })
    if (receipt.status !== 'success')
      throw new Error(`Uniswap deployment: ${what} reverted${await whyReverted(rpcUrl, receipt)}`)
    return receipt
  }
  const creations = {} as UniswapDeployment['creations']
  const deployPublished = async (
    key: keyof UniswapDeployment['creations'],
    name: PublishedContractName,
    args: readonly unknown[],
  ): Promise<Address> => {
    const { abi, bytecode } = publishedArtifact(name)
    const receipt = await mined(deployerClient.deployContract({ abi, bytecode, args }), `deploy ${name}`)
    if (!receipt.contractAddress) throw new Error(`No contract address for ${name}`)
    creations[key] = { name, hash: receipt.transactionHash }
    return getAddress(receipt.contractAddress)
  }

  // One second per block, whatever the wall clock: Uniswap's gas depends on block.timestamp (V2's
  // cumulative prices, V3's oracle observation are written once per new second), so with wall-clock
  // time a transaction estimated in one second and mined in the next now and then ran out of gas.
  // With fixed steps every estimate runs at its block's timestamp, and gas figures are reproducible.
  await testClient.setBlockTimestampInterval({ interval: 1 })
  // Permit2 first: its deployment is the deployer's first transaction, so every later address is fixed.
  await deployPermit2(jsonRpc(rpcUrl), deployer)
  const weth = await deployPublished('weth', 'WETH9', [])
  const v2Factory = await deployPublished('v2Factory', 'UniswapV2Factory', [deployer])
  const v2Router = await deployPublished('v2Router', 'UniswapV2Router02', [v2Factory, weth])
  const v3Factory = await deployPublished('v3Factory', 'UniswapV3Factory', [])
  const positionManager = await deployPublished('positionManager', 'NonfungiblePositionManager', [
    v3Factory,
    weth,
    zeroAddress, // the token descriptor: only tokenURI reads it
  ])
  const swapRouter02 = await deployPublished('swapRouter02', 'SwapRouter02', [
    v2Factory,
    v3Factory,
    positionManager,
    weth,
  ])
  const quoterV2 = await deployPublished('quoterV2', 'QuoterV2', [v3Factory, weth])
  const initCodeHashes = { v2Pair: v2PairInitCodeHash(), v3Pool: v3PoolInitCodeHash() }
  // RouterParameters: what V2 and V3 need, Permit2 at its canonical address, zero for V4 and Across.
  const universalRouter = await deployPublished('universalRouter', 'UniversalRouter', [
    {
      permit2: permit2Address,
      weth9: weth,
      v2Factory,
      v3Factory,
      pairInitCodeHash: initCodeHashes.v2Pair,
      poolInitCodeHash: initCodeHashes.v3Pool,
      v4PoolManager: zeroAddress,
      v3NFTPositionManager: zeroAddress,
      v4PositionManager: zeroAddress,
      spokePool: zeroAddress,
    },
  ])

  const compiled = await compileContracts()
  const tokens = {
    ETH: { address: nativeTokenAddress, symbol: 'ETH', name: 'Ether', decimals: 18, kind: 'native' },
    WETH: { address: weth, symbol: 'WETH', name: 'Wrapped Ether', decimals: 18, kind: 'weth' },
  } as Record<UniswapTokenSymbol, UniswapToken>
  for (const symbol of productionTokenSymbols) {
    const config = tokenConfigs[symbol]
    const receipt = await mined(
      deployerClient.deployContract({
        ...compiled[config.contract],
        args: [config.name, symbol, config.decimals],
      }),
      `deploy ${symbol}`,
    )
    tokens[symbol] = {
      address: getAddress(receipt.contractAddress as Address),
      symbol,
      name: config.name,
      decimals: config.decimals,
      kind: config.contract === 'UsdtLikeToken' ? 'usdt-like' : 'erc20',
    }
  }

  // What the pools need: each token minted once, WETH wrapped once for the V3 pools (V2 takes ETH).
  const needed = new Map<PoolSideSymbol, bigint>()
  const add = (symbol: PoolSideSymbol, amount: bigint) =>
    needed.set(symbol, (needed.get(symbol) ?? 0n) + amount)
  for (const { tokens: sides, amounts } of v2Pairs)
    for (const [i, symbol] of sides.entries()) if (symbol !== 'WETH') add(symbol, amounts[i] as bigint)
  for (const { tokens: sides, amounts } of v3Pools)
    for (const [i, symbol] of sides.entries()) add(symbol, amounts[i] as bigint)
  const mint = async (symbol: ProductionTokenSymbol, to: Address, amount: bigint) => {
    await mined(
      deployerClient.writeContract({
        address: tokens[symbol].address,
        abi: testErc20Abi,
        functionName: 'mint',
        args: [to, amount],
      }),
      `mint ${symbol}`,
    )
  }
  for (const [symbol, amount] of needed) {
    if (symbol === 'WETH')
      await mined(
        deployerClient.writeContract({
          address: weth,
          abi: weth9Abi,
          functionName: 'deposit',
          value: amount,
        }),
        'WETH9.deposit',
      )
    else await mint(symbol, deployer, amount)
    for (const spender of [v2Router, positionManager])
      await mined(
        deployerClient.writeContract({
          address: tokens[symbol].address,
          abi: erc20Abi,
          functionName: 'approve',
          args: [spender, maxUint256],
        }),
        `approve ${symbol}`,
      )
  }

  const pools: UniswapPool[] = []
  const sorted = (a: PoolSideSymbol, b: PoolSideSymbol, amountA: bigint, amountB: bigint) => {
    const [addressA, addressB] = [tokens[a].address, tokens[b].address]
    return addressA.toLowerCase() < addressB.toLowerCase()
      ? { token0: addressA, token1: addressB, symbols: [a, b] as const, amount0: amountA, amount1: amountB }
      : { token0: addressB, token1: addressA, symbols: [b, a] as const, amount0: amountB, amount1: amountA }
  }

  // V2: through Router02 as a liquidity provider adds it (the router creates the pair on the factory).
  for (const {
    tokens: [a, b],
    amounts: [amountA, amountB],
  } of v2Pairs) {
    const ethSide = a === 'WETH' ? 0 : b === 'WETH' ? 1 : -1
    if (ethSide === -1)
      await mined(
        deployerClient.writeContract({
          address: v2Router,
          abi: uniswapV2Router02Abi,
          functionName: 'addLiquidity',
          args: [
            tokens[a].address,
            tokens[b].address,
            amountA,
            amountB,
            amountA,
            amountB,
            deployer,
            farDeadline,
          ],
        }),
        `addLiquidity ${a}/${b}`,
      )
    else {
      const [token, amountToken, amountEth] = ethSide === 0 ? [b, amountB, amountA] : [a, amountA, amountB]
      await mined(
        deployerClient.writeContract({
          address: v2Router,
          abi: uniswapV2Router02Abi,
          functionName: 'addLiquidityETH',
          args: [tokens[token].address, amountToken, amountToken, amountEth, deployer, farDeadline],
          value: amountEth,
        }),
        `addLiquidityETH ${token}`,
      )
    }
    const pair = await publicClient.readContract({
      address: v2Factory,
      abi: uniswapV2FactoryAbi,
      functionName: 'getPair',
      args: [tokens[a].address, tokens[b].address],
    })
    const { token0, token1, symbols } = sorted(a, b, amountA, amountB)
    pools.push({ protocol: 'v2', address: getAddress(pair), token0, token1, symbols, fee: 3000 })
  }

  // V3: the factory creates the pool (through the position manager), one full-range position funds it.
  for (const {
    tokens: [a, b],
    amounts: [amountA, amountB],
    fee,
  } of v3Pools) {
    const { token0, token1, symbols, amount0, amount1 } = sorted(a, b, amountA, amountB)
    await mined(
      deployerClient.writeContract({
        address: positionManager,
        abi: nonfungiblePositionManagerAbi,
        functionName: 'createAndInitializePoolIfNecessary',
        args: [token0, token1, fee, encodeSqrtPriceX96(amount0, amount1)],
      }),
      `createAndInitializePoolIfNecessary ${a}/${b} ${fee}`,
    )
    await mined(
      deployerClient.writeContract({
        address: positionManager,
        abi: nonfungiblePositionManagerAbi,
        functionName: 'mint',
        args: [
          {
            token0,
            token1,
            fee,
            ...fullRangeTicks(fee),
            amount0Desired: amount0,
            amount1Desired: amount1,
            amount0Min: 0n,
            amount1Min: 0n,
            recipient: deployer,
            deadline: farDeadline,
          },
        ],
      }),
      `mint position ${a}/${b} ${fee}`,
    )
    const pool = await publicClient.readContract({
      address: v3Factory,
      abi: uniswapV3FactoryAbi,
      functionName: 'getPool',
      args: [token0, token1, fee],
    })
    pools.push({ protocol: 'v3', address: getAddress(pool), token0, token1, symbols, fee })
  }

  for (const symbol of productionTokenSymbols) {
    const amount = userBalances?.[symbol] ?? defaultUniswapUserBalances[symbol]
    if (amount > 0n) await mint(symbol, accounts.user.address, amount)
  }

  const address = (symbol: UniswapTokenSymbol) => tokens[symbol].address
  return {
    ...clients,
    chain,
    rpcUrl,
    contracts: {
      weth,
      v2Factory,
      v2Router,
      v3Factory,
      positionManager,
      swapRouter02,
      quoterV2,
      universalRouter,
      permit2: permit2Address,
    },
    creations,
    initCodeHashes,
    tokens,
    pools,
    address,
    balanceOf: (token, owner) => {
      const tokenAddress = token in tokens ? address(token as UniswapTokenSymbol) : (token as Address)
      if (isNativeToken(tokenAddress)) return publicClient.getBalance({ address: owner })
      return publicClient.readContract({
        address: tokenAddress,
        abi: erc20Abi,
        functionName: 'balanceOf',
        args: [owner],
      })
    },
    mint,
    snapshot: () => testClient.snapshot(),
    revert: async (id) => {
      await testClient.revert({ id })
    },
  }
}

export type SetupUniswapParameters = Omit<DeployUniswapParameters, 'rpcUrl' | 'chainId'> & {
  anvil?: StartAnvilParameters | undefined
  /** Runs once after the deployment, before the first snapshot (deploy the guard, start a service…). */
  afterDeploy?: ((uniswap: UniswapDeployment) => Promise<void>) | undefined
}

/**
 * For one test file: starts anvil and deploys Uniswap in `beforeAll` (once),
 * stops anvil in `afterAll`, and reverts every test's changes to the chain
 * (`evm_snapshot` before each test, `evm_revert` after it), so each test
 * starts from the freshly deployed state.
 *
 * @example
 * const evm = setupUniswap()
 * test('a V2 pair exists', async () => {
 *   const { pools } = evm.uniswap
 *   expect(pools.some((pool) => pool.protocol === 'v2')).toBe(true)
 * })
 */
export function setupUniswap(parameters: SetupUniswapParameters = {}): {
  readonly uniswap: UniswapDeployment
  readonly anvil: StartAnvilReturnType
} {
  const { anvil: anvilParameters, afterDeploy, ...deployParameters } = parameters
  let anvil: StartAnvilReturnType | undefined
  let uniswap: UniswapDeployment | undefined
  let snapshotId: Hex | undefined

  beforeAll(async () => {
    anvil = await startAnvil(anvilParameters)
    uniswap = await deployUniswap({ ...deployParameters, rpcUrl: anvil.rpcUrl, chainId: anvil.chainId })
    await afterDeploy?.(uniswap)
  }, 120_000)
  afterAll(async () => {
    await anvil?.stop()
  })
  beforeEach(async () => {
    snapshotId = await uniswap?.snapshot()
  })
  afterEach(async () => {
    if (uniswap && snapshotId) await uniswap.revert(snapshotId)
    snapshotId = undefined
  })

  return {
    get uniswap() {
      if (!uniswap) throw new Error('Uniswap is not deployed yet: use it inside a test or hook.')
      return uniswap
    },
    get anvil() {
      if (!anvil) throw new Error('anvil is not started yet: use it inside a test or hook.')
      return anvil
    },
  }
}
