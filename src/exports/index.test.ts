import { expect, test } from 'vitest'
import * as main from './index.js'
import * as query from './query.js'

test('the public runtime exports of token-swap-hooks', () => {
  expect(Object.keys(main).sort()).toMatchInlineSnapshot(`
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
      "SwapProvider",
      "SwapProviderNotFoundError",
      "TimeoutError",
      "createSwapClient",
      "getMinAmountOut",
      "isNativeToken",
      "nativeTokenAddress",
      "parseAmount",
      "useLegacyPairs",
      "useLegacyPath",
      "useLegacyTokens",
      "usePairs",
      "useRateLimitState",
      "useSwapClient",
      "useSwapInfo",
      "useSwapRoute",
      "useTokenPrice",
      "useTokens",
      "useTokensData",
    ]
  `)
})

test('the public runtime exports of token-swap-hooks/query', () => {
  expect(Object.keys(query).sort()).toMatchInlineSnapshot(`
    [
      "deserializeBigInts",
      "executeSwapMutationOptions",
      "getLegacyPairsQueryKey",
      "getLegacyPairsQueryOptions",
      "getLegacyPathQueryKey",
      "getLegacyPathQueryOptions",
      "getLegacyTokensQueryKey",
      "getLegacyTokensQueryOptions",
      "getPairsQueryKey",
      "getPairsQueryOptions",
      "getSwapInfoQueryKey",
      "getSwapInfoQueryOptions",
      "getSwapRouteQueryKey",
      "getSwapRouteQueryOptions",
      "getTokenPriceQueryKey",
      "getTokenPriceQueryOptions",
      "getTokensDataQueryKey",
      "getTokensDataQueryOptions",
      "getTokensQueryKey",
      "getTokensQueryOptions",
      "queryDefaults",
      "serializeBigInts",
      "withRateLimitPause",
    ]
  `)
})

test('the public runtime exports of token-swap-hooks/mock', async () => {
  const mock = await import('./mock.js')
  expect(Object.keys(mock).sort()).toMatchInlineSnapshot(`
    [
      "createMockMarket",
      "createMockService",
      "defaultDeadlineSeconds",
      "defaultMockPairs",
      "defaultMockRouter",
      "defaultMockSpender",
      "defaultMockTokens",
      "defaultSlippage",
      "feeDenominator",
      "findBestRoute",
      "getAmountOut",
      "mockTokenAddresses",
      "startMockServer",
      "swapRouterAbi",
    ]
  `)
})

test('the public runtime exports of token-swap-hooks/mock/msw', async () => {
  const mockMsw = await import('./mockMsw.js')
  expect(Object.keys(mockMsw).sort()).toMatchInlineSnapshot(`
    [
      "createSwapHandlers",
    ]
  `)
})

test('the public runtime exports of token-swap-hooks/execute', async () => {
  const execute = await import('./execute.js')
  expect(Object.keys(execute).sort()).toMatchInlineSnapshot(`
    [
      "BatchFailedError",
      "BatchUnsupportedError",
      "ChainMismatchError",
      "ExecuteSwapError",
      "InsufficientAllowanceError",
      "QuoteBelowMinimumError",
      "QuoteChangedError",
      "SwapSimulationError",
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
      "executeSwapMutationOptions",
      "getDefaultStorage",
      "getPendingSwaps",
      "getSwapPreview",
      "removePendingSwap",
      "resumeSwap",
      "revokeAllowance",
      "settlePendingSwaps",
      "supportsAtomicBatch",
      "useExecuteSwap",
      "usePendingSwaps",
      "useSwapPreview",
    ]
  `)
})
