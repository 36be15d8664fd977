import {
  type Abi,
  type AbiFunction,
  type Address,
  encodeAbiParameters,
  encodePacked,
  erc20Abi,
  getContractAddress,
  type Hex,
  keccak256,
  parseEther,
  parseUnits,
  toFunctionSignature,
} from 'viem'
import { describe, expect, test } from 'vitest'
import { startAnvil } from '../anvil.js'
import {
  nonfungiblePositionManagerAbi,
  quoterV2Abi,
  swapRouter02Abi,
  uniswapV2FactoryAbi,
  uniswapV2PairAbi,
  uniswapV2Router02Abi,
  uniswapV3FactoryAbi,
  uniswapV3PoolAbi,
  universalRouterAbi,
  weth9Abi,
} from './abis.js'
import { type PublishedContractName, publishedArtifact } from './artifacts.js'
import { permit2Address } from './permit2.js'
import {
  defaultV2Pairs,
  defaultV3Pools,
  deployUniswap,
  encodeSqrtPriceX96,
  setupUniswap,
  type UniswapDeployment,
} from './uniswap.js'

const evm = setupUniswap()

/** The init code hashes of mainnet's pairs and pools, as Uniswap's docs and SDKs state them. */
const mainnetPairInitCodeHash = '0x96e8ac4277198ff8b6f785478aa9a39f403cb768dd02cbee326c3e7da348845f'
const mainnetPoolInitCodeHash = '0xe34f199b19b2b4f47f68442619d555527d244f78a3297ea89325f843f87b8b54'

const codeOf = (uniswap: UniswapDeployment, address: Address) =>
  uniswap.publicClient.getCode({ address }).then((code) => (code ?? '0x').toLowerCase())

