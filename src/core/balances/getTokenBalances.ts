import {
  type Address,
  type CallErrorType,
  type Chain,
  decodeFunctionResult,
  encodeFunctionData,
  formatUnits,
  type GetBalanceErrorType,
  type GetBlockNumberErrorType,
  type GetChainIdErrorType,
  type GetCodeErrorType,
  type Hex,
  hexToBigInt,
  type PublicClient,
  size,
  type Transport,
} from 'viem'
import { call, getBalance, getBlockNumber, getChainId } from 'viem/actions'
import { getTokenPrice } from '../actions/getTokenPrice.js'
import { getTokens } from '../actions/getTokens.js'
import type { SwapClient } from '../client.js'
import { isNativeToken } from '../constants.js'
import { BlockNotReachedError, type BlockNotReachedErrorType } from '../errors/balances.js'
import { walk } from '../errors/base.js'
import { ensure, type InvalidParameterErrorType } from '../errors/parameter.js'
import type { RequestErrorType } from '../errors/request.js'
import type { ResponseValidationErrorType } from '../errors/response.js'
import type { RequestOptions } from '../types.js'
import { abortError, raceAbort } from '../utils/signal.js'
import { assertAddress, assertObject, isAddressLike, isObject } from '../utils/validate.js'
import { isMulticall3Deployed, multicall3Abi, multicall3AddressOf } from './multicall3.js'
import {
  balanceOfGasLimit,
  decodeTokenBalanceReader,
  mayRunTokenBalanceReader,
  rememberNoTokenBalanceReader,
  tokenBalanceReaderAddress,
  tokenBalanceReaderCode,
  tokenBalanceReaderData,
} from './tokenBalanceReader.js'

/**
 * A token to read a balance of: a record of the service's list (`Token`), or
 * any record with an address; `symbol` sorts it, `decimals` values it. Other
 * fields are kept as given.
 */
export type BalanceToken = {
  address: Address
  symbol?: string | undefined
  name?: string | undefined
  decimals?: number | undefined
  [field: string]: unknown
}

/**
 * USD prices for the held tokens: a record of the prices you already have
 * (by address, any letter case; those are not requested), `false` for no
 * prices at all, or your own source (called for held tokens only, at most
 * `maxPrices` of them). Default: `/overview/token/price` (`getTokenPrice`).
 */
export type TokenBalancesPrices =
  | Readonly<Record<string, number>>
  | false
  | ((token: BalanceToken, options: RequestOptions) => Promise<number | undefined>)

/** What `getTokenBalances` takes. */
export type GetTokenBalancesParameters = {
  /** Reads the chain: the user's `usePublicClient()`. Never the swap service. */
  publicClient: PublicClient<Transport, Chain | undefined>
  /** Whose balances. */
  account: Address
  /**
   * The tokens (records or addresses). Default: the service's list
   * (`/overview/tokens`). The native-coin sentinel (`0xEeee…EEeE`) reads the
   * account's coin balance.
   */
  tokens?: readonly (BalanceToken | Address)[] | undefined
  /** The chain the balances are for; must be the public client's. Default: the client's chain, else asked. */
  chainId?: number | undefined
  /** See `TokenBalancesPrices`. Default: requested from the service, for held tokens only. */
  prices?: TokenBalancesPrices | undefined
  /**
   * At most this many price requests per call, for the first held tokens in
   * list order (a wallet holding 500 listed tokens costs 10 price requests,
   * not 500). Default 10; 0 requests none.
   */
  maxPrices?: number | undefined
  /**
   * Read at this block or a later one: the block of a settled swap, so that a
   * refresh after the receipt cannot show the balances from before it. A node
   * that has not reached it yet is a `BlockNotReachedError`.
   */
  blockNumber?: bigint | undefined
  /** Tokens per `eth_call` of the reader (or per Multicall3 `aggregate3`, or `eth_call`s in flight without either). Default 500. */
  batchSize?: number | undefined
}

