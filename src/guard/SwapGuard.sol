// SPDX-License-Identifier: MIT
pragma solidity 0.8.30;

// The native-coin sentinel of src/core/constants.ts.
address constant NATIVE = 0xEeeeeEeeeEeEeeEeEeEeeEEEeeeeEeeeeeeeEEeE;
// Uniswap's Permit2, at its canonical address (the same on every chain it is deployed on).
address constant PERMIT2 = 0x000000000022D473030F116dDEE9F6B43aC78BA3;

/// The part of Permit2's SignatureTransfer the guard calls.
interface ISignatureTransfer {
    struct TokenPermissions {
        address token;
        uint256 amount;
    }

    struct PermitTransferFrom {
        TokenPermissions permitted;
        uint256 nonce;
        uint256 deadline;
    }

    struct SignatureTransferDetails {
        address to;
        uint256 requestedAmount;
    }

    function permitWitnessTransferFrom(
        PermitTransferFrom calldata permit,
        SignatureTransferDetails calldata transferDetails,
        address owner,
        bytes32 witness,
        string calldata witnessTypeString,
        bytes calldata signature
    ) external;
}

/// @title SwapGuard: a swap that reverts on chain unless it kept the user's bounds
/// @notice Two entries, one rule. With `swap` the user approves this contract (never the
/// service's spender) and calls it; with `swapWithPermit2` the user signs one Permit2
/// transfer whose witness binds the whole swap, and anyone may submit it. Either way the
/// transaction reverts unless the payer spent at most `amountIn` of token0 and `recipient`
/// gained at least `minAmountOut` of token1, both measured on chain around the router call,
/// whatever the router does when mined (a simulation only predicts).
/// @dev Immutable, ownerless, without storage; deployed once per chain through the
/// deterministic deployment proxy, so it has one address on every EVM chain. It holds
/// users' allowances (its own, and Permit2 signatures naming it) and therefore never makes
/// an arbitrary call: it calls token0 (`balanceOf`, `transferFrom` from its caller), token1
/// (`balanceOf`), Permit2 (`permitWitnessTransferFrom` with the payer's signature) and its
/// executor, nothing else. The router call with the service's calldata is made by the
/// executor, which holds no approval from anyone, and is refused for a router or spender
/// that holds approvals (this guard, Permit2) or is a swap token.
contract SwapGuard {
    /// Holds a swap's funds while the router runs, and makes the router call.
    SwapGuardExecutor private immutable executor;

    /// The Permit2 witness: everything about the swap Permit2 itself does not bind (it binds
    /// token0, amountIn, the nonce, the deadline, and this contract as the spender).
    bytes32 private constant WITNESS_TYPEHASH = keccak256(
        "GuardedSwap(address token1,uint256 minAmountOut,address recipient,address spender,address router,bytes32 dataHash,uint256 value)"
    );
    /// Permit2's `witnessTypeString`: the witness field, then the referenced types in
    /// alphabetical order (GuardedSwap, TokenPermissions).
    string private constant WITNESS_TYPE_STRING =
        "GuardedSwap witness)GuardedSwap(address token1,uint256 minAmountOut,address recipient,address spender,address router,bytes32 dataHash,uint256 value)TokenPermissions(address token,uint256 amount)";

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
    /// The recipient gained less token1 than `minAmountOut` (`received` 0 when it lost some).
    error AmountOutTooLow(uint256 received, uint256 minAmountOut);
    /// A value or address the swap cannot take: value with an ERC-20 input or above
    /// `amountIn`, the same token on both sides, a native input through Permit2, a router that
    /// is a swap token, this guard, its executor or Permit2, a spender that is this guard, its
    /// executor or Permit2, or a recipient that is the zero address, this guard or its executor.
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
        bool nativeIn = token0 == NATIVE;
        if (nativeIn ? msg.value > amountIn : msg.value != 0) revert InvalidSwap();
        address exec = checkRoute(token0, token1, recipient, spender, router);

        uint256 payerBefore = nativeIn ? 0 : balanceOf(token0, msg.sender);
        uint256 recipientBefore = balanceOf(token1, recipient);

        uint256 spent;
        if (nativeIn) {
            // The value goes to the executor, then to the router; nothing to approve (no spender).
            uint256 refund =
                executor.run{value: msg.value}(msg.sender, token0, token1, recipient, address(0), 0, router, 0, data);
            unchecked {
                spent = msg.value > refund ? msg.value - refund : 0;
            }
        } else {
            // Only ever from the caller, straight into the executor, which makes the router call.
            uint256 executorBefore = balanceOf(token0, exec);
            transferFrom(token0, msg.sender, exec, amountIn);
            executor.run(msg.sender, token0, token1, recipient, spender, amountIn, router, executorBefore, data);
            spent = delta(payerBefore, balanceOf(token0, msg.sender));
            if (spent > amountIn) revert AmountInExceeded(spent, amountIn);
        }

        amountOut = received(token1, recipient, recipientBefore, minAmountOut);
        emit GuardedSwap(msg.sender, recipient, token0, token1, spent, amountOut);
    }

    /// @notice The same swap, paid by `owner` through one Permit2 signature instead of an
    /// approval of this contract: Permit2's `permitWitnessTransferFrom` moves
    /// `permit.permitted.amount` of `permit.permitted.token` from `owner` straight into the
    /// executor, and the signature's witness (`GuardedSwap`) binds every other argument, and
    /// `msg.value`. Anyone may submit it and gets exactly the swap the owner signed: the payer
    /// is `owner`, never `msg.sender`.
    /// @param permit token0 and amountIn (`permitted`), the Permit2 nonce and deadline, as signed.
    /// @param owner The signer, who pays token0 and gets back what the router leaves of it.
    /// @param token1 The output token; the native sentinel for the chain's coin.
    /// @param minAmountOut The least token1 `recipient` must gain.
    /// @param recipient Who receives token1.
    /// @param spender The address the router pulls token0 with; `address(0)` when none.
    /// @param router The contract called with `data`.
    /// @param data The router's calldata, unchanged (the witness binds its keccak256).
    /// @param signature The owner's EIP-712 signature of the Permit2 `PermitWitnessTransferFrom`.
    /// @return amountOut The token1 `recipient` gained.
    function swapWithPermit2(
        ISignatureTransfer.PermitTransferFrom calldata permit,
        address owner,
        address token1,
        uint256 minAmountOut,
        address recipient,
        address spender,
        address router,
        bytes calldata data,
        bytes calldata signature
    ) external payable returns (uint256 amountOut) {
        address token0 = permit.permitted.token;
        uint256 amountIn = permit.permitted.amount;
        // Permit2 moves ERC-20 tokens only; the witness binds `msg.value`, which must be 0.
        if (token0 == NATIVE || msg.value != 0) revert InvalidSwap();
        address exec = checkRoute(token0, token1, recipient, spender, router);

        uint256 payerBefore = balanceOf(token0, owner);
        uint256 recipientBefore = balanceOf(token1, recipient);
        uint256 executorBefore = balanceOf(token0, exec);

        ISignatureTransfer(PERMIT2).permitWitnessTransferFrom(
            permit,
            ISignatureTransfer.SignatureTransferDetails({to: exec, requestedAmount: amountIn}),
            owner,
            keccak256(
                abi.encode(
                    WITNESS_TYPEHASH, token1, minAmountOut, recipient, spender, router, keccak256(data), msg.value
                )
            ),
            WITNESS_TYPE_STRING,
            signature
        );
        executor.run(owner, token0, token1, recipient, spender, amountIn, router, executorBefore, data);

        uint256 spent = delta(payerBefore, balanceOf(token0, owner));
        if (spent > amountIn) revert AmountInExceeded(spent, amountIn);
        amountOut = received(token1, recipient, recipientBefore, minAmountOut);
        emit GuardedSwap(owner, recipient, token0, token1, spent, amountOut);
    }

    /// What `recipient` gained of token1 since `before`; reverts unless it is at least
    /// `minAmountOut`, and when the recipient's balance went down (a floor of 0 does not let the
    /// swap take token1 the recipient already had).
    function received(address token1, address recipient, uint256 before, uint256 minAmountOut)
        private
        view
        returns (uint256 amountOut)
    {
        uint256 balance = balanceOf(token1, recipient);
        amountOut = delta(balance, before);
        if (balance < before || amountOut < minAmountOut) revert AmountOutTooLow(amountOut, minAmountOut);
    }

    /// The confused-deputy rule (0x's AllowanceHolder, Permit2 adapters): the executor never
    /// calls a contract that holds approvals or a swap token as the router, never approves a
    /// contract that holds approvals, and never pays itself or this guard as the recipient.
    /// @return exec The executor's address.
    function checkRoute(address token0, address token1, address recipient, address spender, address router)
        private
        view
        returns (address exec)
    {
        exec = address(executor);
        if (
            token0 == token1 || router == token0 || router == token1 || router == address(this) || router == exec
                || router == PERMIT2 || spender == address(this) || spender == exec || spender == PERMIT2
                || recipient == address(0) || recipient == address(this) || recipient == exec
        ) revert InvalidSwap();
    }
}

