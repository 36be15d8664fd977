import type { Address, Hex } from 'viem'
import { ExecuteSwapError } from './execute.js'

export type SwapGuardNotDeployedErrorType = SwapGuardNotDeployedError & { name: 'SwapGuardNotDeployedError' }

/**
 * The swap guard has no code at its address on the chain. With
 * `deployerAvailable`, anyone can deploy it there in one transaction with
 * `deploySwapGuard({ walletClient, publicClient })` (the same contract, at the
 * same address, for everyone); without it, the chain lacks the deterministic
 * deployment proxy (`0x4e59b44847b379578588920cA78FbF26c0B4956C`), so the
 * guard cannot be deployed at its address there. Nothing was sent, unless
 * `hash` is set: `deploySwapGuard`'s transaction was mined, yet no code is at
 * the address.
 *
 * @example
 * if (error instanceof SwapGuardNotDeployedError && error.deployerAvailable)
 *   await deploySwapGuard({ walletClient, publicClient, chainId: error.chainId })
 */
export class SwapGuardNotDeployedError extends ExecuteSwapError {
  override name = 'SwapGuardNotDeployedError' as const
  declare chainId: number
  /** Where the guard would be (`swapGuardAddress`). */
  declare address: Address
  /** Whether the chain has the deterministic deployment proxy, so `deploySwapGuard` can deploy the guard. */
  declare deployerAvailable: boolean
  /** The deployment transaction, when one was mined and the code is still missing. */
  declare hash: Hex | undefined

  constructor({
    chainId,
    address,
    deployerAvailable,
    hash,
    cause,
  }: {
    chainId: number
    address: Address
    deployerAvailable: boolean
    hash?: Hex | undefined
    cause?: unknown
  }) {
    super(
      deployerAvailable
        ? `The swap guard is not deployed on chain ${chainId}: anyone can deploy it, in one transaction (deploySwapGuard).`
        : `The swap guard is not deployed on chain ${chainId}, and cannot be: the chain lacks the deterministic deployment proxy (0x4e59b44847b379578588920cA78FbF26c0B4956C).`,
      {
        metaMessages: [
          `Guard address: ${address}`,
          hash ? `The deployment ${hash} was mined, yet the address has no code.` : 'Nothing was sent.',
        ],
        cause,
      },
    )
    this.chainId = chainId
    this.address = address
    this.deployerAvailable = deployerAvailable
    this.hash = hash
  }
}

export type SwapGuardIncompatibleErrorType = SwapGuardIncompatibleError & {
  name: 'SwapGuardIncompatibleError'
}

/**
 * The service's calldata cannot run through the swap guard, though it would
 * pass sent as it is: it names the user as the payer (a router pulling from
 * a `from` it is given, not from its caller), or pays only its caller, say.
 * Nothing was signed, and the swap was not downgraded to a simulation-only
 * check. `reason` is the guarded call's revert reason. An app that knows the
 * router may opt out by name, with `floorEnforcement: 'simulation'`: the
 * user's bounds then hold in the simulation only.
 *
 * @example
 * if (error instanceof SwapGuardIncompatibleError) toast('This route cannot be protected on chain.')
 */
export class SwapGuardIncompatibleError extends ExecuteSwapError {
  override name = 'SwapGuardIncompatibleError' as const
  declare reason: string | undefined

  constructor({ reason, cause }: { reason: string | undefined; cause?: unknown }) {
    super('The swap cannot run through the on-chain guard: nothing was signed.', {
      metaMessages: [`Through the guard it reverts${reason ? `: ${reason}` : ''}; as built, it would not.`],
      cause,
    })
    this.reason = reason
  }
}

export type SwapGuardCodeMismatchErrorType = SwapGuardCodeMismatchError & {
  name: 'SwapGuardCodeMismatchError'
}

/**
 * The code at the swap guard's address (or at its executor's) on the chain is
 * not the swap guard's: a look-alike, or a chain whose deterministic
 * deployment proxy or CREATE2 differ, placed other code there. Nothing may be
 * approved to it or signed for it. `expectedCodeHash` is the keccak256 of the
 * genuine runtime code (`swapGuardCodeHash` or `swapGuardExecutorCodeHash`),
 * `foundCodeHash` that of the code found (`undefined`: none). Nothing was
 * sent, unless `hash` is set: `deploySwapGuard`'s transaction was mined and
 * left other code at the address.
 *
 * @example
 * if (error instanceof SwapGuardCodeMismatchError) report(`chain ${error.chainId}: ${error.address} is not the swap guard`)
 */
