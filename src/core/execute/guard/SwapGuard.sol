// SPDX-License-Identifier: MIT
pragma solidity 0.8.30;

// The native-coin sentinel of src/core/constants.ts.
address constant NATIVE = 0xEeeeeEeeeEeEeeEeEeEeeEEEeeeeEeeeeeeeEEeE;

/// @title SwapGuard: a swap that reverts on chain unless it kept the user's bounds
/// @notice The user approves this contract (never the service's spender) and calls `swap`
/// with the service's router, spender and calldata. The transaction reverts unless the
/// caller spent at most `amountIn` of token0 and `recipient` gained at least
/// `minAmountOut` of token1, both measured on chain around the swap, whatever the
/// router does when mined (a simulation only predicts).
/// @dev Immutable, ownerless, without storage; deployed once per chain through the
/// deterministic deployment proxy, so it has one address on every EVM chain.
/// It only ever pulls token0 from `msg.sender`: the arbitrary router call is made by
/// its executor, which holds no user's approval, so no caller can spend another
/// user's allowance to the guard.
contract SwapGuard {
    /// Holds a swap's funds while the router runs, and makes the router call.
    SwapGuardExecutor private immutable executor;

    /// `amountIn`: token0 the payer spent; `amountOut`: token1 the recipient gained (both measured).
    event GuardedSwap(
        address indexed payer,
        address indexed recipient,
        address token0,
        address token1,
        uint256 amountIn,
        uint256 amountOut
    );

    /// The payer lost more token0 than `amountIn`.
    error AmountInExceeded(uint256 spent, uint256 maxAmountIn);
    /// The recipient gained less token1 than `minAmountOut`.
    error AmountOutTooLow(uint256 received, uint256 minAmountOut);
    /// A value or address the swap cannot take: value with an ERC-20 input or above
    /// `amountIn`, the same token on both sides, a router that is a swap token, the guard or
    /// its executor, or a recipient that is the zero address, the guard or its executor.
    error InvalidSwap();

    constructor() {
        executor = new SwapGuardExecutor();
    }

    /// @notice Swaps `amountIn` of token0 from the caller for at least `minAmountOut` of token1
    /// to `recipient`, through `router` called with `data`, or reverts.
    /// @param token0 The input token; the native sentinel for the chain's coin (sent as value).
    /// @param amountIn The most token0 the caller may spend: pulled from the caller for an
    /// ERC-20 (approve the guard for it), at least `msg.value` for the native coin.
    /// @param token1 The output token; the native sentinel for the chain's coin.
    /// @param minAmountOut The least token1 `recipient` must gain.
    /// @param recipient Who receives token1.
    /// @param spender The address the router pulls token0 with (approved exactly `amountIn`
    /// for the router call, then 0); `address(0)` when none.
    /// @param router The contract called with `data` (and the value).
    /// @param data The router's calldata, unchanged.
    /// @return amountOut The token1 `recipient` gained.
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
        address exec = address(executor);
        bool nativeIn = token0 == NATIVE;
        if (
            (nativeIn ? msg.value > amountIn : msg.value != 0) || token0 == token1 || router == token0
                || router == token1 || router == address(this) || router == exec || recipient == address(0)
                || recipient == address(this) || recipient == exec
        ) revert InvalidSwap();

        uint256 payerBefore = nativeIn ? 0 : balanceOf(token0, msg.sender);
        uint256 recipientBefore = balanceOf(token1, recipient);

        uint256 spent;
        if (nativeIn) {
            // The value goes to the executor, then to the router; nothing to approve (no spender).
            uint256 refund =
                executor.run{value: msg.value}(msg.sender, token0, token1, recipient, address(0), 0, router, 0, data);
            spent = msg.value > refund ? msg.value - refund : 0;
        } else {
            // Only ever from the caller, straight into the executor, which makes the router call.
            uint256 executorBefore = balanceOf(token0, exec);
            safeCall(token0, abi.encodeWithSelector(0x23b872dd, msg.sender, exec, amountIn)); // transferFrom
            executor.run(msg.sender, token0, token1, recipient, spender, amountIn, router, executorBefore, data);
            uint256 payerAfter = balanceOf(token0, msg.sender);
            spent = payerBefore > payerAfter ? payerBefore - payerAfter : 0;
            if (spent > amountIn) revert AmountInExceeded(spent, amountIn);
        }

        uint256 recipientAfter = balanceOf(token1, recipient);
        amountOut = recipientAfter > recipientBefore ? recipientAfter - recipientBefore : 0;
        if (amountOut < minAmountOut) revert AmountOutTooLow(amountOut, minAmountOut);
        emit GuardedSwap(msg.sender, recipient, token0, token1, spent, amountOut);
    }
}

