/**
 * The router function whose calldata the mock's `/swap/info` returns. The
 * library's own tests deploy a Solidity router with exactly this function on
 * a real chain, so a quote from the mock can be executed there.
 *
 * @example
 * import { decodeFunctionData } from 'viem'
 * import { swapRouterAbi } from 'token-swap-hooks/mock'
 *
 * const { args } = decodeFunctionData({ abi: swapRouterAbi, data: info.data })
 * const [path, amountIn, minAmountOut, to, deadline] = args
 */
export const swapRouterAbi = [
  {
    type: 'function',
    name: 'swap',
    stateMutability: 'payable',
    inputs: [
      { name: 'path', type: 'address[]' },
      { name: 'amountIn', type: 'uint256' },
      { name: 'minAmountOut', type: 'uint256' },
      { name: 'to', type: 'address' },
      { name: 'deadline', type: 'uint256' },
    ],
    outputs: [{ name: 'amountOut', type: 'uint256' }],
  },
] as const
