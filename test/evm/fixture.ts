import {
  type Abi,
  type Address,
  type Chain,
  createPublicClient,
  createTestClient,
  createWalletClient,
  defineChain,
  encodePacked,
  getAddress,
  type Hash,
  type Hex,
  http,
  keccak256,
  type PrivateKeyAccount,
  parseEther,
  parseUnits,
  slice,
  zeroAddress,
} from 'viem'
import { privateKeyToAccount } from 'viem/accounts'
import { isNativeToken, nativeTokenAddress } from '../../src/core/constants.js'
import { deploySwapGuard } from '../../src/guard/deploySwapGuard.js'
import { testErc20Abi, testRouterAbi, testSpenderAbi } from './abis.js'
import { type CompileContractsReturnType, compileContracts } from './compile.js'

/** The ERC-20 tokens the fixture deploys. `BAD` is a TestERC20 whose `approve` always reverts. */
export type TokenSymbol = 'TKA' | 'TKB' | 'USDC' | 'USDT' | 'BAD'
/** A pool side: a deployed token or the chain's native coin (the sentinel address). */
export type PoolTokenSymbol = TokenSymbol | 'ETH'

export type FixtureToken = { address: Address; symbol: PoolTokenSymbol; decimals: number }

/** A pool as deployed, in the order it was configured (token0 = tokenA). */
export type FixturePool = {
  /**
   * An identifier for the pool, derived from the router and the two tokens; no contract lives
   * there (the router holds every pool), but mock markets key their pairs by address.
   */
  address: Address
  token0: Address
  token1: Address
  reserve0: bigint
  reserve1: bigint
  /** Basis points: 30 = 0.3%. */
  feeBps: number
}

export type PoolConfig = {
  tokenA: PoolTokenSymbol
  tokenB: PoolTokenSymbol
  reserveA: bigint
  reserveB: bigint
  feeBps: number
}

type TokenConfig = {
  name: string
  decimals: number
  contract: 'TestERC20' | 'UsdtLikeToken'
  approveReverts?: true
}

const tokenConfigs: Record<TokenSymbol, TokenConfig> = {
  TKA: { name: 'Token A', decimals: 18, contract: 'TestERC20' },
  TKB: { name: 'Token B', decimals: 18, contract: 'TestERC20' },
  USDC: { name: 'USD Coin', decimals: 6, contract: 'TestERC20' },
  USDT: { name: 'Tether USD', decimals: 6, contract: 'UsdtLikeToken' },
  BAD: { name: 'Approve Disabled', decimals: 18, contract: 'TestERC20', approveReverts: true },
}

export const tokenSymbols = Object.keys(tokenConfigs) as TokenSymbol[]

const e18 = (amount: string) => parseEther(amount)
const e6 = (amount: string) => parseUnits(amount, 6)

/**
 * The pools deployed when none are given. Routes they allow include ETH → USDC (1 hop, native in),
 * USDC → ETH (native out), TKA → TKB → USDC (2 hops) and ETH → TKA → TKB (2 hops, native in).
 */
export const defaultPools: readonly PoolConfig[] = [
  { tokenA: 'ETH', tokenB: 'USDC', reserveA: e18('1000'), reserveB: e6('3000000'), feeBps: 30 },
  { tokenA: 'ETH', tokenB: 'TKA', reserveA: e18('1000'), reserveB: e18('2000000'), feeBps: 30 },
  { tokenA: 'TKA', tokenB: 'TKB', reserveA: e18('1000000'), reserveB: e18('2000000'), feeBps: 30 },
  { tokenA: 'TKB', tokenB: 'USDC', reserveA: e18('2000000'), reserveB: e6('1000000'), feeBps: 5 },
  { tokenA: 'USDC', tokenB: 'USDT', reserveA: e6('5000000'), reserveB: e6('5000000'), feeBps: 1 },
  { tokenA: 'BAD', tokenB: 'TKA', reserveA: e18('1000000'), reserveB: e18('1000000'), feeBps: 30 },
]

/** What the fixture mints to the user. The user also has anvil's 10,000 ETH. */
export const defaultUserBalances: Record<TokenSymbol, bigint> = {
  TKA: e18('1000'),
  TKB: e18('1000'),
  USDC: e6('10000'),
  USDT: e6('10000'),
  BAD: e18('1000'),
}