export class SwapGuardCodeMismatchError extends ExecuteSwapError {
  override name = 'SwapGuardCodeMismatchError' as const
  declare chainId: number
  /** The address whose code differs: `swapGuardAddress` or `swapGuardExecutorAddress`. */
  declare address: Address
  /** keccak256 of the code that belongs there. */
  declare expectedCodeHash: Hex
  /** keccak256 of the code found there; `undefined` when there is none. */
  declare foundCodeHash: Hex | undefined
  /** The deployment transaction, when one was mined. */
  declare hash: Hex | undefined

  constructor({
    chainId,
    address,
    expectedCodeHash,
    foundCodeHash,
    hash,
    cause,
  }: {
    chainId: number
    address: Address
    expectedCodeHash: Hex
    foundCodeHash: Hex | undefined
    hash?: Hex | undefined
    cause?: unknown
  }) {
    super(
      `The code at ${address} on chain ${chainId} is not the swap guard's: nothing may be approved to it or signed for it.`,
      {
        metaMessages: [
          `Expected code hash: ${expectedCodeHash}`,
          `Found: ${foundCodeHash ?? 'no code'}`,
          hash ? `The deployment ${hash} was mined, yet the address holds other code.` : 'Nothing was sent.',
        ],
        cause,
      },
    )
    this.chainId = chainId
    this.address = address
    this.expectedCodeHash = expectedCodeHash
    this.foundCodeHash = foundCodeHash
    this.hash = hash
  }
}

export type DeterministicDeployerMismatchErrorType = DeterministicDeployerMismatchError & {
  name: 'DeterministicDeployerMismatchError'
}

/**
 * `deploySwapGuard` refused to send: the address of the standard
 * deterministic deployment proxy (`0x4e59b44847b379578588920cA78FbF26c0B4956C`)
 * holds other code on this chain (`foundCodeHash`), or its CREATE2 would not
 * put the guard at `swapGuardAddress` (`predictedAddress`: where a simulation
 * of the deployment says it lands). Either way the guard cannot be deployed at
 * its address there. Nothing was sent.
 *
 * @example
 * if (error instanceof DeterministicDeployerMismatchError) console.warn(`chain ${error.chainId} has no standard CREATE2 deployer`)
 */
export class DeterministicDeployerMismatchError extends ExecuteSwapError {
  override name = 'DeterministicDeployerMismatchError' as const
  declare chainId: number
  /** keccak256 of the code at the deployer's address. */
  declare foundCodeHash: Hex
  /** Where the deployment would land, when the code is the standard proxy's but its CREATE2 is not the standard one. */
  declare predictedAddress: Address | undefined

  constructor({
    chainId,
    foundCodeHash,
    predictedAddress,
    cause,
  }: {
    chainId: number
    foundCodeHash: Hex
    predictedAddress?: Address | undefined
    cause?: unknown
  }) {
    super(
      predictedAddress
        ? `The swap guard cannot be deployed at its address on chain ${chainId}: the chain's CREATE2 would put it at ${predictedAddress}.`
        : `The swap guard cannot be deployed on chain ${chainId}: the deterministic deployment proxy's address holds other code.`,
      { metaMessages: [`Deployer code hash: ${foundCodeHash}`, 'Nothing was sent.'], cause },
    )
    this.chainId = chainId
    this.foundCodeHash = foundCodeHash
    this.predictedAddress = predictedAddress
  }
}

export type PermitRefusedErrorType = PermitRefusedError & { name: 'PermitRefusedError' }

/**
 * Permit2 would refuse the swap's signature, as simulated right before it is
 * sent: `'expired'`, its deadline passed while the wallet asked for it (10
 * minutes after the latest block when it was made); `'nonce-used'`, its
 * nonce was spent or cancelled meanwhile (another tab's swap, say). Nothing
 * was sent: the signature is dropped, and a new swap asks for a new one.
 *
 * @example
 * if (error instanceof PermitRefusedError) retry() // a fresh quote and a fresh signature
 */
export class PermitRefusedError extends ExecuteSwapError {
  override name = 'PermitRefusedError' as const
  declare reason: 'expired' | 'nonce-used'

  constructor({ reason, cause }: { reason: 'expired' | 'nonce-used'; cause?: unknown }) {
    super(
      reason === 'expired'
        ? "The swap's signature expired before it was sent: nothing was sent."
        : "The swap's signature uses a Permit2 nonce already spent: nothing was sent.",
      { metaMessages: ['Sign again for a new swap.'], cause },
    )
    this.reason = reason
  }
}
