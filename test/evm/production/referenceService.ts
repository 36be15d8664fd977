import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http'
import type { AddressInfo } from 'node:net'
import {
  type Address,
  encodeAbiParameters,
  encodeFunctionData,
  encodePacked,
  type Hex,
  isAddress,
  type PublicClient,
} from 'viem'
import { isNativeToken } from '../../../src/core/constants.js'
import {
  permit2Abi,
  quoterV2Abi,
  swapRouter02Abi,
  uniswapV2PairAbi,
  uniswapV2Router02Abi,
  universalRouterAbi,
} from './abis.js'
import type { UniswapDeployment, UniswapPool, UniswapToken } from './uniswap.js'

/*
 * A second implementation of the token swap service (the spec in
 * /work/shared/spec/token-swap-service.md), written from the spec alone and
 * served over real HTTP on loopback. It routes over the Uniswap pools of a
 * `deployUniswap` deployment, quotes from the pools themselves (Router02's
 * getAmountsOut, QuoterV2) and answers with the production routers' own
 * calldata. Where the spec says "not shown", it picks what a real service
 * plausibly sends; each such choice is marked "Spec silent:" below.
 *
 * Spec silent: the wire forms chosen throughout.
 * - Amounts (amount_out, estimateAmount, transferValue, fee amounts, reserves) are decimal strings.
 * - Addresses in responses are lowercase, as a service reading them from a database sends them.
 * - Errors are JSON `{ "error": { "code", "message", "parameter"? } }`: 400 for a bad parameter,
 *   404 for no path (the spec's only stated status) or an unknown token, 405 for a method other
 *   than GET, 500 when the chain fails.
 * - The native coin is the sentinel 0xEeee…EEeE on the way in and in token lists; routes go
 *   through WETH9, and `path` shows WETH9 there, as the pools see it (the library accepts
 *   either on a native side).
 * - Array parameters are read in every common form: repeated (`a=1&a=2`), comma-separated
 *   (`a=1,2`) and bracketed (`a[]=1&a[]=2`).
 * - An extra, non-spec query parameter `protocols` (`v2`, `v3` or `v2,v3`, the default) narrows
 *   the routing, as aggregators' own `protocols` filters do; a client can carry it in its base
 *   URL, which the library sends with every request.
 */

/** A Uniswap version the service routes over; a route uses one only (no mixed routes). */
type Protocol = 'v2' | 'v3'

/** One candidate route: a single protocol, one or two hops. */
export type ReferenceRoute = {
  protocol: Protocol
  /** Token addresses as the pools see them (WETH9 for the native coin). */
  path: Address[]
  /** The pools, one per hop. */
  pools: UniswapPool[]
  amountOut: bigint
}

/** Signs the user's Permit2 `PermitSingle` for the Universal Router, as a front end would before asking the service. */
export type Permit2Signer = {
  address: Address
  signTypedData(typedData: {
    domain: { name: 'Permit2'; chainId: number; verifyingContract: Address }
    types: typeof permitSingleTypes
    primaryType: 'PermitSingle'
    message: {
      details: { token: Address; amount: bigint; expiration: number; nonce: number }
      spender: Address
      sigDeadline: bigint
    }
  }): Promise<Hex>
}

export const permitSingleTypes = {
  PermitSingle: [
    { name: 'details', type: 'PermitDetails' },
    { name: 'spender', type: 'address' },
    { name: 'sigDeadline', type: 'uint256' },
  ],
  PermitDetails: [
    { name: 'token', type: 'address' },
    { name: 'amount', type: 'uint160' },
    { name: 'expiration', type: 'uint48' },
    { name: 'nonce', type: 'uint48' },
  ],
} as const

