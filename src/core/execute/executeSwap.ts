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
 * Executes a swap without trusting the service with the user's funds: a fresh quote held to the accepted one,
 * the router and spender to `trustedAddresses`, the exact calls simulated and refused unless token0 out ≤
 * `amountIn`, token1 in ≥ the floor and nothing else moves, then sent pinned to the chain through the
 * SwapGuard contract (which holds the bounds on chain), recorded for a reload.
 * @example const { swapHash } = await executeSwap(client, { walletClient, publicClient, token0, token1, amountIn, acceptedQuote, trustedAddresses })
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
