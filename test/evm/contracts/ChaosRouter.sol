// SPDX-License-Identifier: MIT
pragma solidity ^0.8.20;

/// @title A router whose behaviour is whatever its calldata says: the guard's invariant test draws a
/// list of actions at random for each run and encodes it as the call to `act`. Each action pulls
/// token0 from the caller (the guard's executor) with whatever allowance it has, pays any amount of
/// any token or of the native coin (the sentinel) to anyone from its own stock, makes a call (into
/// the guard: a nested swap of its own), or reverts. It is its own spender.
contract ChaosRouter {
    address public constant NATIVE = 0xEeeeeEeeeEeEeeEeEeEeeEEEeeeeEeeeeeeeEEeE;

    uint8 public constant PULL = 0;
    uint8 public constant PAY = 1;
    uint8 public constant CALL = 2;
    uint8 public constant REVERT = 3;

    struct Action {
        uint8 kind;
        address token;
        address to;
        uint256 amount;
        bytes data;
    }

    receive() external payable {}

    /// Lets the router's own swaps through the guard pull its tokens (it approves the guard).
    function approve(address token, address spender, uint256 amount) external {
        (bool ok,) = token.call(abi.encodeWithSignature("approve(address,uint256)", spender, amount));
        require(ok, "ChaosRouter: approve failed");
    }

    function act(Action[] calldata actions) external payable {
        for (uint256 i = 0; i < actions.length; i++) {
            Action calldata action = actions[i];
            if (action.kind == PULL) {
                _call(
                    action.token,
                    abi.encodeWithSignature("transferFrom(address,address,uint256)", msg.sender, address(this), action.amount)
                );
            } else if (action.kind == PAY) {
                if (action.token == NATIVE) {
                    (bool ok, bytes memory ret) = action.to.call{value: action.amount}("");
                    if (!ok) _bubble(ret);
                } else {
                    _call(action.token, abi.encodeWithSignature("transfer(address,uint256)", action.to, action.amount));
                }
            } else if (action.kind == CALL) {
                (bool ok, bytes memory ret) = action.to.call{value: action.amount}(action.data);
                if (!ok) _bubble(ret);
            } else {
                revert("ChaosRouter: revert");
            }
        }
    }

    function _call(address to, bytes memory data) private {
        (bool ok, bytes memory ret) = to.call(data);
        if (!ok) _bubble(ret);
        require(ret.length == 0 || abi.decode(ret, (bool)), "ChaosRouter: token call failed");
    }

    function _bubble(bytes memory ret) private pure {
        assembly {
            revert(add(ret, 32), mload(ret))
        }
    }
}
