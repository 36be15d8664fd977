// token-swap-hooks/balances: an account's token balances, sorted as a token picker shows them.

export {
  type BalanceToken,
  defaultBalancesBatchSize,
  defaultMaxPrices,
  type GetTokenBalancesErrorType,
  type GetTokenBalancesParameters,
  type GetTokenBalancesReturnType,
  getTokenBalances,
  type TokenBalance,
  type TokenBalancesPrices,
} from '../core/balances/getTokenBalances.js'
export { isMulticall3Deployed, multicall3Address } from '../core/balances/multicall3.js'
export { BlockNotReachedError, type BlockNotReachedErrorType } from '../core/errors/balances.js'
export {
  type GetTokenBalancesData,
  type GetTokenBalancesOptions,
  type GetTokenBalancesQueryFnData,
  type GetTokenBalancesQueryKey,
  type GetTokenBalancesQueryKeyParameters,
  type GetTokenBalancesQueryOptionsConfig,
  getTokenBalancesQueryKey,
  getTokenBalancesQueryOptions,
  tokenBalancesQueryName,
} from '../query/getTokenBalances.js'
export {
  type UseTokenBalancesParameters,
  type UseTokenBalancesReturnType,
  useTokenBalances,
} from '../react/hooks/useTokenBalances.js'