/// @title The guard's executor: runs one swap's router call and hands back what it left
/// @dev Created by the guard's constructor; only the guard can call `run`. It never holds an
/// approval from anyone, and never keeps one: the spender's allowance lives for the router
/// call only (set to `amountIn` before, back to 0 after), so the arbitrary router call it
/// makes can only spend what the current swaps brought in. Every amount it hands back is a
/// delta over its own balances from before the run's funds arrived, so a swap nested in
/// another (a router re-entering the guard) can only take back what it brought or received
/// itself.
contract SwapGuardExecutor {
    address private immutable guard;

    error NotGuard();

    constructor() {
        guard = msg.sender;
    }

    /// Routers refund and pay out the native coin here.
    receive() external payable {}

    /// @param payer Who paid token0: gets back token0 left, and native left unless token1 is native.
    /// @param token0Before This contract's token0 balance before the guard had `amountIn`
    /// moved into it (0 for a native input).
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
        if (approves) callToken(token0, 0x095ea7b3, spender, amountIn); // approve
        assembly ("memory-safe") {
            let ptr := mload(0x40)
            calldatacopy(ptr, data.offset, data.length)
            if iszero(call(gas(), router, callvalue(), ptr, data.length, 0, 0)) {
                returndatacopy(ptr, 0, returndatasize())
                revert(ptr, returndatasize())
            }
        }
        // Back to 0, unless the router used it all (read first: an approve costs more than a read).
        if (approves && allowanceOf(token0, spender) != 0) callToken(token0, 0x095ea7b3, spender, 0);

        if (token0 != NATIVE) {
            uint256 left = delta(balanceOf(token0, address(this)), token0Before);
            if (left != 0) callToken(token0, 0xa9059cbb, payer, left); // transfer
        }
        if (!nativeOut) {
            uint256 out = delta(balanceOf(token1, address(this)), token1Before);
            if (out != 0) callToken(token1, 0xa9059cbb, recipient, out);
        }
        uint256 native = delta(address(this).balance, nativeBefore);
        if (native != 0) {
            address to = nativeOut ? recipient : payer;
            if (!nativeOut) toPayer = native;
            bool ok;
            assembly ("memory-safe") {
                ok := call(gas(), to, native, 0, 0, 0, 0)
            }
            if (!ok) bubble("SwapGuard: native transfer failed");
        }
    }

    /// This contract's allowance of `token` to `spender`; max (reset it) when the token does not answer.
    function allowanceOf(address token, address spender) private view returns (uint256 amount) {
        assembly ("memory-safe") {
            let m := mload(0x40)
            mstore(m, 0xdd62ed3e00000000000000000000000000000000000000000000000000000000)
            mstore(add(m, 0x04), address())
            mstore(add(m, 0x24), spender)
            amount := not(0)
            if staticcall(gas(), token, m, 0x44, 0x00, 0x20) {
                if gt(returndatasize(), 0x1f) { amount := mload(0x00) }
            }
        }
    }
}

