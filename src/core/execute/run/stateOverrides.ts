import { type Address, concat, type Hex, numberToHex, pad } from 'viem'
import type { SwapCall } from '../types.js'

/**
 * Runtime bytecode of `CallRunner.sol` (beside this file), compiled with solc
 * 0.8.30, `viaIR`, optimizer on (1 run), EVM `paris`, no metadata:
 * `stateOverrides.test.ts` recompiles the source and checks it is this code.
 * Put at the user's address by a state override, it runs packed calls as the
 * user in one `eth_call` or `eth_estimateGas`, on nodes without
 * `eth_simulateV1`.
 */
export const callRunnerCode: Hex =
  '0x6080604052303314600c57005b60005b368110601757005b6034810135806054830160003760008082816014860135863560601c5af13d6000803e15604d5701605401368110600f573d6000f35b3d6000fd'

/**
 * One request that runs `calls` in order as `account` (the call runner put at
 * its address by a state override) and answers the last call's return data,
 * or the first failing call's revert data: for `eth_call` (the swap through
 * the guard answers what the recipient gained) or `eth_estimateGas`
 * (`getSwapPreview`'s fee), on a node without `eth_simulateV1`.
 *
 * @example
 * const gas = await estimateGas(publicClient, runCallsRequest(account, [approveCall, swapCall]))
 */
export function runCallsRequest(account: Address, calls: readonly SwapCall[]) {
  return {
    account,
    to: account,
    data: concat(
      calls.flatMap((call) => [
        call.to,
        numberToHex(call.value ?? 0n, { size: 32 }),
        numberToHex((call.data.length - 2) / 2, { size: 32 }),
        call.data,
      ]),
    ),
    stateOverride: [{ address: account, code: callRunnerCode }],
  }
}

/**
 * Runtime code answering `address(calldataload(0)).balance` (PUSH1 0,
 * CALLDATALOAD, BALANCE, PUSH1 0, MSTORE, PUSH1 32, PUSH1 0, RETURN), placed
 * by a state override inside `eth_simulateV1` to read native balances between calls.
 */
export const balanceReaderCode: Hex = '0x6000353160005260206000f3'

/** Where the balance reader is placed: the last 20 bytes of keccak256("token-swap-hooks.balance-reader"). */
export const balanceReaderAddress: Address = '0x3B9D7627Ae16dE485f4259bC9d14f2B731F23847'

/** The balance reader's calldata for `holder`. */
export const balanceReaderData = (holder: Address): Hex => pad(holder)
