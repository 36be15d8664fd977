import type { Address, Client, Hex, Log, Transport } from 'viem'
import {
  decodeErrorResult,
  encodeFunctionData,
  erc20Abi,
  getAddress,
  hexToBigInt,
  isAddressEqual,
  toEventSelector,
} from 'viem'
import { call, simulateBlocks } from 'viem/actions'
import { isNativeToken, nativeTokenAddress } from '../../constants.js'
import type { SwapOutcome, SwapOutcomeViolation } from '../../errors/execute.js'
import {
  SimulationUnavailableError,
  SwapSimulationError,
  UnsafeSwapOutcomeError,
} from '../../errors/execute.js'
import { swapGuardAbi, swapGuardAddress, swapGuardExecutorAddress } from '../guard/swapGuard.js'
import type { SwapCall } from '../types.js'
import {
  balanceReaderAddress,
  balanceReaderCode,
  balanceReaderData,
  runCallsRequest,
} from './stateOverrides.js'
import { decodeRevert, findCause, isUserRejection } from './walletErrors.js'

export type { SwapCall } from '../types.js'

/**
 * The second argument of `checkSwapOutcome`: the calls to simulate, who sends and receives, and the bounds.
 */
export type CheckSwapOutcomeParameters = {
  /** The user: the sender of every call. */
  account: Address
  /** The exact calls the wallet would sign: the approvals of token0 (`approvals` of them) first, the swap last. */
  calls: readonly SwapCall[]
  approvals: number
  token0: Address
  token1: Address
  /** Who must receive token1. */
  recipient: Address
  /** The most token0 that may leave the user, and the least token1 the recipient must get. */
  maxAmountIn: bigint
  minAmountOut: bigint
  /** The only spender the user may approve. */
  spender?: Address | undefined
  /** Without `eth_simulateV1`, one `eth_call` through the guard (token0 and token1 only). Default `false`: refused. */
  dangerouslyAllowBalancesOnlySimulation?: boolean | undefined
}

/** What the simulated calls move: token0 out of the user, token1 into the recipient, the method, the gas. */
export type CheckSwapOutcomeReturnType = SwapOutcome

// The events that move the user's assets or approve them away (Permit2's Approval and Permit last).
const [transfer, transferSingle, transferBatch, approval, approvalForAll, permit2Approval, permit2Permit] = [
  'Transfer(address,address,uint256)',
  'TransferSingle(address,address,address,uint256,uint256)',
  'TransferBatch(address,address,address,uint256[],uint256[])',
  'Approval(address,address,uint256)',
  'ApprovalForAll(address,address,bool)',
  'Approval(address,address,address,uint160,uint48)',
  'Permit(address,address,address,uint160,uint48,uint48)',
].map(toEventSelector)

/** Per client, whether its node serves `eth_simulateV1` (a node seen serving it stays so). */
const simulateV1Support = new WeakMap<object, boolean>()

/**
 * Whether the node serves `eth_simulateV1`: its own answer to that method with no calls (no revert can read
 * as "unsupported").
 */
async function servesSimulateV1(client: Client<Transport>): Promise<boolean> {
  const known = simulateV1Support.get(client)
  if (known !== undefined) return known
  const serves = await simulateBlocks(client, { blocks: [{ calls: [] }] }).then(
    () => true,
    (error: unknown) => {
      if (simulateV1Support.get(client) || !isMethodUnsupported(error)) throw error
      return false
    },
  )
  simulateV1Support.set(client, serves)
  return serves
}

/**
 * Simulates the exact calls the user would sign (`eth_simulateV1`: balances and every log):
 * `UnsafeSwapOutcomeError` unless token0 out ≤ `maxAmountIn`, token1 in ≥ `minAmountOut`, nothing else leaves
 * and no other approval is granted; `SwapSimulationError` when a call reverts.
 * @example const { amountOut } = await checkSwapOutcome(publicClient, { account, calls, approvals: 1, ...bounds })
 */
export async function checkSwapOutcome(
  client: Client<Transport>,
  parameters: CheckSwapOutcomeParameters,
): Promise<CheckSwapOutcomeReturnType> {
  if (await servesSimulateV1(client)) return simulate(client, parameters)
  // Without it, one eth_call through the guard, opted in by name: the guard measures token0 and token1.
  const last = parameters.calls.at(-1)
  const guarded = last && isAddressEqual(last.to, swapGuardAddress)
  if (!parameters.dangerouslyAllowBalancesOnlySimulation || !guarded) throw new SimulationUnavailableError()
  return throughGuard(client, parameters, last)
}

