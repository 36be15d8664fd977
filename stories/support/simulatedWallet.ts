import {
  type Address,
  createPublicClient,
  createWalletClient,
  custom,
  decodeFunctionData,
  type EIP1193Provider,
  encodeAbiParameters,
  encodeErrorResult,
  encodeFunctionResult,
  erc20Abi,
  getAbiItem,
  getAddress,
  type Hex,
  isAddressEqual,
  keccak256,
  numberToHex,
  pad,
  toEventSelector,
  toHex,
} from 'viem'
import { multicall3Abi, multicall3Address } from '../../src/core/balances/multicall3.js'
import { isNativeToken, nativeTokenAddress } from '../../src/core/constants.js'
import {
  swapGuardAbi,
  swapGuardAddress,
  swapGuardExecutorAddress,
} from '../../src/core/execute/guard/swapGuard.js'
import { balanceReaderAddress } from '../../src/core/execute/run/stateOverrides.js'
import { swapRouterAbi } from '../../src/mock/routerAbi.js'
import type { MockMarket } from '../../src/mock/types.js'
import { swapGuardExecutorRuntimeCode, swapGuardRuntimeCode } from './swapGuardRuntimeCode.js'

/**
 * A token deployed on the simulated chain that the service does not list, which answers its
 * name and symbol as `bytes32` (as MKR and SAI do on mainnet): what a user may paste.
 */
export const unlistedBytes32Token: Address = getAddress('0x9f8f72aa9304c8b593d555f12ef6589cc3a579a2')

/** The account the simulated wallet signs for. */
export const simulatedAccount: Address = getAddress('0x5a1a5a1a5a1a5a1a5a1a5a1a5a1a5a1a5a1a5a1a')
export const simulatedChainId = 1

const errorAbi = [{ type: 'error', name: 'Error', inputs: [{ name: 'message', type: 'string' }] }] as const
const transferTopic = '0xddf252ad1be2c89b69c2b068fc378daa952ba7f163c4a11628f55a4df523b3ef'
const guardedSwapTopic = toEventSelector(getAbiItem({ abi: swapGuardAbi, name: 'GuardedSwap' }))
const approvalTopic = '0x8c5be1e5ebec7d5bd14f71427d1e84f3dd0314c0f7b2291e5b200ac8c7c3b925'
const gasPrice = 1_000_000_000n
const gasPerCall = 120_000n

type Log = { address: Address; topics: Hex[]; data: Hex }
type Receipt = {
  hash: Hex
  blockNumber: bigint
  status: 'success' | 'reverted'
  to: Address
  from: Address
  logs: Log[]
}
type Ledger = { balances: Map<string, bigint>; allowances: Map<string, bigint> }

/** One request the wallet (not its node) was asked, and its answer. */
export type WalletRequest = {
  method: 'wallet_getCapabilities' | 'wallet_sendCalls' | 'eth_sendTransaction'
  answer: 'answered' | 'rejected' | 'declined' | 'unsupported' | 'no answer'
}

export type SimulatedWalletOptions = {
  /** The market whose router and spender the wallet's chain knows. */
  market: MockMarket
  /** The account's balances in smallest units, by token address (native included). */
  balances?: Record<Address, bigint>
  /** How long a transaction takes to be mined, in ms. Default 500. */
  blockTimeMs?: number
}

/**
 * An in-memory EIP-1193 wallet and chain for Storybook: it signs for one
 * account, keeps its ERC-20 and native balances and allowances, mines each
 * transaction after `blockTimeMs` (charging gas), executes the mock router's
 * `swap` with the market's quote, emits Transfer and Approval logs, and
 * answers `eth_simulateV1` (with the balance reader) so that the library's
 * outcome check runs as against a real node. It can be told to reject the next
 * requests, as a user would; to batch (EIP-5792); to leave `wallet_getCapabilities`
 * unanswered; or to be an EIP-7702 account whose user declines the upgrade a batch needs.
 */
