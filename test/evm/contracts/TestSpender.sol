// SPDX-License-Identifier: MIT
pragma solidity ^0.8.20;

/// @title The approval target (allowance holder): users approve this contract,
/// never the router, and only the router can make it pull their tokens.
contract TestSpender {
    address public immutable deployer;
    /// The only caller of `pull`; set once, in the constructor or with `setRouter`.
    address public router;

    constructor(address router_) {
        deployer = msg.sender;
        router = router_;
    }

    function setRouter(address router_) external {
        require(msg.sender == deployer, "TestSpender: not the deployer");
        require(router == address(0), "TestSpender: router already set");
        require(router_ != address(0), "TestSpender: zero router");
        router = router_;
    }

    /// Calls `token.transferFrom(from, to, amount)` and bubbles up its revert reason.
    function pull(address token, address from, address to, uint256 amount) external {
        require(msg.sender == router, "TestSpender: caller is not the router");
        require(token.code.length > 0, "TestSpender: token is not a contract");
        (bool ok, bytes memory data) =
            token.call(abi.encodeWithSignature("transferFrom(address,address,uint256)", from, to, amount));
        if (!ok) {
            assembly {
                revert(add(data, 32), mload(data))
            }
        }
        require(data.length == 0 || abi.decode(data, (bool)), "TestSpender: transferFrom failed");
    }
}