/** The outcome, unless it breaks the user's bounds (`UnsafeSwapOutcomeError`). */
function held(
  parameters: CheckSwapOutcomeParameters,
  outcome: SwapOutcome,
  nativeOut = 0n,
  logs?: LogLike[],
) {
  const violations = findViolations(parameters, outcome, nativeOut, logs)
  if (violations.length) throw new UnsafeSwapOutcomeError({ violations, outcome, stage: 'simulation' })
  return outcome
}

type LogLike = Pick<Log, 'address' | 'topics' | 'data'>
const topicAddress = (topic: Hex | undefined): Address => getAddress(`0x${(topic ?? '0x').slice(-40)}`)
/** The first 32-byte word of `data` (0 when empty). */
const wordAt = (data: Hex): bigint => BigInt(`0x${data.slice(2, 66) || 0}`)

/**
 * What breaks the bounds, from the measured amounts and, with logs, every transfer and approval.
 * @example findViolations(bounds, { amountIn, amountOut }, 0n, []) // [{ type: 'underpaid', … }]
 */
export function findViolations(
  parameters: Omit<CheckSwapOutcomeParameters, 'calls' | 'approvals'>,
  { amountIn, amountOut }: Pick<SwapOutcome, 'amountIn' | 'amountOut'>,
  nativeOut: bigint,
  logs: readonly LogLike[] | undefined,
): SwapOutcomeViolation[] {
  const { account, token0, token1, maxAmountIn, minAmountOut, spender } = parameters
  const violations: SwapOutcomeViolation[] = []
  const add = (violation: SwapOutcomeViolation) => violations.push(violation)
  if (amountIn > maxAmountIn) add({ type: 'overspent', token: token0, amount: amountIn, limit: maxAmountIn })
  if (amountOut < minAmountOut)
    add({ type: 'underpaid', token: token1, amount: amountOut, limit: minAmountOut })
  if (!isNativeToken(token0) && nativeOut > 0n)
    add({ type: 'outflow', token: nativeTokenAddress, amount: nativeOut })
  const is = (topic: Hex | undefined, address: Address) =>
    !!topic && isAddressEqual(topicAddress(topic), address)
  // What the guard's executor is left holding of tokens it hands back nothing of (not token0 or token1).
  const stranded = new Map<Address, bigint>()
  for (const { address: emitter, topics, data } of logs ?? []) {
    const token = getAddress(emitter)
    const [topic0, from, to, third] = topics as (Hex | undefined)[]
    if (isNativeToken(token)) continue // eth_simulateV1's traced native transfers: measured by balance.
    const swapped = isAddressEqual(token, token0) || isAddressEqual(token, token1)
    const executor = (topic: Hex | undefined) => is(topic, swapGuardExecutorAddress)
    if (topic0 === transfer && topics.length === 3 && !swapped && (executor(from) || executor(to)))
      stranded.set(token, (stranded.get(token) ?? 0n) + (executor(to) ? 1n : -1n) * wordAt(data))
    if (topic0 === transfer && is(from, account)) {
      if (!isAddressEqual(token, token0)) add({ type: 'outflow', token, amount: wordAt(third ?? data) })
    } else if ((topic0 === transferSingle || topic0 === transferBatch) && is(to, account))
      add({ type: 'outflow', token, amount: wordAt(data) })
    else if ((topic0 === approval || topic0 === approvalForAll) && is(from, account)) {
      const approved = topicAddress(to)
      const allowed =
        topic0 === approval && !!spender && isAddressEqual(token, token0) && isAddressEqual(approved, spender)
      const revoked = topic0 === approvalForAll && wordAt(data) === 0n
      if (!allowed && !revoked) add({ type: 'approval', token, spender: approved })
    } else if ((topic0 === permit2Approval || topic0 === permit2Permit) && is(from, account))
      add({ type: 'approval', token: topicAddress(to), spender: topicAddress(third) })
  }
  for (const [token, amount] of stranded) if (amount > 0n) add({ type: 'stranded', token, amount })
  return violations
}