describe('Uniswap from its npm packages, on anvil', () => {
  test('every contract was created with the creation code its package publishes, byte for byte', async () => {
    const { uniswap } = evm
    for (const [key, { name, hash }] of Object.entries(uniswap.creations)) {
      const transaction = await uniswap.publicClient.getTransaction({ hash })
      const { bytecode } = publishedArtifact(name)
      // The creation input is the published bytecode followed by the ABI-encoded constructor arguments.
      expect(transaction.input.toLowerCase().startsWith(bytecode.toLowerCase()), `${key} (${name})`).toBe(
        true,
      )
      const address = uniswap.contracts[key as keyof typeof uniswap.creations]
      expect((await codeOf(uniswap, address)).length, `${name} has code`).toBeGreaterThan(2)
    }
    expect(Object.keys(uniswap.creations).sort()).toEqual(
      [
        'positionManager',
        'quoterV2',
        'swapRouter02',
        'universalRouter',
        'v2Factory',
        'v2Router',
        'v3Factory',
        'weth',
      ].sort(),
    )
    expect(uniswap.contracts.permit2).toBe(permit2Address)
    expect((await codeOf(uniswap, permit2Address)).length).toBeGreaterThan(2)
  })

  test('the pair and pool init code hashes the routers embed are the hashes of the published pair and pool bytes (mainnet’s)', async () => {
    const { uniswap } = evm
    const { v2Pair, v3Pool } = uniswap.initCodeHashes
    expect(v2Pair).toBe(mainnetPairInitCodeHash)
    expect(v3Pool).toBe(mainnetPoolInitCodeHash)
    const embeds = async (address: Address, hash: Hex) =>
      (await codeOf(uniswap, address)).includes(hash.slice(2))
    const { v2Router, swapRouter02, quoterV2, positionManager } = uniswap.contracts
    expect(await embeds(v2Router, v2Pair)).toBe(true)
    expect(await embeds(swapRouter02, v2Pair)).toBe(true)
    expect(await embeds(swapRouter02, v3Pool)).toBe(true)
    expect(await embeds(quoterV2, v3Pool)).toBe(true)
    expect(await embeds(positionManager, v3Pool)).toBe(true)
    // The Universal Router takes both hashes in its constructor: the ones given are the published bytes'.
    const creation = await uniswap.publicClient.getTransaction({
      hash: uniswap.creations.universalRouter.hash,
    })
    expect(creation.input.includes(v2Pair.slice(2))).toBe(true)
    expect(creation.input.includes(v3Pool.slice(2))).toBe(true)
  })

  test('every pair and pool sits at the CREATE2 address the routers compute from those hashes', async () => {
    const { uniswap } = evm
    expect(uniswap.pools.filter((pool) => pool.protocol === 'v2')).toHaveLength(defaultV2Pairs.length)
    expect(uniswap.pools.filter((pool) => pool.protocol === 'v3')).toHaveLength(defaultV3Pools.length)
    for (const pool of uniswap.pools) {
      const v2 = pool.protocol === 'v2'
      const salt = v2
        ? keccak256(encodePacked(['address', 'address'], [pool.token0, pool.token1]))
        : keccak256(
            encodeAbiParameters(
              [{ type: 'address' }, { type: 'address' }, { type: 'uint24' }],
              [pool.token0, pool.token1, pool.fee],
            ),
          )
      const predicted = getContractAddress({
        opcode: 'CREATE2',
        from: v2 ? uniswap.contracts.v2Factory : uniswap.contracts.v3Factory,
        salt,
        bytecodeHash: v2 ? uniswap.initCodeHashes.v2Pair : uniswap.initCodeHashes.v3Pool,
      })
      expect(pool.address, `${pool.protocol} ${pool.symbols.join('/')}`).toBe(predicted)
      // The pool's runtime code is the one the published creation code deploys.
      expect((await codeOf(uniswap, pool.address)).length).toBeGreaterThan(2)
    }
  })

  test('the pools hold the liquidity configured, V3 ones at the configured price', async () => {
    const { uniswap } = evm
    for (const [index, pool] of uniswap.pools.entries()) {
      const config =
        pool.protocol === 'v2' ? defaultV2Pairs[index] : defaultV3Pools[index - defaultV2Pairs.length]
      if (!config) throw new Error('pool without config')
      const amountOf = (symbol: string) => config.amounts[config.tokens.indexOf(symbol as never)] as bigint
      const [amount0, amount1] = [amountOf(pool.symbols[0]), amountOf(pool.symbols[1])]
      if (pool.protocol === 'v2') {
        const [reserve0, reserve1] = await uniswap.publicClient.readContract({
          address: pool.address,
          abi: uniswapV2PairAbi,
          functionName: 'getReserves',
        })
        expect([reserve0, reserve1]).toEqual([amount0, amount1])
      } else {
        const [sqrtPriceX96] = await uniswap.publicClient.readContract({
          address: pool.address,
          abi: uniswapV3PoolAbi,
          functionName: 'slot0',
        })
        expect(sqrtPriceX96).toBe(encodeSqrtPriceX96(amount0, amount1))
        const liquidity = await uniswap.publicClient.readContract({
          address: pool.address,
          abi: uniswapV3PoolAbi,
          functionName: 'liquidity',
        })
        expect(liquidity).toBeGreaterThan(0n)
        // The full-range position holds what was configured, less the rounding of the liquidity maths.
        for (const [token, amount] of [
          [pool.token0, amount0],
          [pool.token1, amount1],
        ] as const) {
          const held = await uniswap.balanceOf(token, pool.address)
          expect(held).toBeLessThanOrEqual(amount)
          expect(held).toBeGreaterThan(amount - amount / 1_000_000n)
        }
      }
    }
  })

  test('the published routers swap on these pools: Router02 (V2) and SwapRouter02 (V3) pay exactly what their quoters say', async () => {
    const { uniswap } = evm
    const { user } = uniswap.accounts
    const [TKA, TKB, USDC] = [uniswap.address('TKA'), uniswap.address('TKB'), uniswap.address('USDC')]
    const { v2Router, swapRouter02, quoterV2 } = uniswap.contracts
    const write = async (request: Parameters<typeof uniswap.userClient.writeContract>[0]) => {
      const receipt = await uniswap.publicClient.waitForTransactionReceipt({
        hash: await uniswap.userClient.writeContract(request),
      })
      expect(receipt.status).toBe('success')
    }

    const v2In = parseEther('100')
    const [, v2Out] = await uniswap.publicClient.readContract({
      address: v2Router,
      abi: uniswapV2Router02Abi,
      functionName: 'getAmountsOut',
      args: [v2In, [TKA, TKB]],
    })
    await write({ address: TKA, abi: erc20Abi, functionName: 'approve', args: [v2Router, v2In] })
    const tkbBefore = await uniswap.balanceOf('TKB', user.address)
    await write({
      address: v2Router,
      abi: uniswapV2Router02Abi,
      functionName: 'swapExactTokensForTokens',
      args: [v2In, 0n, [TKA, TKB], user.address, 2n ** 40n],
    })
    expect(await uniswap.balanceOf('TKB', user.address)).toBe(tkbBefore + (v2Out as bigint))

    const v3In = parseEther('1000')
    const { result } = await uniswap.publicClient.simulateContract({
      address: quoterV2,
      abi: quoterV2Abi,
      functionName: 'quoteExactInputSingle',
      args: [{ tokenIn: TKB, tokenOut: USDC, amountIn: v3In, fee: 3000, sqrtPriceLimitX96: 0n }],
    })
    const [v3Out] = result
    expect(v3Out).toBeGreaterThan(parseUnits('740', 6)) // 1000 TKB at 0.75 USDC, less 0.3% and the price impact
    await write({ address: TKB, abi: erc20Abi, functionName: 'approve', args: [swapRouter02, v3In] })
    const usdcBefore = await uniswap.balanceOf('USDC', user.address)
    await write({
      address: swapRouter02,
      abi: swapRouter02Abi,
      functionName: 'exactInputSingle',
      args: [
        {
          tokenIn: TKB,
          tokenOut: USDC,
          fee: 3000,
          recipient: user.address,
          amountIn: v3In,
          amountOutMinimum: v3Out,
          sqrtPriceLimitX96: 0n,
        },
      ],
    })
    expect(await uniswap.balanceOf('USDC', user.address)).toBe(usdcBefore + v3Out)
  })

  test('each typed fragment the rig calls is a function of the published ABI', () => {
    const checks: [PublishedContractName, Abi][] = [
      ['WETH9', weth9Abi],
      ['UniswapV2Factory', uniswapV2FactoryAbi],
      ['UniswapV2Pair', uniswapV2PairAbi],
      ['UniswapV2Router02', uniswapV2Router02Abi],
      ['UniswapV3Factory', uniswapV3FactoryAbi],
      ['UniswapV3Pool', uniswapV3PoolAbi],
      ['NonfungiblePositionManager', nonfungiblePositionManagerAbi],
      ['SwapRouter02', swapRouter02Abi],
      ['QuoterV2', quoterV2Abi],
      ['UniversalRouter', universalRouterAbi],
    ]
    const signature = (item: AbiFunction) => toFunctionSignature(item)
    for (const [name, fragments] of checks) {
      const published = new Set(
        publishedArtifact(name)
          .abi.filter((item): item is AbiFunction => item.type === 'function')
          .map(signature),
      )
      for (const item of fragments.filter((item): item is AbiFunction => item.type === 'function'))
        expect(published.has(signature(item)), `${name}: ${signature(item)}`).toBe(true)
    }
  })

  test('deterministic: a second deployment on a fresh anvil puts every contract, token and pool at the same address', async () => {
    const { uniswap } = evm
    const anvil = await startAnvil()
    try {
      const again = await deployUniswap({ rpcUrl: anvil.rpcUrl, chainId: anvil.chainId })
      expect(again.contracts).toEqual(uniswap.contracts)
      expect(again.tokens).toEqual(uniswap.tokens)
      expect(again.pools).toEqual(uniswap.pools)
    } finally {
      await anvil.stop()
    }
  }, 120_000)

  test('the V2 factory made exactly the configured pairs, and the V3 factory enables the tiers the pools use', async () => {
    const { uniswap } = evm
    expect(
      await uniswap.publicClient.readContract({
        address: uniswap.contracts.v2Factory,
        abi: uniswapV2FactoryAbi,
        functionName: 'allPairsLength',
      }),
    ).toBe(BigInt(defaultV2Pairs.length))
    for (const [fee, spacing] of [
      [500, 10],
      [3000, 60],
      [10000, 200],
    ] as const)
      expect(
        await uniswap.publicClient.readContract({
          address: uniswap.contracts.v3Factory,
          abi: uniswapV3FactoryAbi,
          functionName: 'feeAmountTickSpacing',
          args: [fee],
        }),
      ).toBe(spacing)
  })
})
