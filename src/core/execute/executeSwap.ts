import {
  type Account,
  type Address,
  type Chain,
  encodeFunctionData,
  erc20Abi,
  type Hex,
  isAddressEqual,
  maxUint256,
  type PublicClient,
  type TransactionReceipt,
  type Transport,
  type WalletClient,
  zeroAddress,
} from 'viem'
import { type GetSwapInfoErrorType, getSwapInfo } from '../actions/getSwapInfo.js'
import type { SwapClient } from '../client.js'
import { isNativeToken } from '../constants.js'
import {
  ChainMismatchError,
  type ChainMismatchErrorType,
  InsufficientAllowanceError,
  type InsufficientAllowanceErrorType,
  QuoteBelowMinimumError,
  type QuoteBelowMinimumErrorType,
  SwapSimulationError,
  type SwapSimulationErrorType,
  TransactionRevertedError,
  type TransactionRevertedErrorType,
  UnsafeSwapDataError,
  type UnsafeSwapDataErrorType,
  UntrustedAddressError,
  type UntrustedAddressErrorType,
  UserRejectedError,
  type UserRejectedErrorType,
  type WalletErrorType,
} from '../errors/execute.js'
import { ensure } from '../errors/parameter.js'
import type { SwapInfo } from '../schemas.js'
import { getMinAmountOut } from '../utils/getMinAmountOut.js'
import {
  assertAddress,
  assertAmount,
  assertDeadline,
  assertObject,
  assertRouteParameters,
  assertSlippage,
} from '../utils/validate.js'
import { decodeRevert, isUserRejection, walletStep } from './walletErrors.js'

export type ExecuteSwapStatus = 'quoting' | 'approving' | 'swapping' | 'success'

/** What the flow is doing inside its status. */
export type ExecuteSwapAction =
  | 'fetching-quote'
  | 'checking-chain'
  | 'checking-allowance'
  | 'resetting-allowance'
  | 'approving'
  | 'waiting-for-approval'
  | 'simulating'
  | 'sending-swap'
  | 'waiting-for-swap'
  | 'done'

/** A snapshot of the flow, passed to `onStep` at every change. */
export type ExecuteSwapStep = {
  status: ExecuteSwapStatus
  action: ExecuteSwapAction
  /** The fresh quote being executed, once fetched. */
  swapInfo?: SwapInfo | undefined
  /** The approve(spender, 0) sent first for tokens that refuse to change a non-zero allowance. */
  resetHash?: Hex | undefined
  approvalHash?: Hex | undefined
  swapHash?: Hex | undefined
  receipt?: TransactionReceipt | undefined
}

export type ExecuteSwapParameters = {
  /** Signs and sends; must carry an account (`useWalletClient().data` in wagmi). */
  walletClient: WalletClient<Transport, Chain | undefined, Account | undefined>
  /** Reads allowances, simulates and waits for receipts (`usePublicClient()` in wagmi). */
  publicClient: PublicClient<Transport, Chain | undefined>
  token0: Address
  token1: Address
  /** The input amount in token0's smallest unit. */
  amountIn: bigint
  /** Who receives the output. Default: the wallet's account. */
  to?: Address | undefined
  /** Accepted slippage, 0 to 1 (0.01 is 1%). Not sent when omitted (the service uses 0.05). */
  slippage?: number | undefined
  /** Passed to `/swap/info` as is. */
  deadline?: number | bigint | undefined
  /** Stop before signing when the fresh quote's `estimateAmount` is below this. */
  minAmountOut?: bigint | undefined
  /**
   * The quote the user accepted on screen (a SwapInfo or a Route). The fresh
   * quote must then promise at least its amount less `slippage` (default 0.05).
   */
  acceptedQuote?: { estimateAmount: bigint } | { amountOut: bigint } | undefined
  /** The chain the swap is for. Default: the public client's chain. */
  chainId?: number | undefined
  /**
   * Spenders and routers allowed as `approvalAddress` / `transferAddress`
   * (any letter case). When set, any other address is refused before a signature.
   */
  trustedAddresses?: readonly Address[] | undefined
  /** `'exact'` (default) approves amountIn; `'infinite'` approves 2^256 - 1. */
  approval?: 'exact' | 'infinite' | undefined
  /** Set the allowance to 0 before approving (USDT style); detected automatically when omitted. */
  resetAllowance?: boolean | undefined
  /**
   * The most native value the swap transaction may carry. Default: amountIn
   * for native input, 0 otherwise.
   */
  maxTransferValue?: bigint | undefined
  /** Blocks to wait for each transaction. Default 1. */
  confirmations?: number | undefined
  /** Called at every step with a snapshot of the flow. */
  onStep?: ((step: ExecuteSwapStep) => void) | undefined
}