/** A token's balance, or why it could not be read. */
export type TokenBalance =
  | {
      token: BalanceToken
      status: 'success'
      /** In the token's smallest unit. */
      balance: bigint
      /** USD per whole token, when known (requested for held tokens only). */
      priceUsd?: number | undefined
      /** `balance` in USD, when the price and the decimals are known. */
      valueUsd?: number | undefined
    }
  | {
      token: BalanceToken
      status: 'error'
      balance: undefined
      /**
       * `'reverted'`: its `balanceOf` reverted, or ran out of the gas one
       * token is given (200,000); `'malformed'`: it answered something that
       * is not one uint256 (not 32 bytes: nothing, a byte, two words), as an
       * address without code does.
       */
      reason: 'reverted' | 'malformed'
      priceUsd?: undefined
      valueUsd?: undefined
    }

/** What `getTokenBalances` resolves with. */
export type GetTokenBalancesReturnType = {
  /** Held tokens first (by USD value, then by symbol), then the rest by symbol, then unreadable ones. */
  balances: TokenBalance[]
  /** The block every balance was read at. */
  blockNumber: bigint
  chainId: number
  /**
   * How the balances were read: `'stateOverride'`, one `eth_call` per batch
   * running the library's balance reader (placed by a state override, each
   * token given at most 200,000 gas); on a node that does not take state
   * overrides, `'multicall3'`, one Multicall3 `aggregate3` per batch, or
   * `'eth_call'`, one `eth_call` per token.
   */
  method: 'stateOverride' | 'multicall3' | 'eth_call'
}

/** Every error `getTokenBalances` may throw (narrow by `name`, or by `code`). */
export type GetTokenBalancesErrorType =
  | InvalidParameterErrorType
  | BlockNotReachedErrorType
  | RequestErrorType
  | ResponseValidationErrorType
  | CallErrorType
  | GetBalanceErrorType
  | GetBlockNumberErrorType
  | GetChainIdErrorType
  | GetCodeErrorType

/** The default bound on price requests per call. */
export const defaultMaxPrices = 10
/** The default number of tokens per `eth_call` of the reader (or per `aggregate3`). */
export const defaultBalancesBatchSize = 500

/** What reading one token gave. */
type Read = { balance: bigint } | { reason: 'reverted' | 'malformed' }

/**
 * The account's balance of every token of the service's list (or of
 * `tokens`), read through the user's public client in as few calls as the
 * chain allows: one `eth_call` per `batchSize` tokens running the library's
 * balance reader, placed by a state override (any chain whose node takes
 * them: no contract needs to be deployed), the native coin included, each
 * token's `balanceOf` given at most 200,000 gas. On a node that refuses or
 * ignores state overrides (remembered per client and chain): where Multicall3
 * is deployed (asked once per client and chain), one `aggregate3` per
 * `batchSize` tokens, each call allowed to fail, the native coin included
 * (`getEthBalance`); elsewhere one `eth_call` per token (200,000 gas each),
 * sent together (a transport with `batch: true` packs them into JSON-RPC
 * batches), and `eth_getBalance` for the native coin. Every balance is read
 * at the same block.
 *
 * A token whose `balanceOf` reverts, burns more than its 200,000 gas, or
 * answers anything but one uint256 is marked (`status: 'error'`, `reason`),
 * never fatal for the list; a node or service that fails is. Prices come from `/overview/token/price` (through the
 * client's rate limiter) for held tokens only, at most `maxPrices` of them.
 * Sorted as token pickers sort: held tokens first, by USD value where the
 * price is known, else by symbol; then tokens not held, by symbol; then the
 * unreadable ones.
 *
 * @example
 * import { getTokenBalances } from 'token-swap-hooks/core'
 * import { createPublicClient, http } from 'viem'
 * import { mainnet } from 'viem/chains'
 *
 * const publicClient = createPublicClient({ chain: mainnet, transport: http() })
 * const { balances, blockNumber } = await getTokenBalances(client, { publicClient, account })
 * for (const entry of balances)
 *   if (entry.status === 'success' && entry.balance > 0n) console.log(entry.token.symbol, entry.balance, entry.valueUsd)
 */
