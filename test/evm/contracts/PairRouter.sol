// SPDX-License-Identifier: MIT
pragma solidity ^0.8.20;

/// @title A Uniswap-V2-router-like router over its own constant-product pairs: the
/// `swapExactTokensForTokens` family, with the router as its own spender (it pulls the
/// input with `transferFrom(msg.sender, …)` itself) and the native sentinel for the
/// chain's coin in paths (instead of WETH). V2's math: a 0.3% fee.
contract PairRouter {
    address public constant NATIVE = 0xEeeeeEeeeEeEeeEeEeEeeEEEeeeeEeeeeeeeEEeE;

    struct Pair {
        uint256 reserve0;
        uint256 reserve1;
        bool exists;
    }

    address public immutable owner;
    /// Keyed by the pair sorted by address.
    mapping(address => mapping(address => Pair)) internal pairs;

    constructor() {
        owner = msg.sender;
    }

    receive() external payable {}

    modifier ensure(uint256 deadline) {
        require(deadline >= block.timestamp, "PairRouter: EXPIRED");
        _;
    }

    /// The router must hold the reserves (tokens minted to it, its ETH balance).
    function setPair(address tokenA, address tokenB, uint256 reserveA, uint256 reserveB) external {
        require(msg.sender == owner, "PairRouter: not the owner");
        require(tokenA != tokenB && reserveA > 0 && reserveB > 0, "PairRouter: bad pair");
        (address token0, address token1) = tokenA < tokenB ? (tokenA, tokenB) : (tokenB, tokenA);
        pairs[token0][token1] =
            tokenA < tokenB ? Pair(reserveA, reserveB, true) : Pair(reserveB, reserveA, true);
    }

    function getReserves(address tokenA, address tokenB) public view returns (uint256 reserveA, uint256 reserveB) {
        Pair storage pair = _pair(tokenA, tokenB);
        (reserveA, reserveB) = tokenA < tokenB ? (pair.reserve0, pair.reserve1) : (pair.reserve1, pair.reserve0);
    }

    function getAmountsOut(uint256 amountIn, address[] calldata path) public view returns (uint256[] memory amounts) {
        require(path.length >= 2, "PairRouter: INVALID_PATH");
        amounts = new uint256[](path.length);
        amounts[0] = amountIn;
        for (uint256 i; i + 1 < path.length; i++) {
            (uint256 reserveIn, uint256 reserveOut) = getReserves(path[i], path[i + 1]);
            uint256 amountInWithFee = amounts[i] * 997;
            amounts[i + 1] = (amountInWithFee * reserveOut) / (reserveIn * 1000 + amountInWithFee);
        }
    }

    function getAmountsIn(uint256 amountOut, address[] calldata path) public view returns (uint256[] memory amounts) {
        require(path.length >= 2, "PairRouter: INVALID_PATH");
        amounts = new uint256[](path.length);
        amounts[path.length - 1] = amountOut;
        for (uint256 i = path.length - 1; i > 0; i--) {
            (uint256 reserveIn, uint256 reserveOut) = getReserves(path[i - 1], path[i]);
            amounts[i - 1] = (reserveIn * amounts[i] * 1000) / ((reserveOut - amounts[i]) * 997) + 1;
        }
    }

    function swapExactTokensForTokens(
        uint256 amountIn,
        uint256 amountOutMin,
        address[] calldata path,
        address to,
        uint256 deadline
    ) external ensure(deadline) returns (uint256[] memory amounts) {
        require(path[0] != NATIVE && path[path.length - 1] != NATIVE, "PairRouter: INVALID_PATH");
        amounts = _swapExact(amountIn, amountOutMin, path, to);
    }

    function swapExactETHForTokens(uint256 amountOutMin, address[] calldata path, address to, uint256 deadline)
        external
        payable
        ensure(deadline)
        returns (uint256[] memory amounts)
    {
        require(path[0] == NATIVE, "PairRouter: INVALID_PATH");
        amounts = _swapExact(msg.value, amountOutMin, path, to);
    }

    function swapExactTokensForETH(
        uint256 amountIn,
        uint256 amountOutMin,
        address[] calldata path,
        address to,
        uint256 deadline
    ) external ensure(deadline) returns (uint256[] memory amounts) {
        require(path[path.length - 1] == NATIVE, "PairRouter: INVALID_PATH");
        amounts = _swapExact(amountIn, amountOutMin, path, to);
    }

    /// Buys exactly `amountOut`, and refunds the ETH it did not need to the caller.
    function swapETHForExactTokens(uint256 amountOut, address[] calldata path, address to, uint256 deadline)
        external
        payable
        ensure(deadline)
        returns (uint256[] memory amounts)
    {
        require(path[0] == NATIVE, "PairRouter: INVALID_PATH");
        amounts = getAmountsIn(amountOut, path);
        require(amounts[0] <= msg.value, "PairRouter: EXCESSIVE_INPUT_AMOUNT");
        _move(amounts, path);
        _pay(path[path.length - 1], to, amountOut);
        if (msg.value > amounts[0]) _pay(NATIVE, msg.sender, msg.value - amounts[0]);
    }

    function _swapExact(uint256 amountIn, uint256 amountOutMin, address[] calldata path, address to)
        internal
        returns (uint256[] memory amounts)
    {
        amounts = getAmountsOut(amountIn, path);
        require(amounts[amounts.length - 1] >= amountOutMin, "PairRouter: INSUFFICIENT_OUTPUT_AMOUNT");
        if (path[0] != NATIVE) {
            (bool ok, bytes memory data) = path[0].call(
                abi.encodeWithSignature("transferFrom(address,address,uint256)", msg.sender, address(this), amountIn)
            );
            require(ok && (data.length == 0 || abi.decode(data, (bool))), "PairRouter: TRANSFER_FROM_FAILED");
        }
        _move(amounts, path);
        _pay(path[path.length - 1], to, amounts[amounts.length - 1]);
    }

    function _move(uint256[] memory amounts, address[] calldata path) internal {
        for (uint256 i; i + 1 < path.length; i++) {
            Pair storage pair = _pair(path[i], path[i + 1]);
            if (path[i] < path[i + 1]) {
                pair.reserve0 += amounts[i];
                pair.reserve1 -= amounts[i + 1];
            } else {
                pair.reserve1 += amounts[i];
                pair.reserve0 -= amounts[i + 1];
            }
        }
    }

    function _pay(address token, address to, uint256 amount) internal {
        if (token == NATIVE) {
            (bool ok,) = to.call{value: amount}("");
            require(ok, "PairRouter: ETH_TRANSFER_FAILED");
        } else {
            (bool ok, bytes memory data) =
                token.call(abi.encodeWithSignature("transfer(address,uint256)", to, amount));
            require(ok && (data.length == 0 || abi.decode(data, (bool))), "PairRouter: TRANSFER_FAILED");
        }
    }

    function _pair(address tokenA, address tokenB) internal view returns (Pair storage pair) {
        pair = tokenA < tokenB ? pairs[tokenA][tokenB] : pairs[tokenB][tokenA];
        require(pair.exists, "PairRouter: no pair");
    }
}