/** anvil's first default accounts (mnemonic `test test … junk`), each funded with 10,000 ETH. */
export const anvilPrivateKeys = [
  '0xac0974bec39a17e36ba4a6b4d238ff944bacb478cbed5efcae784d7bf4f2ff80',
  '0x59c6995e998f97a5a0044966f0945389dc9e86dae88c7a8412f4603b6b78690d',
  '0x5de4111afa1a4b94908f83103eb1f1706367c2e68ca870fc3fb9a74cce6e3fa5',
] as const satisfies readonly Hex[]

export type DeploySwapFixtureParameters = {
  rpcUrl: string
  chainId: number
  /** @default defaultPools */
  pools?: readonly PoolConfig[] | undefined
  /** Merged over `defaultUserBalances`. */
  userBalances?: Partial<Record<TokenSymbol, bigint>> | undefined
  /** Already compiled contracts; compiled (or read from the cache) when omitted. */
  contracts?: CompileContractsReturnType | undefined
}

/** keccak256(router ‖ lower token ‖ higher token), last 20 bytes: stable per deployment and pair. */
export function poolAddress(router: Address, tokenA: Address, tokenB: Address): Address {
  const [low, high] = tokenA.toLowerCase() < tokenB.toLowerCase() ? [tokenA, tokenB] : [tokenB, tokenA]
  return getAddress(
    slice(keccak256(encodePacked(['address', 'address', 'address'], [router, low, high])), 12),
  )
}

function createClients(chain: Chain, rpcUrl: string) {
  const transport = http(rpcUrl)
  const deployer = privateKeyToAccount(anvilPrivateKeys[0])
  const user = privateKeyToAccount(anvilPrivateKeys[1])
  const recipient = privateKeyToAccount(anvilPrivateKeys[2])
  const pollingInterval = 50
  return {
    accounts: { deployer, user, recipient },
    publicClient: createPublicClient({ chain, transport, pollingInterval }),
    testClient: createTestClient({ chain, transport, mode: 'anvil', pollingInterval }),
    deployerClient: createWalletClient({ chain, transport, account: deployer, pollingInterval }),
    userClient: createWalletClient({ chain, transport, account: user, pollingInterval }),
  }
}

type Clients = ReturnType<typeof createClients>

export type SwapFixture = Clients & {
  chain: Chain
  rpcUrl: string
  accounts: { deployer: PrivateKeyAccount; user: PrivateKeyAccount; recipient: PrivateKeyAccount }
  /** Every token by symbol, `ETH` being the native sentinel. */
  tokens: Record<PoolTokenSymbol, FixtureToken>
  router: Address
  spender: Address
  revertingRouter: Address
  /** Everything a mock market needs: tokens (ETH first), pools with their initial reserves, the contracts. */
  market: {
    chainId: number
    tokens: FixtureToken[]
    pools: FixturePool[]
    router: Address
    spender: Address
    revertingRouter: Address
  }
  /** Balance of a fixture token (by symbol or address; `ETH` or the sentinel reads the native balance). */
  balanceOf(token: PoolTokenSymbol | Address, owner: Address): Promise<bigint>
  /** `evm_snapshot`: the id to give to `revert`. */
  snapshot(): Promise<Hex>
  /** `evm_revert` to a snapshot; anvil drops the snapshot, so take a new one to revert again. */
  revert(id: Hex): Promise<void>
}

/**
 * Deploys the tokens, the spender, the router (with its pools, funded with their reserves) and the
 * reverting router on a running node, and mints test balances to the user account.
 *
 * @example
 * const anvil = await startAnvil()
 * const fixture = await deploySwapFixture({ rpcUrl: anvil.rpcUrl, chainId: anvil.chainId })
 * const id = await fixture.snapshot()
 * // ... swap ...
 * await fixture.revert(id)
 */
