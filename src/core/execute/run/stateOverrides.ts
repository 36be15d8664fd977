import { type Address, concat, type Hex, numberToHex, pad } from 'viem'
import type { SwapCall } from '../types.js'

/**
 * Runtime bytecode of `CallRunner.sol` (beside this file; `stateOverrides.test.ts` checks it compiles to
 * this): put at the user's address by a state override, it runs packed calls as the user in one `eth_call` or
 * `eth_estimateGas`.
 */
export const callRunnerCode: Hex =
  '0x6080604052303314600c57005b60005b368110601757005b6034810135806054830160003760008082816014860135863560601c5af13d6000803e15604d5701605401368110600f573d6000f35b3d6000fd'

/**
 * One request that runs `calls` in order as `account` and answers the last call's return data, or the first
 * failing call's revert data (nodes without `eth_simulateV1`).
 * @example const gas = await estimateGas(publicClient, runCallsRequest(account, [approveCall, swapCall]))
 */
export function runCallsRequest(account: Address, calls: readonly SwapCall[]) {
  const word = (value: bigint | number) => numberToHex(value, { size: 32 })
  return {
    account,
    to: account,
    data: concat(
      calls.flatMap(({ to, value = 0n, data }) => [to, word(value), word((data.length - 2) / 2), data]),
    ),
    stateOverride: [{ address: account, code: callRunnerCode }],
  }
}

/** Runtime code answering `address(calldataload(0)).balance`: read native balances between simulated calls. */
export const balanceReaderCode: Hex = '0x6000353160005260206000f3'

/** Where the balance reader is placed: the last 20 bytes of keccak256("token-swap-hooks.balance-reader"). */
export const balanceReaderAddress: Address = '0x3B9D7627Ae16dE485f4259bC9d14f2B731F23847'

/**
 * The balance reader's calldata for `holder`.
 * @example const data = balanceReaderData(account)
 */
export const balanceReaderData = (holder: Address): Hex => pad(holder)
