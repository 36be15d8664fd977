import { type Address, type Chain, defineChain, getAddress, type Hex, isAddress, isHex } from 'viem'

export type Config = {
  swapUrl: string
  chain: Chain
  rpcUrl: string
  /** `{ [chainId]: [router, spender] }`, as `SwapProvider` takes it. */
  trustedAddresses: { [chainId: number]: readonly Address[] }
  /** Set only from `VITE_DEV_PRIVATE_KEY`, and only for a node on this machine. */
  devPrivateKey: Hex | undefined
}

/** Reads the page's settings from `import.meta.env`; throws a message naming the variable at fault. */
export function readConfig(env: ImportMetaEnv = import.meta.env): Config {
  const swapUrl = env.VITE_SWAP_URL || 'http://127.0.0.1:8787'
  const rpcUrl = env.VITE_RPC_URL || 'http://127.0.0.1:8545'
  const chainId = Number(env.VITE_CHAIN_ID || '31337')
  if (!Number.isSafeInteger(chainId) || chainId <= 0)
    throw new Error(`VITE_CHAIN_ID must be a positive integer, got ${env.VITE_CHAIN_ID}`)

  const trusted = (env.VITE_TRUSTED_ADDRESSES ?? '')
    .split(',')
    .map((address) => address.trim())
    .filter(Boolean)
  for (const address of trusted)
    if (!isAddress(address, { strict: false }))
      throw new Error(`VITE_TRUSTED_ADDRESSES must be comma-separated addresses, got ${address}`)
  if (trusted.length === 0)
    throw new Error('VITE_TRUSTED_ADDRESSES is empty: name the router and the spender (router,spender)')

  const devPrivateKey = env.VITE_DEV_PRIVATE_KEY || undefined
  if (devPrivateKey !== undefined) {
    if (!isHex(devPrivateKey) || devPrivateKey.length !== 66)
      throw new Error('VITE_DEV_PRIVATE_KEY must be a 32-byte hex private key')
    // A key baked into a bundle is public. Refuse to use it with anything but a local node.
    if (!isLoopback(rpcUrl))
      throw new Error(
        `VITE_DEV_PRIVATE_KEY is for a local node only, and VITE_RPC_URL is ${rpcUrl}: remove the key`,
      )
  }

  const chain = defineChain({
    id: chainId,
    name: `Chain ${chainId}`,
    nativeCurrency: { name: 'Ether', symbol: 'ETH', decimals: 18 },
    rpcUrls: { default: { http: [rpcUrl] } },
  })
  return {
    swapUrl,
    chain,
    rpcUrl,
    trustedAddresses: { [chainId]: trusted.map((address) => getAddress(address)) },
    devPrivateKey,
  }
}

function isLoopback(url: string): boolean {
  try {
    const { hostname } = new URL(url)
    return hostname === 'localhost' || hostname === '[::1]' || /^127(\.\d{1,3}){3}$/.test(hostname)
  } catch {
    return false
  }
}
