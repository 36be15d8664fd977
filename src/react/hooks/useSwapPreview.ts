'use client'

import { type UseQueryResult, useQuery } from '@tanstack/react-query'
import { useEffect, useRef } from 'react'
import type {
  Account,
  Address,
  Chain,
  PublicClient,
  Transport,
  BaseError as ViemBaseError,
  WalletClient,
} from 'viem'
import type { GetSwapInfoErrorType } from '../../core/actions/getSwapInfo.js'
import { isNativeToken, nativeTokenAddress } from '../../core/constants.js'
import type { InvalidParameterErrorType } from '../../core/errors/parameter.js'
import { getSwapPreview, type SwapPreview } from '../../core/execute/getSwapPreview.js'
import type { BatchMode, FloorEnforcement } from '../../core/execute/rules/planSwap.js'
import type { TrustedAddresses } from '../../core/execute/types.js'
import type { PriceImpactThresholds } from '../../core/prices/priceImpact.js'
import { slippageFor } from '../../core/slippage/slippageFor.js'
import { queryDefaults as defaultQueryDefaults } from '../../query/defaults.js'
import { both } from '../../query/executeSwap.js'
import type { SwapLifecycleEvent } from '../context.js'
import type { UseQueryParameters } from '../types.js'
import { useSwapContext } from './useSwapClient.js'
import { type UseSwapInfoReturnType, useSwapInfo } from './useSwapInfo.js'
import { bothEnabled, keepPreviousQuote } from './useSwapQuery.js'
import { useTokenPrice } from './useTokenPrice.js'

/** The swap to preview (each part optional: the hook waits), its options and TanStack Query's. */
export type UseSwapPreviewParameters = {
  token0?: Address | undefined
  token1?: Address | undefined
  /** In token0's smallest unit (`parseAmount` what the user typed). */
  amountIn?: bigint | undefined
  /** Default: the provider's `slippage` for the pair, else `defaultSlippage` (0.005). */
  slippage?: number | undefined
  /** Milliseconds the amount must stay unchanged before the quote is requested; default 300. */
  debounceMs?: number | undefined
  /** The user. Default: the wallet's account. */
  account?: Address | undefined
  /** Default: the provider's. */
  walletClient?: WalletClient<Transport, Chain | undefined, Account | undefined> | undefined
  /** Default: the provider's. */
  publicClient?: PublicClient<Transport, Chain | undefined> | undefined
  /** As `useExecuteSwap`'s: tells whether the steps will be one batch. */
  batch?: BatchMode | undefined
  /** As `useExecuteSwap`'s: whom the approval goes to (the guard, by default). Default: the provider's. */
  floorEnforcement?: FloorEnforcement | undefined
  /** As `useExecuteSwap`'s: the allowlist the preview applies before the click (a router outside it fails the preview with `UntrustedAddressError`). Default: the provider's. */
  trustedAddresses?: TrustedAddresses | undefined
  /** As `useExecuteSwap`'s. Default: the provider's. */
  dangerouslyTrustAnyAddress?: boolean | undefined
  /** Default: the provider's, else warn from 5%, block from 15% (`useExecuteSwap` holds an accepted quote to the same); `false`: none. */
  priceImpactThresholds?: PriceImpactThresholds | false | undefined
  /** The chain's wrapped native token (WETH): its price (fetched by the preview) stands for the native coin's when the service has none. */
  wrappedNativeToken?: Address | undefined
  /** The fee's share of the input's USD value from which `networkFee.warning` is `'high'`. Default 0.1 (10 %). */
  networkFeeThreshold?: number | undefined
  /** Hears the quote and the preview as they arrive (beside the provider's `onEvent`). */
  onEvent?: ((event: SwapLifecycleEvent) => void) | undefined
  /** TanStack Query options of the preview (chain reads). */
  query?: Partial<UseQueryParameters<SwapPreview, UseSwapPreviewErrorType, SwapPreview>> | undefined
}

/**
 * What the preview fails with, as `getSwapPreview` throws it: an `InvalidParameterError` (a
 * malformed parameter, or a token with no contract on the public client's chain), the errors of
 * `/swap/info` when it fetches the quote itself (`GetSwapInfoErrorType`; the hook hands it the
 * cached quote, whose own error is on `quote.error`), or a chain read that failed (balance,
 * allowance, decimals, chain id) as viem threw it: a viem `BaseError`. Every one has a
 * `shortMessage`; narrow with `instanceof`, since a viem error's `name` is any string.
 */
export type UseSwapPreviewErrorType = InvalidParameterErrorType | GetSwapInfoErrorType | ViemBaseError

// What may differ between a preview and the one it stands in for while it refreshes.
const refreshFields = new Set(['quotedAt', 'prices'])

/** TanStack's query result of the preview (`getSwapPreview`), with the `quote` it is for. */
export type UseSwapPreviewReturnType = UseQueryResult<SwapPreview, UseSwapPreviewErrorType> & {
  /** The quote the preview is for: `useSwapInfo`'s result (shared cache). */
  quote: UseSwapInfoReturnType
}

