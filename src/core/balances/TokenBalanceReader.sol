// SPDX-License-Identifier: MIT
pragma solidity 0.8.30;

/// Placed by a state override at `tokenBalanceReaderAddress` inside one
/// `eth_call`, never deployed: reads one account's balance of each token
/// packed in its calldata (32 bytes: the account; then 20 bytes per token),
/// giving each `balanceOf` at most 200,000 gas, so a token that burns whatever
/// it is given costs that and no more, and its neighbours are still read. The
/// native-coin sentinel (0xEeee…EEeE) reads the account's coin balance.
/// Answers 64 bytes per token read, in order: a status (1: it answered one
/// 32-byte word; 2: it reverted or ran out of its gas; 3: it answered anything
/// else, as an address without code does) and that word (0 unless status 1).
/// It never reverts and never copies what a token answers beyond one word;
/// before a token it could no longer give the full 200,000 gas, it stops and
/// answers the tokens read so far, for the caller to ask again for the rest.
contract TokenBalanceReader {
    fallback() external payable {
        assembly {
            let account := calldataload(0)
            // balanceOf(account) in memory [0x00, 0x24); its answer lands at 0x40.
            mstore(0, shl(224, 0x70a08231))
            mstore(4, account)
            let out := 0x80
            for { let p := 32 } lt(p, calldatasize()) { p := add(p, 20) } {
                // 200,000 for the token (EIP-150 keeps 1/64 back), and this loop's own cost.
                if lt(gas(), 220000) { break }
                let token := shr(96, calldataload(p))
                let status := 1
                let value := 0
                switch token
                case 0xEeeeeEeeeEeEeeEeEeEeeEEEeeeeEeeeeeeeEEeE { value := balance(account) }
                default {
                    mstore(0x40, 0)
                    switch staticcall(200000, token, 0, 0x24, 0x40, 0x20)
                    case 0 { status := 2 }
                    default {
                        switch returndatasize()
                        case 32 { value := mload(0x40) }
                        default { status := 3 }
                    }
                }
                mstore(out, status)
                mstore(add(out, 32), value)
                out := add(out, 64)
            }
            return(0x80, sub(out, 0x80))
        }
    }
}
