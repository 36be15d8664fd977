import type { ReactNode } from 'react'
import { SwapProvider } from 'token-swap-hooks'
import { swapUrl } from './config'

export const metadata = { title: 'token-swap-hooks: Next.js example', icons: { icon: 'data:,' } }

// A server component: SwapProvider is a client component ('use client' in the package), so it
// renders here and takes serializable props only (a URL, not a client object).
export default function RootLayout({ children }: { children: ReactNode }) {
  return (
    <html lang="en">
      <body>
        <SwapProvider baseUrl={swapUrl()}>{children}</SwapProvider>
      </body>
    </html>
  )
}
