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
  getAddress,
  type Hex,
  isAddressEqual,
  keccak256,
  numberToHex,
  toHex,
} from 'viem'
import { isNativeToken } from '../../src/core/constants.js'
import { swapRouterAbi } from '../../src/mock/routerAbi.js'
import type { MockMarket } from '../../src/mock/types.js'

/** The account the simulated wallet signs for. */
export const simulatedAccount: Address = getAddress('0x5a1a5a1a5a1a5a1a5a1a5a1a5a1a5a1a5a1a5a1a')
export const simulatedChainId = 1

const errorAbi = [{ type: 'error', name: 'Error', inputs: [{ name: 'message', type: 'string' }] }] as const

type Receipt = { hash: Hex; blockNumber: bigint; status: 'success' | 'reverted'; to: Address; from: Address }

export type SimulatedWalletOptions = {
  /** The market whose router and spender the wallet's chain knows. */
  market: MockMarket
  /** Balances in smallest units, by token address (native included). */
  balances?: Record<Address, bigint>
  /** How long a transaction takes to be mined, in ms. Default 500. */
  blockTimeMs?: number
}

/**
 * An in-memory EIP-1193 wallet and chain for Storybook: it signs for one
 * account, keeps ERC-20 balances and allowances, mines each transaction after
 * `blockTimeMs`, and executes the mock router's `swap` with the market's
 * quote. It can be told to reject the next requests, as a user would.
 */
