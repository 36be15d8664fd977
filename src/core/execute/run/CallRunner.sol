// SPDX-License-Identifier: MIT
pragma solidity 0.8.30;

/// Placed at the user's address by a state override inside one `eth_call` or
/// `eth_estimateGas` (a node without `eth_simulateV1`): runs the calls packed
/// in its calldata, in order, as the user, and returns the last call's return
/// data; a failing call's revert data is its own. Each call is packed as 20
/// bytes `to`, 32 bytes `value`, 32 bytes `length`, then `length` bytes of
/// data. A call from anyone else (a token's callback to the user) does nothing.
/// Never deployed.
contract CallRunner {
    fallback() external payable {
        assembly {
            if eq(caller(), address()) {
                let end := calldatasize()
                for { let p := 0 } lt(p, end) {} {
                    let length := calldataload(add(p, 52))
                    calldatacopy(0, add(p, 84), length)
                    let ok := call(gas(), shr(96, calldataload(p)), calldataload(add(p, 20)), 0, length, 0, 0)
                    returndatacopy(0, 0, returndatasize())
                    if iszero(ok) { revert(0, returndatasize()) }
                    p := add(add(p, 84), length)
                    if iszero(lt(p, end)) { return(0, returndatasize()) }
                }
            }
        }
    }
}
