import { type Address, encodeFunctionData, zeroAddress } from 'viem'
import { isNativeToken } from '../constants.js'
import type { SwapInfo } from '../schemas.js'
import { approvalSpender } from './approvals.js'
import type { SwapCall } from './checkSwapOutcome.js'
import { swapGuardAbi, swapGuardAddress } from './swapGuard.js'

/**
 * Where the user's bounds hold: `'onchain'`, in the mined transaction (the
 * swap goes through the SwapGuard contract, which reverts it below them);
 * `'simulation'`, only in the simulation of the service's calldata, signed
 * as it is.
 */
export type FloorEnforcement = 'onchain' | 'simulation'

export type PlanSwapCallParameters = {
  enforcement: FloorEnforcement
  token0: Address
  token1: Address
  amountIn: bigint
  /** The user's floor, written into the guard's call (`'onchain'`). */
  minAmountOut: bigint
  recipient: Address
  swapInfo: Pick<SwapInfo, 'approvalAddress' | 'transferAddress' | 'data' | 'transferValue'>
}

export type PlanSwapCallReturnType = {
  /** The transaction the user signs for the swap. */
  call: SwapCall
  /** Who the user approves token0 to, if anyone: the guard (`'onchain'`) or the service's spender. */
  approvalTarget: Address | undefined
  /** The spender the service names (`approvalAddress`), whoever the user approves. */
  serviceSpender: Address | undefined
}

/**
 * The swap transaction the user signs, and whom they approve for it. On
 * chain (`'onchain'`): `SwapGuard.swap(token0, amountIn, token1, minAmountOut,
 * recipient, spender, router, data)` with the service's value, the user
 * approving the guard (an ERC-20 token0); the guard pulls `amountIn` from the
 * user only, has its executor approve the service's spender and call its
 * router with its calldata, and reverts unless the user spent at most
 * `amountIn` and the recipient gained at least `minAmountOut`. Else
 * (`'simulation'`): the service's call as it is, the user approving the
 * service's spender. `executeSwap` and `getSwapPreview` both take their calls
 * from here.
 *
 * @example
 * const { call, approvalTarget } = planSwapCall({ enforcement: 'onchain', token0, token1, amountIn, minAmountOut, recipient, swapInfo })
 */
export function planSwapCall({
  enforcement,
  token0,
  token1,
  amountIn,
  minAmountOut,
  recipient,
  swapInfo,
}: PlanSwapCallParameters): PlanSwapCallReturnType {
  const serviceSpender = approvalSpender(token0, swapInfo)
  const value = swapInfo.transferValue
  if (enforcement === 'simulation')
    return {
      call: { to: swapInfo.transferAddress, data: swapInfo.data, value },
      approvalTarget: serviceSpender,
      serviceSpender,
    }
  return {
    call: {
      to: swapGuardAddress,
      data: encodeFunctionData({
        abi: swapGuardAbi,
        functionName: 'swap',
        args: [
          token0,
          amountIn,
          token1,
          minAmountOut,
          recipient,
          serviceSpender ?? zeroAddress,
          swapInfo.transferAddress,
          swapInfo.data,
        ],
      }),
      value,
    },
    approvalTarget: isNativeToken(token0) ? undefined : swapGuardAddress,
    serviceSpender,
  }
}