export type ExecuteSwapReturnType = {
  swapInfo: SwapInfo
  resetHash?: Hex | undefined
  /** Set when an approval was sent; absent when the allowance already sufficed or none was needed. */
  approvalHash?: Hex | undefined
  swapHash: Hex
  receipt: TransactionReceipt
}

export type ExecuteSwapErrorType =
  | GetSwapInfoErrorType
  | UntrustedAddressErrorType
  | UnsafeSwapDataErrorType
  | QuoteBelowMinimumErrorType
  | ChainMismatchErrorType
  | UserRejectedErrorType
  | TransactionRevertedErrorType
  | SwapSimulationErrorType
  | InsufficientAllowanceErrorType
  | WalletErrorType

// Calldata a swap router never receives: ERC-20/721 moves and approvals.
const fundMovingSelectors = new Map([
  ['0x095ea7b3', 'approve'],
  ['0xa9059cbb', 'transfer'],
  ['0x23b872dd', 'transferFrom'],
  ['0x39509351', 'increaseAllowance'],
  ['0xa22cb465', 'setApprovalForAll'],
  ['0xd505accf', 'permit'],
])

/**
 * Executes a swap: fetches a fresh `/swap/info`, checks it (minimum output,
 * trusted addresses, calldata, value, chain), approves the spender when the
 * allowance is short (exact amount by default, resetting to 0 first for
 * USDT-style tokens) and waits for that approval, simulates the swap, then
 * sends it and waits for its receipt. Nothing is signed after a failed check,
 * a rejection or a revert.
 *
 * @example
 * import { createSwapClient, executeSwap } from 'token-swap-hooks/core'
 * import { createPublicClient, createWalletClient, custom, http, parseEther } from 'viem'
 * import { mainnet } from 'viem/chains'
 *
 * const [account] = await window.ethereum.request({ method: 'eth_requestAccounts' })
 * const { swapHash, receipt } = await executeSwap(createSwapClient({ baseUrl }), {
 *   walletClient: createWalletClient({ account, chain: mainnet, transport: custom(window.ethereum) }),
 *   publicClient: createPublicClient({ chain: mainnet, transport: http() }),
 *   token0: WETH,
 *   token1: USDC,
 *   amountIn: parseEther('1'),
 *   slippage: 0.01,
 *   trustedAddresses: [ROUTER, SPENDER],
 * })
 */
