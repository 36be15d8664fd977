import { parseAbi } from 'viem'

/*
 * Typed ABIs of the test contracts, so viem infers function names, arguments
 * and return types. Deployment uses the compiler's output; `compile.test.ts`
 * checks that these match it item for item.
 */

/** TestERC20's interface, shared by the tokens built on it. */
const testErc20Signatures = [
  'constructor(string name_, string symbol_, uint8 decimals_)',
  'function name() view returns (string)',
  'function symbol() view returns (string)',
  'function decimals() view returns (uint8)',
  'function totalSupply() view returns (uint256)',
  'function approveReverts() view returns (bool)',
  'function balanceOf(address) view returns (uint256)',
  'function allowance(address, address) view returns (uint256)',
  'function mint(address to, uint256 amount)',
  'function setApproveReverts(bool value)',
  'function approve(address spender, uint256 amount) returns (bool)',
  'function transfer(address to, uint256 amount) returns (bool)',
  'function transferFrom(address from, address to, uint256 amount) returns (bool)',
  'event Transfer(address indexed from, address indexed to, uint256 value)',
  'event Approval(address indexed owner, address indexed spender, uint256 value)',
] as const

export const testErc20Abi = parseAbi(testErc20Signatures)

/** Same interface as TestERC20; only `approve` behaves differently. */
export const usdtLikeTokenAbi = testErc20Abi

export const testSpenderAbi = parseAbi([
  'constructor(address router_)',
  'function deployer() view returns (address)',
  'function router() view returns (address)',
  'function setRouter(address router_)',
  'function pull(address token, address from, address to, uint256 amount)',
])

export const testRouterAbi = parseAbi([
  'constructor(address spender_)',
  'receive() external payable',
  'function NATIVE() view returns (address)',
  'function FEE_DENOMINATOR() view returns (uint256)',
  'function owner() view returns (address)',
  'function spender() view returns (address)',
  'function setPool(address tokenA, address tokenB, uint256 reserveA, uint256 reserveB, uint256 feeBps)',
  'function getPool(address tokenA, address tokenB) view returns (uint256 reserveA, uint256 reserveB, uint256 feeBps)',
  'function getAmountOut(address[] path, uint256 amountIn) view returns (uint256 amountOut)',
  'function swap(address[] path, uint256 amountIn, uint256 minAmountOut, address to, uint256 deadline) payable returns (uint256 amountOut)',
  'function multicall(bytes[] data) payable returns (bytes[] results)',
  'event PoolSet(address indexed token0, address indexed token1, uint256 reserve0, uint256 reserve1, uint256 feeBps)',
  'event Swapped(address indexed sender, address indexed to, address tokenIn, address tokenOut, uint256 amountIn, uint256 amountOut)',
])

export const revertingRouterAbi = parseAbi([
  'function swap(address[], uint256, uint256, address, uint256) payable returns (uint256)',
])

/** TestERC20 plus the extensions a hostile service can wrap a transfer or an approval in. */
export const hostileTokenAbi = parseAbi([
  ...testErc20Signatures,
  'function nonces(address) view returns (uint256)',
  'function multicall(bytes[] data) returns (bytes[] results)',
  'function transferAndCall(address to, uint256 amount, bytes data) returns (bool)',
  'function increaseApproval(address spender, uint256 added) returns (bool)',
  'function increaseAllowance(address spender, uint256 added) returns (bool)',
  'function permit(address holder, address spender, uint256 nonce, uint256 expiry, bool allowed, uint8 v, bytes32 r, bytes32 s)',
])

export const testPermit2Abi = parseAbi([
  'function allowance(address, address, address) view returns (uint160 amount, uint48 expiration)',
  'function approve(address token, address spender, uint160 amount, uint48 expiration)',
  'function transferFrom(address from, address to, uint160 amount, address token)',
  'event Approval(address indexed owner, address indexed token, address indexed spender, uint160 amount, uint48 expiration)',
])

export const testNftAbi = parseAbi([
  'function ownerOf(uint256) view returns (address)',
  'function balanceOf(address) view returns (uint256)',
  'function getApproved(uint256) view returns (address)',
  'function isApprovedForAll(address, address) view returns (bool)',
  'function mint(address to, uint256 tokenId)',
  'function approve(address approved, uint256 tokenId)',
  'function setApprovalForAll(address operator, bool approved)',
  'function transferFrom(address from, address to, uint256 tokenId)',
  'function safeTransferFrom(address from, address to, uint256 tokenId)',
  'event Transfer(address indexed from, address indexed to, uint256 indexed tokenId)',
  'event Approval(address indexed owner, address indexed approved, uint256 indexed tokenId)',
  'event ApprovalForAll(address indexed owner, address indexed operator, bool approved)',
])

