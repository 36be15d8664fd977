import { useMemo, useState } from 'react'
import { SwapProvider } from 'token-swap-hooks'
import { createPublicClient, http } from 'viem'
import { type Config, readConfig } from './config'
import { SwapPage } from './SwapPage'
import { connectInjected, devWallet, type Wallet } from './wallet'

export function App() {
  const config = useMemo((): Config | Error => {
    try {
      return readConfig()
    } catch (error) {
      return error as Error
    }
  }, [])
  if (config instanceof Error)
    return (
      <main>
        <h1>Swap</h1>
        <p role="alert">Configuration error: {config.message}</p>
      </main>
    )
  return <ConfiguredApp config={config} />
}

function ConfiguredApp({ config }: { config: Config }) {
  const publicClient = useMemo(
    () => createPublicClient({ chain: config.chain, transport: http(config.rpcUrl) }),
    [config],
  )
  const hasInjected = typeof window !== 'undefined' && window.ethereum !== undefined
  // The injected wallet when the browser has one; otherwise, and only when configured, the
  // development key (local node only, see config.ts).
  const [wallet, setWallet] = useState<Wallet | undefined>(() =>
    !hasInjected && config.devPrivateKey
      ? devWallet(config.chain, config.rpcUrl, config.devPrivateKey)
      : undefined,
  )
  const [walletError, setWalletError] = useState<string>()

  return (
    <SwapProvider
      baseUrl={config.swapUrl}
      publicClient={publicClient}
      walletClient={wallet?.walletClient}
      chainId={config.chain.id}
      trustedAddresses={config.trustedAddresses}
    >
      <main>
        <h1>Swap</h1>
        {wallet?.kind === 'dev' && (
          <p role="alert" data-testid="dev-wallet-banner" style={{ background: '#b00020', color: 'white' }}>
            DEVELOPMENT WALLET: signing with VITE_DEV_PRIVATE_KEY on {config.rpcUrl}. The key is in this
            page&apos;s JavaScript. For local development and CI only.
          </p>
        )}
        <p data-testid="wallet">
          {wallet ? (
            <>
              Wallet ({wallet.kind}): <code>{wallet.walletClient.account.address}</code>
            </>
          ) : hasInjected ? (
            <button
              type="button"
              onClick={() =>
                connectInjected(config.chain).then(setWallet, (error: Error) => setWalletError(error.message))
              }
            >
              Connect wallet
            </button>
          ) : (
            'No wallet: install a browser wallet to swap (quotes work without one).'
          )}
          {walletError && <span role="alert"> {walletError}</span>}
        </p>
        <SwapPage chainId={config.chain.id} canSwap={wallet !== undefined} />
      </main>
    </SwapProvider>
  )
}