/**
 * What the swap button should say before the click, for the current quote
 * and account (`getSwapPreview`): the balance and `insufficientBalance`,
 * whether an approval (or a USDT-style reset) is needed and the `steps` the
 * execution will take (`['approve', 'swap']`, `['swap']`, `['batch']`), the
 * network fee of the whole flow (per step, in the chain's coin and in USD,
 * flagged from `networkFeeThreshold` of the input's value), the price impact
 * against the service's USD prices with a warning level (`valueGap`: the same,
 * or what price is missing), and the quote's age. The quote and prices come
 * from the same cache as `useSwapInfo` and `useTokenPrice` (no extra request
 * when the page already shows them); the chain is read through the user's
 * public client. Waits quietly until tokens, amount, account and public client are there.
 *
 * @example
 * import { useSwapPreview } from 'token-swap-hooks'
 *
 * const { data: preview } = useSwapPreview({ token0, token1, amountIn, slippage: 0.01 })
 * const label = !preview ? 'Swap'
 *   : preview.insufficientBalance ? 'Insufficient balance'
 *   : preview.needsApproval && preview.steps[0] !== 'batch' ? `Approve ${symbol}` : 'Swap'
 */
export function useSwapPreview(parameters: UseSwapPreviewParameters = {}): UseSwapPreviewReturnType {
  const { client, queryClient, execution, queryDefaults } = useSwapContext()
  const { token0, token1, amountIn, batch } = parameters
  // The limits every execution of an accepted quote is held to (the provider's, unless given here).
  const limits = parameters.priceImpactThresholds ?? execution.priceImpactThresholds
  const priceImpactThresholds = limits === false ? { high: Infinity, blocking: Infinity } : limits
  const slippage = parameters.slippage ?? slippageFor(execution.slippage, parameters)
  const floorEnforcement = parameters.floorEnforcement ?? execution.floorEnforcement
  const walletClient = parameters.walletClient ?? execution.walletClient
  const publicClient = parameters.publicClient ?? execution.publicClient
  const account = parameters.account ?? walletClient?.account?.address
  // The click's allowlist, applied by the preview too.
  const trustedAddresses = parameters.trustedAddresses ?? execution.trustedAddresses
  const dangerouslyTrustAnyAddress =
    parameters.dangerouslyTrustAnyAddress ?? execution.dangerouslyTrustAnyAddress
  const quote = useSwapInfo({
    token0,
    token1,
    amountIn,
    to: account,
    slippage,
    debounceMs: parameters.debounceMs,
  })
  const price0 = useTokenPrice({ address: token0 })
  const price1 = useTokenPrice({ address: token1 })
  // The native coin's, for the fee (once there is a swap): a native token0's or token1's own query,
  // else the sentinel's.
  const native = useTokenPrice({
    address: token0 && token1 ? ([token0, token1].find(isNativeToken) ?? nativeTokenAddress) : undefined,
  })
  const pricesSettled = !price0.isPending && !price1.isPending && !native.isPending
  const { networkFeeThreshold, wrappedNativeToken } = parameters
  const chainId = publicClient?.chain?.id
  const swapInfo = quote.isPlaceholderData ? undefined : quote.data

  const queryKey = [
    'swapPreview',
    {
      baseUrl: client.baseUrl,
      chainId,
      account,
      token0,
      token1,
      amountIn: amountIn?.toString(),
      quotedAt: quote.dataUpdatedAt,
      prices: [price0.data, price1.data, native.data],
      networkFeeThreshold,
      wrappedNativeToken,
      batch: batch ?? execution.batch,
      floorEnforcement,
      priceImpactThresholds,
      trustedAddresses,
      dangerouslyTrustAnyAddress,
    },
  ] as const
  const allowed = !!swapInfo && !!publicClient && !!account && pricesSettled
  const { enabled, ...query } = parameters.query ?? {}
  const quoteTtl = queryDefaults.swapInfo?.staleTime
  const preview = useQuery<SwapPreview, UseSwapPreviewErrorType>(
    {
      queryKey,
      queryFn: () =>
        getSwapPreview(client, {
          publicClient: publicClient as PublicClient<Transport, Chain | undefined>,
          walletClient,
          account: account as Address,
          token0: token0 as Address,
          token1: token1 as Address,
          amountIn: amountIn as bigint,
          // The quote is given (the query waits for it): no slippage needed.
          swapInfo,
          quotedAt: quote.dataUpdatedAt,
          // The quote's own staleTime, as the provider set it.
          quoteTtlMs: typeof quoteTtl === 'number' ? quoteTtl : defaultQueryDefaults.swapInfo.staleTime,
          // The cached prices, even none: the preview fetches none of them again (only the wrapped
          // token's, when it is given and the native coin has no price).
          prices: { token0: price0.data, token1: price1.data, native: native.data },
          networkFeeThreshold,
          wrappedNativeToken,
          batch: batch ?? execution.batch,
          floorEnforcement,
          priceImpactThresholds,
          trustedAddresses,
          dangerouslyTrustAnyAddress,
        }),
      // A refresh of the same swap (a newer quote, newer prices) keeps the last preview on screen;
      // another amount, account or token never shows a preview that was not made for it.
      placeholderData: keepPreviousQuote(queryKey as never, refreshFields) as never,
      staleTime: 10_000,
      retry: 1,
      ...query,
      // The caller can hold the preview back, never run it without its inputs.
      enabled: bothEnabled(allowed, enabled),
    },
    queryClient,
  ) as UseSwapPreviewReturnType
  preview.quote = quote
  // onEvent (the provider's, then the hook's) hears each new quote and preview once.
  const onEvent = both(execution.onEvent, parameters.onEvent)
  const events = useRef(onEvent)
  events.current = onEvent
  const { data: shown, isPlaceholderData } = preview
  useEffect(() => {
    if (swapInfo) events.current?.({ type: 'quote', swapInfo, quotedAt: quote.dataUpdatedAt })
  }, [swapInfo, quote.dataUpdatedAt])
  useEffect(() => {
    if (shown && !isPlaceholderData) events.current?.({ type: 'preview', preview: shown })
  }, [shown, isPlaceholderData])
  return preview
}