export function createSimulatedWallet({ market, balances = {}, blockTimeMs = 500 }: SimulatedWalletOptions) {
  const ledger: Ledger = {
    balances: new Map(Object.entries(balances).map(([k, v]) => [k.toLowerCase(), v])),
    allowances: new Map(),
  }
  const state = {
    blockNumber: 1n,
    nonce: 0,
    receipts: new Map<Hex, Receipt>(),
    /** EIP-5792: the wallet batches atomically (wallet_sendCalls). */
    batching: false,
    /** wallet_getCapabilities is left pending forever, as some wallets do. */
    capabilitiesHang: false,
    /**
     * An EIP-7702 account not upgraded yet: wallet_getCapabilities reports `atomic: 'ready'`, and
     * the user declines the upgrade the batch would need (wallet_sendCalls fails with 5750).
     */
    decliningUpgrade: false,
    batches: new Map<string, { status: number; receipts: Hex[] }>(),
    /** The next swap transaction is never answered: the page that asked for it reloads. */
    interruptNextSwap: false,
    /** The account's native balance at the end of each block, for historical eth_getBalance. */
    nativeAt: new Map<bigint, bigint>(),
    rejecting: false,
    sent: [] as { to: Address; data: Hex; value: bigint; hash: Hex }[],
    /** What the wallet was asked (its own methods, not the node's) and how it answered, in order. */
    requests: [] as WalletRequest[],
  }
  state.nativeAt.set(state.blockNumber, ledger.balances.get(nativeTokenAddress.toLowerCase()) ?? 0n)
  const listeners = new Set<() => void>()
  /** The requests left unanswered (interruptNextSwap), until the page that asked closes. */
  const unanswered = new Set<(error: Error) => void>()
  let version = 0
  const notify = () => {
    version += 1
    for (const listener of listeners) listener()
  }

  const balanceIn = (l: Ledger, token: Address) => l.balances.get(token.toLowerCase()) ?? 0n
  const balanceOf = (token: Address) => balanceIn(ledger, token)
  const move = (l: Ledger, token: Address, delta: bigint) =>
    l.balances.set(token.toLowerCase(), balanceIn(l, token) + delta)
  const allowanceKey = (token: Address, spender: Address) => `${token}:${spender}`.toLowerCase()
  const allowanceIn = (l: Ledger, token: Address, spender: Address) =>
    l.allowances.get(allowanceKey(token, spender)) ?? 0n
  const allowance = (token: Address, spender: Address) => allowanceIn(ledger, token, spender)
  const topic = (address: Address) => pad(address)
  const amount = (value: bigint) => encodeAbiParameters([{ type: 'uint256' }], [value])

  /** The mock router's `swap` calldata, priced at the market's quote; reverts as the router would. */
  function routerSwap(data: Hex, value: bigint) {
    const { args } = decodeFunctionData({ abi: swapRouterAbi, data })
    const [path, amountIn, minAmountOut, recipient] = args
    const token0 = path[0] as Address
    const token1 = path[path.length - 1] as Address
    if (isNativeToken(token0) ? value !== amountIn : value !== 0n) revert('Router: wrong value')
    const quote = market.quote({ token0, token1, amountIn })
    if (!quote || quote.amountOut < minAmountOut) revert('Router: slippage')
    return { token0, token1, amountIn, recipient, amountOut: quote.amountOut }
  }

  /** The account pays `amountIn` of token0 to `payee`, the recipient gets the output: the ledger moves and the Transfer logs. */
  function pay(l: Ledger, swap: ReturnType<typeof routerSwap>, payee: Address): Log[] {
    const { token0, token1, amountIn, recipient, amountOut } = swap
    if (balanceIn(l, token0) < amountIn) revert('Router: balance too low')
    const logs: Log[] = []
    if (!isNativeToken(token0))
      logs.push({
        address: token0,
        topics: [transferTopic, topic(simulatedAccount), topic(payee)],
        data: amount(amountIn),
      })
    move(l, token0, -amountIn)
    // Only the account's balances are kept: output to anyone else leaves this chain's view.
    if (isAddressEqual(recipient, simulatedAccount)) move(l, token1, amountOut)
    if (!isNativeToken(token1))
      logs.push({
        address: token1,
        topics: [transferTopic, topic(market.router), topic(recipient)],
        data: amount(amountOut),
      })
    return logs
  }

  /** Runs a call from the account against a ledger, which it changes; returns its result and logs or throws a revert. */
  function execute(
    l: Ledger,
    { to, data, value }: { to: Address; data: Hex; value: bigint },
  ): { data: Hex; logs: Log[] } {
    if (isAddressEqual(to, balanceReaderAddress)) {
      const holder = getAddress(`0x${data.slice(-40)}`)
      return {
        data: amount(isAddressEqual(holder, simulatedAccount) ? balanceIn(l, nativeTokenAddress) : 0n),
        logs: [],
      }
    }
    // Multicall3 (deployed on this chain, as on most): aggregate3 runs each call on its own, and getEthBalance.
    if (isAddressEqual(to, multicall3Address)) {
      const call = decodeFunctionData({ abi: multicall3Abi, data })
      if (call.functionName === 'getEthBalance')
        return {
          data: amount(
            isAddressEqual(call.args[0], simulatedAccount) ? balanceIn(l, nativeTokenAddress) : 0n,
          ),
          logs: [],
        }
      const results = call.args[0].map(({ target, callData }) => {
        try {
          return { success: true, returnData: execute(l, { to: target, data: callData, value: 0n }).data }
        } catch (error) {
          return { success: false, returnData: (error as { data?: Hex }).data ?? '0x' }
        }
      })
      return {
        data: encodeFunctionResult({ abi: multicall3Abi, functionName: 'aggregate3', result: results }),
        logs: [],
      }
    }
    if (isAddressEqual(to, market.router)) {
      const swap = routerSwap(data, value)
      const { token0, amountIn } = swap
      if (!isNativeToken(token0) && allowanceIn(l, token0, market.spender) < amountIn)
        revert('Router: allowance too low')
      if (!isNativeToken(token0))
        l.allowances.set(
          allowanceKey(token0, market.spender),
          allowanceIn(l, token0, market.spender) - amountIn,
        )
      const logs = pay(l, swap, market.router)
      return {
        data: encodeFunctionResult({ abi: swapRouterAbi, functionName: 'swap', result: swap.amountOut }),
        logs,
      }
    }
    if (isAddressEqual(to, swapGuardAddress)) {
      // The guard: it pulls amountIn from the account only (its allowance to the guard), has the
      // router swap for its executor, and reverts unless the recipient gets the floor.
      const decoded = decodeFunctionData({ abi: swapGuardAbi, data })
      if (decoded.functionName !== 'swap') revert('SwapGuard: only swap is simulated here')
      const [token0, amountIn, token1, floor, recipient, , router, routerData] = decoded.args
      if (!isAddressEqual(router, market.router)) revert('SwapGuard: unknown router')
      const swap = routerSwap(routerData, value)
      if (!isAddressEqual(swap.token0, token0) || !isAddressEqual(swap.token1, token1))
        revert('SwapGuard: other tokens')
      if (swap.amountIn > amountIn) revert('SwapGuard: amountIn exceeded')
      if (!isNativeToken(token0)) {
        if (allowanceIn(l, token0, swapGuardAddress) < amountIn) revert('ERC20: insufficient allowance')
        l.allowances.set(
          allowanceKey(token0, swapGuardAddress),
          allowanceIn(l, token0, swapGuardAddress) - amountIn,
        )
      }
      if (!isAddressEqual(swap.recipient, recipient) || swap.amountOut < floor)
        throw Object.assign(new Error('execution reverted: AmountOutTooLow'), {
          code: 3,
          data: encodeErrorResult({
            abi: swapGuardAbi,
            errorName: 'AmountOutTooLow',
            args: [isAddressEqual(swap.recipient, recipient) ? swap.amountOut : 0n, floor],
          }),
        })
      const logs = pay(l, swap, swapGuardExecutorAddress)
      logs.push({
        address: swapGuardAddress,
        topics: [guardedSwapTopic, topic(simulatedAccount), topic(recipient)],
        data: encodeAbiParameters(
          [{ type: 'address' }, { type: 'address' }, { type: 'uint256' }, { type: 'uint256' }],
          [token0, token1, swap.amountIn, swap.amountOut],
        ),
      })
      return {
        data: encodeFunctionResult({ abi: swapGuardAbi, functionName: 'swap', result: swap.amountOut }),
        logs,
      }
    }
    if (isAddressEqual(to, unlistedBytes32Token)) return { data: bytes32TokenAnswer(data), logs: [] }
    // Any other address is an ERC-20 token.
    const call = decodeFunctionData({ abi: erc20Abi, data })
    switch (call.functionName) {
      case 'approve': {
        const [spender, value] = call.args
        l.allowances.set(allowanceKey(to, spender), value)
        return {
          data: encodeFunctionResult({ abi: erc20Abi, functionName: 'approve', result: true }),
          logs: [
            {
              address: to,
              topics: [approvalTopic, topic(simulatedAccount), topic(spender)],
              data: amount(value),
            },
          ],
        }
      }
      case 'allowance':
        return {
          data: encodeFunctionResult({
            abi: erc20Abi,
            functionName: 'allowance',
            result: allowanceIn(l, to, call.args[1]),
          }),
          logs: [],
        }
      case 'balanceOf': {
        const held = isAddressEqual(call.args[0], simulatedAccount) ? balanceIn(l, to) : 0n
        return {
          data: encodeFunctionResult({ abi: erc20Abi, functionName: 'balanceOf', result: held }),
          logs: [],
        }
      }
      case 'decimals':
        return {
          data: encodeFunctionResult({
            abi: erc20Abi,
            functionName: 'decimals',
            result: market.getToken(to)?.decimals ?? 18,
          }),
          logs: [],
        }
      case 'name':
      case 'symbol': {
        const token = market.getToken(to)
        if (!token) return revert(`Token: ${call.functionName} not simulated`)
        return {
          data: encodeFunctionResult({
            abi: erc20Abi,
            functionName: call.functionName,
            result: call.functionName === 'name' ? token.name : token.symbol,
          }),
          logs: [],
        }
      }
      case 'totalSupply':
        return {
          data: encodeFunctionResult({ abi: erc20Abi, functionName: 'totalSupply', result: 10n ** 30n }),
          logs: [],
        }
      default:
        return revert(`Token: ${call.functionName} not simulated`)
    }
  }

  const fork = (): Ledger => ({ balances: new Map(ledger.balances), allowances: new Map(ledger.allowances) })

  function revert(reason: string): never {
    const data = encodeErrorResult({ abi: errorAbi, errorName: 'Error', args: [reason] })
    throw Object.assign(new Error(`execution reverted: ${reason}`), { code: 3, data })
  }

  const blockHash = (number: bigint) => keccak256(toHex(`block-${number}`))
  const block = (number = state.blockNumber) => ({
    number: numberToHex(number),
    hash: blockHash(number),
    parentHash: blockHash(number - 1n),
    timestamp: numberToHex(Math.floor(Date.now() / 1000)),
    baseFeePerGas: numberToHex(gasPrice),
    gasLimit: numberToHex(30_000_000n),
    gasUsed: '0x0',
    transactions: [],
    difficulty: '0x0',
    extraData: '0x',
    logsBloom: `0x${'0'.repeat(512)}`,
    miner: '0x0000000000000000000000000000000000000000',
    mixHash: `0x${'0'.repeat(64)}`,
    nonce: '0x0000000000000000',
    receiptsRoot: `0x${'0'.repeat(64)}`,
    sha3Uncles: `0x${'0'.repeat(64)}`,
    size: '0x0',
    stateRoot: `0x${'0'.repeat(64)}`,
    totalDifficulty: '0x0',
    transactionsRoot: `0x${'0'.repeat(64)}`,
    uncles: [],
  })
  const rpcLog = (log: Log, index: number, receipt: { hash: Hex; blockNumber: bigint }) => ({
    ...log,
    blockNumber: numberToHex(receipt.blockNumber),
    blockHash: blockHash(receipt.blockNumber),
    transactionHash: receipt.hash,
    transactionIndex: '0x0',
    logIndex: numberToHex(index),
    removed: false,
  })

  /** `eth_simulateV1`: each block's calls run in order on a fork of the ledger; nothing is committed. */
  function simulate(payload: {
    blockStateCalls: { calls: { to: Address; data?: Hex; input?: Hex; value?: Hex }[] }[]
  }) {
    const forked = fork()
    return payload.blockStateCalls.map((blockCalls, blockIndex) => {
      const number = state.blockNumber + 1n + BigInt(blockIndex)
      return {
        ...block(number),
        calls: blockCalls.calls.map((call) => {
          try {
            const result = execute(forked, {
              to: call.to,
              data: call.data ?? call.input ?? '0x',
              value: BigInt(call.value ?? '0x0'),
            })
            return {
              status: '0x1',
              returnData: result.data,
              gasUsed: numberToHex(gasPerCall),
              logs: result.logs.map((log, index) =>
                rpcLog(log, index, { hash: `0x${'0'.repeat(64)}`, blockNumber: number }),
              ),
            }
          } catch (error) {
            const data = (error as { data?: Hex }).data ?? '0x'
            return {
              status: '0x0',
              returnData: data,
              gasUsed: numberToHex(gasPerCall),
              logs: [],
              error: { code: 3, message: (error as Error).message, data },
            }
          }
        }),
      }
    })
  }

  /**
   * Signs and sends calls; they are mined together after one block time, all
   * or none (a revert undoes the others, as an atomic batch), each paying gas.
   */
  function send(
    calls: { to: Address; data: Hex; value: bigint }[],
    onMined?: (status: Receipt['status']) => void,
  ): Hex[] {
    const hashes = calls.map((call) => {
      const hash = keccak256(encodeAbiParameters([{ type: 'uint256' }], [BigInt(++state.nonce)]))
      state.sent.push({ ...call, hash })
      return hash
    })
    notify()
    setTimeout(() => {
      state.blockNumber += 1n
      const attempt = fork()
      const logs: Log[][] = []
      let status: Receipt['status'] = 'success'
      try {
        for (const call of calls) logs.push(execute(attempt, call).logs)
        ledger.balances = attempt.balances
        ledger.allowances = attempt.allowances
      } catch {
        status = 'reverted'
      }
      move(ledger, nativeTokenAddress, -gasPerCall * gasPrice * BigInt(calls.length))
      state.nativeAt.set(state.blockNumber, balanceOf(nativeTokenAddress))
      for (const [index, call] of calls.entries()) {
        state.receipts.set(hashes[index] as Hex, {
          hash: hashes[index] as Hex,
          blockNumber: state.blockNumber,
          status,
          to: call.to,
          from: simulatedAccount,
          logs: status === 'success' ? (logs[index] ?? []) : [],
        })
      }
      onMined?.(status)
      notify()
    }, blockTimeMs)
    return hashes
  }

  const rpcReceipt = (receipt: Receipt) => ({
    transactionHash: receipt.hash,
    transactionIndex: '0x0',
    blockHash: blockHash(receipt.blockNumber),
    blockNumber: numberToHex(receipt.blockNumber),
    from: receipt.from,
    to: receipt.to,
    cumulativeGasUsed: numberToHex(gasPerCall),
    gasUsed: numberToHex(gasPerCall),
    effectiveGasPrice: numberToHex(gasPrice),
    contractAddress: null,
    logs: receipt.logs.map((log, index) => rpcLog(log, index, receipt)),
    logsBloom: `0x${'0'.repeat(512)}`,
    status: receipt.status === 'success' ? '0x1' : '0x0',
    type: '0x2',
  })

  /** Notes a request to the wallet and its answer; returns `error`, for `throw asked(…)`. */
  function asked<error>(method: WalletRequest['method'], answer: WalletRequest['answer'], error?: error) {
    state.requests.push({ method, answer })
    notify()
    return error
  }
  const methodNotFound = () => Object.assign(new Error('Method not found'), { code: -32601 })
  const userRejected = () => Object.assign(new Error('User rejected the request.'), { code: 4001 })

  const provider = {
    async request({ method, params }: { method: string; params?: unknown }): Promise<unknown> {
      const [first, second] = (params ?? []) as [
        Record<string, string> | string | undefined,
        string | undefined,
      ]
      switch (method) {
        case 'eth_chainId':
          return numberToHex(simulatedChainId)
        case 'net_version':
          return String(simulatedChainId)
        case 'eth_accounts':
        case 'eth_requestAccounts':
          return [simulatedAccount]
        case 'wallet_switchEthereumChain':
          return null
        case 'eth_blockNumber':
          return numberToHex(state.blockNumber)
        case 'eth_getBlockByNumber':
          return block()
        case 'eth_gasPrice':
        case 'eth_maxPriorityFeePerGas':
          return numberToHex(gasPrice)
        case 'eth_estimateGas':
          return numberToHex(gasPerCall)
        case 'eth_getCode':
          // The swap guard's own code (deployed once, as on any chain where someone did: the
          // executor checks its hash), code at the router, Multicall3 and the tokens (simulated
          // by their ABI); none at the native sentinel.
          if (isAddressEqual(first as Address, swapGuardAddress)) return swapGuardRuntimeCode
          if (isAddressEqual(first as Address, swapGuardExecutorAddress)) return swapGuardExecutorRuntimeCode
          return [market.router, multicall3Address, unlistedBytes32Token].some((address) =>
            isAddressEqual(first as Address, address),
          ) ||
            (!isNativeToken(first as Address) && market.getToken(first as Address))
            ? '0x6080'
            : '0x'
        case 'eth_getTransactionCount':
          return numberToHex(state.nonce)
        case 'eth_getBalance': {
          if (!isAddressEqual(first as Address, simulatedAccount)) return '0x0'
          const at = second?.startsWith('0x') ? BigInt(second) : undefined
          if (at === undefined) return numberToHex(balanceOf(nativeTokenAddress))
          let latest = 0n
          for (const [number, balance] of state.nativeAt) if (number <= at) latest = balance
          return numberToHex(latest)
        }
        case 'eth_call': {
          const tx = first as { to: Address; data: Hex; value?: Hex }
          return execute(fork(), { to: tx.to, data: tx.data, value: BigInt(tx.value ?? '0x0') }).data
        }
        case 'eth_simulateV1':
          return simulate(first as never)
        case 'eth_sendTransaction': {
          if (state.rejecting) throw asked(method, 'rejected', userRejected())
          const tx = first as { to: Address; data: Hex; value?: Hex; chainId?: Hex }
          if (tx.chainId !== undefined && BigInt(tx.chainId) !== BigInt(simulatedChainId))
            throw Object.assign(new Error(`Invalid chainId ${tx.chainId}.`), { code: -32602 })
          const swapping = isAddressEqual(tx.to, market.router) || isAddressEqual(tx.to, swapGuardAddress)
          if (state.interruptNextSwap && swapping) {
            state.interruptNextSwap = false
            asked(method, 'no answer')
            // Never answered while the page lives; ended (as rejected) when it closes.
            return new Promise<never>((_, reject) => void unanswered.add(reject))
          }
          const [hash] = send([{ to: tx.to, data: tx.data, value: BigInt(tx.value ?? '0x0') }])
          asked(method, 'answered')
          return hash
        }
        case 'wallet_getCapabilities': {
          if (state.capabilitiesHang) {
            asked(method, 'no answer')
            // Never answered while the page lives; ended when it closes.
            return new Promise<never>((_, reject) => void unanswered.add(reject))
          }
          // An account that is not a smart account yet can batch once upgraded (EIP-7702): 'ready'.
          const status = state.decliningUpgrade ? 'ready' : state.batching ? 'supported' : undefined
          if (!status) throw asked(method, 'unsupported', methodNotFound())
          asked(method, 'answered')
          return { [numberToHex(simulatedChainId)]: { atomic: { status } } }
        }
        case 'wallet_sendCalls': {
          if (state.decliningUpgrade)
            throw asked(
              method,
              'declined',
              Object.assign(new Error('The user rejected the upgrade to a smart account.'), { code: 5750 }),
            )
          if (!state.batching) throw asked(method, 'unsupported', methodNotFound())
          if (state.rejecting) throw asked(method, 'rejected', userRejected())
          const [request] = (params ?? []) as [
            { chainId: Hex; calls: { to: Address; data: Hex; value?: Hex }[] },
          ]
          if (BigInt(request.chainId) !== BigInt(simulatedChainId))
            throw Object.assign(new Error(`Invalid chainId ${request.chainId}.`), { code: -32602 })
          const id = keccak256(toHex(`batch-${state.batches.size + 1}`))
          const hashes = send(
            request.calls.map((call) => ({
              to: call.to,
              data: call.data,
              value: BigInt(call.value ?? '0x0'),
            })),
            (status) => state.batches.set(id, { status: status === 'success' ? 200 : 500, receipts: hashes }),
          )
          state.batches.set(id, { status: 100, receipts: [] })
          asked(method, 'answered')
          return { id }
        }
        case 'wallet_getCallsStatus': {
          const batch = state.batches.get(first as string)
          if (!batch) throw Object.assign(new Error('Unknown bundle id'), { code: 5730 })
          return {
            version: '2.0.0',
            id: first,
            chainId: numberToHex(simulatedChainId),
            atomic: true,
            status: batch.status,
            receipts: batch.receipts.map((hash) => rpcReceipt(state.receipts.get(hash) as Receipt)),
          }
        }
        case 'eth_getTransactionReceipt': {
          const receipt = state.receipts.get(first as Hex)
          return receipt ? rpcReceipt(receipt) : null
        }
        case 'eth_getTransactionByHash': {
          const index = state.sent.findIndex((tx) => tx.hash === first)
          const tx = state.sent[index]
          if (!tx) return null
          const receipt = state.receipts.get(tx.hash)
          return {
            hash: tx.hash,
            nonce: numberToHex(index),
            blockHash: receipt ? blockHash(receipt.blockNumber) : null,
            blockNumber: receipt ? numberToHex(receipt.blockNumber) : null,
            transactionIndex: receipt ? '0x0' : null,
            from: simulatedAccount,
            to: tx.to,
            value: numberToHex(tx.value),
            gas: numberToHex(gasPerCall),
            gasPrice: numberToHex(gasPrice),
            maxFeePerGas: numberToHex(2n * gasPrice),
            maxPriorityFeePerGas: numberToHex(gasPrice),
            input: tx.data,
            type: '0x2',
            chainId: numberToHex(simulatedChainId),
            accessList: [],
            v: '0x0',
            r: `0x${'1'.repeat(64)}`,
            s: `0x${'2'.repeat(64)}`,
            yParity: '0x0',
          }
        }
        default:
          throw Object.assign(new Error(`The simulated wallet does not support ${method}.`), { code: 4200 })
      }
    },
  } as EIP1193Provider

  return {
    provider,
    walletClient: createWalletClient({
      account: simulatedAccount,
      transport: custom(provider),
      pollingInterval: 100,
    }),
    publicClient: createPublicClient({ transport: custom(provider), pollingInterval: 100 }),
    /** From now on, every signature request is rejected (or accepted again). */
    setRejecting(rejecting: boolean) {
      state.rejecting = rejecting
      notify()
    },
    get rejecting() {
      return state.rejecting
    },
    /** EIP-5792 on or off: with it, approval and swap go as one atomic batch. */
    setBatching(batching: boolean) {
      state.batching = batching
      notify()
    },
    get batching() {
      return state.batching
    },
    /** wallet_getCapabilities left pending forever (or answered again). */
    setCapabilitiesHang(hang: boolean) {
      state.capabilitiesHang = hang
      notify()
    },
    get capabilitiesHang() {
      return state.capabilitiesHang
    },
    /**
     * An EIP-7702 account not upgraded yet, whose user declines the upgrade: wallet_getCapabilities
     * reports `atomic: 'ready'`, and wallet_sendCalls fails with EIP-5792's 5750.
     */
    setDecliningUpgrade(declining: boolean) {
      state.decliningUpgrade = declining
      notify()
    },
    get decliningUpgrade() {
      return state.decliningUpgrade
    },
    /** What the wallet itself was asked (capabilities, batches, transactions) and how it answered, in order. */
    get requests(): readonly WalletRequest[] {
      return state.requests
    },
    /** The next swap transaction is never answered, as when the page reloads while the wallet is open. */
    interruptNextSwap() {
      state.interruptNextSwap = true
    },
    /**
     * The page that asked closed: its unanswered requests end (as rejected), so
     * its JS stops waiting, as a closed page's JS stops altogether.
     */
    closePage() {
      for (const reject of unanswered)
        reject(Object.assign(new Error('The page that sent this request was closed.'), { code: 4001 }))
      unanswered.clear()
    },
    /** Changes with every sent, mined or setting change: a snapshot for useSyncExternalStore. */
    get version() {
      return version
    },
    /** Transactions the wallet signed and sent, in order. */
    get sent() {
      return state.sent
    },
    balanceOf,
    allowance,
    /** Sets the account's balance of `token` (the native sentinel included), as a faucet or a spend elsewhere would. */
    setBalance(token: Address, value: bigint) {
      ledger.balances.set(token.toLowerCase(), value)
      if (isNativeToken(token)) state.nativeAt.set(state.blockNumber, value)
      notify()
    },
    subscribe(listener: () => void) {
      listeners.add(listener)
      return () => listeners.delete(listener)
    },
  }
}

export type SimulatedWallet = ReturnType<typeof createSimulatedWallet>

/** The unlisted `bytes32` token's answers: name "Maker", symbol "MKR", 18 decimals, a supply. */
function bytes32TokenAnswer(data: Hex): Hex {
  switch (data.slice(0, 10)) {
    case '0x06fdde03':
      return toHex('Maker', { size: 32 })
    case '0x95d89b41':
      return toHex('MKR', { size: 32 })
    case '0x313ce567':
      return numberToHex(18, { size: 32 })
    case '0x18160ddd':
      return numberToHex(10n ** 24n, { size: 32 })
    default:
      throw Object.assign(new Error('execution reverted'), { code: 3, data: '0x' })
  }
}