export function createSimulatedWallet({ market, balances = {}, blockTimeMs = 500 }: SimulatedWalletOptions) {
  const state = {
    balances: new Map<string, bigint>(Object.entries(balances).map(([k, v]) => [k.toLowerCase(), v])),
    allowances: new Map<string, bigint>(),
    blockNumber: 1n,
    nonce: 0,
    receipts: new Map<Hex, Receipt>(),
    rejecting: false,
    sent: [] as { to: Address; data: Hex; value: bigint; hash: Hex }[],
  }
  const listeners = new Set<() => void>()
  let version = 0
  const notify = () => {
    version += 1
    for (const listener of listeners) listener()
  }

  const balanceOf = (token: Address) => state.balances.get(token.toLowerCase()) ?? 0n
  const move = (token: Address, delta: bigint) =>
    state.balances.set(token.toLowerCase(), balanceOf(token) + delta)
  const allowanceKey = (token: Address, spender: Address) => `${token}:${spender}`.toLowerCase()
  const allowance = (token: Address, spender: Address) =>
    state.allowances.get(allowanceKey(token, spender)) ?? 0n

  /** Runs a call against the state; returns its result or throws a revert. `apply` commits it. */
  function execute({ to, data, value }: { to: Address; data: Hex; value: bigint }, apply: boolean): Hex {
    if (isAddressEqual(to, market.router)) {
      const { args } = decodeFunctionData({ abi: swapRouterAbi, data })
      const [path, amountIn, minAmountOut] = args
      const token0 = path[0] as Address
      const token1 = path[path.length - 1] as Address
      if (isNativeToken(token0) ? value !== amountIn : value !== 0n) revert('Router: wrong value')
      if (!isNativeToken(token0) && allowance(token0, market.spender) < amountIn)
        revert('Router: allowance too low')
      if (balanceOf(token0) < amountIn) revert('Router: balance too low')
      const quote = market.quote({ token0, token1, amountIn })
      if (!quote || quote.amountOut < minAmountOut) revert('Router: slippage')
      if (apply) {
        if (!isNativeToken(token0))
          state.allowances.set(
            allowanceKey(token0, market.spender),
            allowance(token0, market.spender) - amountIn,
          )
        move(token0, -amountIn)
        move(token1, quote.amountOut)
      }
      return encodeFunctionResult({ abi: swapRouterAbi, functionName: 'swap', result: quote.amountOut })
    }
    // Any other address is an ERC-20 token.
    const call = decodeFunctionData({ abi: erc20Abi, data })
    if (call.functionName === 'approve') {
      const [spender, amount] = call.args
      if (apply) state.allowances.set(allowanceKey(to, spender), amount)
      return encodeFunctionResult({ abi: erc20Abi, functionName: 'approve', result: true })
    }
    if (call.functionName === 'allowance')
      return encodeFunctionResult({
        abi: erc20Abi,
        functionName: 'allowance',
        result: allowance(to, call.args[1]),
      })
    if (call.functionName === 'balanceOf')
      return encodeFunctionResult({ abi: erc20Abi, functionName: 'balanceOf', result: balanceOf(to) })
    if (call.functionName === 'decimals')
      return encodeFunctionResult({
        abi: erc20Abi,
        functionName: 'decimals',
        result: market.getToken(to)?.decimals ?? 18,
      })
    return revert(`Token: ${call.functionName} not simulated`)
  }

  function revert(reason: string): never {
    const data = encodeErrorResult({ abi: errorAbi, errorName: 'Error', args: [reason] })
    throw Object.assign(new Error(`execution reverted: ${reason}`), { code: 3, data })
  }

  const block = () => ({
    number: numberToHex(state.blockNumber),
    hash: keccak256(toHex(`block-${state.blockNumber}`)),
    parentHash: keccak256(toHex(`block-${state.blockNumber - 1n}`)),
    timestamp: numberToHex(Math.floor(Date.now() / 1000)),
    baseFeePerGas: numberToHex(1_000_000_000n),
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

  const provider = {
    async request({ method, params }: { method: string; params?: unknown }): Promise<unknown> {
      const [first] = (params ?? []) as [Record<string, string> | string | undefined]
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
          return numberToHex(1_000_000_000n)
        case 'eth_estimateGas':
          return numberToHex(120_000n)
        case 'eth_getTransactionCount':
          return numberToHex(state.nonce)
        case 'eth_getBalance':
          return numberToHex(balanceOf('0xEeeeeEeeeEeEeeEeEeEeeEEEeeeeEeeeeeeeEEeE'))
        case 'eth_call': {
          const tx = first as { to: Address; data: Hex; value?: Hex }
          return execute({ to: tx.to, data: tx.data, value: BigInt(tx.value ?? '0x0') }, false)
        }
        case 'eth_sendTransaction': {
          if (state.rejecting) throw Object.assign(new Error('User rejected the request.'), { code: 4001 })
          const tx = first as { to: Address; data: Hex; value?: Hex }
          const value = BigInt(tx.value ?? '0x0')
          const hash = keccak256(encodeAbiParameters([{ type: 'uint256' }], [BigInt(++state.nonce)]))
          state.sent.push({ to: tx.to, data: tx.data, value, hash })
          notify()
          // Mined after one block time: the effects apply then (or the transaction reverts).
          setTimeout(() => {
            state.blockNumber += 1n
            let status: Receipt['status'] = 'success'
            try {
              execute({ to: tx.to, data: tx.data, value }, true)
            } catch {
              status = 'reverted'
            }
            state.receipts.set(hash, {
              hash,
              blockNumber: state.blockNumber,
              status,
              to: tx.to,
              from: simulatedAccount,
            })
            notify()
          }, blockTimeMs)
          return hash
        }
        case 'eth_getTransactionReceipt': {
          const receipt = state.receipts.get(first as Hex)
          if (!receipt) return null
          return {
            transactionHash: receipt.hash,
            transactionIndex: '0x0',
            blockHash: keccak256(toHex(`block-${receipt.blockNumber}`)),
            blockNumber: numberToHex(receipt.blockNumber),
            from: receipt.from,
            to: receipt.to,
            cumulativeGasUsed: numberToHex(120_000n),
            gasUsed: numberToHex(120_000n),
            effectiveGasPrice: numberToHex(1_000_000_000n),
            contractAddress: null,
            logs: [],
            logsBloom: `0x${'0'.repeat(512)}`,
            status: receipt.status === 'success' ? '0x1' : '0x0',
            type: '0x2',
          }
        }
        case 'eth_getTransactionByHash': {
          const index = state.sent.findIndex((tx) => tx.hash === first)
          const tx = state.sent[index]
          if (!tx) return null
          const receipt = state.receipts.get(tx.hash)
          return {
            hash: tx.hash,
            nonce: numberToHex(index),
            blockHash: receipt ? keccak256(toHex(`block-${receipt.blockNumber}`)) : null,
            blockNumber: receipt ? numberToHex(receipt.blockNumber) : null,
            transactionIndex: receipt ? '0x0' : null,
            from: simulatedAccount,
            to: tx.to,
            value: numberToHex(tx.value),
            gas: numberToHex(120_000n),
            gasPrice: numberToHex(1_000_000_000n),
            maxFeePerGas: numberToHex(2_000_000_000n),
            maxPriorityFeePerGas: numberToHex(1_000_000_000n),
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
    subscribe(listener: () => void) {
      listeners.add(listener)
      return () => listeners.delete(listener)
    },
  }
}

export type SimulatedWallet = ReturnType<typeof createSimulatedWallet>
