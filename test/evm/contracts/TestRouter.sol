// SPDX-License-Identifier: MIT
pragma solidity ^0.8.20;

import {TestSpender} from "./TestSpender.sol";

/// @title A constant-product router over owner-configured pools, with exactly
/// the `swap` function of src/mock/routerAbi.ts and the math of src/mock/amm.ts.
/// The router holds the reserves of its pools (tokens and ETH).
contract TestRouter {
    /// The native-coin sentinel of src/core/constants.ts.
    address public constant NATIVE = 0xEeeeeEeeeEeEeeEeEeEeeEEEeeeeEeeeeeeeEEeE;
    uint256 public constant FEE_DENOMINATOR = 10_000;

    struct Pool {
        uint256 reserve0;
        uint256 reserve1;
        uint256 feeBps;
        bool exists;
    }

    address public immutable owner;
    TestSpender public immutable spender;

    /// Keyed by the pair sorted by address (token0 < token1).
    mapping(address => mapping(address => Pool)) internal pools;

    event PoolSet(address indexed token0, address indexed token1, uint256 reserve0, uint256 reserve1, uint256 feeBps);
    event Swapped(
        address indexed sender,
        address indexed to,
        address tokenIn,
        address tokenOut,
        uint256 amountIn,
        uint256 amountOut
    );

    constructor(TestSpender spender_) {
        owner = msg.sender;
        spender = spender_;
    }

    receive() external payable {}

    function setPool(address tokenA, address tokenB, uint256 reserveA, uint256 reserveB, uint256 feeBps) external {
        require(msg.sender == owner, "TestRouter: not the owner");
        require(tokenA != tokenB, "TestRouter: identical tokens");
        require(reserveA > 0 && reserveB > 0, "TestRouter: empty reserve");
        require(feeBps < FEE_DENOMINATOR, "TestRouter: fee too high");
        (address token0, address token1) = tokenA < tokenB ? (tokenA, tokenB) : (tokenB, tokenA);
        (uint256 reserve0, uint256 reserve1) = tokenA < tokenB ? (reserveA, reserveB) : (reserveB, reserveA);
        pools[token0][token1] = Pool(reserve0, reserve1, feeBps, true);
        emit PoolSet(token0, token1, reserve0, reserve1, feeBps);
    }

    /// The pool's reserves in the order of the arguments.
    function getPool(address tokenA, address tokenB)
        external
        view
        returns (uint256 reserveA, uint256 reserveB, uint256 feeBps)
    {
        Pool storage pool = _pool(tokenA, tokenB);
        (reserveA, reserveB) = tokenA < tokenB ? (pool.reserve0, pool.reserve1) : (pool.reserve1, pool.reserve0);
        feeBps = pool.feeBps;
    }

    function getAmountOut(address[] calldata path, uint256 amountIn) external view returns (uint256 amountOut) {
        require(path.length >= 2, "TestRouter: invalid path");
        amountOut = amountIn;
        for (uint256 i = 0; i + 1 < path.length; i++) {
            Pool storage pool = _pool(path[i], path[i + 1]);
            (uint256 reserveIn, uint256 reserveOut) =
                path[i] < path[i + 1] ? (pool.reserve0, pool.reserve1) : (pool.reserve1, pool.reserve0);
            amountOut = _getAmountOut(amountOut, reserveIn, reserveOut, pool.feeBps);
        }
    }

    function swap(address[] calldata path, uint256 amountIn, uint256 minAmountOut, address to, uint256 deadline)
        external
        payable
        returns (uint256 amountOut)
    {
        require(block.timestamp <= deadline, "TestRouter: expired");
        require(path.length >= 2, "TestRouter: invalid path");
        address tokenIn = path[0];
        address tokenOut = path[path.length - 1];

        if (tokenIn == NATIVE) {
            require(msg.value == amountIn, "TestRouter: wrong value");
        } else {
            require(msg.value == 0, "TestRouter: unexpected value");
            spender.pull(tokenIn, msg.sender, address(this), amountIn);
        }

        amountOut = amountIn;
        for (uint256 i = 0; i + 1 < path.length; i++) {
            amountOut = _swapHop(path[i], path[i + 1], amountOut);
        }
        require(amountOut >= minAmountOut, "TestRouter: slippage");

        if (tokenOut == NATIVE) {
            (bool ok,) = to.call{value: amountOut}("");
            require(ok, "TestRouter: ETH transfer failed");
        } else {
            (bool ok, bytes memory data) =
                tokenOut.call(abi.encodeWithSignature("transfer(address,uint256)", to, amountOut));
            require(ok && (data.length == 0 || abi.decode(data, (bool))), "TestRouter: transfer failed");
        }

        emit Swapped(msg.sender, to, tokenIn, tokenOut, amountIn, amountOut);
    }

    /// Several calls in one transaction, each as if sent by the caller (delegatecall to itself),
    /// as real routers allow: a honest swap can be bundled with another.
    function multicall(bytes[] calldata data) external payable returns (bytes[] memory results) {
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

    function _swapHop(address tokenIn, address tokenOut, uint256 amountIn) internal returns (uint256 amountOut) {
        Pool storage pool = _pool(tokenIn, tokenOut);
        if (tokenIn < tokenOut) {
            amountOut = _getAmountOut(amountIn, pool.reserve0, pool.reserve1, pool.feeBps);
            pool.reserve0 += amountIn;
            pool.reserve1 -= amountOut;
        } else {
            amountOut = _getAmountOut(amountIn, pool.reserve1, pool.reserve0, pool.feeBps);
            pool.reserve1 += amountIn;
            pool.reserve0 -= amountOut;
        }
    }

    function _pool(address tokenA, address tokenB) internal view returns (Pool storage pool) {
        pool = tokenA < tokenB ? pools[tokenA][tokenB] : pools[tokenB][tokenA];
        require(pool.exists, "TestRouter: no pool");
    }

    /// out = in·(10000 − fee)·R_out / (R_in·10000 + in·(10000 − fee)), as in src/mock/amm.ts.
    function _getAmountOut(uint256 amountIn, uint256 reserveIn, uint256 reserveOut, uint256 feeBps)
        internal
        pure
        returns (uint256)
    {
        if (amountIn == 0 || reserveIn == 0 || reserveOut == 0) return 0;
        uint256 amountInWithFee = amountIn * (FEE_DENOMINATOR - feeBps);
        return (amountInWithFee * reserveOut) / (reserveIn * FEE_DENOMINATOR + amountInWithFee);
    }
}
