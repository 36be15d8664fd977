// SPDX-License-Identifier: MIT
pragma solidity ^0.8.20;

/// @title A router with the `swap` function of src/mock/routerAbi.ts that swaps honestly at a
/// fixed rate from its own stock (it is its own spender), but makes one call of the
/// attacker's choosing during the swap: before pulling the input, or after paying the
/// output. The attacker arms it with a call into the swap guard (a swap of its own, paid
/// with tokens this contract holds), to re-enter the guard while the user's funds are in
/// flight.
contract ReentrantRouter {
    address public constant NATIVE = 0xEeeeeEeeeEeEeeEeEeEeeEEEeeeeEeeeeeeeEEeE;
    /// token1 paid per token0, scaled by 1e18.
    uint256 public immutable rate;

    address public target;
    bytes public callData;
    bool public afterPayout;

    constructor(uint256 rate_) {
        rate = rate_;
    }

    receive() external payable {}

    /// The call to make during the next swaps (`target` 0 for none).
    function arm(address target_, bytes calldata data, bool afterPayout_) external {
        target = target_;
        callData = data;
        afterPayout = afterPayout_;
    }

    /// Lets the attacker's swap pull this contract's tokens (approve the guard).
    function approve(address token, address spender, uint256 amount) external {
        (bool ok,) = token.call(abi.encodeWithSignature("approve(address,uint256)", spender, amount));
        require(ok, "ReentrantRouter: approve failed");
    }

    function swap(address[] calldata path, uint256 amountIn, uint256 minAmountOut, address to, uint256 deadline)
        external
        payable
        returns (uint256 amountOut)
    {
        require(block.timestamp <= deadline, "ReentrantRouter: expired");
        if (!afterPayout) _reenter();
        address tokenIn = path[0];
        address tokenOut = path[path.length - 1];
        if (tokenIn == NATIVE) {
            require(msg.value == amountIn, "ReentrantRouter: wrong value");
        } else {
            _call(tokenIn, abi.encodeWithSignature("transferFrom(address,address,uint256)", msg.sender, address(this), amountIn));
        }
        amountOut = (amountIn * rate) / 1e18;
        require(amountOut >= minAmountOut, "ReentrantRouter: slippage");
        if (tokenOut == NATIVE) {
            (bool ok,) = to.call{value: amountOut}("");
            require(ok, "ReentrantRouter: ETH transfer failed");
        } else {
            _call(tokenOut, abi.encodeWithSignature("transfer(address,uint256)", to, amountOut));
        }
        if (afterPayout) _reenter();
    }

    function _reenter() private {
        if (target != address(0)) _call(target, callData);
    }

    /// Calls and bubbles up the revert data.
    function _call(address to, bytes memory data) private {
        (bool ok, bytes memory ret) = to.call(data);
        if (!ok) {
            assembly {
                revert(add(ret, 32), mload(ret))
            }
        }
    }
}