export async function getTokenBalances(
  client: SwapClient,
  parameters: GetTokenBalancesParameters,
  options: RequestOptions = {},
): Promise<GetTokenBalancesReturnType> {
  assertTokenBalancesParameters(parameters)
  const {
    publicClient,
    account,
    maxPrices = defaultMaxPrices,
    batchSize = defaultBalancesBatchSize,
  } = parameters
  const { signal } = options
  const settle = <value>(promise: Promise<value>) => (signal ? raceAbort(promise, signal) : promise)
  const checkAborted = () => {
    if (signal?.aborted) throw abortError(signal)
  }

  const [listed, chain] = await Promise.all([
    parameters.tokens ?? getTokens(client, {}, { signal }),
    settle(readChain(publicClient, parameters.chainId, parameters.blockNumber)),
  ])
  const tokens = uniqueTokens(listed)
  checkAborted()

  const { reads, method } = await settle(
    readAll(publicClient, chain.chainId, account, tokens, chain.blockNumber, batchSize),
  )
  checkAborted()

  const prices = await readPrices(client, tokens, reads, parameters.prices, maxPrices, options)
  const balances = tokens.map((token, index): TokenBalance => {
    const read = reads[index] as Read
    if ('reason' in read) return { token, status: 'error', balance: undefined, reason: read.reason }
    const priceUsd = prices[index]
    const decimals = decimalsOf(token)
    return {
      token,
      status: 'success',
      balance: read.balance,
      ...(priceUsd !== undefined && { priceUsd }),
      ...(priceUsd !== undefined &&
        decimals !== undefined &&
        read.balance > 0n && { valueUsd: Number(formatUnits(read.balance, decimals)) * priceUsd }),
    }
  })
  return {
    balances: balances.sort(pickerOrder),
    blockNumber: chain.blockNumber,
    chainId: chain.chainId,
    method,
  }
}

/** The chain and the block to read at. */
async function readChain(
  publicClient: PublicClient<Transport, Chain | undefined>,
  chainId: number | undefined,
  atLeast: bigint | undefined,
): Promise<{ chainId: number; blockNumber: bigint }> {
  const known = publicClient.chain?.id
  const [id, latest] = await Promise.all([
    chainId ?? known ?? getChainId(publicClient),
    // Never viem's cached block number: it may predate the swap being waited for.
    getBlockNumber(publicClient, { cacheTime: 0 }),
  ])
  if (atLeast !== undefined && latest < atLeast)
    throw new BlockNotReachedError({ blockNumber: atLeast, latest })
  return { chainId: id, blockNumber: latest }
}

/**
 * Every token's read: with the reader where the node runs it; else with
 * Multicall3 where it is deployed; else token by token.
 */
async function readAll(
  publicClient: PublicClient<Transport, Chain | undefined>,
  chainId: number,
  account: Address,
  tokens: readonly BalanceToken[],
  blockNumber: bigint,
  batchSize: number,
): Promise<{ reads: Read[]; method: GetTokenBalancesReturnType['method'] }> {
  if (mayRunTokenBalanceReader(publicClient, chainId)) {
    const reads = await readWithReader(publicClient, account, tokens, blockNumber, batchSize)
    if (reads) return { reads, method: 'stateOverride' }
    rememberNoTokenBalanceReader(publicClient, chainId)
  }
  const multicall = multicall3AddressOf(publicClient)
  if (await isMulticall3Deployed(publicClient, chainId, multicall))
    return {
      reads: await readWithMulticall(publicClient, multicall, account, tokens, blockNumber, batchSize),
      method: 'multicall3',
    }
  return { reads: await readEach(publicClient, account, tokens, blockNumber, batchSize), method: 'eth_call' }
}

/**
 * With the reader, placed by a state override: one `eth_call` per batch (one
 * more for the rest of a batch when the node's gas allowance for a call ran
 * short of it), or `undefined` when the node did not run it (it refused the
 * override or ignored it); a node that fails throws.
 */
