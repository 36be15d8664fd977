import { type Address, type Hex, parseAbi } from 'viem'

/**
 * `SwapGuard` (`src/guard/SwapGuard.sol`): `swap` reverts unless the caller spent at most `amountIn` of
 * token0 and `recipient` gained at least `minAmountOut` of token1; `swapWithPermit2` is the same swap paid
 * through one Permit2 signature whose witness binds every argument.
 * @example encodeFunctionData({ abi: swapGuardAbi, functionName: 'swap', args: [token0, amountIn, token1, minAmountOut, recipient, spender, router, data] })
 */
export const swapGuardAbi = /* @__PURE__ */ parseAbi([
  'function swap(address token0, uint256 amountIn, address token1, uint256 minAmountOut, address recipient, address spender, address router, bytes data) payable returns (uint256 amountOut)',
  'function swapWithPermit2(((address token, uint256 amount) permitted, uint256 nonce, uint256 deadline) permit, address owner, address token1, uint256 minAmountOut, address recipient, address spender, address router, bytes data, bytes signature) payable returns (uint256 amountOut)',
  'event GuardedSwap(address indexed payer, address indexed recipient, address token0, address token1, uint256 amountIn, uint256 amountOut)',
  'error AmountInExceeded(uint256 spent, uint256 maxAmountIn)',
  'error AmountOutTooLow(uint256 received, uint256 minAmountOut)',
  'error InvalidSwap()',
])

/** Uniswap's Permit2, at its canonical address: the user approves it once per token, then signs each swap. */
export const permit2Address: Address = '0x000000000022D473030F116dDEE9F6B43aC78BA3'

/** The standard deterministic deployment proxy (Arachnid's CREATE2 deployer), on most EVM chains. */
export const deterministicDeployerAddress: Address = '0x4e59b44847b379578588920cA78FbF26c0B4956C'

/** keccak256 of the deterministic deployment proxy's runtime code: `deploySwapGuard` sends nothing to other code. */
export const deterministicDeployerCodeHash: Hex =
  '0x2fa86add0aed31f33a762c9d88e807c475bd51d0f52bd0955754b2608f7e4989'

/**
 * Where `SwapGuard` lives on every chain (CREATE2 of `swapGuardInitCode` with `swapGuardSalt`): the user
 * approves it.
 */
export const swapGuardAddress: Address = '0xBA9a4D4bc8896BbDe1FC646ACB3d8968052CB6B1'

/** The guard's executor (its first CREATE): it makes the router call; only the guard can call it. Never approve it. */
export const swapGuardExecutorAddress: Address = '0xBA16487B48f041F3c62E0C022D70990AD3FffFc4'

/** keccak256 of the runtime code at `swapGuardAddress`: anything else there is not the guard (`verifySwapGuard`). */
export const swapGuardCodeHash: Hex = '0xbcf6bf49690b14a38466f7da01ba586a1f4e4a9ea29b63065c71301751d60540'

/** keccak256 of the runtime code at `swapGuardExecutorAddress`, as the guard's constructor creates it. */
export const swapGuardExecutorCodeHash: Hex =
  '0x0416f8e03a45d97cd08d529e8d9988917c540f4e8287be77809fbe31dda05508'
