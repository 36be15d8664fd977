// SPDX-License-Identifier: MIT
pragma solidity ^0.8.20;

/// Placed at the user's address by a state override inside one `eth_call`
/// (the fallback when the node has no `eth_simulateV1`): makes the calls the
/// user would sign, in order, as the user, and returns the balances before and
/// after. Never deployed.
contract OutcomeProbe {
    address private constant NATIVE = 0xEeeeeEeeeEeEeeEeEeEeeEEEeeeeEeeeeeeeEEeE;

    struct Call {
        address to;
        uint256 value;
        bytes data;
    }

    function probe(Call[] calldata calls, address[] calldata tokens, address[] calldata holders)
        external
        returns (uint256[] memory pre, uint256[] memory post)
    {
        pre = balances(tokens, holders);
        for (uint256 i; i < calls.length; ++i) {
            (bool ok, bytes memory ret) = calls[i].to.call{value: calls[i].value}(calls[i].data);
            if (!ok) {
                assembly {
                    revert(add(ret, 32), mload(ret))
                }
            }
        }
        post = balances(tokens, holders);
    }

    function balances(address[] calldata tokens, address[] calldata holders)
        private
        view
        returns (uint256[] memory out)
    {
        out = new uint256[](tokens.length);
        for (uint256 i; i < tokens.length; ++i) {
            if (tokens[i] == NATIVE) {
                out[i] = holders[i].balance;
            } else {
                (bool ok, bytes memory ret) = tokens[i].staticcall(abi.encodeWithSelector(0x70a08231, holders[i]));
                out[i] = ok && ret.length >= 32 ? abi.decode(ret, (uint256)) : type(uint256).max;
            }
        }
    }

    receive() external payable {}
}
