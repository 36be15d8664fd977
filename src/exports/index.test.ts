import { expect, test } from 'vitest'
import * as main from './index.js'
import * as query from './query.js'

test('the public runtime exports of token-swap-hooks', () => {
  expect(Object.keys(main).sort()).toMatchInlineSnapshot(`
    [
      "BaseError",
      "ChainMismatchError",
      "ExecuteSwapError",
      "HttpError",
      "InsufficientAllowanceError",
      "InvalidParameterError",
      "NetworkError",
      "NoRouteError",
      "QuoteBelowMinimumError",
      "RateLimitError",
      "RedirectError",
      "ResponseTooLargeError",
      "ResponseValidationError",
      "SwapProvider",
      "SwapProviderNotFoundError",
      "SwapSimulationError",
      "TimeoutError",
      "TransactionRevertedError",
      "UnsafeSwapDataError",
      "UnsafeSwapOutcomeError",
      "UntrustedAddressError",
      "UserRejectedError",
      "WalletError",
      "createSwapClient",
      "getMinAmountOut",
      "isNativeToken",
      "nativeTokenAddress",
      "revokeAllowance",
      "useExecuteSwap",
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
      "hashFn",
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
      "createSwapHandlers",
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
