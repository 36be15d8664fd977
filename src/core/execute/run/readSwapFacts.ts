import type { Address, PublicClient } from 'viem'
import { permit2Address } from '../guard/swapGuard.js'
import { type SwapGuardStatus, verifySwapGuard } from '../guard/verifySwapGuard.js'
import type { PlanSwapCallParameters, SwapFacts } from '../rules/planSwap.js'
import { approveCall, planSwapCall, viaPermit2, wantsBatch } from '../rules/planSwap.js'
import { readWalletCapabilities } from './batch.js'
import { type ExecutionClients, readAllowance } from './chain.js'
import { toMissingTokenError } from './walletErrors.js'

export type ReadSwapFactsParameters = PlanSwapCallParameters &
  Pick<SwapFacts, 'approval' | 'batchMode' | 'pinnedNonce' | 'permit2'> & {
    owner: Address
    chainId: number
    /** Set the allowance to 0 first; detected (the approval simulated) when omitted. */
    resetAllowance?: boolean | undefined
    capabilitiesTimeoutMs?: number | undefined
  }

export type ReadSwapFactsReturnType = SwapFacts & {
  /** The guard's code on the chain (`'onchain'`): `'verified'` or `'missing'` (a mismatch throws). */
  guard: Exclude<SwapGuardStatus, 'mismatch'> | undefined
  /** The wallet reports it can use an ERC-7677 paymaster for the chain. */
  paymaster: boolean
}

/**
 * What planning a swap needs, read as `executeSwap` and `getSwapPreview` both read it: the allowances, a
 * token that refuses to change one (simulated), whether the wallet batches (asked only where a batch could be
 * planned), the guard's code (`SwapGuardCodeMismatchError`); a token with no contract is refused.
 * @example const plan = planSwap(await readSwapFacts(clients, { ...swap, owner, chainId, batchMode: 'auto' }), chainId)
 */
export async function readSwapFacts(
  { publicClient, walletClient }: Pick<ExecutionClients, 'publicClient'> & Partial<ExecutionClients>,
  parameters: ReadSwapFactsParameters,
): Promise<ReadSwapFactsReturnType> {
  const { owner, chainId, token0, amountIn, enforcement, permit2, resetAllowance } = parameters
  const { approvalTarget: target } = planSwapCall(parameters)
  const guarded = enforcement === 'onchain'
  const read = (spender: Address) =>
    readAllowance(publicClient, token0, owner, spender).catch((error: unknown) => {
      throw toMissingTokenError(error, 'token0', token0, chainId)
    })
  const [allowance, permit2Allowance, guard, code] = await Promise.all([
    target && read(target),
    target && guarded && permit2 !== 'never' ? read(permit2Address) : undefined,
    guarded
      ? (verifySwapGuard({ publicClient, throwOnMismatch: true }) as Promise<'verified' | 'missing'>)
      : undefined,
    // A contract account (a Safe), not an EIP-7702 delegation (0xef0100…): its wallet is asked to
    // batch even a lone swap, so that the wallet, not a hash of its own, tracks it.
    publicClient.getCode({ address: owner }).catch(() => undefined),
  ])
  const contractAccount = !!code && code !== '0x' && !code.startsWith('0xef0100')
  // An approval of whichever target the plan will take (the planner's own rule).
  const needsApproval = viaPermit2({ ...parameters, permit2Allowance })
    ? (permit2Allowance as bigint) < amountIn
    : allowance !== undefined && allowance < amountIn
  const refusesChange =
    resetAllowance ??
    (!!allowance &&
      allowance < amountIn &&
      !(await approves(publicClient, approveCall(token0, target as Address, amountIn), owner)))
  const capabilities =
    (needsApproval || contractAccount) && walletClient && wantsBatch(parameters, 1)
      ? await readWalletCapabilities({ walletClient }, owner, chainId, parameters.capabilitiesTimeoutMs)
      : { atomic: false, paymaster: false }
  return {
    ...{ ...parameters, allowance, permit2Allowance, refusesChange, contractAccount, guard },
    ...{ atomicBatch: capabilities.atomic, paymaster: capabilities.paymaster },
  }
}

/** Whether the token takes the approval from `owner` now (simulated). */
const approves = (
  publicClient: Pick<PublicClient, 'call'>,
  { to, data }: { to: Address; data: `0x${string}` },
  owner: Address,
) =>
  publicClient.call({ account: owner, to, data }).then(
    () => true,
    () => false,
  )

/**
 * Whether a contract is at `address`.
 * @example const deployerAvailable = await hasCode(publicClient, deterministicDeployerAddress)
 */
export async function hasCode(
  publicClient: Pick<PublicClient, 'getCode'>,
  address: Address,
): Promise<boolean> {
  const code = await publicClient.getCode({ address })
  return !!code && code !== '0x'
}
