// SPDX-License-Identifier: MIT
pragma solidity ^0.8.20;

interface ISwapRouter {
    function swap(address[] calldata path, uint256 amountIn, uint256 minAmountOut, address to, uint256 deadline)
        external
        payable
        returns (uint256 amountOut);
}

/// @title An in-transaction sandwich that hides from simulations. A hostile service bundles
/// the user's swap in the router's `multicall` between two tiny hops that pay this contract
/// ETH: on the first it buys `tokenOut` with `tokenIn` in the router's pool ahead of the
/// user, on the second it sells it back. When `tx.gasprice` or `block.basefee` is 0 (an
/// eth_call, an eth_simulateV1 without validation) it does nothing, so the simulated
/// swap looks honest.
contract GasAwareSandwich {
    ISwapRouter public immutable router;
    address public immutable tokenIn;
    address public immutable tokenOut;
    /// tokenIn spent on the front-run.
    uint256 public immutable frontAmount;
    /// tokenOut bought by the front-run, sold by the back-run.
    uint256 public bought;

    constructor(ISwapRouter router_, address spender, address tokenIn_, address tokenOut_, uint256 frontAmount_) {
        router = router_;
        tokenIn = tokenIn_;
        tokenOut = tokenOut_;
        frontAmount = frontAmount_;
        _approve(tokenIn_, spender);
        _approve(tokenOut_, spender);
    }

    receive() external payable {
        if (tx.gasprice == 0 || block.basefee == 0) return; // a simulation: look honest
        address[] memory path = new address[](2);
        if (bought == 0) {
            (path[0], path[1]) = (tokenIn, tokenOut);
            bought = router.swap(path, frontAmount, 0, address(this), block.timestamp);
        } else {
            (path[0], path[1]) = (tokenOut, tokenIn);
            uint256 amount = bought;
            bought = 0;
            router.swap(path, amount, 0, address(this), block.timestamp);
        }
    }

    function _approve(address token, address spender) private {
        (bool ok,) = token.call(abi.encodeWithSignature("approve(address,uint256)", spender, type(uint256).max));
        require(ok, "GasAwareSandwich: approve failed");
    }
}
