import { readFileSync } from 'node:fs'
import { describe, expect, test } from 'vitest'
import { api, render, reportPath } from '../../scripts/api-report.mjs'

/**
 * The public runtime exports of each entry, as a user's `import * as entry` sees them. A change
 * here is a change to the public API: update the snapshot and api/token-swap-hooks.api.md
 * (`npm run api:report`) in the same commit.
 */
const load = {
  'token-swap-hooks': () => import('./index.js'),
  'token-swap-hooks/core': () => import('./core.js'),
  'token-swap-hooks/query': () => import('./query.js'),
  'token-swap-hooks/guard': () => import('./guard.js'),
  'token-swap-hooks/tabs': () => import('./tabs.js'),
  'token-swap-hooks/devtools': () => import('./devtools.js'),
  'token-swap-hooks/mock': () => import('./mock.js'),
  'token-swap-hooks/mock/msw': () => import('./mockMsw.js'),
} as const

const keysOf = async (entry: keyof typeof load) => Object.keys(await load[entry]()).sort()

test('the entries are the ones package.json exports', () => {
  const packageJson = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8'))
  expect(Object.keys(packageJson.exports)).toMatchInlineSnapshot(`
    [
      ".",
      "./core",
      "./query",
      "./guard",
      "./tabs",
      "./devtools",
      "./mock",
      "./mock/msw",
      "./package.json",
    ]
  `)
  expect(Object.keys(api())).toEqual(Object.keys(load))
})

describe('the API report (api/token-swap-hooks.api.md) is what the entries export', () => {
  const report = api()
  test.each(Object.keys(load) as (keyof typeof load)[])('%s: its runtime names', async (entry) => {
    expect(report[entry]?.runtime.map(({ name }) => name)).toEqual(await keysOf(entry))
  })
  test('the checked-in report is up to date', () => {
    expect(readFileSync(reportPath, 'utf8')).toBe(render(report))
  })
})

test('the public runtime exports of token-swap-hooks', async () => {
  expect(await keysOf('token-swap-hooks')).toMatchInlineSnapshot(`
    [
      "BaseError",
      "BatchFailedError",
      "BatchUnsupportedError",
      "BlockNotReachedError",
      "ChainMismatchError",
      "ExactOutputNotReachedError",
      "ExecuteSwapError",
      "HttpError",
      "InsufficientAllowanceError",
      "InvalidParameterError",
      "NetworkError",
      "NoRouteError",
      "OutcomeUnknownError",
      "PermitRefusedError",
      "PriceImpactTooHighError",
      "QuoteBelowMinimumError",
      "QuoteChangedError",
      "RateLimitError",
      "RedirectError",
      "ResponseTooLargeError",
      "ResponseValidationError",
      "SimulationUnavailableError",
      "SwapGuardCodeMismatchError",
      "SwapGuardIncompatibleError",
      "SwapGuardNotDeployedError",
      "SwapInProgressError",
      "SwapProvider",
      "SwapProviderNotFoundError",
      "SwapSimulationError",
      "TimeoutError",
      "TransactionNotSeenError",
      "TransactionReplacedError",
      "TransactionRevertedError",
      "UnsafeSwapDataError",
      "UnsafeSwapOutcomeError",
      "UntrustedAddressError",
      "UserRejectedError",
      "WalletError",
      "createSwapClient",
      "defaultSlippage",
      "getMinAmountOut",
      "isNativeToken",
      "nativeTokenAddress",
      "parseAmount",
      "useExecuteSwap",
      "useLegacyPairs",
      "useLegacyPath",
      "useLegacyTokens",
      "useMaxAmount",
      "usePairs",
      "usePendingSwaps",
      "useRateLimitState",
      "useSuggestedSlippage",
      "useSwapClient",
      "useSwapInfo",
      "useSwapPreview",
      "useSwapRoute",
      "useSwapRouteForOutput",
      "useToken",
      "useTokenBalances",
      "useTokenPrice",
      "useTokens",
      "useTokensData",
    ]
  `)
})

test('the public runtime exports of token-swap-hooks/core', async () => {
  expect(await keysOf('token-swap-hooks/core')).toMatchInlineSnapshot(`
    [
      "BaseError",
      "BatchFailedError",
      "BatchUnsupportedError",
      "BlockNotReachedError",
      "ChainMismatchError",
      "ExactOutputNotReachedError",
      "ExecuteSwapError",
      "HttpError",
      "InsufficientAllowanceError",
      "InvalidParameterError",
      "NetworkError",
      "NoRouteError",
      "OutcomeUnknownError",
      "PermitRefusedError",
      "PriceImpactTooHighError",
      "QuoteBelowMinimumError",
      "QuoteChangedError",
      "RateLimitError",
      "RedirectError",
      "ResponseTooLargeError",
      "ResponseValidationError",
      "SimulationUnavailableError",
      "SwapGuardCodeMismatchError",
      "SwapGuardIncompatibleError",
      "SwapGuardNotDeployedError",
      "SwapInProgressError",
      "SwapSimulationError",
      "TimeoutError",
      "TransactionNotSeenError",
      "TransactionReplacedError",
      "TransactionRevertedError",
      "UnsafeSwapDataError",
      "UnsafeSwapOutcomeError",
      "UntrustedAddressError",
      "UserRejectedError",
      "WalletError",
      "checkPendingSwap",
      "checkPriceImpact",
      "checkSwapOutcome",
      "createFailureReport",
      "createMemoryStorage",
      "createSwapClient",
      "defaultPriceImpactThresholds",
      "defaultSlippage",
      "encodeSwapWithPermit2",
      "executeSwap",
      "gasPriceOracleAddress",
      "getDefaultStorage",
      "getLegacyPairs",
      "getLegacyPath",
      "getLegacyTokens",
      "getMaxAmount",
      "getMinAmountOut",
      "getPairs",
      "getPendingSwaps",
      "getSwapInfo",
      "getSwapPreview",
      "getSwapRoute",
      "getSwapRouteForOutput",
      "getToken",
      "getTokenBalances",
      "getTokenPrice",
      "getTokens",
      "getTokensData",
      "isNativeToken",
      "nativeTokenAddress",
      "parseAmount",
      "permit2Address",
      "priceImpactOf",
      "removePendingSwap",
      "resumeSwap",
      "revokeAllowance",
      "settlePendingSwaps",
      "slippageFor",
      "suggestSlippage",
      "swapGuardAbi",
      "swapGuardAddress",
      "swapGuardCodeHash",
      "swapGuardExecutorAddress",
      "swapGuardExecutorCodeHash",
      "swapPermitTypedData",
      "verifySwapGuard",
      "walk",
    ]
  `)
})

