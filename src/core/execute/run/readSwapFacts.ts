import type { Address, Chain, PublicClient, Transport } from 'viem'
import { permit2Address } from '../guard/swapGuard.js'
import { verifySwapGuard } from '../guard/verifySwapGuard.js'
import { approveCall } from '../rules/approvals.js'
import {
  type BatchMode,
  type Permit2Mode,
  type SwapFacts,
  viaPermit2,
  wantsBatch,
} from '../rules/planSwap.js'
import { readAllowance } from './approvals.js'
import { readWalletCapabilities } from './batch.js'
import type { ExecutionClients } from './chain.js'
import { toMissingTokenError } from './walletErrors.js'

export type ReadSwapFactsParameters = {
  owner: Address
  chainId: number
  token0: Address
  amountIn: bigint
  /** Who the user approves: the guard or the service's spender; none for a native input. */
  approvalTarget: Address | undefined
  /** Set the allowance to 0 first; detected (the approval simulated) when omitted. */
  resetAllowance?: boolean | undefined
  batchMode: BatchMode
  pinnedNonce?: number | undefined
  /** Whether to verify the guard's code (`'onchain'`): `'mismatch'` is a `SwapGuardCodeMismatchError`. */
  guard: boolean
  /** The flow's `permit2`, when the guarded swap may take token0 through Permit2: its allowance there is read too. */
  readPermit2?: Permit2Mode | undefined
  /** How long the wallet is given to answer `wallet_getCapabilities`. Default 3 s. */
  capabilitiesTimeoutMs?: number | undefined
}

export type ReadSwapFactsReturnType = Pick<
  SwapFacts,
  'allowance' | 'refusesChange' | 'atomicBatch' | 'contractAccount' | 'permit2Allowance'
> & {
  /** The guard's code on the chain, when asked: `'verified'` or `'missing'` (a mismatch throws). */
  guard: 'verified' | 'missing' | undefined
  /** The wallet reports it can use an ERC-7677 paymaster for the chain. */
  paymaster: boolean
}

/**
 * What planning a swap needs from the chain and the wallet, read as
 * `executeSwap` and `getSwapPreview` both read it: the approval target's
 * allowance; whether the token refuses to change a non-zero allowance (its
 * approval simulated, only for a non-zero allowance too small, unless
 * `resetAllowance` says); whether the wallet batches atomically (asked only
 * when a batch could be planned: an approval needed, batching allowed, no
 * nonce pinned); whether the guard at its address is the genuine one (its
 * code hashes: a look-alike is a `SwapGuardCodeMismatchError`); the Permit2
 * allowance, when asked. A token with no contract on the chain is an
 * `InvalidParameterError` naming `token0`.
 *
 * @example
 * const facts = await readSwapFacts({ publicClient, walletClient }, { owner, chainId, token0, amountIn, approvalTarget, batchMode: 'auto', guard: true })
 */
export async function readSwapFacts(
  { publicClient, walletClient }: Pick<ExecutionClients, 'publicClient'> & Partial<ExecutionClients>,
  parameters: ReadSwapFactsParameters,
): Promise<ReadSwapFactsReturnType> {
  const { owner, chainId, token0, amountIn, approvalTarget } = parameters
  const allowanceOf = (target: Address) =>
    readAllowance(publicClient, token0, owner, target).catch((error: unknown) => {
      throw toMissingTokenError(error, 'token0', token0, chainId)
    })
  const [allowance, permit2Allowance, guard, code] = await Promise.all([
    approvalTarget ? allowanceOf(approvalTarget) : undefined,
    approvalTarget && parameters.readPermit2 ? allowanceOf(permit2Address) : undefined,
    parameters.guard
      ? (verifySwapGuard({ publicClient, throwOnMismatch: true }) as Promise<'verified' | 'missing'>)
      : undefined,
    // A contract account (a Safe, say), not an EIP-7702 delegation (0xef0100…): its wallet is asked
    // to batch even a lone swap, so that the wallet, not a hash of its own, tracks it.
    publicClient.getCode({ address: owner }).catch(() => undefined),
  ])
  const contractAccount = !!code && code !== '0x' && !code.startsWith('0xef0100')
  // An approval of whichever target the plan will take (the planner's own rule).
  const permit = viaPermit2({
    enforcement: 'onchain',
    permit2: parameters.readPermit2,
    permit2Allowance,
    amountIn,
  })
  const needsApproval = permit
    ? (permit2Allowance as bigint) < amountIn
    : allowance !== undefined && allowance < amountIn
  const refusesChange =
    allowance !== undefined &&
    allowance > 0n &&
    allowance < amountIn &&
    (parameters.resetAllowance ??
      !(await approves(publicClient, owner, token0, approvalTarget as Address, amountIn)))
  const capabilities =
    (needsApproval || contractAccount) && walletClient && wantsBatch(parameters, 1)
      ? await readWalletCapabilities({ walletClient }, owner, chainId, parameters.capabilitiesTimeoutMs)
      : { atomic: false, paymaster: false }
  return {
    ...{
      allowance,
      permit2Allowance,
      refusesChange: parameters.resetAllowance ?? refusesChange,
      contractAccount,
    },
    ...{ atomicBatch: capabilities.atomic, paymaster: capabilities.paymaster, guard },
  }
}

/** Whether the token takes approve(target, amount) from `owner` now (simulated). */
function approves(
  publicClient: PublicClient<Transport, Chain | undefined>,
  owner: Address,
  token: Address,
  target: Address,
  amount: bigint,
) {
  const { to, data } = approveCall(token, target, amount)
  return publicClient.call({ account: owner, to, data }).then(
    () => true,
    () => false,
  )
}

/** Whether a contract is at `address`. */
export async function hasCode(
  publicClient: Pick<PublicClient, 'getCode'>,
  address: Address,
): Promise<boolean> {
  const code = await publicClient.getCode({ address })
  return !!code && code !== '0x'
}
