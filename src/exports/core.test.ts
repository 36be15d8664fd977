import { expect, test } from 'vitest'
import * as core from './core.js'

test('the public runtime exports of token-swap-hooks/core', () => {
  expect(Object.keys(core).sort()).toMatchInlineSnapshot(`
    [
      "BaseError",
      "ChainMismatchError",
      "HttpError",
      "InsufficientAllowanceError",
      "InvalidParameterError",
      "NetworkError",
      "NoRouteError",
      "QuoteBelowMinimumError",
      "RateLimitError",
      "RedirectError",
      "ResponseValidationError",
      "SwapSimulationError",
      "TimeoutError",
      "TransactionRevertedError",
      "UnsafeSwapDataError",
      "UntrustedAddressError",
      "UserRejectedError",
      "WalletError",
      "createRateLimiter",
      "createSwapClient",
      "defaultRateLimit",
      "executeSwap",
      "getLegacyPairs",
      "getLegacyPath",
      "getLegacyTokens",
      "getMinAmountOut",
      "getPairs",
      "getRetryDelay",
      "getSwapInfo",
      "getSwapRoute",
      "getTokenPrice",
      "getTokens",
      "getTokensData",
      "isNativeToken",
      "isRetryableError",
      "maxAttempts",
      "nativeTokenAddress",
      "parseRetryAfter",
      "walk",
    ]
  `)
})