/// `a - b`, or 0 when `b` is larger.
function delta(uint256 a, uint256 b) pure returns (uint256 d) {
    unchecked {
        d = a > b ? a - b : 0;
    }
}

/// `owner`'s balance of `token` (an ERC-20, or the native sentinel); reverts with
/// `InvalidSwap` when the token does not answer `balanceOf`.
function balanceOf(address token, address owner) view returns (uint256 amount) {
    if (token == NATIVE) return owner.balance;
    bool ok;
    assembly ("memory-safe") {
        mstore(0x14, owner)
        mstore(0x00, 0x70a08231000000000000000000000000) // balanceOf(address), at 0x10
        ok := and(gt(returndatasize(), 0x1f), staticcall(gas(), token, 0x10, 0x24, 0x20, 0x20))
        amount := mload(0x20)
    }
    if (!ok) revert SwapGuard.InvalidSwap();
}

/// Calls `token.<selector>(a, b)` (`approve`, `transfer`), an ERC-20 function that returns a
/// bool: the token's own revert data bubbles up; tokens that return nothing (USDT) pass as long
/// as the token has code; any other answer but `true` fails.
function callToken(address token, uint32 selector, address a, uint256 b) {
    uint256 status;
    assembly ("memory-safe") {
        let m := mload(0x40)
        mstore(m, shl(224, selector))
        mstore(add(m, 0x04), a)
        mstore(add(m, 0x24), b)
        let ok := call(gas(), token, 0, m, 0x44, 0x00, 0x20)
        // 0: passed; 1: reverted; 2: answered anything but `true` (no answer passes from a contract).
        switch ok
        case 0 { status := 1 }
        default {
            switch returndatasize()
            case 0 { status := mul(2, iszero(extcodesize(token))) }
            default { status := mul(2, iszero(and(gt(returndatasize(), 0x1f), eq(mload(0x00), 1)))) }
        }
    }
    if (status != 0) tokenCallFailed(status);
}

