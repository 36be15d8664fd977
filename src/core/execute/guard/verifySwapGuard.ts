import { type Address, type Chain, type Hex, keccak256, type PublicClient, type Transport } from 'viem'
import { SwapGuardCodeMismatchError, type SwapGuardCodeMismatchErrorType } from '../../errors/guard.js'
import {
  swapGuardAddress,
  swapGuardCodeHash,
  swapGuardExecutorAddress,
  swapGuardExecutorCodeHash,
} from './swapGuard.js'

/**
 * What is at the swap guard's address on a chain: `'verified'`, the exact code of the guard and its executor;
 * `'missing'`, no code at either (anyone can deploy it); `'mismatch'`, anything else: never approve it or
 * sign for it.
 */
export type SwapGuardStatus = 'verified' | 'missing' | 'mismatch'

/**
 * The parameters of `verifySwapGuard`: the client that reads the code, whether to throw on a mismatch,
 * whether to skip the cache.
 */
export type VerifySwapGuardParameters = {
  /** Reads the code (`eth_getCode`) and the chain id (`eth_chainId`). */
  publicClient: PublicClient<Transport, Chain | undefined>
  /** Throw `SwapGuardCodeMismatchError` instead of answering `'mismatch'`. Default false. */
  throwOnMismatch?: boolean | undefined
  /** Read the code even when an answer is cached for this client and chain. Default false. */
  fresh?: boolean | undefined
}

/** `'verified'`, `'missing'` (no code at either address) or `'mismatch'` (code that is not the guard's). */
export type VerifySwapGuardReturnType = SwapGuardStatus

/** The errors `verifySwapGuard` can throw: a mismatch with `throwOnMismatch`, or a failed read. */
export type VerifySwapGuardErrorType = SwapGuardCodeMismatchErrorType | Error

/** How long a `'missing'` answer is kept: someone may deploy the guard meanwhile. */
export const swapGuardMissingCacheMs = 5_000

export type SwapGuardReading = {
  status: SwapGuardStatus
  /** For `'mismatch'`: the first address whose code differs, what belongs there and what was found. */
  mismatch?: { address: Address; expectedCodeHash: Hex; foundCodeHash: Hex | undefined }
}

type Entry = { reading: Promise<SwapGuardReading>; expires: number }

// Per client, per chain id (asked on every call: an injected provider's chain can change under it).
const cache = new WeakMap<object, Map<number, Entry>>()

/**
 * Whether the swap guard on the public client's chain is the genuine one:
 * compares keccak256 of the code at `swapGuardAddress` and at
 * `swapGuardExecutorAddress` with `swapGuardCodeHash` and
 * `swapGuardExecutorCodeHash`. Anything at the guard's address that is not
 * the exact code (a look-alike that behaves like the guard in a simulation
 * and steals when mined, on a chain whose CREATE2 deployer differs) is
 * `'mismatch'`. A read: nothing is sent. Answers are cached per client and
 * chain id (the chain id is read on each call, so a client whose chain
 * changes is read again): `'verified'` and `'mismatch'` for the client's
 * life, `'missing'` for {@link swapGuardMissingCacheMs} only.
 *
 * @example
 * import { verifySwapGuard } from 'token-swap-hooks/core'
 *
 * const status = await verifySwapGuard({ publicClient })
 * if (status === 'mismatch') throw new Error('Not the swap guard: do not approve it')
 * if (status === 'missing') await deploySwapGuard({ walletClient, publicClient })
 */
export async function verifySwapGuard(
  parameters: VerifySwapGuardParameters,
): Promise<VerifySwapGuardReturnType> {
  const { publicClient, throwOnMismatch = false, fresh = false } = parameters
  const chainId = await publicClient.getChainId()
  const entries = cache.get(publicClient) ?? new Map<number, Entry>()
  cache.set(publicClient, entries)
  let entry = entries.get(chainId)
  if (!entry || fresh || entry.expires <= Date.now()) {
    const created: Entry = { reading: readSwapGuardCode(publicClient), expires: Number.POSITIVE_INFINITY }
    entry = created
    entries.set(chainId, created)
    created.reading.then(
      ({ status }) => {
        if (status === 'missing') created.expires = Date.now() + swapGuardMissingCacheMs
      },
      // A failed read is not an answer: the next call reads again.
      () => entries.get(chainId) === created && entries.delete(chainId),
    )
  }
  const { status, mismatch } = await entry.reading
  if (status === 'mismatch' && throwOnMismatch && mismatch)
    throw new SwapGuardCodeMismatchError({ chainId, ...mismatch })
  return status
}

/**
 * Reads the code at both addresses and compares it with the constants, uncached, with a mismatch's details.
 * @example const { status, mismatch } = await readSwapGuardCode(publicClient)
 */
export async function readSwapGuardCode(
  publicClient: Pick<PublicClient, 'getCode'>,
): Promise<SwapGuardReading> {
  const expected = [
    [swapGuardAddress, swapGuardCodeHash],
    [swapGuardExecutorAddress, swapGuardExecutorCodeHash],
  ] as const
  const found = await Promise.all(
    expected.map(async ([address]) => {
      const code = await publicClient.getCode({ address })
      return code === undefined || code === '0x' ? undefined : keccak256(code)
    }),
  )
  if (found.every((hash) => hash === undefined)) return { status: 'missing' }
  // The first address whose code differs, what belongs there and what was found.
  const index = found.findIndex((hash, i) => hash !== expected[i]?.[1])
  const [address, expectedCodeHash] = expected[index] ?? []
  if (!address || !expectedCodeHash) return { status: 'verified' }
  return { status: 'mismatch', mismatch: { address, expectedCodeHash, foundCodeHash: found[index] } }
}
