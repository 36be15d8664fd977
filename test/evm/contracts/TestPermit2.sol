// SPDX-License-Identifier: MIT
pragma solidity ^0.8.20;

/// @title The allowance part of Uniswap's Permit2, with its event signatures:
/// owners approve Permit2 once per token, then give spenders Permit2 allowances.
contract TestPermit2 {
    struct Allowance {
        uint160 amount;
        uint48 expiration;
    }

    mapping(address => mapping(address => mapping(address => Allowance))) public allowance;

    event Approval(
        address indexed owner, address indexed token, address indexed spender, uint160 amount, uint48 expiration
    );

    function approve(address token, address spender, uint160 amount, uint48 expiration) external {
        allowance[msg.sender][token][spender] = Allowance(amount, expiration);
        emit Approval(msg.sender, token, spender, amount, expiration);
    }

    function transferFrom(address from, address to, uint160 amount, address token) external {
        Allowance storage allowed = allowance[from][token][msg.sender];
        require(block.timestamp <= allowed.expiration, "TestPermit2: allowance expired");
        require(allowed.amount >= amount, "TestPermit2: insufficient allowance");
        if (allowed.amount != type(uint160).max) allowed.amount -= amount;
        (bool ok, bytes memory data) =
            token.call(abi.encodeWithSignature("transferFrom(address,address,uint256)", from, to, amount));
        require(ok && (data.length == 0 || abi.decode(data, (bool))), "TestPermit2: transfer failed");
    }
}
