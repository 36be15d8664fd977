import {
  type Address,
  createWalletClient,
  custom,
  type EIP1193Provider,
  hexToNumber,
  numberToHex,
} from 'viem'
import { jsonRpc } from './rpc.js'

export type TestWalletOptions = {
  rpcUrl: string
  /** A dev account anvil signs for (eth_sendTransaction is forwarded to the node). */
  account: Address
  /**
   * Reject a wallet request, as a user clicking "Reject" does (EIP-1193 code 4001).
   * Called for eth_sendTransaction, eth_signTypedData_v4 and wallet_switchEthereumChain with their 0-based count.
   */
  reject?: ((method: string, count: number) => boolean) | undefined
  /**
   * Never answer a request (by method and 0-based count), as a page that
   * reloaded never hears back: the dapp's flow stops there.
   */
  hang?: ((method: string, count: number) => boolean) | undefined
  /**
   * Answer a request (by method and 0-based count) with an internal error
   * (JSON-RPC -32603), as a wallet or its node failing does.
   */
  fail?: ((method: string, count: number) => boolean) | undefined
  /** The chain the wallet says it is on; `undefined` means the node's own chain. */
  reportedChainId?: number | undefined
  /**
   * A smart-contract wallet's way (a Safe): `eth_sendTransaction` answers a hash of its own and
   * sends nothing, so no node ever sees it.
   */
  neverBroadcast?: boolean | undefined
  /** Whether wallet_switchEthereumChain works (it then reports the requested chain). Default false. */
  canSwitchChain?: boolean | undefined
  /**
   * EIP-5792: the wallet reports atomic batching and runs `wallet_sendCalls`
   * atomically over the node (an `evm_snapshot`, the calls sent with automine
   * off, one block mined, `evm_revert` if any call reverted). Without it the
   * wallet answers "method not found" to the `wallet_…Calls`/`…Capabilities` methods.
   */
  eip5792?:
    | {
        /** Runs inside `wallet_sendCalls` before the calls: another transaction that lands first. */
        beforeBatch?: (() => Promise<void>) | undefined
        /**
         * A wallet that says it batches atomically and does not: it runs the calls one by one,
         * each mined, keeps what succeeded, and reports the batch `atomic: true` all the same.
         */
        lying?: boolean | undefined
        /**
         * A wallet that runs the calls one by one, each mined, keeps what succeeded, and says so:
         * `atomic: false`, and status 600 (failed partially, with changes on chain) when a call reverted.
         */
        partial?: boolean | undefined
        /** Never answers `wallet_getCapabilities` (as some wallets leave it pending). */
        hangCapabilities?: boolean | undefined
        /** Reports `atomic: 'ready'` and answers `wallet_sendCalls` with EIP-5792 code 5750: the user declined the upgrade. */
        declineUpgrade?: boolean | undefined
        /** Reports ERC-7677 `paymasterService` support for the chain. */
        paymaster?: boolean | undefined
      }
    | undefined
}

type Batch = { status: number; receipts: unknown[]; chainId: `0x${string}`; atomic: boolean }
const eip5792Methods = new Set(['wallet_getCapabilities', 'wallet_sendCalls', 'wallet_getCallsStatus'])

/** Another node the wallet can move to, as a user switching networks in the extension does. */
export type TestWalletNetwork = { rpcUrl: string; chainId: number }

export type TestWallet = ReturnType<typeof createTestWallet>

/**
 * A wallet for tests: an EIP-1193 provider in front of anvil, so viem talks to
 * it as to an injected wallet (JSON-RPC account, eth_sendTransaction), and a
 * test can make it reject, or sit on another chain.
 */
