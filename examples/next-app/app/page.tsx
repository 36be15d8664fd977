import { dehydrate, QueryClient } from '@tanstack/react-query'
import { createSwapClient } from 'token-swap-hooks/core'
import { getTokensQueryOptions, serializeBigInts } from 'token-swap-hooks/query'
import { swapUrl } from './config'
import { Hydrate } from './Hydrate'
import { TokenQuote } from './TokenQuote'

// Rendered on every request, with the service's list of that moment (the README's recipe). Without
// this line (or a `revalidate`), `next build` renders the page once and serves that HTML until the
// next deploy: the list of build time, or none when the service was not reachable then.
export const dynamic = 'force-dynamic'

export default async function Page() {
  // The same base URL as the layout's SwapProvider: query keys hold it, so the browser's
  // useTokens() finds this entry instead of fetching the list again.
  const client = createSwapClient({ baseUrl: swapUrl() })
  const queryClient = new QueryClient()
  await queryClient.prefetchQuery(getTokensQueryOptions(client))
  // Bigint-safe and JSON-safe ({ json, bigints }): it crosses to the browser as a prop.
  const state = serializeBigInts(dehydrate(queryClient))

  return (
    <main>
      <h1>Tokens</h1>
      <Hydrate state={state}>
        <TokenQuote />
      </Hydrate>
    </main>
  )
}
