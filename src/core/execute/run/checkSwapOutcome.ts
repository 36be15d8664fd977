import {
  type Address,
  type Client,
  decodeErrorResult,
  encodeFunctionData,
  erc20Abi,
  getAddress,
  type Hex,
  hexToBigInt,
  isAddressEqual,
  type Log,
  type Transport,
  toEventSelector,
} from 'viem'
import { call, simulateBlocks } from 'viem/actions'
import { isNativeToken, nativeTokenAddress } from '../../constants.js'
import { walk } from '../../errors/base.js'
import {
  SimulationUnavailableError,
  type SwapOutcome,
  type SwapOutcomeViolation,
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
import { decodeRevert, isUserRejection } from './walletErrors.js'

export type { SwapCall } from '../types.js'

export type CheckSwapOutcomeParameters = {
  /** The user: the sender of every call. */
  account: Address
  /** The exact calls the wallet would be asked to sign, in order: approvals first, the swap last. */
  calls: readonly SwapCall[]
  /** How many of `calls` are ERC-20 approvals of token0 (they come first). */
  approvals: number
  token0: Address
  token1: Address
  /** Who must receive token1. */
  recipient: Address
  /** The most token0 that may leave the user (the swap's `amountIn`). */
  maxAmountIn: bigint
  /** The least token1 that must reach the recipient: the user's floor. */
  minAmountOut: bigint
  /** The spender the approvals are for: the only approval the user may grant. */
  spender?: Address | undefined
  /**
   * On a node without `eth_simulateV1`, when the swap goes through the guard
   * (its last call is `SwapGuard.swap`), check the calls with one `eth_call`
   * in which the guard itself measures token0 spent and token1 received: no
   * logs, so another asset leaving the user, or an approval granted, goes
   * unseen. Default `false`: such a node is refused with
   * `SimulationUnavailableError`, and so is any node without `eth_simulateV1`
   * for calls that do not go through the guard (nothing would measure them).
   */
  dangerouslyAllowBalancesOnlySimulation?: boolean | undefined
}

export type CheckSwapOutcomeReturnType = SwapOutcome

// The events that move the user's assets or approve them away (Permit2's Approval and Permit last).
const [
  transferTopic,
  transferSingleTopic,
  transferBatchTopic,
  approvalTopic,
  approvalForAllTopic,
  permit2ApprovalTopic,
  permit2PermitTopic,
] = [
  'Transfer(address,address,uint256)',
  'TransferSingle(address,address,address,uint256,uint256)',
  'TransferBatch(address,address,address,uint256[],uint256[])',
  'Approval(address,address,uint256)',
  'ApprovalForAll(address,address,bool)',
  'Approval(address,address,address,uint160,uint48)',
  'Permit(address,address,address,uint160,uint48,uint48)',
].map((signature) => toEventSelector(signature))

/**
 * Per client, whether its node serves `eth_simulateV1`, as the node answered a
 * request of that method with no calls in it: nothing a simulated call
 * returns or reverts with can change it, and a client seen serving it stays so.
 */
const simulateV1Support = new WeakMap<object, boolean>()

/**
 * Whether the client's node serves `eth_simulateV1`: decided once per client
 * by the node's own answer to a request of that method with no calls (an
 * error for the method itself, "method not found" or "not supported", says
 * no; success says yes, for good). Any other failure (a node down, a rate
 * limit) rejects and decides nothing.
 *
 * @example
 * const full = await servesSimulateV1(publicClient) // false: only the eth_call fallback is possible
 */
export async function servesSimulateV1(client: Client<Transport>): Promise<boolean> {
  const known = simulateV1Support.get(client)
  if (known !== undefined) return known
  try {
    await simulateBlocks(client, { blocks: [{ calls: [] }] })
  } catch (error) {
    if (simulateV1Support.get(client) === true || !isMethodUnsupported(error)) throw error
    simulateV1Support.set(client, false)
    return false
  }
  simulateV1Support.set(client, true)
  return true
}

/**
 * Simulates the exact calls the user would sign against the current chain
 * state and measures what they do to the user's funds: token0 leaving the
 * user, token1 reaching the recipient, any other asset leaving the user, any
 * approval granted. Throws `UnsafeSwapOutcomeError` unless token0 leaves by at
 * most `maxAmountIn`, token1 arrives by at least `minAmountOut`, nothing else
 * leaves and no other approval is granted; `SwapSimulationError` when a call
 * reverts. Uses `eth_simulateV1` (balances and every log). A node without it
 * is refused (`SimulationUnavailableError`), unless the calls end with the
 * guard's swap and the caller opted in by name
 * (`dangerouslyAllowBalancesOnlySimulation`) to one state-overridden `eth_call`
 * that runs the calls as the user, the guard measuring token0 and token1
 * (no logs: other assets and approvals are not seen). Whether
 * the node serves `eth_simulateV1` is the node's own answer to a request of
 * that method (`servesSimulateV1`), never what a simulated call returned.
 *
 * @example
 * const outcome = await checkSwapOutcome(publicClient, {
 *   account, calls: [approveCall, swapCall], approvals: 1,
 *   token0, token1, recipient: account, maxAmountIn: amountIn, minAmountOut, spender,
 * })
 * outcome.amountOut // what the recipient would receive
 */
export async function checkSwapOutcome(
  client: Client<Transport>,
  parameters: CheckSwapOutcomeParameters,
): Promise<CheckSwapOutcomeReturnType> {
  if (!(await servesSimulateV1(client))) {
    const last = parameters.calls.at(-1)
    if (
      !parameters.dangerouslyAllowBalancesOnlySimulation ||
      !last ||
      !isAddressEqual(last.to, swapGuardAddress)
    )
      throw new SimulationUnavailableError()
    return throughGuard(client, parameters, last)
  }
  const {
    moved: [amountIn, amountOut, nativeOut],
    logs,
    gasUsed,
  } = await simulate(client, parameters)
  return held(parameters, { amountIn, amountOut, method: 'eth_simulateV1', gasUsed }, nativeOut, logs)
}

/** The outcome, unless it breaks the user's bounds (`UnsafeSwapOutcomeError`). */
function held(
  parameters: CheckSwapOutcomeParameters,
  outcome: SwapOutcome,
  nativeOut: bigint,
  logs: Parameters<typeof findViolations>[3],
): SwapOutcome {
  const violations = findViolations(parameters, outcome, nativeOut, logs)
  if (violations.length) throw new UnsafeSwapOutcomeError({ violations, outcome, stage: 'simulation' })
  return outcome
}

/** What breaks the user's bounds, from the measured amounts and, when there are logs, every transfer and approval. */
export function findViolations(
  parameters: Omit<CheckSwapOutcomeParameters, 'calls' | 'approvals'>,
  outcome: Pick<SwapOutcome, 'amountIn' | 'amountOut'>,
  nativeOut: bigint,
  logs: readonly Pick<Log, 'address' | 'topics' | 'data'>[] | undefined,
): SwapOutcomeViolation[] {
  const { account, token0, token1, maxAmountIn, minAmountOut, spender } = parameters
  const violations: SwapOutcomeViolation[] = []
  if (outcome.amountIn > maxAmountIn)
    violations.push({ type: 'overspent', token: token0, amount: outcome.amountIn, limit: maxAmountIn })
  if (outcome.amountOut < minAmountOut)
    violations.push({ type: 'underpaid', token: token1, amount: outcome.amountOut, limit: minAmountOut })
  if (!isNativeToken(token0) && nativeOut > 0n)
    violations.push({ type: 'outflow', token: nativeTokenAddress, amount: nativeOut })

  const isUser = (topic: Hex | undefined) =>
    topic !== undefined && isAddressEqual(topicAddress(topic), account)
  const isExecutor = (topic: Hex | undefined) =>
    topic !== undefined && isAddressEqual(topicAddress(topic), swapGuardExecutorAddress)
  // What the guard's executor is left holding of tokens it hands back nothing of (not token0 or token1).
  const stranded = new Map<Address, bigint>()
  for (const { address: emitter, topics, data } of logs ?? []) {
    const address = getAddress(emitter)
    const [topic0, topic1, topic2, topic3] = topics as (Hex | undefined)[]
    if (isNativeToken(address)) continue // eth_simulateV1's traced native transfers: measured by balance.
    if (topic0 === transferTopic && topics.length === 3 && (isExecutor(topic1) || isExecutor(topic2)))
      if (!isAddressEqual(address, token0) && !isAddressEqual(address, token1))
        stranded.set(address, (stranded.get(address) ?? 0n) + (isExecutor(topic2) ? 1n : -1n) * wordAt(data))
    if (topic0 === transferTopic && isUser(topic1)) {
      if (isAddressEqual(address, token0)) continue
      violations.push({ type: 'outflow', token: address, amount: wordAt(topic3 ?? data) })
    } else if ((topic0 === transferSingleTopic || topic0 === transferBatchTopic) && isUser(topic2)) {
      violations.push({ type: 'outflow', token: address, amount: wordAt(data) })
    } else if ((topic0 === approvalTopic || topic0 === approvalForAllTopic) && isUser(topic1)) {
      const approved = topicAddress(topic2 ?? '0x')
      const allowed =
        topic0 === approvalTopic &&
        spender !== undefined &&
        isAddressEqual(address, token0) &&
        isAddressEqual(approved, spender)
      const revoked = topic0 === approvalForAllTopic && wordAt(data) === 0n
      if (!allowed && !revoked) violations.push({ type: 'approval', token: address, spender: approved })
    } else if ((topic0 === permit2ApprovalTopic || topic0 === permit2PermitTopic) && isUser(topic1)) {
      violations.push({
        type: 'approval',
        token: topicAddress(topic2 ?? '0x'),
        spender: topicAddress(topic3 ?? '0x'),
      })
    }
  }
  for (const [token, amount] of stranded)
    if (amount > 0n) violations.push({ type: 'stranded', token, amount })
  return violations
}

async function simulate(client: Client<Transport>, parameters: CheckSwapOutcomeParameters) {
  const { account, calls, approvals } = parameters
  // Balances read before and after the calls: token0 of the user, token1 of the recipient, the user's native coin.
  const reads = [
    [parameters.token0, account],
    [parameters.token1, parameters.recipient],
    [nativeTokenAddress, account],
  ] as const
  const readCalls = reads.map(([token, holder]) =>
    isNativeToken(token)
      ? { from: account, to: balanceReaderAddress, data: balanceReaderData(holder) }
      : {
          from: account,
          to: token,
          data: encodeFunctionData({ abi: erc20Abi, functionName: 'balanceOf', args: [holder] }),
        },
  )
  const [block] = await simulateBlocks(client, {
    blocks: [
      {
        calls: [...readCalls, ...asSimulatedCalls(account, calls), ...readCalls],
        stateOverrides: [{ address: balanceReaderAddress, code: balanceReaderCode }],
      },
    ],
    traceTransfers: true,
    validation: false,
  })
  const results = block?.calls ?? []
  const n = reads.length
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
  const word = (index: number) => hexToBigInt(results[index]?.data ?? '0x0')
  const own = results.slice(n, n + calls.length)
  return {
    // What left the user (token0, the native coin), and what reached the recipient (token1).
    moved: reads.map((_, i) => (word(i) - word(n + calls.length + i)) * (i === 1 ? -1n : 1n)) as [
      bigint,
      bigint,
      bigint,
    ],
    logs: own.flatMap((result) => result.logs ?? []),
    gasUsed: own.map((result) => result.gasUsed),
  }
}

/**
 * The fallback on a node without `eth_simulateV1`, for calls that end with the
 * guard's swap: the calls run as the user in one `eth_call` (the call runner
 * at the user's address), and the guard answers what the recipient gained,
 * or reverts below the bounds.
 */
async function throughGuard(
  client: Client<Transport>,
  parameters: CheckSwapOutcomeParameters,
  swap: SwapCall,
) {
  let data: Hex | undefined
  try {
    ;({ data } = await call(client, runCallsRequest(parameters.account, parameters.calls)))
  } catch (error) {
    if (isUserRejection(error)) throw error
    const revert = decodeRevert(error)
    throwGuardViolation(parameters, revert.data, 'eth_call')
    throw new SwapSimulationError({ ...revert, stage: 'swap', cause: error })
  }
  const outcome: SwapOutcome = {
    // The guard pulls exactly amountIn of an ERC-20 (and reverts if more left the user); a native
    // input leaves as the call's value.
    amountIn: isNativeToken(parameters.token0) ? (swap.value ?? 0n) : parameters.maxAmountIn,
    amountOut: hexToBigInt(data ?? '0x0'),
    method: 'eth_call',
  }
  return held(parameters, outcome, 0n, undefined)
}

/**
 * The calls as `eth_simulateV1` runs them, each from `account` (shared with
 * `getSwapPreview`'s fee).
 *
 * @example
 * await simulateBlocks(client, { blocks: [{ calls: asSimulatedCalls(account, calls) }] })
 */
export function asSimulatedCalls(account: Address, calls: readonly SwapCall[]) {
  return calls.map((c) => ({ from: account, to: c.to, data: c.data, value: c.value ?? 0n }))
}

/**
 * True for a node's answer that it does not serve the method asked (method
 * not found / not supported). Only ever applied to a request with no calls in
 * it, so no contract's revert reason can read as it.
 */
function isMethodUnsupported(error: unknown): boolean {
  return (
    walk(error, (e) => {
      const { code, name, message, details } = (e ?? {}) as Record<string, unknown>
      const text = `${typeof message === 'string' ? message : ''} ${typeof details === 'string' ? details : ''}`
      return (
        code === -32601 ||
        code === -32004 ||
        name === 'MethodNotFoundRpcError' ||
        name === 'MethodNotSupportedRpcError' ||
        /method.*(not found|not supported|does not exist|unsupported|not available)/i.test(text)
      )
    }) !== null
  )
}

/**
 * The guard's own revert (`AmountOutTooLow`, `AmountInExceeded`) in a
 * simulated call, as the violation it is: what the guard measured breaks the
 * user's bounds. Any other revert data returns.
 */
function throwGuardViolation(
  { token0, token1, maxAmountIn, minAmountOut }: CheckSwapOutcomeParameters,
  data: Hex | undefined,
  method: SwapOutcome['method'],
) {
  if (!data) return
  let decoded: ReturnType<typeof decodeErrorResult<typeof swapGuardAbi>>
  try {
    decoded = decodeErrorResult({ abi: swapGuardAbi, data })
  } catch {
    return
  }
  const underpaid = decoded.errorName === 'AmountOutTooLow'
  // InvalidSwap has no arguments: it returns here, as any other revert (a SwapSimulationError).
  if (!underpaid && decoded.errorName !== 'AmountInExceeded') return
  // What the guard received, or spent: the first argument of either.
  const amount = (decoded.args as readonly unknown[])[0] as bigint
  throw new UnsafeSwapOutcomeError({
    violations: [
      underpaid
        ? { type: 'underpaid', token: token1, amount, limit: minAmountOut }
        : { type: 'overspent', token: token0, amount, limit: maxAmountIn },
    ],
    outcome: underpaid
      ? { amountIn: maxAmountIn, amountOut: amount, method }
      : { amountIn: amount, amountOut: 0n, method },
    stage: 'simulation',
  })
}

const topicAddress = (topic: Hex): Address => getAddress(`0x${topic.slice(-40)}`)
/** The first 32-byte word of `data` (0 when empty). */
const wordAt = (data: Hex): bigint => BigInt(`0x${data.slice(2, 66) || 0}`)
