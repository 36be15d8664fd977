import {
  type Account,
  type Chain,
  createWalletClient,
  custom,
  type EIP1193Provider,
  type Hex,
  http,
  type Transport,
  type WalletClient,
} from 'viem'
import { privateKeyToAccount } from 'viem/accounts'

declare global {
  interface Window {
    ethereum?: EIP1193Provider
  }
}

export type Wallet = {
  /** `injected`: the browser's wallet (window.ethereum); `dev`: a local key, for development and CI only. */
  kind: 'injected' | 'dev'
  walletClient: WalletClient<Transport, Chain, Account>
}

/** The injected wallet, if the browser has one. Asks for the account (the wallet shows its prompt). */
export async function connectInjected(chain: Chain): Promise<Wallet> {
  const provider = window.ethereum
  if (!provider) throw new Error('No injected wallet (window.ethereum) in this browser')
  const [address] = await provider.request({ method: 'eth_requestAccounts' })
  if (!address) throw new Error('The wallet returned no account')
  return {
    kind: 'injected',
    walletClient: createWalletClient({ account: address, chain, transport: custom(provider) }),
  }
}

/**
 * LOCAL DEVELOPMENT AND CI ONLY: a viem local account from a private key, signing on the local
 * node. The key is in the page's JavaScript, so anyone who loads the page has it.
 */
export function devWallet(chain: Chain, rpcUrl: string, privateKey: Hex): Wallet {
  return {
    kind: 'dev',
    walletClient: createWalletClient({
      account: privateKeyToAccount(privateKey),
      chain,
      transport: http(rpcUrl),
    }),
  }
}
