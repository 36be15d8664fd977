import type { Address, Chain, PublicClient, Transport } from 'viem'
import { swapGuardAddress } from '../guard/swapGuard.js'
import { type BatchMode, type SwapFacts, wantsBatch } from '../rules/planSwap.js'
import { approveCall, readAllowance } from './approvals.js'
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
  /** Whether to read that the guard is deployed (`'onchain'`). */
  guard: boolean
  /** How long the wallet is given to answer `wallet_getCapabilities`. Default 3 s. */
  capabilitiesTimeoutMs?: number | undefined
}

export type ReadSwapFactsReturnType = Pick<
  SwapFacts,
  'allowance' | 'refusesChange' | 'atomicBatch' | 'contractAccount'
> & {
  /** `undefined` when not asked. */
  guardDeployed: boolean | undefined
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
 * nonce pinned); whether the guard is deployed. A token with no contract on
 * the chain is an `InvalidParameterError` naming `token0`.
 *
 * @example
 * const facts = await readSwapFacts({ publicClient, walletClient }, { owner, chainId, token0, amountIn, approvalTarget, batchMode: 'auto', guard: true })
 */
export async function readSwapFacts(
  { publicClient, walletClient }: Pick<ExecutionClients, 'publicClient'> & Partial<ExecutionClients>,
  parameters: ReadSwapFactsParameters,
): Promise<ReadSwapFactsReturnType> {
  const { owner, chainId, token0, amountIn, approvalTarget } = parameters
  const [allowance, guardDeployed, code] = await Promise.all([
    approvalTarget
      ? readAllowance(publicClient, token0, owner, approvalTarget).catch((error: unknown) => {
          throw toMissingTokenError(error, 'token0', token0, chainId)
        })
      : undefined,
    parameters.guard ? hasCode(publicClient, swapGuardAddress) : undefined,
    // A contract account (a Safe, say), not an EIP-7702 delegation (0xef0100…): its wallet is asked
    // to batch even a lone swap, so that the wallet, not a hash of its own, tracks it.
    publicClient.getCode({ address: owner }).catch(() => undefined),
  ])
  const contractAccount = !!code && code !== '0x' && !code.startsWith('0xef0100')
  const needsApproval = allowance !== undefined && allowance < amountIn
  const refusesChange =
    needsApproval &&
    allowance > 0n &&
    (parameters.resetAllowance ??
      !(await approves(publicClient, owner, token0, approvalTarget as Address, amountIn)))
  const capabilities =
    (needsApproval || contractAccount) && walletClient && wantsBatch(parameters, 1)
      ? await readWalletCapabilities({ walletClient }, owner, chainId, parameters.capabilitiesTimeoutMs)
      : { atomic: false, paymaster: false }
  return {
    ...{ allowance, refusesChange: parameters.resetAllowance ?? refusesChange, contractAccount },
    ...{ atomicBatch: capabilities.atomic, paymaster: capabilities.paymaster, guardDeployed },
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