async function readWithReader(
  publicClient: PublicClient<Transport, Chain | undefined>,
  account: Address,
  tokens: readonly BalanceToken[],
  blockNumber: bigint,
  batchSize: number,
): Promise<Read[] | undefined> {
  const batches = await Promise.all(
    chunks(tokens, batchSize).map(async (batch) => {
      const reads: Read[] = []
      while (reads.length < batch.length) {
        const rest = batch.slice(reads.length)
        let data: Hex | undefined
        try {
          ;({ data } = await call(publicClient, {
            to: tokenBalanceReaderAddress,
            data: tokenBalanceReaderData(
              account,
              rest.map((token) => token.address),
            ),
            blockNumber,
            stateOverride: [{ address: tokenBalanceReaderAddress, code: tokenBalanceReaderCode }],
          }))
        } catch (error) {
          if (isNodeUnavailable(error)) throw error
          return undefined
        }
        const entries = decodeTokenBalanceReader(data, rest.length)
        if (!entries) return undefined
        reads.push(...entries)
      }
      return reads
    }),
  )
  return batches.some((reads) => reads === undefined) ? undefined : (batches as Read[][]).flat()
}

/** `size` items at a time. */
function chunks<item>(items: readonly item[], size: number): item[][] {
  const batches: item[][] = []
  for (let start = 0; start < items.length; start += size) batches.push(items.slice(start, start + size))
  return batches
}

/** `balanceOf(account)`: the same call data for every token. */
function balanceOfData(account: Address): Hex {
  return `0x70a08231${account.slice(2).toLowerCase().padStart(64, '0')}`
}

/** One uint256, or `malformed` for anything else (no data, a byte, two words). */
function toRead(data: Hex | undefined): Read {
  if (!data || size(data) !== 32) return { reason: 'malformed' }
  return { balance: hexToBigInt(data) }
}

/**
 * How nodes word a call that halted for want of gas or on `INVALID` (which
 * burns it all): geth and Erigon `out of gas`, `invalid opcode`; Nethermind
 * `OutOfGas`; anvil `EVM error OutOfGas`, `MemoryOOG`, `InvalidFEOpcode`.
 */
const haltedCall = /out of gas|outofgas|oog\b|invalid opcode|invalidfeopcode/i

/**
 * True when the node ran the call and it failed: it reverted, or halted out
 * of gas (as opposed to the node or the transport failing).
 */
function isCallFailure(error: unknown): boolean {
  return (
    walk(error, (cause) => {
      const { name, code, details } = (cause ?? {}) as { name?: unknown; code?: unknown; details?: unknown }
      return (
        name === 'ExecutionRevertedError' ||
        name === 'RawContractError' ||
        name === 'ContractFunctionRevertedError' ||
        code === 3 ||
        (typeof details === 'string' && haltedCall.test(details))
      )
    }) !== null
  )
}

/**
 * True when the node could not be reached or would not serve (a timeout, an
 * HTTP failure other than a refusal of the request, a rate limit), as opposed
 * to a node that answered the request with an error.
 */
function isNodeUnavailable(error: unknown): boolean {
  return (
    walk(error, (cause) => {
      const { name, status, code } = (cause ?? {}) as { name?: unknown; status?: unknown; code?: unknown }
      if (name === 'TimeoutError' || name === 'AbortError' || code === -32005 || code === 429) return true
      return name === 'HttpRequestError' && (typeof status !== 'number' || status === 429 || status >= 500)
    }) !== null
  )
}

/** What an `eth_call` of `balanceOf` costs before the token runs: 21,000 and its 36 bytes of data, rounded up. */
const callBaseGas = 25_000n

/**
 * One token read on its own: `eth_getBalance` for the native coin, else
 * `eth_call` of `balanceOf` with the gas a token is given (plus the call's
 * own base cost).
 */
async function readOne(
  publicClient: PublicClient<Transport, Chain | undefined>,
  account: Address,
  token: BalanceToken,
  blockNumber: bigint,
): Promise<Read> {
  if (isNativeToken(token.address))
    return { balance: await getBalance(publicClient, { address: account, blockNumber }) }
  try {
    const { data } = await call(publicClient, {
      to: token.address,
      data: balanceOfData(account),
      blockNumber,
      gas: balanceOfGasLimit + callBaseGas,
    })
    return toRead(data)
  } catch (error) {
    if (isCallFailure(error)) return { reason: 'reverted' }
    throw error
  }
}

/** Without Multicall3: `batchSize` tokens at a time, each with its own call. */
async function readEach(
  publicClient: PublicClient<Transport, Chain | undefined>,
  account: Address,
  tokens: readonly BalanceToken[],
  blockNumber: bigint,
  batchSize: number,
): Promise<Read[]> {
  const reads: Read[] = []
  for (const batch of chunks(tokens, batchSize))
    reads.push(
      ...(await Promise.all(batch.map((token) => readOne(publicClient, account, token, blockNumber)))),
    )
  return reads
}

