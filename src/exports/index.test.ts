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
      "defaultSlippage",
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
      "refreshAfterSwap",
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
      "getSwapInfoBody",
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

test('the public runtime exports of token-swap-hooks/execute: all of core/execute, and the React parts', async () => {
  const execute = await import('./execute.js')
  const coreExecute = await import('./coreExecute.js')
  // core/execute's own list is snapshotted in core.test.ts.
  expect(Object.keys(execute)).toEqual(expect.arrayContaining(Object.keys(coreExecute)))
  expect(
    Object.keys(execute)
      .filter((name) => !(name in coreExecute))
      .sort(),
  ).toMatchInlineSnapshot(`
    [
      "executeSwapMutationOptions",
      "refreshAfterSwap",
      "useExecuteSwap",
      "useSwapPreview",
    ]
  `)
})
