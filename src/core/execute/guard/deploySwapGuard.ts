import { type Address, concat, type Hex, type TransactionReceipt } from 'viem'
import { SwapGuardNotDeployedError } from '../../errors/guard.js'
import { assertObject } from '../../utils/validate.js'
import {
  type ExecutionClients,
  ensureChain,
  resolveClients,
  sendPinned,
  waitForSuccess,
} from '../run/chain.js'
import { walletStep } from '../run/walletErrors.js'
import { deterministicDeployerAddress, swapGuardAddress, swapGuardExecutorAddress } from './swapGuard.js'
import { swapGuardInitCode, swapGuardSalt } from './swapGuardInitCode.js'

export type DeploySwapGuardParameters = ExecutionClients & {
  /** The chain to deploy on. Default: the public client's chain. */
  chainId?: number | undefined
  /** Blocks to wait for. Default 1. */
  confirmations?: number | undefined
}

export type DeploySwapGuardReturnType =
  /** The guard already had code: nothing was sent. */
  | { address: Address; status: 'already-deployed' }
  /** This call deployed it, with the transaction `hash`. */
  | { address: Address; status: 'deployed'; hash: Hex; receipt: TransactionReceipt }

export type IsSwapGuardDeployedParameters = Pick<ExecutionClients, 'publicClient'>

/**
 * Whether the swap guard has code at `swapGuardAddress` on the public
 * client's chain. A read: nothing is sent.
 *
 * @example
 * import { deploySwapGuard, isSwapGuardDeployed } from 'token-swap-hooks/guard'
 *
 * if (!(await isSwapGuardDeployed({ publicClient }))) await deploySwapGuard({ walletClient, publicClient })
 */
export async function isSwapGuardDeployed({ publicClient }: IsSwapGuardDeployedParameters): Promise<boolean> {
  return hasCode(await publicClient.getCode({ address: swapGuardAddress }))
}

const hasCode = (code: Hex | undefined) => code !== undefined && code !== '0x'

/**
 * Deploys the swap guard on the chain, at `swapGuardAddress` (the same address
 * on every chain), unless it is there already: then nothing is sent
 * (`status: 'already-deployed'`). Otherwise it sends one transaction, to the
 * deterministic deployment proxy with `swapGuardSalt ++ swapGuardInitCode`,
 * pinned to the chain, waits for it and checks the guard's (and its
 * executor's) code is there. Anyone can send it: the guard has no owner and is
 * the same contract for everyone. On a chain without the proxy it throws
 * `SwapGuardNotDeployedError` (`deployerAvailable: false`) and sends nothing.
 * If someone else deploys it between the check and this transaction, the
 * transaction reverts (`TransactionRevertedError`), and `isSwapGuardDeployed`
 * then answers true.
 *
 * @example
 * import { deploySwapGuard } from 'token-swap-hooks/guard'
 *
 * const deployment = await deploySwapGuard({ walletClient, publicClient })
 * if (deployment.status === 'deployed') console.log('guard deployed in', deployment.hash)
 */
export async function deploySwapGuard(
  parameters: DeploySwapGuardParameters,
): Promise<DeploySwapGuardReturnType> {
  assertObject(parameters)
  const clients = resolveClients(parameters)
  const { publicClient } = clients
  const chain = await ensureChain(clients, parameters.chainId, 'chain')
  const codeAt = (address: Address) => walletStep('chain', () => publicClient.getCode({ address }))

  if (hasCode(await codeAt(swapGuardAddress)))
    return { address: swapGuardAddress, status: 'already-deployed' }
  if (!hasCode(await codeAt(deterministicDeployerAddress)))
    throw new SwapGuardNotDeployedError({
      chainId: chain.id,
      address: swapGuardAddress,
      deployerAvailable: false,
    })

  const hash = await sendPinned(clients, chain, 'chain', {
    to: deterministicDeployerAddress,
    data: concat([swapGuardSalt, swapGuardInitCode]),
  })
  const receipt = await waitForSuccess(clients, {
    hash,
    stage: 'chain',
    confirmations: parameters.confirmations,
  })
  if (!hasCode(await codeAt(swapGuardAddress)) || !hasCode(await codeAt(swapGuardExecutorAddress)))
    throw new SwapGuardNotDeployedError({
      chainId: chain.id,
      address: swapGuardAddress,
      deployerAvailable: true,
      hash: receipt.transactionHash,
    })
  return { address: swapGuardAddress, status: 'deployed', hash: receipt.transactionHash, receipt }
}