/** The calls through `eth_simulateV1`, between reads of the balances they must move. */
async function simulate(client: Client<Transport>, parameters: CheckSwapOutcomeParameters) {
  const { account, calls, approvals } = parameters
  // Before and after the calls: token0 of the user, token1 of the recipient, the user's native coin.
  const pairs = [
    [parameters.token0, account],
    [parameters.token1, parameters.recipient],
    [nativeTokenAddress, account],
  ] as const
  const reads = pairs.map(([token, holder]) => ({
    from: account,
    ...(isNativeToken(token)
      ? { to: balanceReaderAddress, data: balanceReaderData(holder) }
      : {
          to: token,
          data: encodeFunctionData({ abi: erc20Abi, functionName: 'balanceOf', args: [holder] }),
        }),
  }))
  const [block] = await simulateBlocks(client, {
    blocks: [
      {
        calls: [...reads, ...asSimulatedCalls(account, calls), ...reads],
        stateOverrides: [{ address: balanceReaderAddress, code: balanceReaderCode }],
      },
    ],
    traceTransfers: true,
    validation: false,
  })
  const results = block?.calls ?? []
  const n = reads.length
  const own = results.slice(n, n + calls.length)
  for (const [index, result] of results.entries()) {
    if (result.status === 'success') continue
    const inCalls = index >= n && index < n + calls.length
    if (inCalls) throwGuardViolation(parameters, result.data, 'eth_simulateV1')
    throw new SwapSimulationError({
      ...(inCalls
        ? decodeRevert({ data: result.data })
        : { reason: 'a balance could not be read', data: result.data }),
      stage: inCalls && index - n < approvals ? 'approval' : 'swap',
      cause: result.error,
    })
  }
  // What left the user (token0, the native coin), and what reached the recipient (token1).
  const [amountIn, gained, nativeOut] = reads.map((_, i) => {
    const word = (index: number) => hexToBigInt(results[index]?.data ?? '0x0')
    return word(i) - word(n + calls.length + i)
  }) as [bigint, bigint, bigint]
  const outcome = {
    amountIn,
    amountOut: -gained,
    method: 'eth_simulateV1',
    gasUsed: own.map((r) => r.gasUsed),
  } as const
  return held(
    parameters,
    outcome,
    nativeOut,
    own.flatMap((result) => result.logs ?? []),
  )
}

/**
 * The calls run as the user in one `eth_call` (the call runner at the user's address), the guard answering
 * what the recipient gained.
 */
async function throughGuard(
  client: Client<Transport>,
  parameters: CheckSwapOutcomeParameters,
  swap: SwapCall,
) {
  const { data } = await call(client, runCallsRequest(parameters.account, parameters.calls)).catch(
    (error) => {
      if (isUserRejection(error)) throw error
      const revert = decodeRevert(error)
      throwGuardViolation(parameters, revert.data, 'eth_call')
      throw new SwapSimulationError({ ...revert, stage: 'swap', cause: error })
    },
  )
  // The guard pulls exactly amountIn of an ERC-20 (and reverts if more left); a native input leaves as the value.
  const amountIn = isNativeToken(parameters.token0) ? (swap.value ?? 0n) : parameters.maxAmountIn
  return held(parameters, { amountIn, amountOut: hexToBigInt(data ?? '0x0'), method: 'eth_call' })
}

/**
 * The calls as `eth_simulateV1` runs them, each from `account`.
 * @example await simulateBlocks(client, { blocks: [{ calls: asSimulatedCalls(account, calls) }] })
 */
export function asSimulatedCalls(account: Address, calls: readonly SwapCall[]) {
  return calls.map(({ to, data, value = 0n }) => ({ from: account, to, data, value }))
}

/** A node's answer that it does not serve the method (only asked of a request with no calls: no revert reads as it). */
const isMethodUnsupported = (error: unknown): boolean =>
  !!findCause(error, ({ code, message, details }) => {
    // viem's MethodNotFoundRpcError and MethodNotSupportedRpcError carry these codes.
    const text = [message, details].map((part) => (typeof part === 'string' ? part : '')).join(' ')
    return (
      code === -32601 ||
      code === -32004 ||
      /method.*(not found|not supported|does not exist|unsupported|not available)/i.test(text)
    )
  })

/** The guard's own revert (`AmountOutTooLow`, `AmountInExceeded`) in a simulated call, as the violation it is. */
function throwGuardViolation(
  parameters: CheckSwapOutcomeParameters,
  data: Hex | undefined,
  method: SwapOutcome['method'],
) {
  let decoded: { errorName: string; args?: readonly unknown[] | undefined }
  try {
    decoded = decodeErrorResult({ abi: swapGuardAbi, data: data as Hex })
  } catch {
    return
  }
  const underpaid = decoded.errorName === 'AmountOutTooLow'
  // InvalidSwap has no arguments: a revert as any other (a SwapSimulationError).
  if (!underpaid && decoded.errorName !== 'AmountInExceeded') return
  // What the guard received, or spent; held to the bounds (an overspend as if the floor was received).
  const amount = decoded.args?.[0] as bigint
  const [amountIn, amountOut] = underpaid
    ? [parameters.maxAmountIn, amount]
    : [amount, parameters.minAmountOut]
  const violations = findViolations(parameters, { amountIn, amountOut }, 0n, undefined)
  const outcome = { amountIn, amountOut: underpaid ? amount : 0n, method }
  throw new UnsafeSwapOutcomeError({ violations, outcome, stage: 'simulation' })
}