export type ReferenceServiceOptions = {
  /** The deployment whose pools the service routes over. */
  uniswap: Pick<UniswapDeployment, 'publicClient' | 'contracts' | 'tokens' | 'pools'>
  /** Tokens listed only with `blacklist=true` and never routed through. Default: the rig's `SCAM`. */
  blacklistedTokens?: readonly Address[] | undefined
  /** Pairs listed only with `blacklist=true` and never routed through. Default: none. */
  blacklistedPairs?: readonly Address[] | undefined
  /**
   * Answer `/swap/info` for an ERC-20 input with Universal Router calldata
   * instead: `PERMIT2_PERMIT` carrying the signer's own Permit2 signature,
   * then the V2 or V3 swap with `payerIsUser`, which pulls token0 through
   * Permit2 from whoever calls the router. `approvalAddress` is then Permit2.
   */
  universalRouter?: { signer: Permit2Signer } | undefined
}

/** One request the service received: its path and query, as sent. */
export type ReferenceServiceRequest = { method: string; path: string; query: Record<string, string[]> }

export type ReferenceService = {
  /** The base URL (`http://127.0.0.1:<port>`), once started. */
  readonly url: string
  /** Every request received, oldest first. */
  readonly requests: ReferenceServiceRequest[]
  /** Listens on a free port of 127.0.0.1; resolves with the base URL. */
  start(): Promise<string>
  /** Closes the server (and its open connections). Safe to call twice. */
  stop(): Promise<void>
}

/** SwapRouter02's placeholder for "this router" as a recipient (Constants.ADDRESS_THIS). */
const routerItself: Address = '0x0000000000000000000000000000000000000002'

// Spec silent: the deadline's unit and default. Unix seconds; default: the latest block's time plus 20 minutes.
const defaultDeadlineSeconds = 1200n
// Spec silent: estimateTransferSeconds. One block of a 12-second chain.
const estimateTransferSeconds = 12
// Spec silent: the unit of slippage's arithmetic. The floor is exact to a millionth.
const slippageScale = 1_000_000n

class HttpProblem extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    readonly parameter?: string,
  ) {
    super(message)
  }
}

const lower = (address: string) => address.toLowerCase() as Address

/**
 * A token swap service over real HTTP, built from the spec, routing over the
 * pools of a `deployUniswap` deployment with the production routers' own calldata.
 *
 * @example
 * const service = createReferenceService({ uniswap })
 * const client = createSwapClient({ baseUrl: await service.start() })
 * const route = await getSwapRoute(client, { token0, token1, amountIn })
 * await service.stop()
 */
