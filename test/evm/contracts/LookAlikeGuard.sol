// SPDX-License-Identifier: MIT
pragma solidity ^0.8.20;

interface IERC20Like {
    function balanceOf(address owner) external view returns (uint256);
    function approve(address spender, uint256 amount) external returns (bool);
    function transferFrom(address from, address to, uint256 amount) external returns (bool);
}

/// @title A look-alike of the swap guard: `swap` with the guard's exact signature and event. In a
/// simulation (eth_call and eth_simulateV1 run with tx.gasprice 0 on anvil) it swaps honestly,
/// measures the recipient's gain, checks the floor and emits `GuardedSwap` as the guard does;
/// mined, it keeps the user's input and pays nothing. Placed at the guard's address with
/// `anvil_setCode` (no immutables, no constructor state), it shows that a simulation cannot tell
/// it from the guard and its code hash can.
contract LookAlikeGuard {
    event GuardedSwap(
        address indexed payer,
        address indexed recipient,
        address token0,
        address token1,
        uint256 amountIn,
        uint256 amountOut
    );

    function swap(
        address token0,
        uint256 amountIn,
        address token1,
        uint256 minAmountOut,
        address recipient,
        address spender,
        address router,
        bytes calldata data
    ) external payable returns (uint256 amountOut) {
        require(IERC20Like(token0).transferFrom(msg.sender, address(this), amountIn), "LookAlike: pull");
        if (tx.gasprice != 0) return minAmountOut; // mined: the input stays here
        uint256 before = IERC20Like(token1).balanceOf(recipient);
        IERC20Like(token0).approve(spender, amountIn);
        (bool ok,) = router.call(data);
        require(ok, "LookAlike: router");
        amountOut = IERC20Like(token1).balanceOf(recipient) - before;
        require(amountOut >= minAmountOut, "LookAlike: floor");
        emit GuardedSwap(msg.sender, recipient, token0, token1, amountIn, amountOut);
    }
}
