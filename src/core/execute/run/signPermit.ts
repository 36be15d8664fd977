import { type Account, type Address, type Hex, parseAbi } from 'viem'
import { encodeSwapWithPermit2 } from '../guard/encodeSwapWithPermit2.js'
import { permit2Address, swapGuardAddress } from '../guard/swapGuard.js'
import { swapPermitTypedData } from '../guard/swapPermitTypedData.js'
import type { SwapCall } from '../types.js'
import { emit, type Prepared, type SwapRun } from './context.js'
import { walletStep } from './walletErrors.js'

/**
 * A Permit2 unordered nonce the owner has not used: the lowest clear bit of
 * the first bitmap word not yet full (a fresh word costs 17,100 more gas).
 *
 * @example
 * const nonce = await freePermit2Nonce(publicClient, owner) // 0n for a first swap
 */
export async function freePermit2Nonce(
  publicClient: SwapRun['parameters']['publicClient'],
  owner: Address,
): Promise<bigint> {
  const abi = parseAbi(['function nonceBitmap(address, uint256) view returns (uint256)'])
  for (let word = 0n; ; word++) {
    const args = [owner, word] as const
    const bitmap = await publicClient.readContract({
      address: permit2Address,
      abi,
      functionName: 'nonceBitmap',
      args,
    })
    let bit = 0n
    while (bit < 256n && (bitmap >> bit) & 1n) bit++
    if (bit < 256n) return (word << 8n) | bit
  }
}

/**
 * Asks the wallet to sign the Permit2 transfer of `amountIn` to the guard,
 * its witness binding the whole swap, a free nonce and a deadline ten
 * minutes after the latest block; returns the guard call that carries it.
 * Nothing is sent (a refusal is a `UserRejectedError`).
 *
 * @example
 * const swap = await signPermit(run, prepared) // SwapGuard.swapWithPermit2(…)
 */
export async function signPermit(run: SwapRun, { plan, chain }: Prepared): Promise<SwapCall> {
  emit(run, 'signing-permit')
  const p = run.parameters
  const [nonce, block] = await walletStep('approval', () =>
    Promise.all([freePermit2Nonce(p.publicClient, p.owner), p.publicClient.getBlock()]),
  )
  // Anyone can send it until the deadline, but only for exactly this swap.
  const permit = {
    ...{ chainId: chain.id, token0: p.token0, amountIn: p.amountIn, nonce, deadline: block.timestamp + 600n },
    witness: { token1: p.token1, minAmountOut: p.floor, recipient: p.to, value: 0n, ...plan.permit! },
  }
  const account = p.walletClient.account as Account
  const signature: Hex = await walletStep('approval', () =>
    p.walletClient.signTypedData({ account, ...swapPermitTypedData(permit) }),
  )
  return {
    to: swapGuardAddress,
    data: encodeSwapWithPermit2({ ...permit, owner: p.owner, signature }),
    value: 0n,
  }
}
