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
   * Called for eth_sendTransaction and wallet_switchEthereumChain with their 0-based count.
   */
  reject?: ((method: string, count: number) => boolean) | undefined
  /** The chain the wallet says it is on; `undefined` means the node's own chain. */
  reportedChainId?: number | undefined
  /** Whether wallet_switchEthereumChain works (it then reports the requested chain). Default false. */
  canSwitchChain?: boolean | undefined
}

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

  const provider = {
    async request({ method, params }: { method: string; params?: unknown }) {
      requests.push({ method, params })
      const count = counts.get(method) ?? 0
      counts.set(method, count + 1)
      if (
        (method === 'eth_sendTransaction' || method === 'wallet_switchEthereumChain') &&
        options.reject?.(method, count)
      )
        throw Object.assign(new Error('User rejected the request.'), { code: 4001 })
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
    walletClient: createWalletClient({
      account: options.account,
      transport: custom(provider),
      pollingInterval: 50,
    }),
  }
}
