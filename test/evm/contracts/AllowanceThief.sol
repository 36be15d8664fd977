// SPDX-License-Identifier: MIT
pragma solidity ^0.8.20;

/// @title A "router" that moves tokens with whatever allowance it has: `steal` calls
/// `token.transferFrom(from, to, amount)` as itself and bubbles up the token's revert.
contract AllowanceThief {
    function steal(address token, address from, address to, uint256 amount) external {
        (bool ok, bytes memory data) =
            token.call(abi.encodeWithSignature("transferFrom(address,address,uint256)", from, to, amount));
        if (!ok) {
            assembly {
                revert(add(data, 32), mload(data))
            }
        }
    }
}