export function createReferenceService(options: ReferenceServiceOptions): ReferenceService {
  const { uniswap } = options
  const { publicClient, contracts } = uniswap
  const client = publicClient as PublicClient
  const tokens = Object.values(uniswap.tokens)
  const blacklistedTokens = new Set(
    (options.blacklistedTokens ?? [uniswap.tokens.SCAM.address]).map((address) => lower(address)),
  )
  const blacklistedPairs = new Set((options.blacklistedPairs ?? []).map((address) => lower(address)))
  const requests: ReferenceServiceRequest[] = []
  let server: Server | undefined
  let url = ''

  const tokenByAddress = new Map(tokens.map((token) => [lower(token.address), token]))
  /** The pool-side address of a token the service knows: WETH9 for the native coin. */
  const poolSide = (address: Address): Address => (isNativeToken(address) ? contracts.weth : address)
  const isBlacklistedPool = (pool: UniswapPool) =>
    blacklistedPairs.has(lower(pool.address)) ||
    blacklistedTokens.has(lower(pool.token0)) ||
    blacklistedTokens.has(lower(pool.token1))

  // ---------------------------------------------------------------- routing

  /** Every route of one protocol with one or two hops, over pools not blacklisted. */
  function candidates(tokenIn: Address, tokenOut: Address, protocols: readonly Protocol[]) {
    const usable = uniswap.pools.filter(
      (pool) => protocols.includes(pool.protocol) && !isBlacklistedPool(pool),
    )
    const between = (a: Address, b: Address, protocol: Protocol) =>
      usable.filter(
        (pool) =>
          pool.protocol === protocol &&
          ((lower(pool.token0) === lower(a) && lower(pool.token1) === lower(b)) ||
            (lower(pool.token0) === lower(b) && lower(pool.token1) === lower(a))),
      )
    const routes: Omit<ReferenceRoute, 'amountOut'>[] = []
    for (const protocol of protocols) {
      for (const pool of between(tokenIn, tokenOut, protocol))
        routes.push({ protocol, path: [tokenIn, tokenOut], pools: [pool] })
      const middles = new Set(usable.flatMap((pool) => [lower(pool.token0), lower(pool.token1)]))
      for (const middle of middles) {
        if (middle === lower(tokenIn) || middle === lower(tokenOut) || blacklistedTokens.has(middle)) continue
        for (const first of between(tokenIn, middle, protocol))
          for (const second of between(middle, tokenOut, protocol))
            routes.push({ protocol, path: [tokenIn, middle, tokenOut], pools: [first, second] })
      }
    }
    // A V2 path names no pool: one route per path.
    return routes.filter(
      (route, index) =>
        route.protocol === 'v3' ||
        routes.findIndex((other) => other.protocol === 'v2' && other.path.join() === route.path.join()) ===
          index,
    )
  }

  /** A V3 path: token, fee, token, fee, token… packed, as QuoterV2 and the routers read it. */
  const v3Path = (route: Pick<ReferenceRoute, 'path' | 'pools'>): Hex => {
    const types: ('address' | 'uint24')[] = ['address']
    const values: (Address | number)[] = [route.path[0] as Address]
    route.pools.forEach((pool, index) => {
      types.push('uint24', 'address')
      values.push(pool.fee, route.path[index + 1] as Address)
    })
    return encodePacked(types, values)
  }

  /** What the pools pay for `amountIn` along a route, or undefined when the quote reverts (too little liquidity). */
  async function quote(
    route: Omit<ReferenceRoute, 'amountOut'>,
    amountIn: bigint,
  ): Promise<bigint | undefined> {
    try {
      if (route.protocol === 'v2') {
        const amounts = await client.readContract({
          address: contracts.v2Router,
          abi: uniswapV2Router02Abi,
          functionName: 'getAmountsOut',
          args: [amountIn, route.path],
        })
        return amounts[amounts.length - 1]
      }
      if (route.pools.length === 1) {
        const { result } = await client.simulateContract({
          address: contracts.quoterV2,
          abi: quoterV2Abi,
          functionName: 'quoteExactInputSingle',
          args: [
            {
              tokenIn: route.path[0] as Address,
              tokenOut: route.path[1] as Address,
              amountIn,
              fee: (route.pools[0] as UniswapPool).fee,
              sqrtPriceLimitX96: 0n,
            },
          ],
        })
        return result[0]
      }
      const { result } = await client.simulateContract({
        address: contracts.quoterV2,
        abi: quoterV2Abi,
        functionName: 'quoteExactInput',
        args: [v3Path(route), amountIn],
      })
      return result[0]
    } catch {
      return undefined
    }
  }

  /** The route paying the most (fewer hops on a tie), or undefined when there is none. */
  async function bestRoute(
    token0: Address,
    token1: Address,
    amountIn: bigint,
    protocols: readonly Protocol[],
  ): Promise<ReferenceRoute | undefined> {
    const [tokenIn, tokenOut] = [poolSide(token0), poolSide(token1)]
    if (lower(tokenIn) === lower(tokenOut)) return undefined
    if (blacklistedTokens.has(lower(tokenIn)) || blacklistedTokens.has(lower(tokenOut))) return undefined
    const quoted = await Promise.all(
      candidates(tokenIn, tokenOut, protocols).map(async (route) => ({
        ...route,
        amountOut: await quote(route, amountIn),
      })),
    )
    let best: ReferenceRoute | undefined
    for (const route of quoted) {
      if (route.amountOut === undefined || route.amountOut === 0n) continue
      if (
        !best ||
        route.amountOut > best.amountOut ||
        (route.amountOut === best.amountOut && route.pools.length < best.pools.length)
      )
        best = route as ReferenceRoute
    }
    return best
  }

  // ---------------------------------------------------------------- calldata

  type SwapCall = { to: Address; data: Hex; value: bigint; approvalAddress: Address | null }

  /** The production routers' calldata for a route; the output goes to `to`, at least `minOut` of it. */
  async function swapCall(
    route: ReferenceRoute,
    request: {
      token0: Address
      token1: Address
      amountIn: bigint
      to: Address
      minOut: bigint
      deadline: bigint
    },
  ): Promise<SwapCall> {
    const { token0, token1, amountIn, to, minOut, deadline } = request
    const nativeIn = isNativeToken(token0)
    const nativeOut = isNativeToken(token1)
    // Spec silent: approvalAddress when no approval is needed (a native input). Sent as null.
    if (options.universalRouter && !nativeIn && !nativeOut) return universalRouterCall(route, request)

    if (route.protocol === 'v2') {
      const router = contracts.v2Router
      if (nativeIn)
        return {
          to: router,
          value: amountIn,
          approvalAddress: null,
          data: encodeFunctionData({
            abi: uniswapV2Router02Abi,
            functionName: 'swapExactETHForTokens',
            args: [minOut, route.path, to, deadline],
          }),
        }
      return {
        to: router,
        value: 0n,
        approvalAddress: router,
        data: encodeFunctionData({
          abi: uniswapV2Router02Abi,
          functionName: nativeOut ? 'swapExactTokensForETH' : 'swapExactTokensForTokens',
          args: [amountIn, minOut, route.path, to, deadline],
        }),
      }
    }

    // SwapRouter02: the swap inside multicall(deadline, …), as Uniswap's router SDK sends it (its
    // exactInput* take no deadline); for a native output the router keeps the WETH9 and unwraps it to `to`.
    const recipient = nativeOut ? routerItself : to
    const swap =
      route.pools.length === 1
        ? encodeFunctionData({
            abi: swapRouter02Abi,
            functionName: 'exactInputSingle',
            args: [
              {
                tokenIn: route.path[0] as Address,
                tokenOut: route.path[1] as Address,
                fee: (route.pools[0] as UniswapPool).fee,
                recipient,
                amountIn,
                amountOutMinimum: minOut,
                sqrtPriceLimitX96: 0n,
              },
            ],
          })
        : encodeFunctionData({
            abi: swapRouter02Abi,
            functionName: 'exactInput',
            args: [{ path: v3Path(route), recipient, amountIn, amountOutMinimum: minOut }],
          })
    const calls = nativeOut
      ? [swap, encodeFunctionData({ abi: swapRouter02Abi, functionName: 'unwrapWETH9', args: [minOut, to] })]
      : [swap]
    return {
      to: contracts.swapRouter02,
      value: nativeIn ? amountIn : 0n,
      approvalAddress: nativeIn ? null : contracts.swapRouter02,
      data: encodeFunctionData({ abi: swapRouter02Abi, functionName: 'multicall', args: [deadline, calls] }),
    }
  }

  /**
   * Universal Router calldata, the way its SDK plans an ERC-20 input: `PERMIT2_PERMIT` with the
   * payer's signature, then `V3_SWAP_EXACT_IN` / `V2_SWAP_EXACT_IN` with `payerIsUser` (pulled
   * through Permit2 from the router's caller). The user approves Permit2, not the router.
   */
  async function universalRouterCall(
    route: ReferenceRoute,
    request: { token0: Address; amountIn: bigint; to: Address; minOut: bigint; deadline: bigint },
  ): Promise<SwapCall> {
    const signer = (options.universalRouter as { signer: Permit2Signer }).signer
    const { token0, amountIn, to, minOut, deadline } = request
    const [, , nonce] = await client.readContract({
      address: contracts.permit2,
      abi: permit2Abi,
      functionName: 'allowance',
      args: [signer.address, token0, contracts.universalRouter],
    })
    const chainId = await client.getChainId()
    const permit = {
      details: { token: token0, amount: amountIn, expiration: Number(deadline) + 30 * 86_400, nonce },
      spender: contracts.universalRouter,
      sigDeadline: deadline,
    }
    const signature = await signer.signTypedData({
      domain: { name: 'Permit2', chainId, verifyingContract: contracts.permit2 },
      types: permitSingleTypes,
      primaryType: 'PermitSingle',
      message: permit,
    })
    const permitInput = encodeAbiParameters(
      [
        {
          type: 'tuple',
          components: [
            {
              name: 'details',
              type: 'tuple',
              components: [
                { name: 'token', type: 'address' },
                { name: 'amount', type: 'uint160' },
                { name: 'expiration', type: 'uint48' },
                { name: 'nonce', type: 'uint48' },
              ],
            },
            { name: 'spender', type: 'address' },
            { name: 'sigDeadline', type: 'uint256' },
          ],
        },
        { type: 'bytes' },
      ],
      [permit, signature],
    )
    const v3 = route.protocol === 'v3'
    const swapInput = v3
      ? encodeAbiParameters(
          [
            { type: 'address' },
            { type: 'uint256' },
            { type: 'uint256' },
            { type: 'bytes' },
            { type: 'bool' },
          ],
          [to, amountIn, minOut, v3Path(route), true],
        )
      : encodeAbiParameters(
          [
            { type: 'address' },
            { type: 'uint256' },
            { type: 'uint256' },
            { type: 'address[]' },
            { type: 'bool' },
          ],
          [to, amountIn, minOut, route.path, true],
        )
    // Commands: 0x0a PERMIT2_PERMIT, then 0x00 V3_SWAP_EXACT_IN or 0x08 V2_SWAP_EXACT_IN.
    const commands: Hex = v3 ? '0x0a00' : '0x0a08'
    return {
      to: contracts.universalRouter,
      value: 0n,
      approvalAddress: contracts.permit2,
      data: encodeFunctionData({
        abi: universalRouterAbi,
        functionName: 'execute',
        args: [commands, [permitInput, swapInput], deadline],
      }),
    }
  }

  // ---------------------------------------------------------------- parameters

  function one(query: URLSearchParams, name: string, required: true): string
  function one(query: URLSearchParams, name: string, required?: false): string | undefined
  function one(query: URLSearchParams, name: string, required = false) {
    const values = query.getAll(name)
    if (values.length > 1)
      throw new HttpProblem(400, 'invalid_parameter', `${name} is given more than once`, name)
    const value = values[0]?.trim()
    if (required && !value) throw new HttpProblem(400, 'missing_parameter', `${name} is required`, name)
    return value || undefined
  }

  /** Every value of an array parameter, in any of its common forms. */
  const many = (query: URLSearchParams, name: string) =>
    [...query.getAll(name), ...query.getAll(`${name}[]`)]
      .flatMap((value) => value.split(','))
      .map((value) => value.trim())
      .filter(Boolean)

  const addressParameter = (query: URLSearchParams, name: string): Address => {
    const value = one(query, name, true)
    if (!isAddress(value, { strict: false }))
      throw new HttpProblem(400, 'invalid_parameter', `${name} must be an address`, name)
    return value
  }

  const amountParameter = (query: URLSearchParams): bigint => {
    const value = one(query, 'amount_in', true)
    if (!/^\d+$/.test(value) || BigInt(value) === 0n)
      throw new HttpProblem(
        400,
        'invalid_parameter',
        'amount_in must be an integer greater than 0',
        'amount_in',
      )
    return BigInt(value)
  }

  const flagParameter = (query: URLSearchParams, name: string): boolean => {
    const value = one(query, name)?.toLowerCase()
    if (value === undefined) return false
    if (['true', '1'].includes(value)) return true
    if (['false', '0'].includes(value)) return false
    throw new HttpProblem(400, 'invalid_parameter', `${name} must be true or false`, name)
  }

  const protocolsParameter = (query: URLSearchParams): Protocol[] => {
    const values = many(query, 'protocols').map((value) => value.toLowerCase())
    if (!values.length) return ['v2', 'v3']
    if (values.some((value) => value !== 'v2' && value !== 'v3'))
      throw new HttpProblem(400, 'invalid_parameter', 'protocols must be v2, v3 or both', 'protocols')
    return values as Protocol[]
  }

  /** A token the service lists, or 404 (no path to or from a token it does not know). */
  const known = (address: Address, name: string): UniswapToken => {
    const token = tokenByAddress.get(lower(address))
    if (!token)
      throw new HttpProblem(404, 'unknown_token', `${name} ${address} is not a token of this service`, name)
    return token
  }

  async function routeFor(query: URLSearchParams) {
    const token0 = addressParameter(query, 'token0')
    const token1 = addressParameter(query, 'token1')
    const amountIn = amountParameter(query)
    if (lower(token0) === lower(token1))
      throw new HttpProblem(400, 'invalid_parameter', 'token0 and token1 are the same token', 'token1')
    known(token0, 'token0')
    known(token1, 'token1')
    const route = await bestRoute(token0, token1, amountIn, protocolsParameter(query))
    if (!route) throw new HttpProblem(404, 'no_route', `no path from ${token0} to ${token1}`)
    return { token0, token1, amountIn, route }
  }

  // ---------------------------------------------------------------- endpoints

  const routeBody = (route: ReferenceRoute) => ({
    path: route.path.map(lower),
    amount_out: route.amountOut.toString(),
  })

  async function swapInfo(query: URLSearchParams) {
    const { token0, token1, amountIn, route } = await routeFor(query)
    const to = addressParameter(query, 'to')
    const slippageText = one(query, 'slippage')
    const slippage = slippageText === undefined ? 0.05 : Number(slippageText)
    if (!/^\s*(\d+\.?\d*|\.\d+)(e-?\d+)?\s*$/i.test(slippageText ?? '0') || !(slippage >= 0 && slippage <= 1))
      throw new HttpProblem(400, 'invalid_parameter', 'slippage must be a number from 0 to 1', 'slippage')
    const deadlineText = one(query, 'deadline')
    if (deadlineText !== undefined && !/^\d+$/.test(deadlineText))
      throw new HttpProblem(400, 'invalid_parameter', 'deadline must be a Unix time in seconds', 'deadline')
    const deadline =
      deadlineText !== undefined
        ? BigInt(deadlineText)
        : (await client.getBlock({ blockTag: 'latest' })).timestamp + defaultDeadlineSeconds
    // The calldata's own floor: the estimate less the slippage, rounded down to the millionth.
    const minOut =
      (route.amountOut * (slippageScale - BigInt(Math.round(slippage * Number(slippageScale))))) /
      slippageScale
    const call = await swapCall(route, { token0, token1, amountIn, to, minOut, deadline })
    // Spec silent: fee's fields. What the pools take along the route (no service fee): each hop's LP
    // fee as a fraction, the compound fraction, and its amount in token0 (approximate past the first hop).
    const hopFees = route.pools.map((pool) => pool.fee / 1_000_000)
    // 1 - Π(1 - fee), in exact integers (fees are in millionths) before it becomes a number.
    const scale = 1_000_000n ** BigInt(route.pools.length)
    const kept = route.pools.reduce((product, pool) => product * (1_000_000n - BigInt(pool.fee)), 1n)
    const percent = Number(scale - kept) / Number(scale)
    return {
      data: call.data,
      transferAddress: lower(call.to),
      transferValue: call.value.toString(),
      approvalAddress: call.approvalAddress && lower(call.approvalAddress),
      estimateTransferSeconds,
      estimateAmount: route.amountOut.toString(),
      // Spec silent: whether hopsCount counts pools or intermediate tokens. It counts pools: 1 for a direct swap.
      hopsCount: route.pools.length,
      fee: {
        token: lower(token0),
        percent,
        amount: ((amountIn * (scale - kept)) / scale).toString(),
        service: { percent: 0, amount: '0' },
        hops: route.pools.map((pool, index) => ({
          pool: lower(pool.address),
          protocol: pool.protocol === 'v2' ? 'uniswap-v2' : 'uniswap-v3',
          percent: hopFees[index],
        })),
      },
    }
  }

  // Spec silent: token and pair records. Tokens: address, symbol, name, decimals, blacklisted.
  const tokenRecord = (token: UniswapToken) => ({
    address: lower(token.address),
    symbol: token.symbol,
    name: token.name,
    decimals: token.decimals,
    blacklisted: blacklistedTokens.has(lower(token.address)),
  })

  // Pairs: address, protocol, fee tier (hundredths of a basis point), both tokens, reserves read live.
  async function pairRecord(pool: UniswapPool) {
    const [reserve0, reserve1] =
      pool.protocol === 'v2'
        ? await client
            .readContract({ address: pool.address, abi: uniswapV2PairAbi, functionName: 'getReserves' })
            .then(([r0, r1]) => [r0, r1])
        : await Promise.all([balance(pool.token0, pool.address), balance(pool.token1, pool.address)])
    const side = (address: Address) => ({
      address: lower(address),
      symbol: tokenByAddress.get(lower(address))?.symbol,
    })
    return {
      address: lower(pool.address),
      protocol: pool.protocol === 'v2' ? 'uniswap-v2' : 'uniswap-v3',
      fee_tier: pool.fee,
      token0: side(pool.token0),
      token1: side(pool.token1),
      reserve0: String(reserve0),
      reserve1: String(reserve1),
      blacklisted: isBlacklistedPool(pool),
    }
  }

  const balance = (token: Address, owner: Address) =>
    client.readContract({
      address: token,
      abi: [
        {
          type: 'function',
          name: 'balanceOf',
          stateMutability: 'view',
          inputs: [{ type: 'address' }],
          outputs: [{ type: 'uint256' }],
        },
      ],
      functionName: 'balanceOf',
      args: [owner],
    })

  /** USD per whole token: what one whole token fetches in USDC along the best route (USDC itself: 1). */
  async function priceUsd(token: UniswapToken): Promise<number | undefined> {
    const usdc = uniswap.tokens.USDC
    if (lower(token.address) === lower(usdc.address)) return 1
    const route = await bestRoute(token.address, usdc.address, 10n ** BigInt(token.decimals), ['v2', 'v3'])
    return route ? Number(route.amountOut) / 10 ** usdc.decimals : undefined
  }

  const matchesToken = (filters: string[], pool: UniswapPool) =>
    filters.some((filter) =>
      [pool.token0, pool.token1].some(
        (address) =>
          lower(address) === filter.toLowerCase() ||
          tokenByAddress.get(lower(address))?.symbol.toLowerCase() === filter.toLowerCase(),
      ),
    )

  async function handle(path: string, query: URLSearchParams): Promise<unknown> {
    switch (path) {
      case '/swap/route':
      case '/get_path':
        // Spec silent: /get_path's body. The same Route as /swap/route.
        return routeBody((await routeFor(query)).route)
      case '/swap/info':
        return swapInfo(query)
      case '/overview/tokens': {
        const filters = many(query, 'filter_by_token').map((value) => value.toLowerCase())
        const withBlacklisted = flagParameter(query, 'blacklist')
        // Spec silent: list bodies. An envelope with one array, `{ tokens: [...] }`.
        return {
          tokens: tokens
            .filter((token) => withBlacklisted || !blacklistedTokens.has(lower(token.address)))
            .filter((token) => !filters.length || filters.includes(lower(token.address)))
            .map(tokenRecord),
        }
      }
      case '/overview/pairs': {
        const byToken = many(query, 'filter_by_token')
        const byPair = many(query, 'filter_by_pair').map((value) => value.toLowerCase())
        const withBlacklisted = flagParameter(query, 'blacklist')
        const pools = uniswap.pools
          .filter((pool) => withBlacklisted || !isBlacklistedPool(pool))
          .filter((pool) => !byToken.length || matchesToken(byToken, pool))
          .filter((pool) => !byPair.length || byPair.includes(lower(pool.address)))
        return { pairs: await Promise.all(pools.map(pairRecord)) }
      }
      case '/overview/token/price': {
        const token = known(addressParameter(query, 'address'), 'address')
        const price = await priceUsd(token)
        if (price === undefined) throw new HttpProblem(404, 'no_price', `no USD price for ${token.address}`)
        // Spec silent: the price body. The price with what it is of, and the block it was read at.
        return {
          address: lower(token.address),
          symbol: token.symbol,
          price_usd: price,
          block: Number(await client.getBlockNumber({ cacheTime: 0 })),
        }
      }
      case '/get_tokens':
        // Spec silent: the second group's bodies. Bare arrays of the same records.
        return tokens.filter((token) => !blacklistedTokens.has(lower(token.address))).map(tokenRecord)
      case '/get_pairs':
        return Promise.all(uniswap.pools.filter((pool) => !isBlacklistedPool(pool)).map(pairRecord))
      case '/get_tokens_data':
        return Promise.all(
          tokens
            .filter((token) => !blacklistedTokens.has(lower(token.address)))
            .map(async (token) => {
              const price = await priceUsd(token)
              const pools = uniswap.pools.filter(
                (pool) =>
                  lower(pool.token0) === lower(poolSide(token.address)) ||
                  lower(pool.token1) === lower(poolSide(token.address)),
              )
              const locked = (
                await Promise.all(pools.map((pool) => balance(poolSide(token.address), pool.address)))
              ).reduce((sum, amount) => sum + amount, 0n)
              return {
                ...tokenRecord(token),
                price_usd: price ?? null,
                liquidity: locked.toString(),
                liquidity_usd: price === undefined ? null : (Number(locked) / 10 ** token.decimals) * price,
                volume_24h_usd: 0,
                pools: pools.length,
              }
            }),
        )
      default:
        throw new HttpProblem(404, 'not_found', `no endpoint ${path}`)
    }
  }

  async function listener(request: IncomingMessage, response: ServerResponse) {
    const target = new URL(request.url ?? '/', 'http://127.0.0.1')
    const query: Record<string, string[]> = {}
    for (const key of new Set(target.searchParams.keys())) query[key] = target.searchParams.getAll(key)
    requests.push({ method: request.method ?? 'GET', path: target.pathname, query })
    let status = 200
    let body: unknown
    try {
      if (request.method !== 'GET') throw new HttpProblem(405, 'method_not_allowed', 'only GET is served')
      body = await handle(target.pathname.replace(/\/+$/, '') || '/', target.searchParams)
    } catch (error) {
      const problem =
        error instanceof HttpProblem ? error : new HttpProblem(500, 'internal', (error as Error).message)
      status = problem.status
      body = {
        error: {
          code: problem.code,
          message: problem.message,
          ...(problem.parameter ? { parameter: problem.parameter } : {}),
        },
      }
    }
    const text = JSON.stringify(body)
    response.writeHead(status, {
      'content-type': 'application/json; charset=utf-8',
      'content-length': Buffer.byteLength(text),
      ...(status === 405 ? { allow: 'GET' } : {}),
    })
    response.end(text)
  }

  return {
    get url() {
      if (!url) throw new Error('The reference service is not started.')
      return url
    },
    requests,
    start() {
      if (server) return Promise.resolve(url)
      const started = createServer((request, response) => {
        void listener(request, response)
      })
      server = started
      return new Promise((resolve, reject) => {
        started.once('error', reject)
        started.listen(0, '127.0.0.1', () => {
          url = `http://127.0.0.1:${(started.address() as AddressInfo).port}`
          resolve(url)
        })
      })
    },
    async stop() {
      const running = server
      server = undefined
      url = ''
      if (!running) return
      running.closeAllConnections()
      await new Promise<void>((resolve) => running.close(() => resolve()))
    },
  }
}
