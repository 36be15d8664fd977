'use client'

import { useContext } from 'react'
import type { SwapClient } from '../../core/client.js'
import { SwapContext, type SwapContextValue } from '../context.js'
import { SwapProviderNotFoundError } from '../errors.js'

/** What `useSwapClient` returns: the provider's client, for the actions of token-swap-hooks/core. */
export type UseSwapClientReturnType = SwapClient

/**
 * The swap client of the nearest `<SwapProvider>`, for calling actions
 * directly (`getSwapInfo(client, …)`).
 *
 * @example
 * const client = useSwapClient()
 * const onRefresh = () => getTokens(client)
 */
export function useSwapClient(): UseSwapClientReturnType {
  return useSwapContext().client
}

/** The whole provider value; throws `SwapProviderNotFoundError` outside a provider. */
export function useSwapContext(): SwapContextValue {
  const value = useContext(SwapContext)
  if (!value) throw new SwapProviderNotFoundError()
  return value
}