/**
 * With Multicall3 (a node that does not run the reader): one `aggregate3` per
 * batch, every call allowed to fail. A call that failed inside it is read
 * again on its own, with the gas a token is given; a batch that fails as a
 * whole (it reverted, or a token burnt the batch's gas: Multicall3 cannot cap
 * a call's gas) is read token by token.
 */
async function readWithMulticall(
  publicClient: PublicClient<Transport, Chain | undefined>,
  multicall: Address,
  account: Address,
  tokens: readonly BalanceToken[],
  blockNumber: bigint,
  batchSize: number,
): Promise<Read[]> {
  const data = balanceOfData(account)
  const ethBalance = encodeFunctionData({
    abi: multicall3Abi,
    functionName: 'getEthBalance',
    args: [account],
  })
  const results = await Promise.all(
    chunks(tokens, batchSize).map(async (batch) => {
      const calls = batch.map((token) =>
        isNativeToken(token.address)
          ? { target: multicall, allowFailure: true, callData: ethBalance }
          : { target: token.address, allowFailure: true, callData: data },
      )
      let answers: readonly { success: boolean; returnData: Hex }[] | undefined
      try {
        const result = await call(publicClient, {
          to: multicall,
          data: encodeFunctionData({ abi: multicall3Abi, functionName: 'aggregate3', args: [calls] }),
          blockNumber,
        })
        if (result.data)
          try {
            answers = decodeFunctionResult({
              abi: multicall3Abi,
              functionName: 'aggregate3',
              data: result.data,
            })
          } catch {
            // Not Multicall3's answer (another contract at its address): read token by token.
          }
      } catch (error) {
        if (!isCallFailure(error)) throw error
      }
      return Promise.all(
        batch.map((token, index) => {
          const answer = answers?.[index]
          return answer?.success
            ? toRead(answer.returnData === '0x' ? undefined : answer.returnData)
            : readOne(publicClient, account, token, blockNumber)
        }),
      )
    }),
  )
  return results.flat()
}

/** The USD price of each token (by index), requested for held tokens only, `maxPrices` at most. */
async function readPrices(
  client: SwapClient,
  tokens: readonly BalanceToken[],
  reads: readonly Read[],
  prices: TokenBalancesPrices | undefined,
  maxPrices: number,
  options: RequestOptions,
): Promise<(number | undefined)[]> {
  const found: (number | undefined)[] = tokens.map(() => undefined)
  if (prices === false) return found
  const given = new Map<string, number>()
  if (isObject(prices))
    for (const [address, price] of Object.entries(prices)) given.set(address.toLowerCase(), price)
  const wanted: number[] = []
  tokens.forEach((token, index) => {
    const read = reads[index] as Read
    if (!('balance' in read) || read.balance === 0n) return
    const price = given.get(token.address.toLowerCase())
    if (price !== undefined) found[index] = price
    else if (wanted.length < maxPrices) wanted.push(index)
  })
  const source =
    typeof prices === 'function'
      ? prices
      : (token: BalanceToken, options: RequestOptions) =>
          getTokenPrice(client, { address: token.address }, options)
  await Promise.all(
    wanted.map(async (index) => {
      try {
        found[index] = await source(tokens[index] as BalanceToken, options)
      } catch (error) {
        // A token the service has no price for stays unvalued; an abort ends the whole call.
        if (options.signal?.aborted) throw abortError(options.signal)
        if ((error as { name?: unknown })?.name === 'AbortError') throw error
      }
    }),
  )
  return found
}

/** The token's decimals: its record's, or 18 for the native coin. */
function decimalsOf(token: BalanceToken): number | undefined {
  const { decimals } = token
  if (Number.isInteger(decimals) && (decimals as number) >= 0 && (decimals as number) <= 255)
    return decimals as number
  return isNativeToken(token.address) ? 18 : undefined
}

