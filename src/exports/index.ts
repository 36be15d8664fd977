// token-swap-hooks: the provider and every hook (quotes, lists, prices, executing and resuming a
// swap, balances, exact output, slippage), the error classes they throw, and the few values a page
// needs beside them. One entry: an app's bundler keeps what it imports and drops the rest
// (sideEffects: false), so a quote-only page does not ship the executor.

// Provider
export { createSwapClient, type SwapClient, type SwapClientConfig } from '../core/client.js'
export { defaultSlippage, isNativeToken, nativeTokenAddress } from '../core/constants.js'
// Errors (classes, for `instanceof`; their `XErrorType` types are in token-swap-hooks/core)
export { BlockNotReachedError } from '../core/errors/balances.js'
export { BaseError } from '../core/errors/base.js'
export { ExactOutputNotReachedError } from '../core/errors/exactOutput.js'
export {
  BatchFailedError,
  BatchUnsupportedError,
  ChainMismatchError,
  ExecuteSwapError,
  InsufficientAllowanceError,
  OutcomeUnknownError,
  QuoteBelowMinimumError,
  QuoteChangedError,
  SimulationUnavailableError,
  SwapInProgressError,
  SwapSimulationError,
  TransactionNotSeenError,
  TransactionReplacedError,
  TransactionRevertedError,
  UnsafeSwapDataError,
  UnsafeSwapOutcomeError,
  UntrustedAddressError,
  UserRejectedError,
  WalletError,
} from '../core/errors/execute.js'
export {
  PermitRefusedError,
  SwapGuardCodeMismatchError,
  SwapGuardIncompatibleError,
  SwapGuardNotDeployedError,
} from '../core/errors/guard.js'
export { InvalidParameterError } from '../core/errors/parameter.js'
export { PriceImpactTooHighError } from '../core/errors/priceImpact.js'
export {
  HttpError,
  NetworkError,
  NoRouteError,
  RateLimitError,
  RedirectError,
  ResponseTooLargeError,
  TimeoutError,
} from '../core/errors/request.js'
export { ResponseValidationError } from '../core/errors/response.js'
// Values and data a page shows
export type { RateLimitConfig, RateLimiterTokens, RateLimitState } from '../core/rateLimiter.js'
export type { LegacyPath, Pair, Route, SwapInfo, Token, TokenData } from '../core/schemas.js'
export type { SlippageSetting } from '../core/slippage/slippageFor.js'
export { getMinAmountOut } from '../core/utils/getMinAmountOut.js'
export { type ParseAmountOptions, parseAmount } from '../core/utils/parseAmount.js'
export {
  type SwapExecutionDefaults,
  type SwapLifecycleEvent,
  SwapProvider,
  type SwapProviderProps,
  type SwapQueryDefaults,
} from '../react/context.js'
export { SwapProviderNotFoundError, type SwapProviderNotFoundErrorType } from '../react/errors.js'
// Hooks
export {
  type UseExecuteSwapParameters,
  type UseExecuteSwapReturnType,
  useExecuteSwap,
} from '../react/hooks/useExecuteSwap.js'
export {
  type UseLegacyPairsParameters,
  type UseLegacyPairsReturnType,
  useLegacyPairs,
} from '../react/hooks/useLegacyPairs.js'
export {
  type UseLegacyPathParameters,
  type UseLegacyPathReturnType,
  useLegacyPath,
} from '../react/hooks/useLegacyPath.js'
export {
  type UseLegacyTokensParameters,
  type UseLegacyTokensReturnType,
  useLegacyTokens,
} from '../react/hooks/useLegacyTokens.js'
export {
  type UseMaxAmountErrorType,
  type UseMaxAmountParameters,
  type UseMaxAmountReturnType,
  useMaxAmount,
} from '../react/hooks/useMaxAmount.js'
export { type UsePairsParameters, type UsePairsReturnType, usePairs } from '../react/hooks/usePairs.js'
export {
  type ResumeConfirmation,
  type UsePendingSwapsParameters,
  type UsePendingSwapsReturnType,
  usePendingSwaps,
} from '../react/hooks/usePendingSwaps.js'
export { type UseRateLimitStateReturnType, useRateLimitState } from '../react/hooks/useRateLimitState.js'
export {
  type UseSuggestedSlippageParameters,
  type UseSuggestedSlippageReturnType,
  useSuggestedSlippage,
} from '../react/hooks/useSuggestedSlippage.js'
export { type UseSwapClientReturnType, useSwapClient } from '../react/hooks/useSwapClient.js'
export {
  type UseSwapInfoParameters,
  type UseSwapInfoReturnType,
  useSwapInfo,
} from '../react/hooks/useSwapInfo.js'
export {
  type UseSwapPreviewErrorType,
  type UseSwapPreviewParameters,
  type UseSwapPreviewReturnType,
  useSwapPreview,
} from '../react/hooks/useSwapPreview.js'
export {
  type UseSwapRouteParameters,
  type UseSwapRouteReturnType,
  useSwapRoute,
} from '../react/hooks/useSwapRoute.js'
export {
  type UseSwapRouteForOutputParameters,
  type UseSwapRouteForOutputReturnType,
  useSwapRouteForOutput,
} from '../react/hooks/useSwapRouteForOutput.js'
export {
  type UseTokenErrorType,
  type UseTokenParameters,
  type UseTokenReturnType,
  useToken,
} from '../react/hooks/useToken.js'
export {
  type UseTokenBalancesParameters,
  type UseTokenBalancesReturnType,
  useTokenBalances,
} from '../react/hooks/useTokenBalances.js'
export {
  type UseTokenPriceParameters,
  type UseTokenPriceReturnType,
  useTokenPrice,
} from '../react/hooks/useTokenPrice.js'
export { type UseTokensParameters, type UseTokensReturnType, useTokens } from '../react/hooks/useTokens.js'
export {
  type UseTokensDataParameters,
  type UseTokensDataReturnType,
  useTokensData,
} from '../react/hooks/useTokensData.js'
