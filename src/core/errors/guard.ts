import type { Address, Hex } from 'viem'
import { deterministicDeployerAddress } from '../execute/guard/swapGuard.js'
import { ExecuteSwapError } from './execute.js'

const sent = (hash: Hex | undefined, what: string) =>
  hash ? `The deployment ${hash} was mined, yet the address ${what}.` : 'Nothing was sent.'

/** `SwapGuardNotDeployedError`, its `name` a literal type: a union of errors narrows on `error.name`. */
export type SwapGuardNotDeployedErrorType = SwapGuardNotDeployedError & { name: 'SwapGuardNotDeployedError' }

/**
 * The swap guard has no code on the chain: with `deployerAvailable`, anyone can deploy it in one transaction
 * (`deploySwapGuard`); without it, the chain lacks the deterministic deployment proxy. Nothing was sent,
 * unless `hash` is set: `deploySwapGuard`'s transaction was mined, yet no code is there.
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

  constructor(p: {
    chainId: number
    address: Address
    deployerAvailable: boolean
    hash?: Hex | undefined
    cause?: unknown
  }) {
    super(
      `The swap guard is not deployed on chain ${p.chainId}${
        p.deployerAvailable
          ? ': anyone can deploy it (deploySwapGuard).'
          : ` and cannot be: no deterministic deployment proxy (${deterministicDeployerAddress}).`
      }`,
      { ...p, hash: p.hash },
      `Guard address: ${p.address}`,
      sent(p.hash, 'has no code'),
    )
  }
}

/** `SwapGuardIncompatibleError`, its `name` a literal type: a union of errors narrows on `error.name`. */
export type SwapGuardIncompatibleErrorType = SwapGuardIncompatibleError & {
  name: 'SwapGuardIncompatibleError'
}

/**
 * The service's calldata reverts through the swap guard, though it would pass as built (it names the user as
 * payer, say). Nothing was signed, and nothing was downgraded: `floorEnforcement: 'simulation'` opts out by
 * name.
 * @example if (error instanceof SwapGuardIncompatibleError) toast('This route cannot be protected on chain.')
 */
export class SwapGuardIncompatibleError extends ExecuteSwapError {
  override name = 'SwapGuardIncompatibleError' as const
  /** The guarded call's revert reason. */
  declare reason: string | undefined

  constructor(p: { reason: string | undefined; cause?: unknown }) {
    super(
      'The swap cannot run through the on-chain guard: nothing was signed.',
      p,
      `Through the guard it reverts${p.reason ? `: ${p.reason}` : ''}; as built, it would not.`,
    )
  }
}

/** `SwapGuardCodeMismatchError`, its `name` a literal type: a union of errors narrows on `error.name`. */
export type SwapGuardCodeMismatchErrorType = SwapGuardCodeMismatchError & {
  name: 'SwapGuardCodeMismatchError'
}

/**
 * The code at the swap guard's (or its executor's) address is not the guard's (`expectedCodeHash`;
 * `foundCodeHash` `undefined`: none): never approve or sign for it. Nothing was sent, unless `hash` is set:
 * `deploySwapGuard`'s transaction left other code there.
 * @example
 * if (error instanceof SwapGuardCodeMismatchError) report(`chain ${error.chainId}: ${error.address} is not the swap guard`)
 */
export class SwapGuardCodeMismatchError extends ExecuteSwapError {
  override name = 'SwapGuardCodeMismatchError' as const
  declare chainId: number
  /** `swapGuardAddress` or `swapGuardExecutorAddress`. */
  declare address: Address
  declare expectedCodeHash: Hex
  declare foundCodeHash: Hex | undefined
  /** The deployment transaction, when one was mined. */
  declare hash: Hex | undefined

  constructor(p: {
    chainId: number
    address: Address
    expectedCodeHash: Hex
    foundCodeHash: Hex | undefined
    hash?: Hex | undefined
    cause?: unknown
  }) {
    super(
      `${p.address} on chain ${p.chainId} is not the swap guard: approve and sign nothing for it.`,
      { ...p, hash: p.hash },
      `Expected code hash: ${p.expectedCodeHash}`,
      `Found: ${p.foundCodeHash ?? 'no code'}`,
      sent(p.hash, 'holds other code'),
    )
  }
}

/**
 * `DeterministicDeployerMismatchError`, its `name` a literal type: a union of errors narrows on
 * `error.name`.
 */
export type DeterministicDeployerMismatchErrorType = DeterministicDeployerMismatchError & {
  name: 'DeterministicDeployerMismatchError'
}

/**
 * `deploySwapGuard` refused to send: the deterministic deployment proxy's address holds other code
 * (`foundCodeHash`), or its CREATE2 would put the guard elsewhere (`predictedAddress`). Nothing was sent.
 * @example
 * if (error instanceof DeterministicDeployerMismatchError) console.warn(`chain ${error.chainId} has no standard CREATE2 deployer`)
 */
export class DeterministicDeployerMismatchError extends ExecuteSwapError {
  override name = 'DeterministicDeployerMismatchError' as const
  declare chainId: number
  declare foundCodeHash: Hex
  declare predictedAddress: Address | undefined

  constructor(p: {
    chainId: number
    foundCodeHash: Hex
    predictedAddress?: Address | undefined
    cause?: unknown
  }) {
    const { chainId, predictedAddress } = p
    super(
      `The swap guard cannot be deployed on chain ${chainId}: ${
        predictedAddress
          ? `its CREATE2 would put it at ${predictedAddress}`
          : "the deployer's address holds other code"
      }.`,
      { ...p, predictedAddress },
      `Deployer code hash: ${p.foundCodeHash}`,
      sent(undefined, ''),
    )
  }
}

/** `PermitRefusedError`, its `name` a literal type: a union of errors narrows on `error.name`. */
export type PermitRefusedErrorType = PermitRefusedError & { name: 'PermitRefusedError' }

/**
 * Permit2 would refuse the swap's signature, simulated before sending: `'expired'` (its 10-minute deadline
 * passed) or `'nonce-used'`. Nothing was sent; a new swap asks for a new signature.
 * @example if (error instanceof PermitRefusedError) retry() // a fresh quote and a fresh signature
 */
export class PermitRefusedError extends ExecuteSwapError {
  override name = 'PermitRefusedError' as const
  declare reason: 'expired' | 'nonce-used'

  constructor(p: { reason: 'expired' | 'nonce-used'; cause?: unknown }) {
    super(
      `The swap's signature ${p.reason === 'expired' ? 'expired before it was sent' : 'uses a Permit2 nonce already spent'}: nothing was sent.`,
      p,
      'Sign again for a new swap.',
    )
  }
}
