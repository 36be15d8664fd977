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
      "defaultSlippage",
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
      "PermitRefusedError",
      "QuoteBelowMinimumError",
      "QuoteChangedError",
      "SimulationUnavailableError",
      "SwapGuardCodeMismatchError",
      "SwapGuardIncompatibleError",
      "SwapGuardNotDeployedError",
      "SwapInProgressError",
      "SwapSimulationError",
      "TransactionNotSeenError",
      "TransactionReplacedError",
      "TransactionRevertedError",
      "UnsafeSwapDataError",
      "UnsafeSwapOutcomeError",
      "UntrustedAddressError",
      "UserRejectedError",
      "WalletError",
      "checkSwapOutcome",
      "createMemoryStorage",
      "defaultPriceImpactThresholds",
      "deterministicDeployerAddress",
      "encodeSwapWithPermit2",
      "executeSwap",
      "getDefaultStorage",
      "getPendingSwaps",
      "getSwapPreview",
      "permit2Address",
      "removePendingSwap",
      "revokeAllowance",
      "supportsAtomicBatch",
      "swapGuardAbi",
      "swapGuardAddress",
      "swapGuardCodeHash",
      "swapGuardExecutorAddress",
      "swapGuardExecutorCodeHash",
      "swapGuardMissingCacheMs",
      "swapPermitTypedData",
      "swapPermitTypes",
      "swapPermitWitnessTypeString",
      "verifySwapGuard",
    ]
  `)
})

test('the public runtime exports of token-swap-hooks/core/resume', async () => {
  const resume = await import('./coreResume.js')
  expect(Object.keys(resume).sort()).toMatchInlineSnapshot(`
    [
      "SwapInProgressError",
      "checkPendingSwap",
      "createMemoryStorage",
      "getDefaultStorage",
      "getPendingSwaps",
      "removePendingSwap",
      "resumeSwap",
      "settlePendingSwaps",
    ]
  `)
})

test('the public runtime exports of token-swap-hooks/resume: all of core/resume, and the React parts', async () => {
  const [resume, core] = await Promise.all([import('./resume.js'), import('./coreResume.js')])
  expect(
    Object.keys(resume)
      .filter((name) => !(name in core))
      .sort(),
  ).toMatchInlineSnapshot(`
    [
      "getPendingSwapsQueryKey",
      "pendingSwapsQueryName",
      "pendingSwapsQueryOptions",
      "resumeSwapMutationOptions",
      "usePendingSwaps",
    ]
  `)
})

test('the public runtime exports of token-swap-hooks/guard', async () => {
  const guard = await import('./guard.js')
  expect(Object.keys(guard).sort()).toMatchInlineSnapshot(`
    [
      "DeterministicDeployerMismatchError",
      "SwapGuardCodeMismatchError",
      "SwapGuardNotDeployedError",
      "deploySwapGuard",
      "deterministicDeployerAddress",
      "deterministicDeployerCodeHash",
      "isSwapGuardDeployed",
      "permit2Address",
      "swapGuardAbi",
      "swapGuardAddress",
      "swapGuardCodeHash",
      "swapGuardExecutorAddress",
      "swapGuardExecutorCodeHash",
      "swapGuardInitCode",
      "swapGuardSalt",
    ]
  `)
})
