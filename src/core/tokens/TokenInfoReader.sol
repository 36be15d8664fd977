// SPDX-License-Identifier: MIT
pragma solidity 0.8.30;

/// Placed by a state override at `tokenInfoReaderAddress` inside one
/// `eth_call`, never deployed: asks the contract at the address in its
/// calldata (32 bytes) for `name()`, `symbol()`, `decimals()` and
/// `totalSupply()`, each given at most 100,000 gas. Answers the address's code
/// size (32 bytes), then for each of the four: a status (1: it answered, 2: it
/// reverted or ran out of its gas), the length of its answer, and the first
/// 256 bytes of the answer, zero-padded (320 bytes each). Never reverts.
contract TokenInfoReader {
    fallback() external payable {
        assembly {
            let token := calldataload(0)
            mstore(0x00, extcodesize(token))
            let out := 0x20
            // name(), symbol(), decimals(), totalSupply(): four 4-byte selectors in one word.
            let selectors := 0x06fdde0395d89b41313ce56718160ddd
            for { let i := 0 } lt(i, 4) { i := add(i, 1) } {
                mstore(0x800, shl(224, and(shr(mul(sub(3, i), 32), selectors), 0xffffffff)))
                let ok := staticcall(100000, token, 0x800, 4, 0, 0)
                let size := returndatasize()
                let copied := size
                if gt(copied, 256) { copied := 256 }
                mstore(out, sub(2, ok))
                mstore(add(out, 32), size)
                for { let j := 0 } lt(j, 256) { j := add(j, 32) } { mstore(add(add(out, 64), j), 0) }
                returndatacopy(add(out, 64), 0, copied)
                out := add(out, 320)
            }
            return(0, out)
        }
    }
}
