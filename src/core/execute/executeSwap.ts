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
 * Executes a swap without trusting the service with the user's funds: fetches
 * a fresh `/swap/info` (a `QuoteChangedError` when it is worse than the quote
 * the user accepted by more than the slippage); refuses a spender or router
 * outside the chain's `trustedAddresses` and excess native value; simulates the
 * exact calls the wallet will sign (approvals and swap) and refuses unless
 * token0 leaves the user by at most `amountIn`, token1 reaches the recipient
 * by at least the user's floor, and nothing else leaves the user; then either
 * sends approval and swap as one atomic EIP-5792 batch (wallets that can), or
 * approves exactly what is needed (resetting USDT-style tokens first), waits
 * for it, simulates the swap again on the new state and sends it; every
 * transaction is pinned to the chain; reports the realized amounts. Nothing is
 * signed after a failed check, a rejection or a revert; an allowance left
 * behind is reported (or revoked with `revokeOnFailure`); the progress is
 * recorded in `storage` so that a reload does not lose it.
 *
 * @example
 * import { createSwapClient, executeSwap } from 'token-swap-hooks/core'
 * import { createPublicClient, createWalletClient, custom, http, parseEther } from 'viem'
 * import { mainnet } from 'viem/chains'
 * import 'viem/window' // types window.ethereum
 *
 * if (!window.ethereum) throw new Error('No wallet in this browser')
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
