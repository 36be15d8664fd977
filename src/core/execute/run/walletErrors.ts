import { type Address, decodeErrorResult, type Hex, parseAbi } from 'viem'
import { BaseError, walk } from '../../errors/base.js'
import { type ExecuteSwapStage, UserRejectedError, WalletError } from '../../errors/execute.js'
import { InvalidParameterError } from '../../errors/parameter.js'
import { swapGuardAbi } from '../guard/swapGuard.js'

type Fields = Record<string, unknown>

/**
 * The first error of `error`'s cause chain (any error's, viem's by its fields) that `test` holds for.
 * @example const rejected = findCause(error, ({ code }) => code === 4001)
 */
export function findCause(error: unknown, test: (cause: Fields) => unknown): Fields | undefined {
  return (walk(error, (e) => typeof e === 'object' && !!e && !!test(e as Fields)) ?? undefined) as
    | Fields
    | undefined
}

/**
 * True when the cause chain holds a wallet's "user rejected" (EIP-1193 4001, viem's
 * UserRejectedRequestError…).
 * @example if (isUserRejection(error)) throw new UserRejectedError({ stage, cause: error })
 */
export function isUserRejection(error: unknown): boolean {
  return !!findCause(
    error,
    ({ code, name, message }) =>
      code === 4001 ||
      code === 'ACTION_REJECTED' ||
      name === 'UserRejectedRequestError' ||
      (typeof message === 'string' && /user (rejected|denied|cancel)/i.test(message)),
  )
}

/**
 * Runs one wallet or node call of a stage: a rejection becomes `UserRejectedError`, any other failure
 * `WalletError`; ours pass.
 * @example const chainId = await walletStep('chain', () => walletClient.getChainId())
 */
export async function walletStep<value>(stage: ExecuteSwapStage, fn: () => Promise<value>): Promise<value> {
  try {
    return await fn()
  } catch (error) {
    if (isUserRejection(error)) throw new UserRejectedError({ stage, cause: error })
    throw error instanceof BaseError ? error : new WalletError({ stage, cause: error })
  }
}

/** The custom errors a swap's revert may carry: the guard's and Permit2's (viem adds `Error` and `Panic`). */
const revertAbi = () => [
  ...swapGuardAbi,
  ...parseAbi([
    'error SignatureExpired(uint256 signatureDeadline)',
    'error InvalidNonce()',
    'error InvalidSigner()',
    'error InvalidSignature()',
    'error InvalidAmount(uint256 maxAmount)',
  ]),
]

/**
 * The revert data in the cause chain and its decoded reason (`Error(string)`, `panic <code>` or a custom
 * error's name).
 * @example const { reason, data } = decodeRevert(error) // 'InvalidSwap'
 */
export function decodeRevert(error: unknown): { reason: string | undefined; data: Hex | undefined } {
  let data: Hex | undefined
  findCause(error, ({ data: found }) => {
    const hex = typeof found === 'string' ? found : (found as Fields | undefined)?.data
    if (typeof hex !== 'string' || !/^0x[0-9a-f]{8,}$/i.test(hex)) return false
    data = hex as Hex
    return true
  })
  if (data)
    try {
      const { errorName, args } = decodeErrorResult({ abi: revertAbi(), data }) as {
        errorName: string
        args?: readonly unknown[]
      }
      const arg = String(args?.[0])
      return {
        reason: errorName === 'Error' ? arg : errorName === 'Panic' ? `panic ${arg}` : errorName,
        data,
      }
    } catch {
      return { reason: undefined, data }
    }
  // Some nodes only put the reason in the message: "execution reverted: <reason>".
  const marker = 'execution reverted: '
  const has = (text: unknown): text is string => typeof text === 'string' && text.includes(marker)
  const cause = findCause(error, ({ details, message }) => has(details) || has(message))
  const text = [cause?.details, cause?.message].find(has)
  return { reason: text?.split(marker)[1]?.split('\n')[0]?.trim() || undefined, data }
}

/**
 * A token read that came back empty (no contract at the token's address on this chain) as the parameter's
 * error; others pass.
 * @example throw toMissingTokenError(error, 'token0', token0, chainId)
 */
export function toMissingTokenError(
  error: unknown,
  parameter: string,
  token: Address,
  chainId: number,
): unknown {
  return findCause(error, ({ name }) => name === 'ContractFunctionZeroDataError')
    ? new InvalidParameterError({
        parameter,
        rule: `has no contract on chain ${chainId}: it is not a token there (another chain's address?)`,
        value: token,
        chainId,
      })
    : error
}