/// @title The guard's executor: runs one swap's router call and hands back what it left
/// @dev Created by the guard's constructor; only the guard can call `run`. It never holds an
/// approval from anyone but itself, so the arbitrary router call it makes can only spend
/// what the current swaps brought in. Every amount it hands back is a delta over its own
/// balances from before the run's funds arrived, so a swap nested in another (a router
/// re-entering the guard) can only take back what it brought or received itself.
contract SwapGuardExecutor {
    address private immutable guard;

    error NotGuard();

    constructor() {
        guard = msg.sender;
    }

    /// Routers refund and pay out the native coin here.
    receive() external payable {}

    /// @param payer Who paid token0 (the guard's caller): gets back token0 left, and native left
    /// unless token1 is native.
    /// @param token0Before This contract's token0 balance before the guard pulled `amountIn`
    /// into it (0 for a native input).
    /// @return toPayer The native coin sent back to `payer`.
    function run(
        address payer,
        address token0,
        address token1,
        address recipient,
        address spender,
        uint256 amountIn,
        address router,
        uint256 token0Before,
        bytes calldata data
    ) external payable returns (uint256 toPayer) {
        if (msg.sender != guard) revert NotGuard();
        // The run's value is already in the balance: it was not here before.
        uint256 nativeBefore = address(this).balance - msg.value;
        bool nativeOut = token1 == NATIVE;
        uint256 token1Before = nativeOut ? 0 : balanceOf(token1, address(this));

        bool approves = spender != address(0) && token0 != NATIVE;
        if (approves) safeCall(token0, abi.encodeWithSelector(0x095ea7b3, spender, amountIn)); // approve
        assembly ("memory-safe") {
            let ptr := mload(0x40)
            calldatacopy(ptr, data.offset, data.length)
            if iszero(call(gas(), router, callvalue(), ptr, data.length, 0, 0)) {
                returndatacopy(ptr, 0, returndatasize())
                revert(ptr, returndatasize())
            }
        }
        if (approves) safeCall(token0, abi.encodeWithSelector(0x095ea7b3, spender, 0));

        if (token0 != NATIVE) {
            uint256 left = delta(balanceOf(token0, address(this)), token0Before);
            if (left != 0) safeCall(token0, abi.encodeWithSelector(0xa9059cbb, payer, left)); // transfer
        }
        if (!nativeOut) {
            uint256 out = delta(balanceOf(token1, address(this)), token1Before);
            if (out != 0) safeCall(token1, abi.encodeWithSelector(0xa9059cbb, recipient, out));
        }
        uint256 native = delta(address(this).balance, nativeBefore);
        if (native != 0) {
            address to = nativeOut ? recipient : payer;
            if (!nativeOut) toPayer = native;
            (bool ok, bytes memory reason) = to.call{value: native}("");
            if (!ok) bubble(reason, "SwapGuard: native transfer failed");
        }
    }
}

/// `now - before`, or 0 when the balance went down.
function delta(uint256 now_, uint256 before) pure returns (uint256) {
    return now_ > before ? now_ - before : 0;
}

/// `owner`'s balance of `token` (an ERC-20, or the native sentinel); reverts with
/// `InvalidSwap` when the token does not answer `balanceOf`.
function balanceOf(address token, address owner) view returns (uint256 balance) {
    if (token == NATIVE) return owner.balance;
    (bool ok, bytes memory ret) = token.staticcall(abi.encodeWithSelector(0x70a08231, owner));
    if (!ok || ret.length < 32) revert SwapGuard.InvalidSwap();
    balance = abi.decode(ret, (uint256));
}

/// Calls an ERC-20 function that returns a bool, accepting tokens that return nothing
/// (USDT) as long as the token has code; the token's own revert data bubbles up.
function safeCall(address token, bytes memory data) {
    (bool ok, bytes memory ret) = token.call(data);
    if (!ok) bubble(ret, "SwapGuard: token call failed");
    if (ret.length == 0 ? token.code.length == 0 : ret.length < 32 || abi.decode(ret, (uint256)) != 1) {
        revert("SwapGuard: token call failed");
    }
}

/// Reverts with `reason` (another contract's revert data) unchanged, or with `message` when it is empty.
function bubble(bytes memory reason, string memory message) pure {
    if (reason.length == 0) revert(message);
    assembly ("memory-safe") {
        revert(add(reason, 32), mload(reason))
    }
}