export async function executeSwap(
  client: SwapClient,
  parameters: ExecuteSwapParameters,
): Promise<ExecuteSwapReturnType> {
  const checked = checkParameters(parameters)
  const { walletClient, publicClient, owner, token0, token1, amountIn, to } = checked

  let step: ExecuteSwapStep = { status: 'quoting', action: 'fetching-quote' }
  const emit = (patch: Partial<ExecuteSwapStep>) => {
    step = { ...step, ...patch }
    parameters.onStep?.(step)
  }
  emit({})

  // 1. A fresh quote, right before anything is signed.
  const swapInfo = await getSwapInfo(client, {
    token0,
    token1,
    amountIn,
    to,
    slippage: parameters.slippage,
    deadline: parameters.deadline,
  })
  emit({ swapInfo })
  const floor = minimumAccepted(parameters)
  if (floor !== undefined && swapInfo.estimateAmount < floor)
    throw new QuoteBelowMinimumError({ estimateAmount: swapInfo.estimateAmount, minAmountOut: floor })

  // 2. Addresses, calldata and value.
  const spender = needsApproval(token0, swapInfo) ? (swapInfo.approvalAddress as Address) : undefined
  checkAddresses(checked, swapInfo, spender)

  // 3. The chain, as the wallet itself reports it.
  emit({ action: 'checking-chain' })
  await ensureChain(walletClient, publicClient, parameters.chainId)

  // 4. Approval.
  const readAllowance = (spender: Address) =>
    walletStep('approval', () =>
      publicClient.readContract({
        address: token0,
        abi: erc20Abi,
        functionName: 'allowance',
        args: [owner, spender],
      }),
    )
  const sendApprove = (spender: Address, amount: bigint) =>
    walletStep('approval', () =>
      walletClient.sendTransaction({
        account: walletClient.account as Account,
        chain: null,
        to: token0,
        data: encodeFunctionData({ abi: erc20Abi, functionName: 'approve', args: [spender, amount] }),
      }),
    )
  const confirm = async (hash: Hex, stage: 'approval' | 'swap') => {
    const receipt = await walletStep(stage, () =>
      publicClient.waitForTransactionReceipt({ hash, confirmations: parameters.confirmations ?? 1 }),
    )
    if (receipt.status !== 'success') throw new TransactionRevertedError({ hash, stage, receipt })
    return receipt
  }

  if (spender) {
    emit({ status: 'approving', action: 'checking-allowance' })
    let allowance = await readAllowance(spender)
    if (allowance < amountIn) {
      const target = parameters.approval === 'infinite' ? maxUint256 : amountIn
      const mustReset =
        allowance > 0n &&
        (parameters.resetAllowance ??
          !(await approveWouldSucceed(publicClient, owner, token0, spender, target)))
      if (mustReset) {
        emit({ action: 'resetting-allowance' })
        const resetHash = await sendApprove(spender, 0n)
        emit({ resetHash })
        await confirm(resetHash, 'approval')
      }
      emit({ action: 'approving' })
      const approvalHash = await sendApprove(spender, target)
      emit({ approvalHash, action: 'waiting-for-approval' })
      await confirm(approvalHash, 'approval')
      allowance = await readAllowance(spender)
    }
    // Never swap without a confirmed, sufficient allowance.
    if (allowance < amountIn) throw new InsufficientAllowanceError({ allowance, required: amountIn, spender })
  }

  // 5. Simulate: a revert stops here, before the wallet is asked.
  emit({ status: 'swapping', action: 'simulating' })
  const transaction = { to: swapInfo.transferAddress, data: swapInfo.data, value: swapInfo.transferValue }
  try {
    await publicClient.call({ account: owner, ...transaction })
  } catch (error) {
    if (isUserRejection(error)) throw new UserRejectedError({ stage: 'simulation', cause: error })
    throw new SwapSimulationError({ ...decodeRevert(error), cause: error })
  }

  // 6. Send and wait.
  emit({ action: 'sending-swap' })
  const swapHash = await walletStep('swap', () =>
    walletClient.sendTransaction({ account: walletClient.account as Account, chain: null, ...transaction }),
  )
  emit({ swapHash, action: 'waiting-for-swap' })
  const receipt = await confirm(swapHash, 'swap')
  emit({ status: 'success', action: 'done', receipt })

  return {
    swapInfo,
    resetHash: step.resetHash,
    approvalHash: step.approvalHash,
    swapHash,
    receipt,
  }
}

function checkParameters(parameters: ExecuteSwapParameters) {
  assertObject(parameters)
  const { walletClient, publicClient } = parameters
  ensure(
    !(typeof walletClient?.sendTransaction !== 'function' || typeof walletClient.getChainId !== 'function'),
    'walletClient',
    'must be a viem WalletClient',
    walletClient,
  )
  const owner = walletClient.account?.address
  ensure(
    !!owner,
    'walletClient.account',
    'must be set: connect a wallet (or create the client with an account) first',
    undefined,
  )
  ensure(
    !(
      typeof publicClient?.call !== 'function' || typeof publicClient.waitForTransactionReceipt !== 'function'
    ),
    'publicClient',
    'must be a viem PublicClient',
    publicClient,
  )
  assertRouteParameters(parameters)
  const to = parameters.to ?? owner
  assertAddress('to', to)
  if (parameters.slippage !== undefined) assertSlippage('slippage', parameters.slippage)
  if (parameters.deadline !== undefined) assertDeadline('deadline', parameters.deadline)
  if (parameters.minAmountOut !== undefined) assertAmount('minAmountOut', parameters.minAmountOut)
  ensure(
    !(
      parameters.approval !== undefined &&
      parameters.approval !== 'exact' &&
      parameters.approval !== 'infinite'
    ),
    'approval',
    "must be 'exact' or 'infinite'",
    parameters.approval,
  )
  if (parameters.trustedAddresses !== undefined) {
    ensure(
      !!Array.isArray(parameters.trustedAddresses),
      'trustedAddresses',
      'must be an array of addresses',
      parameters.trustedAddresses,
    )
    for (const [index, address] of parameters.trustedAddresses.entries())
      assertAddress(`trustedAddresses[${index}]`, address)
  }
  ensure(
    !(
      parameters.chainId !== undefined &&
      !(Number.isSafeInteger(parameters.chainId) && parameters.chainId > 0)
    ),
    'chainId',
    'must be a positive integer',
    parameters.chainId,
  )
  return { ...parameters, walletClient, publicClient, owner, to }
}

