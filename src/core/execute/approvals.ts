import {
  type Address,
  type Chain,
  encodeFunctionData,
  erc20Abi,
  isAddressEqual,
  maxUint256,
  type PublicClient,
  type Transport,
  zeroAddress,
} from 'viem'
import { isNativeToken } from '../constants.js'
import type { SwapInfo } from '../schemas.js'
import type { SwapCall } from './checkSwapOutcome.js'
import { toMissingTokenError } from './walletErrors.js'

/**
 * The spender a swap needs an allowance for: the quote's `approvalAddress`,
 * unless token0 is the native coin or the quote names none (null, the zero
 * address).
 *
 * @example
 * const spender = approvalSpender(token0, swapInfo) // Address | undefined
 */
export function approvalSpender(
  token0: Address,
  swapInfo: Pick<SwapInfo, 'approvalAddress'>,
): Address | undefined {
  const spender = swapInfo.approvalAddress
  if (isNativeToken(token0) || spender === null || isAddressEqual(spender, zeroAddress)) return undefined
  return spender
}

/**
 * `approve(spender, amount)` on `token`, as the wallet is asked to sign it.
 *
 * @example
 * const reset = approveCall(USDT, spender, 0n)
 */
export function approveCall(token: Address, spender: Address, amount: bigint): SwapCall {
  return {
    to: token,
    data: encodeFunctionData({ abi: erc20Abi, functionName: 'approve', args: [spender, amount] }),
  }
}

export type PlanApprovalsParameters = {
  owner: Address
  token0: Address
  spender: Address
  amountIn: bigint
  /** `'exact'` (default) approves amountIn; `'infinite'` approves 2^256 - 1. */
  approval?: 'exact' | 'infinite' | undefined
  /** Set the allowance to 0 before approving; detected (the approval simulated) when omitted. */
  resetAllowance?: boolean | undefined
  /** The chain read, for the error naming a token with no contract there. */
  chainId: number
}

export type PlanApprovalsReturnType = {
  /** The spender's allowance now. */
  allowance: bigint
  /** The approvals to sign, in order: none when the allowance covers amountIn; a reset to 0 first when needed. */
  calls: SwapCall[]
  /** A non-zero allowance the token will not change directly (USDT): set to 0 first. */
  needsReset: boolean
}

/**
 * The approvals a swap needs, as `executeSwap` sends them and
 * `getSwapPreview` shows them: none when the allowance covers `amountIn`,
 * else approve(spender, amountIn or 2^256 - 1), preceded by approve(spender, 0)
 * when the allowance is not zero and the token refuses to change it directly
 * (simulated, unless `resetAllowance` says). A token with no contract on the
 * chain is an `InvalidParameterError` naming `token0`.
 *
 * @example
 * const { calls, needsReset } = await planApprovals(publicClient, { owner, token0, spender, amountIn, chainId })
 */
export async function planApprovals(
  publicClient: PublicClient<Transport, Chain | undefined>,
  { owner, token0, spender, amountIn, approval, resetAllowance, chainId }: PlanApprovalsParameters,
): Promise<PlanApprovalsReturnType> {
  const allowance = await publicClient
    .readContract({ address: token0, abi: erc20Abi, functionName: 'allowance', args: [owner, spender] })
    .catch((error: unknown) => {
      throw toMissingTokenError(error, 'token0', token0, chainId)
    })
  if (allowance >= amountIn) return { allowance, calls: [], needsReset: false }
  const approve = approveCall(token0, spender, approval === 'infinite' ? maxUint256 : amountIn)
  const needsReset =
    allowance > 0n &&
    (resetAllowance ??
      !(await publicClient.call({ account: owner, to: approve.to, data: approve.data }).then(
        () => true,
        () => false,
      )))
  return {
    allowance,
    calls: needsReset ? [approveCall(token0, spender, 0n), approve] : [approve],
    needsReset,
  }
}
