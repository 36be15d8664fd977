'use client'

import { useMemo, useRef } from 'react'
import type { QuoteRequest } from '../../core/schemas.js'
import {
  type SuggestSlippageParameters,
  type SuggestSlippageReturnType,
  suggestSlippage,
  suggestSlippageWindow,
} from '../../core/slippage/suggestSlippage.js'

/** A quote as the quote hooks return it: a route (`amountOut`) or a swap info (`estimateAmount`), with `quotedFor`. */
type Quote = { amountOut?: bigint | undefined; estimateAmount?: bigint | undefined; quotedFor?: QuoteRequest }

/** The parameters of `useSuggestedSlippage`: the quote on screen and when it was fetched (the hook collects the samples), and `suggestSlippage`'s bounds. */
export type UseSuggestedSlippageParameters = Omit<SuggestSlippageParameters, 'quotes'> & {
  /**
   * The quote on screen, as `useSwapRoute` or `useSwapInfo` returns it
   * (`data`); each new one (a refresh) is a sample. A quote for other tokens or
   * another amount starts the samples again.
   */
  quote?: Quote | undefined
  /**
   * When that quote was fetched (the hook's `dataUpdatedAt`): a refresh that
   * returned the very same amount is a sample too (a move of 0), where TanStack
   * keeps the same object. Without it, only a changed quote is a new sample.
   */
  quotedAt?: number | undefined
}

/** What `useSuggestedSlippage` returns: `suggestSlippage`'s answer for the quotes seen so far. */
export type UseSuggestedSlippageReturnType = SuggestSlippageReturnType

/**
 * `suggestSlippage` over the quotes the page receives: every refresh of the
 * same swap's quote (same tokens and amount) is a sample, and the suggestion
 * follows them (see `suggestSlippage` for how it is computed). It requests
 * nothing itself: the quote hooks' polling (every 15 s by default) feeds it.
 *
 * @example
 * import { useSuggestedSlippage } from 'token-swap-hooks'
 *
 * const { data: route, dataUpdatedAt } = useSwapRoute({ token0, token1, amountIn })
 * const suggested = useSuggestedSlippage({ quote: route, quotedAt: dataUpdatedAt, max: 0.01 })
 * const { data: preview } = useSwapPreview({ token0, token1, amountIn, slippage: suggested.slippage })
 * // suggested.slippage: 0.005 until two quotes have been seen, then measured
 */
export function useSuggestedSlippage(
  parameters: UseSuggestedSlippageParameters = {},
): UseSuggestedSlippageReturnType {
  const { quote, quotedAt, priceImpact, max, min } = parameters
  const samples = useRef<{ swap: string; quotes: bigint[]; last: unknown }>({
    swap: '',
    quotes: [],
    last: undefined,
  })
  const amount = quote?.amountOut ?? quote?.estimateAmount
  const history = samples.current
  const sample = quotedAt ?? quote
  if (quote && sample !== history.last && typeof amount === 'bigint' && amount > 0n) {
    const { token0, token1, amountIn } = quote.quotedFor ?? {}
    const swap = `${token0?.toLowerCase()}:${token1?.toLowerCase()}:${amountIn}`
    if (swap !== history.swap) {
      history.swap = swap
      history.quotes = []
    }
    history.last = sample
    history.quotes = [...history.quotes, amount].slice(-suggestSlippageWindow)
  }
  const quotes = history.quotes
  return useMemo(() => suggestSlippage({ quotes, priceImpact, max, min }), [quotes, priceImpact, max, min])
}
