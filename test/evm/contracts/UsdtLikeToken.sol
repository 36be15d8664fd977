// SPDX-License-Identifier: MIT
pragma solidity ^0.8.20;

import {TestERC20} from "./TestERC20.sol";

/// @title TestERC20 with mainnet USDT's approval rule: a non-zero allowance
/// can only be changed to zero, so a wallet must reset it before raising it.
/// (Unlike mainnet USDT, `approve` still returns a bool.)
contract UsdtLikeToken is TestERC20 {
    constructor(string memory name_, string memory symbol_, uint8 decimals_)
        TestERC20(name_, symbol_, decimals_)
    {}

    function approve(address spender, uint256 amount) public override returns (bool) {
        require(amount == 0 || allowance[msg.sender][spender] == 0, "USDT: reset allowance to 0 first");
        return super.approve(spender, amount);
    }
}
