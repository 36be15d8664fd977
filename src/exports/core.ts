// token-swap-hooks/core: everything without React. The client and the nine actions, token balances,
// exact output, slippage, the executor (executeSwap, getSwapPreview, revokeAllowance, the outcome
// check), resuming (resumeSwap, settlePendingSwaps, checkPendingSwap and the pending-swap storage),
// what the executor checks and signs of the swap guard, and every error. Needs viem, never React.

// Actions
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
export {
  type GetSwapRouteErrorType,
  type GetSwapRouteParameters,
  type GetSwapRouteReturnType,
  getSwapRoute,
} from '../core/actions/getSwapRoute.js'
export {
  type GetSwapRouteForOutputErrorType,
  type GetSwapRouteForOutputParameters,
  type GetSwapRouteForOutputReturnType,
  getSwapRouteForOutput,
} from '../core/actions/getSwapRouteForOutput.js'
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
// Balances
export {
  type BalanceToken,
  type GetTokenBalancesErrorType,
  type GetTokenBalancesParameters,
  type GetTokenBalancesReturnType,
  getTokenBalances,
  type TokenBalance,
  type TokenBalancesPrices,
} from '../core/balances/getTokenBalances.js'
// Client
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
export { BlockNotReachedError, type BlockNotReachedErrorType } from '../core/errors/balances.js'
export { BaseError, type BaseErrorType, walk } from '../core/errors/base.js'
export {
  ExactOutputNotReachedError,
  type ExactOutputNotReachedErrorType,
} from '../core/errors/exactOutput.js'
export {
  BatchFailedError,
  type BatchFailedErrorType,
  BatchUnsupportedError,
  type BatchUnsupportedErrorType,
  ChainMismatchError,
  type ChainMismatchErrorType,
  ExecuteSwapError,
  type ExecuteSwapStage,
  InsufficientAllowanceError,
  type InsufficientAllowanceErrorType,
  type LeftoverAllowance,
  OutcomeUnknownError,
  type OutcomeUnknownErrorType,
  QuoteBelowMinimumError,
  type QuoteBelowMinimumErrorType,
  QuoteChangedError,
  type QuoteChangedErrorType,
  SimulationUnavailableError,
  type SimulationUnavailableErrorType,
  SwapInProgressError,
  type SwapInProgressErrorType,
  type SwapOutcome,
  type SwapOutcomeViolation,
  SwapSimulationError,
  type SwapSimulationErrorType,
  TransactionNotSeenError,
  type TransactionNotSeenErrorType,
  TransactionReplacedError,
  type TransactionReplacedErrorType,
  TransactionRevertedError,
  type TransactionRevertedErrorType,
  UnsafeSwapDataError,
  type UnsafeSwapDataErrorType,
  UnsafeSwapOutcomeError,
  type UnsafeSwapOutcomeErrorType,
  UntrustedAddressError,
  type UntrustedAddressErrorType,
  UserRejectedError,
  type UserRejectedErrorType,
  WalletError,
  type WalletErrorType,
} from '../core/errors/execute.js'
export {
  PermitRefusedError,
  type PermitRefusedErrorType,
  SwapGuardCodeMismatchError,
  type SwapGuardCodeMismatchErrorType,
  SwapGuardIncompatibleError,
  type SwapGuardIncompatibleErrorType,
  SwapGuardNotDeployedError,
  type SwapGuardNotDeployedErrorType,
} from '../core/errors/guard.js'
export { InvalidParameterError, type InvalidParameterErrorType } from '../core/errors/parameter.js'
export { PriceImpactTooHighError, type PriceImpactTooHighErrorType } from '../core/errors/priceImpact.js'
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
// Resume
export {
  type CheckPendingSwapReturnType,
  checkPendingSwap,
} from '../core/execute/checkPendingSwap.js'
// Executor
export {
  type ExecuteSwapAction,
  type ExecuteSwapErrorType,
  type ExecuteSwapParameters,
  type ExecuteSwapReturnType,
  type ExecuteSwapStatus,
  type ExecuteSwapStep,
  executeSwap,
  type SwapEvent,
  type TrustedAddresses,
} from '../core/execute/executeSwap.js'
export {
  type GetMaxAmountParameters,
  gasPriceOracleAddress,
  getMaxAmount,
  type MaxAmount,
  type MaxAmountReason,
} from '../core/execute/getMaxAmount.js'
export {
  type GetSwapPreviewParameters,
  getSwapPreview,
  type NetworkFee,
  type NetworkFeeStep,
  type SwapPreview,
  type SwapPreviewStep,
} from '../core/execute/getSwapPreview.js'
// The swap guard, as the executor checks and signs for it (its deployment: token-swap-hooks/guard)
export {
  type EncodeSwapWithPermit2Parameters,
  type EncodeSwapWithPermit2ReturnType,
  encodeSwapWithPermit2,
} from '../core/execute/guard/encodeSwapWithPermit2.js'
export {
  permit2Address,
  swapGuardAbi,
  swapGuardAddress,
  swapGuardCodeHash,
  swapGuardExecutorAddress,
  swapGuardExecutorCodeHash,
} from '../core/execute/guard/swapGuard.js'
export {
  type SwapPermitTypedDataParameters,
  type SwapPermitTypedDataReturnType,
  type SwapPermitWitness,
  swapPermitTypedData,
} from '../core/execute/guard/swapPermitTypedData.js'
export {
  type SwapGuardStatus,
  type VerifySwapGuardErrorType,
  type VerifySwapGuardParameters,
  type VerifySwapGuardReturnType,
  verifySwapGuard,
} from '../core/execute/guard/verifySwapGuard.js'
export {
  createMemoryStorage,
  type GetPendingSwapsParameters,
  getDefaultStorage,
  getPendingSwaps,
  type PendingSwap,
  removePendingSwap,
  type SwapStorage,
} from '../core/execute/records/pendingSwaps.js'
export {
  type ResumeSwapParameters,
  type ResumeSwapReturnType,
  resumeSwap,
} from '../core/execute/resumeSwap.js'
export {
  type RevokeAllowanceParameters,
  type RevokeAllowanceReturnType,
  revokeAllowance,
} from '../core/execute/revokeAllowance.js'
export type { PendingSwapStatus } from '../core/execute/rules/standing.js'
export {
  type CheckSwapOutcomeParameters,
  type CheckSwapOutcomeReturnType,
  checkSwapOutcome,
  type SwapCall,
} from '../core/execute/run/checkSwapOutcome.js'
export {
  type SettlePendingSwapsParameters,
  type SettlePendingSwapsReturnType,
  settlePendingSwaps,
} from '../core/execute/settlePendingSwaps.js'
export {
  type CheckPriceImpactErrorType,
  type CheckPriceImpactParameters,
  type CheckPriceImpactReturnType,
  checkPriceImpact,
} from '../core/prices/checkPriceImpact.js'
export {
  defaultPriceImpactThresholds,
  type PriceImpact,
  type PriceImpactOfParameters,
  type PriceImpactThresholds,
  priceImpactOf,
  type ValueGap,
} from '../core/prices/priceImpact.js'
export type { RateLimitConfig, RateLimiterTokens, RateLimitState } from '../core/rateLimiter.js'
// Failure reports
export {
  createFailureReport,
  type FailureReport,
  type FailureReportCause,
  type FailureReportContext,
  type FailureReportError,
  type FailureReportJson,
  type FailureReportRequest,
  type FailureReportRequestInput,
} from '../core/report/createFailureReport.js'
// Data
export type { LegacyPath, Pair, Route, SwapInfo, Token, TokenData } from '../core/schemas.js'
// Slippage
export { type SlippageSetting, slippageFor } from '../core/slippage/slippageFor.js'
export {
  type SuggestSlippageParameters,
  type SuggestSlippageReturnType,
  suggestSlippage,
} from '../core/slippage/suggestSlippage.js'
export { type GetTokenParameters, type GetTokenReturnType, getToken } from '../core/tokens/getToken.js'
export type { Endpoint, RequestOptions } from '../core/types.js'
export { getMinAmountOut } from '../core/utils/getMinAmountOut.js'
export { type ParseAmountOptions, parseAmount } from '../core/utils/parseAmount.js'
export type { ArrayFormat } from '../core/utils/url.js'
