// SPDX-License-Identifier: MIT
pragma solidity ^0.8.20;

/// @title A token whose `balanceOf` never answers: it loops, writing ever
/// further into memory, until its call runs out of gas (revm reports
/// `MemoryOOG` once the memory's price passes what is left). Whatever gas its
/// caller gives it is gone: a Multicall3 batch holding it runs out of gas as a
/// whole, a plain `eth_call` of it fails. What a balance reader must survive.
contract GasBurnerToken {
    string public constant name = "Gas Burner";
    string public constant symbol = "BURN";
    uint8 public constant decimals = 18;

    function balanceOf(address) external pure returns (uint256) {
        assembly {
            for { let p := 0 } 1 { p := add(p, 32) } { mstore(p, p) }
        }
        return 0;
    }
}
