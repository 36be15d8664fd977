import type { SwapClient } from '../client.js'
import { resolveStorage } from './records/pendingSwaps.js'
import { checkSwapParameters } from './rules/checkSwapParameters.js'
import { createSwapRun, runSwap } from './run/runSwap.js'
import type { ExecuteSwapParameters, ExecuteSwapReturnType } from './types.js'

export type {
  ExecuteSwapAction,
  ExecuteSwapErrorType,
  ExecuteSwapParameters,
  ExecuteSwapReturnType,
  ExecuteSwapStatus,
  ExecuteSwapStep,
  SwapEvent,
  TrustedAddresses,
} from './types.js'

/**
 * Executes a swap without trusting the service with the user's funds: a
 * fresh `/swap/info` held to the accepted quote; the router and spender held
 * to `trustedAddresses`; the exact calls to sign simulated and refused unless
 * token0 out ≤ `amountIn`, token1 in ≥ the floor and nothing else moves;
 * then one atomic batch, or each transaction after the previous is mined,
 * pinned to the chain, through the SwapGuard contract that holds the bounds
 * on chain. Nothing is signed after a failed check; an allowance left is
 * reported (or revoked); the progress is recorded in `storage` for a reload.
 *
 * @example
 * import { createSwapClient } from 'token-swap-hooks/core'
 * import { executeSwap } from 'token-swap-hooks/core/execute'
 * import { createPublicClient, createWalletClient, custom, http, parseEther } from 'viem'
 * import { mainnet } from 'viem/chains'
 *
 * const [account] = await window.ethereum.request({ method: 'eth_requestAccounts' })
 * const { swapHash, realized } = await executeSwap(createSwapClient({ baseUrl }), {
 *   walletClient: createWalletClient({ account, chain: mainnet, transport: custom(window.ethereum) }),
 *   publicClient: createPublicClient({ chain: mainnet, transport: http() }),
 *   token0: WETH,
 *   token1: USDC,
 *   amountIn: parseEther('1'),
 *   slippage: 0.01,
 *   acceptedQuote: route, // what the user saw; the floor is its amountOut less 1%
 *   trustedAddresses: { [mainnet.id]: [ROUTER, SPENDER] },
 * })
 */
export async function executeSwap(
  client: SwapClient,
  parameters: ExecuteSwapParameters,
): Promise<ExecuteSwapReturnType> {
  const checked = checkSwapParameters(parameters)
  const result = await runSwap(createSwapRun(client, checked, resolveStorage(checked.storage)))
  if ('swapped' in result) return result.swapped
  throw result.error
}
