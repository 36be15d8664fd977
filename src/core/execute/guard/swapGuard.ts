import { type Address, parseAbi } from 'viem'

/**
 * `SwapGuard` (`SwapGuard.sol`, beside this file): the swap, its event and its
 * errors. `swap` reverts on chain unless the caller spent at most `amountIn`
 * of token0 and `recipient` gained at least `minAmountOut` of token1, measured
 * around the router call. The user approves the guard (for an ERC-20 token0),
 * never the service's spender. `AmountInExceeded`, `AmountOutTooLow` and
 * `InvalidSwap` are its own reverts; a router's revert data bubbles up unchanged.
 *
 * @example
 * import { encodeFunctionData } from 'viem'
 * import { swapGuardAbi, swapGuardAddress } from 'token-swap-hooks/core/execute'
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
  'event GuardedSwap(address indexed payer, address indexed recipient, address token0, address token1, uint256 amountIn, uint256 amountOut)',
  'error AmountInExceeded(uint256 spent, uint256 maxAmountIn)',
  'error AmountOutTooLow(uint256 received, uint256 minAmountOut)',
  'error InvalidSwap()',
])

/**
 * The standard deterministic deployment proxy (Arachnid's CREATE2 deployer):
 * called with `salt ++ initCode`, it creates the contract with CREATE2. It is
 * at this address on most EVM chains (and on anvil, unless started with
 * `--disable-default-create2-deployer`).
 *
 * @example
 * const available = (await publicClient.getCode({ address: deterministicDeployerAddress })) !== undefined
 */
export const deterministicDeployerAddress: Address = '0x4e59b44847b379578588920cA78FbF26c0B4956C'

/**
 * Where `SwapGuard` lives on every chain it is deployed on: the CREATE2
 * address of `swapGuardInitCode` with `swapGuardSalt` (`token-swap-hooks/guard`) from
 * {@link deterministicDeployerAddress}. The user approves this address.
 *
 * @example
 * import { erc20Abi } from 'viem'
 * import { swapGuardAddress } from 'token-swap-hooks/core/execute'
 *
 * await walletClient.writeContract({ address: token0, abi: erc20Abi, functionName: 'approve', args: [swapGuardAddress, amountIn] })
 */
export const swapGuardAddress: Address = '0x18E0b5D582544369dceB835F3B0d7B717eba8470'

/**
 * The guard's `SwapGuardExecutor`, created by its constructor (the guard's
 * first CREATE, nonce 1). It makes the router call and holds a swap's funds
 * while the router runs; only the guard can call it. Never approve it: the
 * router runs as this address.
 *
 * @example
 * import { swapGuardExecutorAddress } from 'token-swap-hooks/core/execute'
 *
 * // After a guarded swap it holds nothing of the swap's tokens:
 * const left = await publicClient.readContract({ address: token0, abi: erc20Abi, functionName: 'balanceOf', args: [swapGuardExecutorAddress] })
 */
export const swapGuardExecutorAddress: Address = '0xe49e773f10282f992d2D22359792Cf9Cc3497f1b'
