import {
  type Address,
  concat,
  getAddress,
  type Hex,
  keccak256,
  size,
  type TransactionReceipt,
  zeroAddress,
} from 'viem'
import {
  DeterministicDeployerMismatchError,
  SwapGuardCodeMismatchError,
  SwapGuardNotDeployedError,
} from '../core/errors/guard.js'
import {
  deterministicDeployerAddress,
  deterministicDeployerCodeHash,
  swapGuardAddress,
} from '../core/execute/guard/swapGuard.js'
import { readSwapGuardCode, verifySwapGuard } from '../core/execute/guard/verifySwapGuard.js'
import {
  type ExecutionClients,
  ensureChain,
  resolveClients,
  sendPinned,
  waitForSuccess,
} from '../core/execute/run/chain.js'
import { walletStep } from '../core/execute/run/walletErrors.js'
import { assertObject } from '../core/utils/validate.js'
import { swapGuardInitCode, swapGuardSalt } from './swapGuardInitCode.js'

/** The parameters of `deploySwapGuard`: the wallet that pays for the deployment, a public client of the chain, and how long to wait. */
export type DeploySwapGuardParameters = ExecutionClients & {
  /** The chain to deploy on. Default: the public client's chain. */
  chainId?: number | undefined
  /** Blocks to wait for. Default 1. */
  confirmations?: number | undefined
}

/** What `deploySwapGuard` answers: whether the guard was there already or this call deployed it (with the transaction hash). */
export type DeploySwapGuardReturnType =
  /** The guard was there already, its exact code and its executor's: nothing was sent. */
  | { address: Address; status: 'already-deployed' }
  /** This call deployed it, with the transaction `hash`. */
  | { address: Address; status: 'deployed'; hash: Hex; receipt: TransactionReceipt }

/** The parameters of `isSwapGuardDeployed`: a public client of the chain to ask. */
export type IsSwapGuardDeployedParameters = Pick<ExecutionClients, 'publicClient'>

/**
 * Whether the swap guard is deployed on the public client's chain: true only
 * when the exact code of the guard and of its executor is at their addresses
 * (`verifySwapGuard` answers `'verified'`); a look-alike at the address is
 * false. A read, never cached: nothing is sent.
 *
 * @example
 * import { deploySwapGuard, isSwapGuardDeployed } from 'token-swap-hooks/guard'
 *
 * if (!(await isSwapGuardDeployed({ publicClient }))) await deploySwapGuard({ walletClient, publicClient })
 */
export async function isSwapGuardDeployed({ publicClient }: IsSwapGuardDeployedParameters): Promise<boolean> {
  return (await verifySwapGuard({ publicClient, fresh: true })) === 'verified'
}

/**
 * Deploys the swap guard on the chain, at `swapGuardAddress` (the same address
 * on every chain), unless it is there already: then nothing is sent
 * (`status: 'already-deployed'`). Before sending it checks that the
 * deterministic deployment proxy is the standard one (its code hash) and that
 * its CREATE2 puts the guard at `swapGuardAddress` (a simulation of the
 * deployment); then it sends one transaction to the proxy with
 * `swapGuardSalt ++ swapGuardInitCode`, pinned to the chain, waits for it and
 * checks the code of the guard and of its executor hash to
 * `swapGuardCodeHash` and `swapGuardExecutorCodeHash`. Anyone can send it: the
 * guard has no owner and is the same contract for everyone.
 *
 * Refusals, each before anything is sent: other code at the guard's (or the
 * executor's) address, `SwapGuardCodeMismatchError` (never
 * `'already-deployed'`); no proxy on the chain, `SwapGuardNotDeployedError`
 * (`deployerAvailable: false`); other code at the proxy's address, or a
 * CREATE2 that lands elsewhere, `DeterministicDeployerMismatchError`. After
 * the transaction: no code, `SwapGuardNotDeployedError` with its `hash`;
 * other code, `SwapGuardCodeMismatchError` with its `hash`. If someone else
 * deploys it between the check and this transaction, the transaction reverts
 * (`TransactionRevertedError`), and `isSwapGuardDeployed` then answers true.
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
  const read = () => walletStep('chain', () => readSwapGuardCode(publicClient))

  const found = await read()
  if (found.status === 'verified') return { address: swapGuardAddress, status: 'already-deployed' }
  if (found.mismatch) throw new SwapGuardCodeMismatchError({ chainId: chain.id, ...found.mismatch })

  const deployer = await walletStep('chain', () =>
    publicClient.getCode({ address: deterministicDeployerAddress }),
  )
  if (deployer === undefined || deployer === '0x')
    throw new SwapGuardNotDeployedError({
      chainId: chain.id,
      address: swapGuardAddress,
      deployerAvailable: false,
    })
  if (keccak256(deployer) !== deterministicDeployerCodeHash)
    throw new DeterministicDeployerMismatchError({ chainId: chain.id, foundCodeHash: keccak256(deployer) })

  const data = concat([swapGuardSalt, swapGuardInitCode])
  // The proxy returns the address it created: where this deployment lands on this chain.
  const simulated = await walletStep('chain', () =>
    publicClient.call({ account: clients.owner, to: deterministicDeployerAddress, data }),
  )
  const landed = simulated.data && size(simulated.data) === 20 ? getAddress(simulated.data) : undefined
  if (landed !== swapGuardAddress)
    throw new DeterministicDeployerMismatchError({
      chainId: chain.id,
      foundCodeHash: deterministicDeployerCodeHash,
      predictedAddress: landed ?? zeroAddress,
    })

  const hash = await sendPinned(clients, chain, 'chain', { to: deterministicDeployerAddress, data })
  const receipt = await waitForSuccess(clients, {
    hash,
    stage: 'chain',
    confirmations: parameters.confirmations,
  })
  const deployed = await read()
  if (deployed.mismatch)
    throw new SwapGuardCodeMismatchError({
      chainId: chain.id,
      ...deployed.mismatch,
      hash: receipt.transactionHash,
    })
  if (deployed.status !== 'verified')
    throw new SwapGuardNotDeployedError({
      chainId: chain.id,
      address: swapGuardAddress,
      deployerAvailable: true,
      hash: receipt.transactionHash,
    })
  // Whoever asks verifySwapGuard on this client next sees it deployed, not a cached 'missing'.
  await verifySwapGuard({ publicClient, fresh: true })
  return { address: swapGuardAddress, status: 'deployed', hash: receipt.transactionHash, receipt }
}