/** A Uniswap-V2-router-like router, its own spender, with the native sentinel in paths. */
export const pairRouterAbi = parseAbi([
  'constructor()',
  'receive() external payable',
  'function NATIVE() view returns (address)',
  'function owner() view returns (address)',
  'function setPair(address tokenA, address tokenB, uint256 reserveA, uint256 reserveB)',
  'function getReserves(address tokenA, address tokenB) view returns (uint256 reserveA, uint256 reserveB)',
  'function getAmountsOut(uint256 amountIn, address[] path) view returns (uint256[] amounts)',
  'function getAmountsIn(uint256 amountOut, address[] path) view returns (uint256[] amounts)',
  'function swapExactTokensForTokens(uint256 amountIn, uint256 amountOutMin, address[] path, address to, uint256 deadline) returns (uint256[] amounts)',
  'function swapExactETHForTokens(uint256 amountOutMin, address[] path, address to, uint256 deadline) payable returns (uint256[] amounts)',
  'function swapExactTokensForETH(uint256 amountIn, uint256 amountOutMin, address[] path, address to, uint256 deadline) returns (uint256[] amounts)',
  'function swapETHForExactTokens(uint256 amountOut, address[] path, address to, uint256 deadline) payable returns (uint256[] amounts)',
])

/** Honest in simulations (gas price 0), keeps the input when mined. */
export const gasPriceRouterAbi = parseAbi([
  'constructor(uint256 rate_)',
  'receive() external payable',
  'function NATIVE() view returns (address)',
  'function rate() view returns (uint256)',
  'function swap(address[] path, uint256 amountIn, uint256 minAmountOut, address to, uint256 deadline) payable returns (uint256 amountOut)',
])

/** Sandwiches a multicall-bundled swap when mined, does nothing when simulated. */
export const gasAwareSandwichAbi = parseAbi([
  'constructor(address router_, address spender, address tokenIn_, address tokenOut_, uint256 frontAmount_)',
  'receive() external payable',
  'function router() view returns (address)',
  'function tokenIn() view returns (address)',
  'function tokenOut() view returns (address)',
  'function frontAmount() view returns (uint256)',
  'function bought() view returns (uint256)',
])

export const allowanceThiefAbi = parseAbi([
  'function steal(address token, address from, address to, uint256 amount)',
])

/** Swaps honestly at a fixed rate, making one call of the attacker's choosing during the swap. */
export const reentrantRouterAbi = parseAbi([
  'constructor(uint256 rate_)',
  'receive() external payable',
  'function NATIVE() view returns (address)',
  'function rate() view returns (uint256)',
  'function target() view returns (address)',
  'function callData() view returns (bytes)',
  'function afterPayout() view returns (bool)',
  'function arm(address target_, bytes data, bool afterPayout_)',
  'function approve(address token, address spender, uint256 amount)',
  'function swap(address[] path, uint256 amountIn, uint256 minAmountOut, address to, uint256 deadline) payable returns (uint256 amountOut)',
])

/** A token whose `balanceOf` loops, growing its memory, until its call runs out of gas. */
export const gasBurnerTokenAbi = parseAbi([
  'function name() view returns (string)',
  'function symbol() view returns (string)',
  'function decimals() view returns (uint8)',
  'function balanceOf(address) pure returns (uint256)',
])

export const lookAlikeGuardAbi = parseAbi([
  'function swap(address token0, uint256 amountIn, address token1, uint256 minAmountOut, address recipient, address spender, address router, bytes data) payable returns (uint256 amountOut)',
  'event GuardedSwap(address indexed payer, address indexed recipient, address token0, address token1, uint256 amountIn, uint256 amountOut)',
])

export const chaosRouterAbi = parseAbi([
  'receive() external payable',
  'function NATIVE() view returns (address)',
  'function PULL() view returns (uint8)',
  'function PAY() view returns (uint8)',
  'function CALL() view returns (uint8)',
  'function REVERT() view returns (uint8)',
  'function approve(address token, address spender, uint256 amount)',
  'struct Action { uint8 kind; address token; address to; uint256 amount; bytes data; }',
  'function act(Action[] actions) payable',
])

/** The same interface as TestERC20 but `approveReverts`/`setApproveReverts`, plus its fee. */
export const feeOnTransferTokenAbi = parseAbi([
  'constructor(string name_, string symbol_, uint8 decimals_)',
  'function name() view returns (string)',
  'function symbol() view returns (string)',
  'function decimals() view returns (uint8)',
  'function totalSupply() view returns (uint256)',
  'function FEE_BPS() view returns (uint256)',
  'function balanceOf(address) view returns (uint256)',
  'function allowance(address, address) view returns (uint256)',
  'function mint(address to, uint256 amount)',
  'function approve(address spender, uint256 amount) returns (bool)',
  'function transfer(address to, uint256 amount) returns (bool)',
  'function transferFrom(address from, address to, uint256 amount) returns (bool)',
  'event Transfer(address indexed from, address indexed to, uint256 value)',
  'event Approval(address indexed owner, address indexed spender, uint256 value)',
])

export const guardInvariantHarnessAbi = parseAbi([
  'constructor(address guard_, address executor_)',
  'receive() external payable',
  'function NATIVE() view returns (address)',
  'function guard() view returns (address)',
  'function executor() view returns (address)',
  'function approve(address token, address spender, uint256 amount)',
  'struct Run { address payer; address token0; address token1; address recipient; uint256 value; bytes call; }',
  'function runAll(uint256 first, Run[] runs) payable',
  'event Measured(uint256 indexed index, bool ok, uint256[10] balances, bytes returned)',
])
