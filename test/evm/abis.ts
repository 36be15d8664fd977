import { parseAbi } from 'viem'

/*
 * Typed ABIs of the test contracts, so viem infers function names, arguments
 * and return types. Deployment uses the compiler's output; `compile.test.ts`
 * checks that these match it item for item.
 */

export const testErc20Abi = parseAbi([
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
])

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
  'event PoolSet(address indexed token0, address indexed token1, uint256 reserve0, uint256 reserve1, uint256 feeBps)',
  'event Swapped(address indexed sender, address indexed to, address tokenIn, address tokenOut, uint256 amountIn, uint256 amountOut)',
])

export const revertingRouterAbi = parseAbi([
  'function swap(address[], uint256, uint256, address, uint256) payable returns (uint256)',
])
