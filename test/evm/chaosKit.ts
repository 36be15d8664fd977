import { type Address, encodeFunctionData, type Hex } from 'viem'
import { chaosRouterAbi } from './abis.js'

/*
 * ChaosRouter's actions (test/evm/contracts/ChaosRouter.sol), for the guard's rule tests and its
 * invariant test.
 */

export type ChaosAction =
  /** `token.transferFrom(caller, router, amount)`: the caller is the guard's executor. */
  | { kind: 'pull'; token: Address; amount: bigint }
  /** Pays `amount` of `token` (or the native sentinel) from the router's stock to `to`. */
  | { kind: 'pay'; token: Address; to: Address; amount: bigint }
  /** Calls `to` with `data` and `value` (a nested swap through the guard, paid by the router). */
  | { kind: 'call'; to: Address; data: Hex; value?: bigint | undefined }
  | { kind: 'revert' }

const kinds = { pull: 0, pay: 1, call: 2, revert: 3 } as const
const zero: Address = '0x0000000000000000000000000000000000000000'

/** `ChaosRouter.act(actions)` calldata. */
export function chaosData(actions: readonly ChaosAction[]): Hex {
  return encodeFunctionData({
    abi: chaosRouterAbi,
    functionName: 'act',
    args: [
      actions.map((action) => ({
        kind: kinds[action.kind],
        token: 'token' in action ? action.token : zero,
        to: 'to' in action ? action.to : zero,
        amount: 'amount' in action ? action.amount : action.kind === 'call' ? (action.value ?? 0n) : 0n,
        data: action.kind === 'call' ? action.data : '0x',
      })),
    ],
  })
}
