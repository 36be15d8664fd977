import { type Address, decodeErrorResult, type Hex, parseAbi } from 'viem'
import { BaseError, walk } from '../../errors/base.js'
import { type ExecuteSwapStage, UserRejectedError, WalletError } from '../../errors/execute.js'
import { InvalidParameterError } from '../../errors/parameter.js'

/** True when the cause chain holds a wallet's "user rejected" (EIP-1193 code 4001, viem's UserRejectedRequestError…). */
export function isUserRejection(error: unknown): boolean {
  return (
    walk(error, (e) => {
      if (typeof e !== 'object' || e === null) return false
      const { code, name, message } = e as { code?: unknown; name?: unknown; message?: unknown }
      return (
        code === 4001 ||
        code === 'ACTION_REJECTED' ||
        name === 'UserRejectedRequestError' ||
        (typeof message === 'string' && /user (rejected|denied|cancel)/i.test(message))
      )
    }) !== null
  )
}

/**
 * Runs one wallet or node call of a stage; a rejection becomes
 * `UserRejectedError`, any other failure `WalletError`; our own errors pass.
 */
export async function walletStep<value>(stage: ExecuteSwapStage, fn: () => Promise<value>): Promise<value> {
  try {
    return await fn()
  } catch (error) {
    if (isUserRejection(error)) throw new UserRejectedError({ stage, cause: error })
    if (error instanceof BaseError) throw error
    throw new WalletError({ stage, cause: error })
  }
}

/** The custom errors a swap's revert may carry: the guard's and Permit2's (`Error` and `Panic` are viem's own). */
const knownErrors = /* @__PURE__ */ parseAbi([
  'error AmountInExceeded(uint256 spent, uint256 maxAmountIn)',
  'error AmountOutTooLow(uint256 received, uint256 minAmountOut)',
  'error InvalidSwap()',
  'error SignatureExpired(uint256 signatureDeadline)',
  'error InvalidNonce()',
  'error InvalidSigner()',
  'error InvalidSignature()',
  'error InvalidAmount(uint256 maxAmount)',
])

/** The revert data and its decoded reason (Error(string), Panic(uint256) or a custom error's name), if any. */
export function decodeRevert(error: unknown): { reason: string | undefined; data: Hex | undefined } {
  let data: Hex | undefined
  walk(error, (e) => {
    const candidate = (e as { data?: unknown })?.data
    const hex =
      typeof candidate === 'string'
        ? candidate
        : typeof (candidate as { data?: unknown })?.data === 'string'
          ? (candidate as { data: string }).data
          : undefined
    if (hex && /^0x[0-9a-f]{8,}$/i.test(hex)) {
      data = hex as Hex
      return true
    }
    return false
  })
  if (data) {
    try {
      // viem adds Error(string) and Panic(uint256) to the ABI it is given.
      const { errorName, args } = decodeErrorResult({ abi: knownErrors, data }) as {
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
  }
  // Some nodes only put the reason in the message: "execution reverted: <reason>".
  let reason: string | undefined
  walk(error, (e) => {
    const text = [(e as { details?: unknown })?.details, (e as { message?: unknown })?.message].find(
      (value): value is string => typeof value === 'string' && /execution reverted: /.test(value),
    )
    if (text) reason = text.split('execution reverted: ')[1]?.split('\n')[0]?.trim()
    return reason !== undefined
  })
  return { reason: reason || undefined, data }
}

/**
 * A token read that came back empty because no contract lives at the token's
 * address on this chain: the caller's token parameter is wrong (another
 * chain's address, a typo), not the wallet or the node. Other errors pass.
 */
export function toMissingTokenError(
  error: unknown,
  parameter: string,
  token: Address,
  chainId: number,
): unknown {
  const empty = walk(error, (e) => (e as { name?: unknown })?.name === 'ContractFunctionZeroDataError')
  return empty
    ? new InvalidParameterError({
        parameter,
        rule: `has no contract on chain ${chainId}: it is not a token there (another chain's address?)`,
        value: token,
      })
    : error
}
