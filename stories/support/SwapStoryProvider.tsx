import { QueryClient } from '@tanstack/react-query'
import { type ReactNode, useState } from 'react'
import { SwapProvider, type SwapProviderProps } from '../../src/exports/index.js'
import { simulatedChainId } from './simulatedWallet.js'
import { market, storyBaseUrl, storyStorage, storyWallet } from './storyContext.js'

/** Client settings a story may change (rate limit, timeout…); the base URL is the mock's. */
export type SwapStoryProviderProps = Omit<
  Partial<Extract<SwapProviderProps, { baseUrl: string }>>,
  'children' | 'client'
> & {
  children?: ReactNode
}

/**
 * The provider every story renders in: the embedded mock service, a fresh
 * QueryClient per story, and the simulated wallet for useExecuteSwap.
 */
export function SwapStoryProvider({ children, ...props }: SwapStoryProviderProps) {
  const [queryClient] = useState(() => new QueryClient())
  const wallet = storyWallet()
  return (
    <SwapProvider
      baseUrl={storyBaseUrl}
      queryClient={queryClient}
      walletClient={wallet.walletClient}
      publicClient={wallet.publicClient}
      chainId={simulatedChainId}
      trustedAddresses={{ [simulatedChainId]: [market.router, market.spender] }}
      storage={storyStorage()}
      {...props}
    >
      {children}
    </SwapProvider>
  )
}
