// SPDX-License-Identifier: MIT
pragma solidity ^0.8.20;

/// A token of the early days (MKR, SAI): its name and symbol are `bytes32`, not strings.
contract Bytes32Token {
    bytes32 public constant name = "Maker";
    bytes32 public constant symbol = "MKR";
    uint8 public constant decimals = 18;
    uint256 public constant totalSupply = 1_000_000e18;

    function balanceOf(address) external pure returns (uint256) {
        return 0;
    }
}

/// An ERC-20 without `decimals()` (it is optional in the standard).
contract NoDecimalsToken {
    string public constant name = "Plain";
    string public constant symbol = "PLN";
    uint256 public constant totalSupply = 1_000;

    function balanceOf(address) external pure returns (uint256) {
        return 0;
    }
}

/// Answers every question with garbage: bytes that are not text, and 200 for decimals' word twice over.
contract GarbageToken {
    fallback(bytes calldata) external returns (bytes memory) {
        return abi.encodePacked(uint256(32), uint256(3), bytes32(hex"ff00fe0000000000000000000000000000000000000000000000000000000000"), uint256(7));
    }
}
