// SPDX-License-Identifier: MIT
pragma solidity ^0.8.20;

/// @title Runs many guarded swaps in one transaction for the guard's invariant test, measuring
/// around each: the payer's token0 (or native) balance, the recipient's token1 (or native)
/// balance, and the executor's balances of token0, token1 and the native coin, before and after.
/// Each run is a call to the guard with calldata built off chain (`swap`, with this contract as
/// the payer, or `swapWithPermit2`, with a user's signature); a run that reverts is caught, so one
/// transaction holds many runs. Every measure is emitted for the test to check.
contract GuardInvariantHarness {
    address public constant NATIVE = 0xEeeeeEeeeEeEeeEeEeEeeEEEeeeeEeeeeeeeEEeE;

    struct Run {
        address payer;
        address token0;
        address token1;
        address recipient;
        uint256 value;
        bytes call;
    }

    /// before/after pairs: payer's token0, recipient's token1, executor's token0, token1, native.
    event Measured(uint256 indexed index, bool ok, uint256[10] balances, bytes returned);

    address public immutable guard;
    address public immutable executor;

    constructor(address guard_, address executor_) {
        guard = guard_;
        executor = executor_;
    }

    receive() external payable {}

    /// Lets the guard pull this contract's tokens in `swap` runs (this contract is their payer).
    function approve(address token, address spender, uint256 amount) external {
        (bool ok,) = token.call(abi.encodeWithSignature("approve(address,uint256)", spender, amount));
        require(ok, "Harness: approve failed");
    }

    function runAll(uint256 first, Run[] calldata runs) external payable {
        for (uint256 i = 0; i < runs.length; i++) {
            Run calldata run = runs[i];
            uint256[10] memory b;
            b[0] = _balance(run.token0, run.payer);
            b[2] = _balance(run.token1, run.recipient);
            b[4] = _balance(run.token0, executor);
            b[6] = _balance(run.token1, executor);
            b[8] = executor.balance;
            (bool ok, bytes memory returned) = guard.call{value: run.value}(run.call);
            b[1] = _balance(run.token0, run.payer);
            b[3] = _balance(run.token1, run.recipient);
            b[5] = _balance(run.token0, executor);
            b[7] = _balance(run.token1, executor);
            b[9] = executor.balance;
            emit Measured(first + i, ok, b, returned);
        }
    }

    function _balance(address token, address owner) private view returns (uint256) {
        if (token == NATIVE) return owner.balance;
        (bool ok, bytes memory ret) = token.staticcall(abi.encodeWithSignature("balanceOf(address)", owner));
        require(ok && ret.length >= 32, "Harness: balanceOf failed");
        return abi.decode(ret, (uint256));
    }
}
