import { expect, test } from 'vitest'
import * as core from './core.js'

test('the public runtime exports of token-swap-hooks/core', () => {
  expect(Object.keys(core).sort()).toMatchInlineSnapshot(`
    [
      "BaseError",
      "HttpError",
      "InvalidParameterError",
      "NetworkError",
      "NoRouteError",
      "RateLimitError",
      "RedirectError",
      "ResponseTooLargeError",
      "ResponseValidationError",
      "TimeoutError",
      "createRateLimiter",
      "createSwapClient",
      "defaultRateLimit",
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
      "parseAmount",
      "parseRetryAfter",
      "walk",
    ]
  `)
})

test('the public runtime exports of token-swap-hooks/core/execute', async () => {
  const coreExecute = await import('./coreExecute.js')
  expect(Object.keys(coreExecute).sort()).toMatchInlineSnapshot(`
    [
      "BatchFailedError",
      "BatchUnsupportedError",
      "ChainMismatchError",
      "ExecuteSwapError",
      "InsufficientAllowanceError",
      "OutcomeUnknownError",
      "QuoteBelowMinimumError",
      "QuoteChangedError",
      "SwapInProgressError",
      "SwapSimulationError",
      "TransactionReplacedError",
      "TransactionRevertedError",
      "UnsafeSwapDataError",
      "UnsafeSwapOutcomeError",
      "UntrustedAddressError",
      "UserRejectedError",
      "WalletError",
      "checkPendingSwap",
      "checkSwapOutcome",
      "createMemoryStorage",
      "defaultPriceImpactThresholds",
      "executeSwap",
      "getDefaultStorage",
      "getPendingSwaps",
      "getSwapPreview",
      "removePendingSwap",
      "resumeSwap",
      "revokeAllowance",
      "settlePendingSwaps",
      "supportsAtomicBatch",
    ]
  `)
})
