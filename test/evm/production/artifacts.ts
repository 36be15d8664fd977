import { readFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import { type Abi, type Hex, keccak256 } from 'viem'

/*
 * The production contracts as their npm packages publish them: the ABI and the
 * creation bytecode, read from the package's own artifact file and never
 * recompiled. Where each one lives is the table "Production contracts from
 * npm" of the toolchain notes.
 */

const require = createRequire(import.meta.url)

/** Every published contract the rig deploys (or whose bytes it checks), with the file that holds it. */
export const publishedArtifactPaths = {
  WETH9: '@uniswap/v2-periphery/build/WETH9.json',
  UniswapV2Factory: '@uniswap/v2-core/build/UniswapV2Factory.json',
  UniswapV2Pair: '@uniswap/v2-core/build/UniswapV2Pair.json',
  UniswapV2Router02: '@uniswap/v2-periphery/build/UniswapV2Router02.json',
  UniswapV3Factory: '@uniswap/v3-core/artifacts/contracts/UniswapV3Factory.sol/UniswapV3Factory.json',
  UniswapV3Pool: '@uniswap/v3-core/artifacts/contracts/UniswapV3Pool.sol/UniswapV3Pool.json',
  NonfungiblePositionManager:
    '@uniswap/v3-periphery/artifacts/contracts/NonfungiblePositionManager.sol/NonfungiblePositionManager.json',
  SwapRouter02: '@uniswap/swap-router-contracts/artifacts/contracts/SwapRouter02.sol/SwapRouter02.json',
  QuoterV2: '@uniswap/swap-router-contracts/artifacts/contracts/lens/QuoterV2.sol/QuoterV2.json',
  UniversalRouter: '@uniswap/universal-router/artifacts/contracts/UniversalRouter.sol/UniversalRouter.json',
} as const

export type PublishedContractName = keyof typeof publishedArtifactPaths

export type PublishedArtifact = {
  name: PublishedContractName
  /** The npm package and file it was read from. */
  source: string
  /** The ABI as published (untyped: the rig calls through the typed fragments of `abis.ts`). */
  abi: Abi
  /** The creation bytecode as published, `0x`-prefixed. */
  bytecode: Hex
}

const cache = new Map<PublishedContractName, PublishedArtifact>()

/**
 * A published artifact, read once per process. The Waffle builds of V2 write
 * the bytecode without `0x`; the Hardhat builds of V3 and later with it: both
 * come back `0x`-prefixed, the bytes themselves untouched.
 *
 * @example
 * const { abi, bytecode } = publishedArtifact('UniswapV2Router02')
 * await walletClient.deployContract({ abi, bytecode, args: [factory, weth] })
 */
export function publishedArtifact(name: PublishedContractName): PublishedArtifact {
  const cached = cache.get(name)
  if (cached) return cached
  const source = publishedArtifactPaths[name]
  const json = JSON.parse(readFileSync(require.resolve(source), 'utf8')) as { abi: Abi; bytecode: string }
  const bytecode = (json.bytecode.startsWith('0x') ? json.bytecode : `0x${json.bytecode}`) as Hex
  if (!/^0x[0-9a-f]+$/i.test(bytecode) || bytecode.length < 4)
    throw new Error(`${source}: no bytecode (a link reference or an interface-only artifact?)`)
  const artifact: PublishedArtifact = { name, source, abi: json.abi, bytecode }
  cache.set(name, artifact)
  return artifact
}

/**
 * keccak256 of the published UniswapV2Pair creation code: the init code hash
 * every V2 pair address is derived from (`0x96e8ac42…845f` on mainnet).
 *
 * @example
 * const pairHash = v2PairInitCodeHash() // what UniswapV2Router02 embeds
 */
export const v2PairInitCodeHash = (): Hex => keccak256(publishedArtifact('UniswapV2Pair').bytecode)

/**
 * keccak256 of the published UniswapV3Pool creation code: the init code hash
 * every V3 pool address is derived from (`0xe34f199b…8b54` on mainnet).
 *
 * @example
 * const poolHash = v3PoolInitCodeHash() // what SwapRouter02 and QuoterV2 embed
 */
export const v3PoolInitCodeHash = (): Hex => keccak256(publishedArtifact('UniswapV3Pool').bytecode)
