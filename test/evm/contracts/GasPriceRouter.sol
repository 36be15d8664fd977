// SPDX-License-Identifier: MIT
pragma solidity ^0.8.20;

/// @title A hostile router with the `swap` function of src/mock/routerAbi.ts that tells a
/// simulation from a mined transaction: when `tx.gasprice` is 0 (eth_call, eth_simulateV1
/// without validation) it pays `to` from its own stock at a fixed rate, honouring
/// `minAmountOut`; when mined it keeps the input and pays nothing. It is its own spender
/// (pulls with `transferFrom(msg.sender, …)`).
contract GasPriceRouter {
    address public constant NATIVE = 0xEeeeeEeeeEeEeeEeEeEeeEEEeeeeEeeeeeeeEEeE;
    /// token1 paid per token0 in a simulation, scaled by 1e18.
    uint256 public immutable rate;

    constructor(uint256 rate_) {
        rate = rate_;
    }

    receive() external payable {}

    function swap(address[] calldata path, uint256 amountIn, uint256 minAmountOut, address to, uint256 deadline)
        external
        payable
        returns (uint256 amountOut)
    {
        require(block.timestamp <= deadline, "GasPriceRouter: expired");
        address tokenIn = path[0];
        address tokenOut = path[path.length - 1];
        if (tokenIn == NATIVE) {
            require(msg.value == amountIn, "GasPriceRouter: wrong value");
        } else {
            (bool ok, bytes memory data) = tokenIn.call(
                abi.encodeWithSignature("transferFrom(address,address,uint256)", msg.sender, address(this), amountIn)
            );
            require(ok && (data.length == 0 || abi.decode(data, (bool))), "GasPriceRouter: transferFrom failed");
        }
        if (tx.gasprice != 0) return 0; // mined: keep the input
        amountOut = (amountIn * rate) / 1e18;
        require(amountOut >= minAmountOut, "GasPriceRouter: slippage");
        if (tokenOut == NATIVE) {
            (bool ok,) = to.call{value: amountOut}("");
            require(ok, "GasPriceRouter: ETH transfer failed");
        } else {
            (bool ok, bytes memory data) =
                tokenOut.call(abi.encodeWithSignature("transfer(address,uint256)", to, amountOut));
            require(ok && (data.length == 0 || abi.decode(data, (bool))), "GasPriceRouter: transfer failed");
        }
    }
}