export async function deploySwapFixture({
  rpcUrl,
  chainId,
  pools = defaultPools,
  userBalances,
  contracts,
}: DeploySwapFixtureParameters): Promise<SwapFixture> {
  const compiled = contracts ?? (await compileContracts())
  const chain = defineChain({
    id: chainId,
    name: 'Anvil',
    nativeCurrency: { name: 'Ether', symbol: 'ETH', decimals: 18 },
    rpcUrls: { default: { http: [rpcUrl] } },
  })
  const clients = createClients(chain, rpcUrl)
  const { publicClient, testClient, deployerClient, accounts } = clients

  const mined = async (hash: Promise<Hash>, what: string) => {
    const receipt = await publicClient.waitForTransactionReceipt({ hash: await hash })
    if (receipt.status !== 'success') throw new Error(`Fixture transaction reverted: ${what}`)
    return receipt
  }
  const deploy = async (contract: { abi: Abi; bytecode: Hex }, args: readonly unknown[], what: string) => {
    const receipt = await mined(deployerClient.deployContract({ ...contract, args }), `deploy ${what}`)
    if (!receipt.contractAddress) throw new Error(`No contract address for ${what}`)
    return getAddress(receipt.contractAddress)
  }

  const tokens = {
    ETH: { address: nativeTokenAddress, symbol: 'ETH', decimals: 18 },
  } as Record<PoolTokenSymbol, FixtureToken>
  for (const symbol of tokenSymbols) {
    const config = tokenConfigs[symbol]
    const args = [config.name, symbol, config.decimals]
    const address = await deploy(compiled[config.contract], args, symbol)
    if (config.approveReverts) {
      await mined(
        deployerClient.writeContract({
          address,
          abi: testErc20Abi,
          functionName: 'setApproveReverts',
          args: [true],
        }),
        `${symbol}.setApproveReverts(true)`,
      )
    }
    tokens[symbol] = { address, symbol, decimals: config.decimals }
  }

  const spender = await deploy(compiled.TestSpender, [zeroAddress], 'TestSpender')
  const router = await deploy(compiled.TestRouter, [spender], 'TestRouter')
  await mined(
    deployerClient.writeContract({
      address: spender,
      abi: testSpenderAbi,
      functionName: 'setRouter',
      args: [router],
    }),
    'TestSpender.setRouter',
  )
  const revertingRouter = await deploy(compiled.RevertingRouter, [], 'RevertingRouter')
  // The library's swap guard, at its one address, as on any chain where someone deployed it.
  await deploySwapGuard({ walletClient: deployerClient, publicClient })

  // The router must hold what its pools claim: mint each token's reserves to it, set its ETH balance.
  const routerFunds = new Map<PoolTokenSymbol, bigint>()
  const marketPools: FixturePool[] = []
  for (const pool of pools) {
    const token0 = tokens[pool.tokenA].address
    const token1 = tokens[pool.tokenB].address
    await mined(
      deployerClient.writeContract({
        address: router,
        abi: testRouterAbi,
        functionName: 'setPool',
        args: [token0, token1, pool.reserveA, pool.reserveB, BigInt(pool.feeBps)],
      }),
      `setPool(${pool.tokenA}, ${pool.tokenB})`,
    )
    routerFunds.set(pool.tokenA, (routerFunds.get(pool.tokenA) ?? 0n) + pool.reserveA)
    routerFunds.set(pool.tokenB, (routerFunds.get(pool.tokenB) ?? 0n) + pool.reserveB)
    marketPools.push({
      address: poolAddress(router, token0, token1),
      token0,
      token1,
      reserve0: pool.reserveA,
      reserve1: pool.reserveB,
      feeBps: pool.feeBps,
    })
  }
  for (const [symbol, amount] of routerFunds) {
    if (symbol === 'ETH') await testClient.setBalance({ address: router, value: amount })
    else await mint(tokens[symbol].address, router, amount)
  }

  for (const symbol of tokenSymbols) {
    const amount = userBalances?.[symbol] ?? defaultUserBalances[symbol]
    if (amount > 0n) await mint(tokens[symbol].address, accounts.user.address, amount)
  }

  async function mint(token: Address, to: Address, amount: bigint) {
    await mined(
      deployerClient.writeContract({
        address: token,
        abi: testErc20Abi,
        functionName: 'mint',
        args: [to, amount],
      }),
      `mint ${amount} of ${token} to ${to}`,
    )
  }

  return {
    ...clients,
    chain,
    rpcUrl,
    tokens,
    router,
    spender,
    revertingRouter,
    market: {
      chainId,
      tokens: Object.values(tokens),
      pools: marketPools,
      router,
      spender,
      revertingRouter,
    },
    balanceOf: (token, owner) => {
      const address = token in tokens ? tokens[token as PoolTokenSymbol].address : (token as Address)
      if (isNativeToken(address)) return publicClient.getBalance({ address: owner })
      return publicClient.readContract({
        address,
        abi: testErc20Abi,
        functionName: 'balanceOf',
        args: [owner],
      })
    },
    snapshot: () => testClient.snapshot(),
    revert: async (id) => {
      await testClient.revert({ id })
    },
  }
}
