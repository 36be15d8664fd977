import { BaseError, ContractFunctionRevertedError, decodeErrorResult, type Hex, isHex } from 'viem'

/** The revert data carried somewhere in a viem error's cause chain (as viem's getContractError finds it). */
export function getRevertData(error: unknown): Hex | undefined {
  if (!(error instanceof BaseError)) return undefined
  const withData = error.walk((cause) => typeof cause === 'object' && cause !== null && 'data' in cause)
  if (!withData || !('data' in withData)) return undefined
  const data: unknown = withData.data
  const hex = typeof data === 'object' && data !== null && 'data' in data ? data.data : data
  return typeof hex === 'string' && isHex(hex) ? hex : undefined
}

/**
 * The `Error(string)` reason of a revert, from a viem error: a `ContractFunctionRevertedError`
 * (`simulateContract`, `readContract`, `writeContract`) or raw revert data (`call`,
 * `estimateGas`, `sendTransaction` with calldata and no ABI).
 */
export function getRevertReason(error: unknown): string | undefined {
  if (!(error instanceof BaseError)) return undefined
  const reverted = error.walk((cause) => cause instanceof ContractFunctionRevertedError)
  if (reverted instanceof ContractFunctionRevertedError && reverted.reason) return reverted.reason
  const data = getRevertData(error)
  if (!data || data === '0x') return undefined
  try {
    const decoded = decodeErrorResult({ abi: [], data })
    const [reason] = decoded.args ?? []
    return decoded.errorName === 'Error' && typeof reason === 'string' ? reason : undefined
  } catch {
    return undefined
  }
}

/** Awaits `promise`, expecting it to reject; returns the revert reason (throws if it resolved). */
export async function revertReasonOf(promise: Promise<unknown>): Promise<string | undefined> {
  try {
    await promise
  } catch (error) {
    return getRevertReason(error)
  }
  throw new Error('Expected a revert, but the call succeeded')
}
