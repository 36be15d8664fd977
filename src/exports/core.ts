// Client

export {
  type GetLegacyPairsErrorType,
  type GetLegacyPairsParameters,
  type GetLegacyPairsReturnType,
  getLegacyPairs,
} from '../core/actions/getLegacyPairs.js'
export {
  type GetLegacyPathErrorType,
  type GetLegacyPathParameters,
  type GetLegacyPathReturnType,
  getLegacyPath,
} from '../core/actions/getLegacyPath.js'
export {
  type GetLegacyTokensErrorType,
  type GetLegacyTokensParameters,
  type GetLegacyTokensReturnType,
  getLegacyTokens,
} from '../core/actions/getLegacyTokens.js'
export {
  type GetPairsErrorType,
  type GetPairsParameters,
  type GetPairsReturnType,
  getPairs,
} from '../core/actions/getPairs.js'
export {
  type GetSwapInfoErrorType,
  type GetSwapInfoParameters,
  type GetSwapInfoReturnType,
  getSwapInfo,
} from '../core/actions/getSwapInfo.js'

// Actions
export {
  type GetSwapRouteErrorType,
  type GetSwapRouteParameters,
  type GetSwapRouteReturnType,
  getSwapRoute,
} from '../core/actions/getSwapRoute.js'
export {
  type GetTokenPriceErrorType,
  type GetTokenPriceParameters,
  type GetTokenPriceReturnType,
  getTokenPrice,
} from '../core/actions/getTokenPrice.js'
export {
  type GetTokensErrorType,
  type GetTokensParameters,
  type GetTokensReturnType,
  getTokens,
} from '../core/actions/getTokens.js'
export {
  type GetTokensDataErrorType,
  type GetTokensDataParameters,
  type GetTokensDataReturnType,
  getTokensData,
} from '../core/actions/getTokensData.js'
export {
  type CreateSwapClientErrorType,
  createSwapClient,
  type SwapClient,
  type SwapClientConfig,
  type SwapClientHeaders,
} from '../core/client.js'
// Utilities
export { defaultSlippage, isNativeToken, nativeTokenAddress } from '../core/constants.js'
// Errors
export { BaseError, type BaseErrorType, walk } from '../core/errors/base.js'
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
  type RequestErrorType,
  ResponseTooLargeError,
  type ResponseTooLargeErrorType,
  TimeoutError,
  type TimeoutErrorType,
} from '../core/errors/request.js'
export { ResponseValidationError, type ResponseValidationErrorType } from '../core/errors/response.js'
export {
  createRateLimiter,
  defaultRateLimit,
  type RateLimitConfig,
  type RateLimiter,
  type RateLimiterOptions,
  type RateLimitState,
} from '../core/rateLimiter.js'
// Data
export type { LegacyPath, Pair, Route, SwapInfo, Token, TokenData } from '../core/schemas.js'
export type { Endpoint, RequestOptions } from '../core/types.js'
export { getMinAmountOut } from '../core/utils/getMinAmountOut.js'
export {
  type ParseAmountOptions,
  type ParseAmountReturnType,
  parseAmount,
} from '../core/utils/parseAmount.js'
export { getRetryDelay, isRetryableError, maxAttempts } from '../core/utils/retry.js'
export { parseRetryAfter } from '../core/utils/retryAfter.js'
export type { ArrayFormat } from '../core/utils/url.js'