/** Records from addresses, each address once (the first record of an address wins). */
function uniqueTokens(tokens: readonly (BalanceToken | Address)[]): BalanceToken[] {
  const seen = new Set<string>()
  const unique: BalanceToken[] = []
  for (const token of tokens) {
    const record = typeof token === 'string' ? { address: token } : token
    const key = record.address.toLowerCase()
    if (seen.has(key)) continue
    seen.add(key)
    unique.push(record)
  }
  return unique
}

/** 0: held with a USD value, 1: held without one, 2: not held, 3: unreadable. */
function rank(entry: TokenBalance): number {
  if (entry.status === 'error') return 3
  if (entry.balance === 0n) return 2
  return entry.valueUsd === undefined ? 1 : 0
}

/** Held first (by USD value, then by symbol), then not held (by symbol), then unreadable; ties by address. */
function pickerOrder(a: TokenBalance, b: TokenBalance): number {
  const byRank = rank(a) - rank(b)
  if (byRank) return byRank
  const byValue = (b.valueUsd ?? 0) - (a.valueUsd ?? 0)
  if (byValue) return byValue
  const symbolA = typeof a.token.symbol === 'string' ? a.token.symbol.toLowerCase() : undefined
  const symbolB = typeof b.token.symbol === 'string' ? b.token.symbol.toLowerCase() : undefined
  if (symbolA !== symbolB) {
    // A token without a symbol goes after those with one.
    if (symbolA === undefined) return 1
    if (symbolB === undefined) return -1
    return symbolA < symbolB ? -1 : 1
  }
  const addressA = a.token.address.toLowerCase()
  const addressB = b.token.address.toLowerCase()
  return addressA < addressB ? -1 : addressA > addressB ? 1 : 0
}

/** Throws `InvalidParameterError` unless the parameters of `getTokenBalances` are valid. */
function assertTokenBalancesParameters(
  parameters: unknown,
): asserts parameters is GetTokenBalancesParameters {
  assertObject(parameters)
  const { publicClient, account, tokens, chainId, prices, maxPrices, blockNumber, batchSize } = parameters
  ensure(
    isObject(publicClient) && typeof publicClient.request === 'function',
    'publicClient',
    'must be a viem public client (usePublicClient() in wagmi)',
    publicClient,
  )
  assertAddress('account', account)
  if (tokens !== undefined) {
    ensure(Array.isArray(tokens), 'tokens', 'must be an array of token records or addresses', tokens)
    tokens.forEach((token: unknown, index) => {
      const address = isObject(token) ? token.address : token
      // List records keep their addresses as the service sent them: any letter case is read.
      ensure(
        isAddressLike(address),
        isObject(token) ? `tokens[${index}].address` : `tokens[${index}]`,
        'must be an address (0x followed by 40 hex digits)',
        address,
      )
    })
  }
  if (chainId !== undefined) {
    ensure(
      Number.isSafeInteger(chainId) && (chainId as number) > 0,
      'chainId',
      'must be a positive integer',
      chainId,
    )
    const known = (publicClient as { chain?: { id?: unknown } }).chain?.id
    ensure(
      known === undefined || chainId === known,
      'chainId',
      `must be the public client's chain (${known})`,
      chainId,
    )
  }
  if (prices !== undefined && prices !== false && typeof prices !== 'function') {
    ensure(
      isObject(prices),
      'prices',
      'must be a record of USD prices by address, false or a function',
      prices,
    )
    for (const [address, price] of Object.entries(prices))
      ensure(
        typeof price === 'number' && Number.isFinite(price) && price >= 0,
        `prices[${address}]`,
        'must be a finite USD price of at least 0',
        price,
      )
  }
  if (maxPrices !== undefined)
    ensure(
      Number.isSafeInteger(maxPrices) && (maxPrices as number) >= 0,
      'maxPrices',
      'must be an integer of at least 0',
      maxPrices,
    )
  if (blockNumber !== undefined)
    ensure(
      typeof blockNumber === 'bigint' && blockNumber >= 0n,
      'blockNumber',
      'must be a bigint of at least 0',
      blockNumber,
    )
  if (batchSize !== undefined)
    ensure(
      Number.isSafeInteger(batchSize) && (batchSize as number) >= 1,
      'batchSize',
      'must be an integer of at least 1',
      batchSize,
    )
}
