// Provider

// From the core, so that an app needs one import path
export { createSwapClient, type SwapClient, type SwapClientConfig } from '../core/client.js'
export { defaultSlippage, isNativeToken, nativeTokenAddress } from '../core/constants.js'
export { BaseError, type BaseErrorType } from '../core/errors/base.js'
export { InvalidParameterError, type InvalidParameterErrorType } from '../core/errors/parameter.js'
export {
  HttpError,
  type HttpErrorType,
  NetworkError,
  type NetworkErrorType,
  NoRouteError,
  type NoRouteErrorType,
  RateLimitError,
  type RateLimitErrorType,
  RedirectError,
  type RedirectErrorType,
  ResponseTooLargeError,
  type ResponseTooLargeErrorType,
  TimeoutError,
  type TimeoutErrorType,
} from '../core/errors/request.js'
export { ResponseValidationError, type ResponseValidationErrorType } from '../core/errors/response.js'
export type { RateLimitConfig, RateLimitState } from '../core/rateLimiter.js'
export type { LegacyPath, Pair, Route, SwapInfo, Token, TokenData } from '../core/schemas.js'
export type { SlippageSetting } from '../core/slippage/slippageFor.js'
export { getMinAmountOut } from '../core/utils/getMinAmountOut.js'
export {
  type ParseAmountOptions,
  type ParseAmountReturnType,
  parseAmount,
} from '../core/utils/parseAmount.js'
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
export { type UsePairsParameters, type UsePairsReturnType, usePairs } from '../react/hooks/usePairs.js'
export { type UseRateLimitStateReturnType, useRateLimitState } from '../react/hooks/useRateLimitState.js'
export { type UseSwapClientReturnType, useSwapClient } from '../react/hooks/useSwapClient.js'
export {
  type UseSwapInfoParameters,
  type UseSwapInfoReturnType,
  useSwapInfo,
} from '../react/hooks/useSwapInfo.js'
export type { QuoteState } from '../react/hooks/useSwapQuery.js'
export {
  type UseSwapRouteParameters,
  type UseSwapRouteReturnType,
  useSwapRoute,
} from '../react/hooks/useSwapRoute.js'
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
export type { QueryDefaultsOverride, UseQueryParameters, UseQueryReturnType } from '../react/types.js'