test('the public runtime exports of token-swap-hooks/query', async () => {
  expect(await keysOf('token-swap-hooks/query')).toMatchInlineSnapshot(`
    [
      "defaultBlockTimeMs",
      "deserializeBigInts",
      "executeSwapMutationOptions",
      "getLegacyPairsQueryKey",
      "getLegacyPairsQueryOptions",
      "getLegacyPathQueryKey",
      "getLegacyPathQueryOptions",
      "getLegacyTokensQueryKey",
      "getLegacyTokensQueryOptions",
      "getMaxAmountQueryKey",
      "getMaxAmountQueryOptions",
      "getPairsQueryKey",
      "getPairsQueryOptions",
      "getPendingSwapsQueryKey",
      "getSwapInfoQueryKey",
      "getSwapInfoQueryOptions",
      "getSwapRouteForOutputQueryKey",
      "getSwapRouteForOutputQueryOptions",
      "getSwapRouteQueryKey",
      "getSwapRouteQueryOptions",
      "getTokenBalancesQueryKey",
      "getTokenBalancesQueryOptions",
      "getTokenPriceQueryKey",
      "getTokenPriceQueryOptions",
      "getTokenQueryKey",
      "getTokenQueryOptions",
      "getTokensDataQueryKey",
      "getTokensDataQueryOptions",
      "getTokensQueryKey",
      "getTokensQueryOptions",
      "maxAmountQueryName",
      "pendingSwapsQueryName",
      "pendingSwapsQueryOptions",
      "pendingSwapsRecheckDelay",
      "queryDefaults",
      "refreshAfterSwap",
      "resumeSwapMutationOptions",
      "serializeBigInts",
      "swapRouteForOutputQueryName",
      "tokenBalancesQueryName",
      "tokenQueryName",
      "withRateLimitPause",
    ]
  `)
})

test('the public runtime exports of token-swap-hooks/guard', async () => {
  expect(await keysOf('token-swap-hooks/guard')).toMatchInlineSnapshot(`
    [
      "DeterministicDeployerMismatchError",
      "SwapGuardCodeMismatchError",
      "SwapGuardNotDeployedError",
      "deploySwapGuard",
      "deterministicDeployerAddress",
      "deterministicDeployerCodeHash",
      "isSwapGuardDeployed",
      "swapGuardInitCode",
      "swapGuardSalt",
    ]
  `)
})

test('the public runtime exports of token-swap-hooks/tabs', async () => {
  expect(await keysOf('token-swap-hooks/tabs')).toMatchInlineSnapshot(`
    [
      "createTabCoordinator",
      "useTabCoordinator",
    ]
  `)
})

test('the public runtime exports of token-swap-hooks/devtools', async () => {
  expect(await keysOf('token-swap-hooks/devtools')).toMatchInlineSnapshot(`
    [
      "SwapDevtoolsPanel",
      "swapDevtoolsPlugin",
    ]
  `)
})

test('the public runtime exports of token-swap-hooks/mock', async () => {
  expect(await keysOf('token-swap-hooks/mock')).toMatchInlineSnapshot(`
    [
      "createMockMarket",
      "createMockService",
      "defaultMockPairs",
      "defaultMockRouter",
      "defaultMockSpender",
      "defaultMockTokens",
      "getSwapInfoBody",
      "mockTokenAddresses",
      "startMockServer",
      "swapRouterAbi",
    ]
  `)
})

test('the public runtime exports of token-swap-hooks/mock/msw', async () => {
  expect(await keysOf('token-swap-hooks/mock/msw')).toMatchInlineSnapshot(`
    [
      "createSwapHandlers",
    ]
  `)
})

test('every error class the hooks throw comes from the main entry and from core, the same class', async () => {
  const [main, core] = await Promise.all([load['token-swap-hooks'](), load['token-swap-hooks/core']()])
  const isErrorClass = (value: unknown) => typeof value === 'function' && value.prototype instanceof Error
  const mainErrors = Object.entries(main).filter(([, value]) => isErrorClass(value))
  const coreErrors = Object.entries(core).filter(([, value]) => isErrorClass(value))
  // The provider's own error is React's; every other one is core's, and the same object.
  expect(mainErrors.map(([name]) => name).filter((name) => !(name in core))).toEqual([
    'SwapProviderNotFoundError',
  ])
  expect(coreErrors.map(([name]) => name).filter((name) => !(name in main))).toEqual([])
  for (const [name, value] of mainErrors)
    if (name in core) expect(value).toBe(core[name as keyof typeof core])
})
