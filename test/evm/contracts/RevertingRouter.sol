// SPDX-License-Identifier: MIT
pragma solidity ^0.8.20;

/// @title A router with the `swap` signature of src/mock/routerAbi.ts that always reverts.
contract RevertingRouter {
    function swap(address[] calldata, uint256, uint256, address, uint256) external payable returns (uint256) {
        revert("RevertingRouter: swap disabled");
    }
}