/// `token.transferFrom(from, to, amount)`.
function transferFrom(address token, address from, address to, uint256 amount) {
    uint256 status;
    assembly ("memory-safe") {
        let m := mload(0x40)
        mstore(m, 0x23b872dd00000000000000000000000000000000000000000000000000000000)
        mstore(add(m, 0x04), from)
        mstore(add(m, 0x24), to)
        mstore(add(m, 0x44), amount)
        let ok := call(gas(), token, 0, m, 0x64, 0x00, 0x20)
        // 0: passed; 1: reverted; 2: answered anything but `true` (no answer passes from a contract).
        switch ok
        case 0 { status := 1 }
        default {
            switch returndatasize()
            case 0 { status := mul(2, iszero(extcodesize(token))) }
            default { status := mul(2, iszero(and(gt(returndatasize(), 0x1f), eq(mload(0x00), 1)))) }
        }
    }
    if (status != 0) tokenCallFailed(status);
}

/// The token's own revert data bubbles up unchanged; an empty revert or a wrong answer is
/// "SwapGuard: token call failed".
function tokenCallFailed(uint256 status) pure {
    if (status == 1) bubble("SwapGuard: token call failed");
    revert("SwapGuard: token call failed");
}

/// Reverts with the last call's revert data unchanged, or with `message` when it is empty.
function bubble(string memory message) pure {
    assembly ("memory-safe") {
        if returndatasize() {
            let m := mload(0x40)
            returndatacopy(m, 0, returndatasize())
            revert(m, returndatasize())
        }
    }
    revert(message);
}
