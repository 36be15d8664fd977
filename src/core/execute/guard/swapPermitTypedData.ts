import { type Address, type Hex, keccak256 } from 'viem'
import { permit2Address, swapGuardAddress } from './swapGuard.js'

/** What a Permit2 signature for `SwapGuard.swapWithPermit2` binds besides what Permit2 binds. */
export type SwapPermitWitness = {
  /** The output token; the native sentinel for the chain's coin. */
  token1: Address
  /** The least token1 `recipient` must gain (the floor). */
  minAmountOut: bigint
  /** Who receives token1. */
  recipient: Address
  /** The address the router pulls token0 with; the zero address when none. */
  spender: Address
  /** The contract the guard's executor calls with `data`. */
  router: Address
  /** The router's calldata; the signature binds its keccak256. */
  data: Hex
  /** The native value the guard call carries: 0 (Permit2 moves an ERC-20 token0). Default 0. */
  value?: bigint | undefined
}

/**
 * The permit's values: the chain, token0 and `amountIn`, the Permit2 nonce and deadline, the guarded swap.
 */
export type SwapPermitTypedDataParameters = {
  /** The chain the signature is valid on (Permit2's EIP-712 domain). */
  chainId: number
  /** The input token (an ERC-20; the user has approved Permit2 for it). */
  token0: Address
  /** The amount of token0 Permit2 moves from the signer into the guard's executor. */
  amountIn: bigint
  /** A Permit2 unordered nonce the signer has not used (a clear bit of a bitmap word already in use costs least). */
  nonce: bigint
  /** Unix time in seconds after which Permit2 refuses the signature. */
  deadline: bigint
  witness: SwapPermitWitness
}

/** The EIP-712 types of the signature: Permit2's `PermitWitnessTransferFrom` with the guard's `GuardedSwap` witness. */
export const swapPermitTypes = {
  PermitWitnessTransferFrom: [
    { name: 'permitted', type: 'TokenPermissions' },
    { name: 'spender', type: 'address' },
    { name: 'nonce', type: 'uint256' },
    { name: 'deadline', type: 'uint256' },
    { name: 'witness', type: 'GuardedSwap' },
  ],
  TokenPermissions: [
    { name: 'token', type: 'address' },
    { name: 'amount', type: 'uint256' },
  ],
  GuardedSwap: [
    { name: 'token1', type: 'address' },
    { name: 'minAmountOut', type: 'uint256' },
    { name: 'recipient', type: 'address' },
    { name: 'spender', type: 'address' },
    { name: 'router', type: 'address' },
    { name: 'dataHash', type: 'bytes32' },
    { name: 'value', type: 'uint256' },
  ],
} as const

/**
 * The `witnessTypeString` the guard gives Permit2, following Permit2's rule:
 * the witness field, its type, then the referenced types in alphabetical
 * order. Permit2 hashes `"PermitWitnessTransferFrom(TokenPermissions
 * permitted,address spender,uint256 nonce,uint256 deadline,"` followed by it.
 *
 * @example
 * import { keccak256, toHex } from 'viem'
 * import { swapPermitWitnessTypeString } from 'token-swap-hooks/core'
 *
 * const typeHash = keccak256(toHex(`PermitWitnessTransferFrom(TokenPermissions permitted,address spender,uint256 nonce,uint256 deadline,${swapPermitWitnessTypeString}`))
 */
export const swapPermitWitnessTypeString =
  'GuardedSwap witness)GuardedSwap(address token1,uint256 minAmountOut,address recipient,address spender,address router,bytes32 dataHash,uint256 value)TokenPermissions(address token,uint256 amount)'

/** viem's `signTypedData` parameters (add `account`): Permit2's domain, the witness types and the message. */
export type SwapPermitTypedDataReturnType = {
  domain: { name: 'Permit2'; chainId: number; verifyingContract: Address }
  types: typeof swapPermitTypes
  primaryType: 'PermitWitnessTransferFrom'
  message: {
    permitted: { token: Address; amount: bigint }
    spender: Address
    nonce: bigint
    deadline: bigint
    witness: Omit<SwapPermitWitness, 'data' | 'value'> & { dataHash: Hex; value: bigint }
  }
}

/**
 * What the user signs for `SwapGuard.swapWithPermit2`: viem's `signTypedData`
 * parameters (add `account`). Permit2 binds token0, `amountIn`, the nonce, the
 * deadline and the guard as its spender; the `GuardedSwap` witness binds the
 * rest (token1, the floor, the recipient, the spender, the router, the
 * calldata's keccak256 and the value), so changing any of it after signing
 * makes the guard call revert. Pure: nothing is read or sent.
 *
 * @example
 * import { encodeSwapWithPermit2, swapGuardAddress, swapPermitTypedData } from 'token-swap-hooks/core'
 *
 * const permit = { chainId, token0, amountIn, nonce, deadline, witness: { token1, minAmountOut, recipient, spender, router, data } }
 * const signature = await walletClient.signTypedData({ account, ...swapPermitTypedData(permit) })
 * await walletClient.sendTransaction({ to: swapGuardAddress, data: encodeSwapWithPermit2({ ...permit, owner: account, signature }) })
 */
export function swapPermitTypedData(
  parameters: SwapPermitTypedDataParameters,
): SwapPermitTypedDataReturnType {
  const { chainId, token0, amountIn, nonce, deadline, witness } = parameters
  return {
    domain: { name: 'Permit2', chainId, verifyingContract: permit2Address },
    types: swapPermitTypes,
    primaryType: 'PermitWitnessTransferFrom',
    message: {
      permitted: { token: token0, amount: amountIn },
      spender: swapGuardAddress,
      nonce,
      deadline,
      witness: {
        ...{ token1: witness.token1, minAmountOut: witness.minAmountOut, recipient: witness.recipient },
        ...{ spender: witness.spender, router: witness.router, dataHash: keccak256(witness.data) },
        value: witness.value ?? 0n,
      },
    },
  }
}