export function createTestWallet(options: TestWalletOptions) {
  let reportedChainId = options.reportedChainId
  let network: TestWalletNetwork | undefined
  const requests: { method: string; params: unknown }[] = []
  const counts = new Map<string, number>()
  const forward = jsonRpc(() => network?.rpcUrl ?? options.rpcUrl)
  const batches = new Map<string, Batch>()
  const chainIdNow = async () =>
    network?.chainId ?? reportedChainId ?? hexToNumber((await forward('eth_chainId', [])) as `0x${string}`)

  /** wallet_sendCalls, atomically: all the calls in one block, or none of them. */
  async function sendCalls([request]: [
    {
      chainId: `0x${string}`
      from?: Address
      calls: { to: Address; data?: `0x${string}`; value?: `0x${string}` }[]
    },
  ]) {
    const current = await chainIdNow()
    if (hexToNumber(request.chainId) !== current)
      throw Object.assign(new Error(`Invalid chainId, the wallet is on ${current}.`), { code: -32602 })
    await options.eip5792?.beforeBatch?.()
    if (options.eip5792?.lying || options.eip5792?.partial) {
      const receipts: { status: string }[] = []
      for (const call of request.calls) {
        const hash = await forward('eth_sendTransaction', [
          { from: options.account, to: call.to, data: call.data, value: call.value, gas: '0x7a120' },
        ])
        // Anvil's automine answers eth_sendTransaction before the receipt is always readable.
        let receipt: { status: string } | null = null
        for (let tries = 0; !receipt && tries < 200; tries++) {
          receipt = (await forward('eth_getTransactionReceipt', [hash])) as { status: string } | null
          if (!receipt) await new Promise((resolve) => setTimeout(resolve, 10))
        }
        if (!receipt) throw new Error(`No receipt for ${String(hash)}`)
        receipts.push(receipt)
      }
      const id = `0x${(batches.size + 1).toString(16).padStart(64, '0')}`
      const failed = receipts.some((receipt) => receipt.status !== '0x1')
      const partial = !!options.eip5792?.partial
      batches.set(id, {
        ...{ status: failed ? (partial ? 600 : 500) : 200, receipts, chainId: request.chainId },
        atomic: !partial,
      })
      return { id }
    }
    const snapshot = await forward('evm_snapshot', [])
    await forward('evm_setAutomine', [false])
    const hashes: unknown[] = []
    try {
      for (const call of request.calls)
        hashes.push(
          await forward('eth_sendTransaction', [
            { from: options.account, to: call.to, data: call.data, value: call.value, gas: '0x7a120' },
          ]),
        )
      await forward('evm_mine', [])
    } finally {
      await forward('evm_setAutomine', [true])
    }
    // Anvil's block can leave out a ready transaction (foundry-rs/foundry#10122): the next block takes it.
    let receipts: unknown[] = []
    for (let tries = 0; tries < 20; tries++) {
      receipts = await Promise.all(hashes.map((hash) => forward('eth_getTransactionReceipt', [hash])))
      if (receipts.every(Boolean)) break
      // A receipt can also lag its block a moment: read again first, then mine.
      if (tries % 2 === 0) await new Promise((resolve) => setTimeout(resolve, 10))
      else await forward('evm_mine', [])
    }
    if (!receipts.every(Boolean)) throw new Error(`No receipt for a call of the batch: ${hashes.join(', ')}`)
    const reverted = receipts.some((receipt) => (receipt as { status: string }).status !== '0x1')
    if (reverted) await forward('evm_revert', [snapshot])
    const id = `0x${(batches.size + 1).toString(16).padStart(64, '0')}`
    batches.set(id, {
      status: reverted ? 500 : 200,
      receipts: reverted ? [] : receipts,
      chainId: request.chainId,
      atomic: true,
    })
    return { id }
  }

  const provider = {
    async request({ method, params }: { method: string; params?: unknown }) {
      requests.push({ method, params })
      const count = counts.get(method) ?? 0
      counts.set(method, count + 1)
      if (options.hang?.(method, count)) return new Promise<never>(() => {})
      if (options.fail?.(method, count))
        throw Object.assign(new Error(`Internal error (${method})`), { code: -32603 })
      if (
        (method === 'eth_sendTransaction' ||
          method === 'wallet_switchEthereumChain' ||
          method === 'eth_signTypedData_v4') &&
        options.reject?.(method, count)
      )
        throw Object.assign(new Error('User rejected the request.'), { code: 4001 })
      if (eip5792Methods.has(method) && !options.eip5792)
        throw Object.assign(new Error(`Method not found: ${method}`), { code: -32601 })
      if (method === 'wallet_sendCalls') {
        if (options.reject?.(method, count))
          throw Object.assign(new Error('User rejected the request.'), { code: 4001 })
        if (options.eip5792?.declineUpgrade)
          throw Object.assign(new Error('The user rejected the upgrade to a smart account.'), { code: 5750 })
        return sendCalls(params as never)
      }
      if (method === 'wallet_getCapabilities') {
        if (options.eip5792?.hangCapabilities) return new Promise<never>(() => {})
        const atomic = { status: options.eip5792?.declineUpgrade ? 'ready' : 'supported' }
        const paymaster = options.eip5792?.paymaster ? { paymasterService: { supported: true } } : {}
        return { [numberToHex(await chainIdNow())]: { atomic, ...paymaster } }
      }
      if (method === 'eth_sendTransaction' && options.neverBroadcast)
        return `0x${[...crypto.getRandomValues(new Uint8Array(32))].map((b) => b.toString(16).padStart(2, '0')).join('')}`
      if (method === 'wallet_getCallsStatus') {
        const [id] = params as [string]
        const batch = batches.get(id)
        if (!batch) throw Object.assign(new Error('Unknown bundle id'), { code: 5730 })
        return { version: '2.0.0', id, ...batch }
      }
      if (method === 'eth_chainId' && network) return numberToHex(network.chainId)
      if (method === 'eth_chainId' && reportedChainId !== undefined) return numberToHex(reportedChainId)
      if (method === 'eth_sendTransaction') {
        // As real wallets do: a transaction for another chain than the wallet's is refused.
        const [{ chainId }] = params as [{ chainId?: `0x${string}` }]
        const current =
          network?.chainId ??
          reportedChainId ??
          hexToNumber((await forward('eth_chainId', [])) as `0x${string}`)
        if (chainId !== undefined && hexToNumber(chainId) !== current)
          throw Object.assign(
            new Error(`Invalid chainId ${hexToNumber(chainId)}, the wallet is on ${current}.`),
            {
              code: -32602,
            },
          )
      }
      if (method === 'eth_accounts' || method === 'eth_requestAccounts') return [options.account]
      if (method === 'wallet_switchEthereumChain') {
        if (!options.canSwitchChain)
          throw Object.assign(new Error('Unrecognized chain ID. Try adding the chain first.'), { code: 4902 })
        const [{ chainId }] = params as [{ chainId: `0x${string}` }]
        const nodeChainId = hexToNumber((await forward('eth_chainId', [])) as `0x${string}`)
        reportedChainId = hexToNumber(chainId) === nodeChainId ? undefined : hexToNumber(chainId)
        return null
      }
      return forward(method, params)
    },
  } as EIP1193Provider

  return {
    provider,
    /** From now on the wallet is on another node (and chain): it reports it and sends there. */
    moveTo(next: TestWalletNetwork | undefined) {
      network = next
    },
    /** Every request the dapp made, in order. */
    requests,
    /** The transactions the wallet was asked to send (including rejected ones). */
    sendRequests: () => requests.filter((r) => r.method === 'eth_sendTransaction'),
    /** The batches the wallet was asked to send (including rejected ones). */
    batchRequests: () => requests.filter((r) => r.method === 'wallet_sendCalls'),
    /** The typed data the wallet was asked to sign (including rejected ones). */
    signRequests: () => requests.filter((r) => r.method === 'eth_signTypedData_v4'),
    walletClient: createWalletClient({
      account: options.account,
      transport: custom(provider),
      pollingInterval: 50,
    }),
  }
}