function minimumAccepted(parameters: ExecuteSwapParameters): bigint | undefined {
  if (parameters.minAmountOut !== undefined) return parameters.minAmountOut
  const accepted = parameters.acceptedQuote
  if (!accepted) return undefined
  const amount = 'estimateAmount' in accepted ? accepted.estimateAmount : accepted.amountOut
  ensure(
    !(typeof amount !== 'bigint'),
    'acceptedQuote',
    'must hold a bigint estimateAmount or amountOut',
    amount,
  )
  return getMinAmountOut(amount, parameters.slippage ?? 0.05)
}

function needsApproval(token0: Address, swapInfo: SwapInfo): boolean {
  if (isNativeToken(token0)) return false
  const spender = swapInfo.approvalAddress
  return spender !== null && !isAddressEqual(spender, zeroAddress)
}

function checkAddresses(
  parameters: ExecuteSwapParameters & { token0: Address; token1: Address; amountIn: bigint },
  swapInfo: SwapInfo,
  spender: Address | undefined,
) {
  const { trustedAddresses, token0, token1 } = parameters
  const isTrusted = (address: Address) =>
    trustedAddresses?.some((trusted) => isAddressEqual(trusted, address))
  for (const [role, address] of [
    ['transferAddress', swapInfo.transferAddress],
    ['approvalAddress', spender],
  ] as const) {
    if (!address) continue
    if (trustedAddresses && !isTrusted(address))
      throw new UntrustedAddressError({ address, role, reason: 'it is not in trustedAddresses' })
    if (!isTrusted(address) && (isAddressEqual(address, token0) || isAddressEqual(address, token1)))
      throw new UntrustedAddressError({ address, role, reason: 'it is one of the swapped tokens' })
    if (isAddressEqual(address, zeroAddress))
      throw new UntrustedAddressError({ address, role, reason: 'it is the zero address' })
  }
  const selector = swapInfo.data.slice(0, 10).toLowerCase()
  const moved = fundMovingSelectors.get(selector)
  if (moved && !isTrusted(swapInfo.transferAddress))
    throw new UnsafeSwapDataError({ reason: `the calldata is an ERC-20 ${moved}, not a swap` })
  const maxValue = parameters.maxTransferValue ?? (isNativeToken(token0) ? parameters.amountIn : 0n)
  if (swapInfo.transferValue > maxValue)
    throw new UnsafeSwapDataError({
      reason: `it would send ${swapInfo.transferValue} wei of native value, at most ${maxValue} expected`,
    })
}

async function ensureChain(
  walletClient: ExecuteSwapParameters['walletClient'],
  publicClient: ExecuteSwapParameters['publicClient'],
  chainId: number | undefined,
) {
  const readChain = await walletStep('chain', () => publicClient.getChainId())
  const expected = chainId ?? publicClient.chain?.id ?? readChain
  if (readChain !== expected)
    throw new ChainMismatchError({ expectedChainId: expected, actualChainId: readChain, client: 'public' })
  const walletChain = await walletStep('chain', () => walletClient.getChainId())
  if (walletChain === expected) return
  let switchError: unknown
  try {
    await walletClient.switchChain({ id: expected })
  } catch (error) {
    if (isUserRejection(error)) throw new UserRejectedError({ stage: 'chain', cause: error })
    switchError = error
  }
  const after = await walletStep('chain', () => walletClient.getChainId())
  if (after !== expected)
    throw new ChainMismatchError({
      expectedChainId: expected,
      actualChainId: after,
      client: 'wallet',
      cause: switchError,
    })
}

/** Simulates approve(spender, amount) from the owner: false when the token refuses it (USDT rule). */
async function approveWouldSucceed(
  publicClient: ExecuteSwapParameters['publicClient'],
  owner: Address,
  token: Address,
  spender: Address,
  amount: bigint,
): Promise<boolean> {
  try {
    await publicClient.call({
      account: owner,
      to: token,
      data: encodeFunctionData({ abi: erc20Abi, functionName: 'approve', args: [spender, amount] }),
    })
    return true
  } catch {
    return false
  }
}
