import { type Address, type Hex, parseAbi } from 'viem'

/**
 * `SwapGuard` (`SwapGuard.sol`, beside this file): its two entries, its event
 * and its errors. `swap` reverts on chain unless the caller spent at most
 * `amountIn` of token0 and `recipient` gained at least `minAmountOut` of
 * token1, measured around the router call; the user approves the guard (for an
 * ERC-20 token0), never the service's spender. `swapWithPermit2` is the same
 * swap paid by `owner` through one Permit2 signature whose witness binds every
 * argument (build it with `swapPermitTypedData`, encode the call with
 * `encodeSwapWithPermit2`): no approval of the guard, and whoever submits it
 * gets exactly the signed swap. `AmountInExceeded`, `AmountOutTooLow` and
 * `InvalidSwap` are its own reverts; a router's (or Permit2's) revert data
 * bubbles up unchanged.
 *
 * @example
 * import { encodeFunctionData } from 'viem'
 * import { swapGuardAbi, swapGuardAddress } from 'token-swap-hooks/core'
 *
 * const hash = await walletClient.sendTransaction({
 *   to: swapGuardAddress,
 *   data: encodeFunctionData({
 *     abi: swapGuardAbi,
 *     functionName: 'swap',
 *     args: [token0, amountIn, token1, minAmountOut, recipient, info.approvalAddress ?? zeroAddress, info.transferAddress, info.data],
 *   }),
 * })
 */
export const swapGuardAbi = /* @__PURE__ */ parseAbi([
  'function swap(address token0, uint256 amountIn, address token1, uint256 minAmountOut, address recipient, address spender, address router, bytes data) payable returns (uint256 amountOut)',
  'function swapWithPermit2(((address token, uint256 amount) permitted, uint256 nonce, uint256 deadline) permit, address owner, address token1, uint256 minAmountOut, address recipient, address spender, address router, bytes data, bytes signature) payable returns (uint256 amountOut)',
  'event GuardedSwap(address indexed payer, address indexed recipient, address token0, address token1, uint256 amountIn, uint256 amountOut)',
  'error AmountInExceeded(uint256 spent, uint256 maxAmountIn)',
  'error AmountOutTooLow(uint256 received, uint256 minAmountOut)',
  'error InvalidSwap()',
])

/**
 * Uniswap's Permit2, at its canonical address (the same on every chain where
 * it is deployed). `SwapGuard.swapWithPermit2` takes token0 through its
 * `permitWitnessTransferFrom`: the user approves Permit2 once per token, then
 * signs each swap.
 *
 * @example
 * import { erc20Abi, maxUint256 } from 'viem'
 * import { permit2Address } from 'token-swap-hooks/core'
 *
 * await walletClient.writeContract({ address: token0, abi: erc20Abi, functionName: 'approve', args: [permit2Address, maxUint256] })
 */
export const permit2Address: Address = '0x000000000022D473030F116dDEE9F6B43aC78BA3'

/** The standard deterministic deployment proxy (Arachnid's CREATE2 deployer), on most EVM chains. */
export const deterministicDeployerAddress: Address = '0x4e59b44847b379578588920cA78FbF26c0B4956C'

/** keccak256 of the deterministic deployment proxy's runtime code: `deploySwapGuard` sends nothing to other code. */
export const deterministicDeployerCodeHash: Hex =
  '0x2fa86add0aed31f33a762c9d88e807c475bd51d0f52bd0955754b2608f7e4989'

/**
 * Where `SwapGuard` lives on every chain it is deployed on: the CREATE2
 * address of `swapGuardInitCode` with `swapGuardSalt` (`token-swap-hooks/guard`) from
 * {@link deterministicDeployerAddress}. The user approves this address.
 *
 * @example
 * import { erc20Abi } from 'viem'
 * import { swapGuardAddress } from 'token-swap-hooks/core'
 *
 * await walletClient.writeContract({ address: token0, abi: erc20Abi, functionName: 'approve', args: [swapGuardAddress, amountIn] })
 */
export const swapGuardAddress: Address = '0xBA9a4D4bc8896BbDe1FC646ACB3d8968052CB6B1'

/**
 * The guard's `SwapGuardExecutor`, created by its constructor (the guard's
 * first CREATE, nonce 1). It makes the router call and holds a swap's funds
 * while the router runs; only the guard can call it. Never approve it: the
 * router runs as this address.
 *
 * @example
 * import { swapGuardExecutorAddress } from 'token-swap-hooks/core'
 *
 * // After a guarded swap it holds nothing of the swap's tokens:
 * const left = await publicClient.readContract({ address: token0, abi: erc20Abi, functionName: 'balanceOf', args: [swapGuardExecutorAddress] })
 */
export const swapGuardExecutorAddress: Address = '0xBA16487B48f041F3c62E0C022D70990AD3FffFc4'

/**
 * keccak256 of the runtime code at {@link swapGuardAddress} (`eth_getCode`),
 * as `SwapGuard.sol` compiles and deploys (its executor's address filled in).
 * `verifySwapGuard` compares the code on a chain with it: an address holding
 * anything else is not the guard.
 *
 * @example
 * import { keccak256 } from 'viem'
 * import { swapGuardAddress, swapGuardCodeHash } from 'token-swap-hooks/core'
 *
 * const code = await publicClient.getCode({ address: swapGuardAddress })
 * const genuine = code !== undefined && keccak256(code) === swapGuardCodeHash
 */
export const swapGuardCodeHash: Hex = '0xbcf6bf49690b14a38466f7da01ba586a1f4e4a9ea29b63065c71301751d60540'

/**
 * keccak256 of the runtime code at {@link swapGuardExecutorAddress}, as the
 * guard's constructor creates it (the guard's address filled in).
 *
 * @example
 * import { keccak256 } from 'viem'
 * import { swapGuardExecutorAddress, swapGuardExecutorCodeHash } from 'token-swap-hooks/core'
 *
 * const code = await publicClient.getCode({ address: swapGuardExecutorAddress })
 * const genuine = code !== undefined && keccak256(code) === swapGuardExecutorCodeHash
 */
export const swapGuardExecutorCodeHash: Hex =
  '0x0416f8e03a45d97cd08d529e8d9988917c540f4e8287be77809fbe31dda05508'
