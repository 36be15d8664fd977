import { type Address, type Hex, parseAbi } from 'viem'
import { encodeSwapWithPermit2 } from '../guard/encodeSwapWithPermit2.js'
import { permit2Address, swapGuardAddress } from '../guard/swapGuard.js'
import { swapPermitTypedData } from '../guard/swapPermitTypedData.js'
import type { SwapCall } from '../types.js'
import { emit, type Prepared, type SwapRun } from './context.js'
import { walletStep } from './walletErrors.js'

const nonceBitmapAbi = parseAbi(['function nonceBitmap(address, uint256) view returns (uint256)'])

/** How long a signed permit stays good: anyone can send it until then (only for exactly this swap). */
const permitLifetime = 600n

/**
 * A Permit2 unordered nonce the owner has not used: the lowest clear bit of
 * the first bitmap word not yet full, so that a word already written is
 * written again (a fresh word costs 17,100 more gas).
 *
 * @example
 * const nonce = await freePermit2Nonce(publicClient, owner) // 0n for a first swap
 */
export async function freePermit2Nonce(
  publicClient: SwapRun['parameters']['publicClient'],
  owner: Address,
): Promise<bigint> {
  for (let word = 0n; ; word++) {
    const bitmap = await publicClient.readContract({
      address: permit2Address,
      abi: nonceBitmapAbi,
      functionName: 'nonceBitmap',
      args: [owner, word],
    })
    if (~bitmap & ((1n << 256n) - 1n)) {
      let bit = 0n
      while ((bitmap >> bit) & 1n) bit++
      return (word << 8n) | bit
    }
  }
}

/**
 * Asks the wallet to sign the Permit2 transfer of `amountIn` of token0 to the
 * guard, its witness binding the whole swap (router, spender, calldata,
 * value, token1, the floor, the recipient), a fresh nonce and a deadline ten
 * minutes after the latest block; returns the guard call that carries it.
 * Nothing is sent: a signature that is never sent leaves nothing on chain.
 * A refusal is a `UserRejectedError`.
 */
export async function signPermit(run: SwapRun, { plan, chain }: Prepared): Promise<SwapCall> {
  emit(run, 'signing-permit')
  const p = run.parameters
  const [nonce, block] = await walletStep('approval', () =>
    Promise.all([freePermit2Nonce(p.publicClient, p.owner), p.publicClient.getBlock()]),
  )
  const permit = {
    ...{
      chainId: chain.id,
      token0: p.token0,
      amountIn: p.amountIn,
      nonce,
      deadline: block.timestamp + permitLifetime,
    },
    witness: {
      token1: p.token1,
      minAmountOut: p.floor,
      recipient: p.to,
      value: 0n,
      ...(plan.permit as Required<Prepared['plan']>['permit']),
    },
  }
  const account = p.walletClient.account as NonNullable<typeof p.walletClient.account>
  const signature: Hex = await walletStep('approval', () =>
    p.walletClient.signTypedData({ account, ...swapPermitTypedData(permit) }),
  )
  return {
    to: swapGuardAddress,
    data: encodeSwapWithPermit2({ ...permit, owner: p.owner, signature }),
    value: 0n,
  }
}
