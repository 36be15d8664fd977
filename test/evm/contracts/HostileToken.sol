// SPDX-License-Identifier: MIT
pragma solidity ^0.8.20;

import {TestERC20} from "./TestERC20.sol";

/// @title An ERC-20 with the extensions real tokens carry and a hostile
/// service can wrap a transfer or an approval in: `multicall` (delegatecall to
/// itself, as OpenZeppelin's Multicall), ERC-677 `transferAndCall`,
/// `increaseApproval` / `increaseAllowance`, and DAI's `permit`.
contract HostileToken is TestERC20 {
    mapping(address => uint256) public nonces;

    constructor(string memory name_, string memory symbol_, uint8 decimals_)
        TestERC20(name_, symbol_, decimals_)
    {}

    function multicall(bytes[] calldata data) external returns (bytes[] memory results) {
        results = new bytes[](data.length);
        for (uint256 i = 0; i < data.length; i++) {
            (bool ok, bytes memory result) = address(this).delegatecall(data[i]);
            if (!ok) {
                assembly {
                    revert(add(result, 32), mload(result))
                }
            }
            results[i] = result;
        }
    }

    /// ERC-677: transfer, then tell a contract recipient.
    function transferAndCall(address to, uint256 amount, bytes calldata data) external returns (bool) {
        _transfer(msg.sender, to, amount);
        if (to.code.length > 0) {
            (bool ok,) =
                to.call(abi.encodeWithSignature("onTokenTransfer(address,uint256,bytes)", msg.sender, amount, data));
            require(ok, "HostileToken: onTokenTransfer failed");
        }
        return true;
    }

    function increaseApproval(address spender, uint256 added) external returns (bool) {
        return _increase(spender, added);
    }

    function increaseAllowance(address spender, uint256 added) external returns (bool) {
        return _increase(spender, added);
    }

    /// DAI's permit: `allowed` sets the allowance to max or 0, signed by `holder`.
    function permit(
        address holder,
        address spender,
        uint256 nonce,
        uint256 expiry,
        bool allowed,
        uint8 v,
        bytes32 r,
        bytes32 s
    ) external {
        bytes32 digest = keccak256(abi.encode(holder, spender, nonce, expiry, allowed));
        require(holder != address(0) && holder == ecrecover(digest, v, r, s), "HostileToken: invalid permit");
        require(expiry == 0 || block.timestamp <= expiry, "HostileToken: permit expired");
        require(nonce == nonces[holder]++, "HostileToken: invalid nonce");
        uint256 amount = allowed ? type(uint256).max : 0;
        allowance[holder][spender] = amount;
        emit Approval(holder, spender, amount);
    }

    function _increase(address spender, uint256 added) internal returns (bool) {
        allowance[msg.sender][spender] += added;
        emit Approval(msg.sender, spender, allowance[msg.sender][spender]);
        return true;
    }
}
