import type {
  Account,
  Address,
  Chain,
  Hex,
  PublicClient,
  ReplacementReason,
  TransactionReceipt,
  Transport,
} from 'viem'
import { erc20Abi, hexToNumber, numberToHex } from 'viem'
import type { ExecuteSwapStage } from '../../errors/execute.js'
import {
  ChainMismatchError,
  TransactionNotSeenError,
  TransactionReplacedError,
  TransactionRevertedError,
  UserRejectedError,
} from '../../errors/execute.js'
import { withoutUndefined } from '../../utils/withoutUndefined.js'
import { approveCall } from '../rules/planSwap.js'
import type { ExecutionClients } from '../types.js'
import { findCause, isUserRejection, walletStep } from './walletErrors.js'

// The clients' check is a rule; the flows that send read it from here too.
export { resolveClients } from '../rules/checkSwapParameters.js'
export type { ExecutionClients } from '../types.js'

/**
 * The chain `client` is on, unless it is not `chainId` (default: the client's own chain):
 * `ChainMismatchError`, naming the client's `role` (re-read before each send: a wallet can move any time).
 * @example const chainId = await assertChain(publicClient, record.chainId)
 */
export async function assertChain(
  client: Pick<ExecutionClients['publicClient'], 'getChainId' | 'chain'>,
  chainId: number | undefined,
  stage: ExecuteSwapStage = 'chain',
  role: 'wallet' | 'public' = 'public',
  cause?: unknown,
): Promise<number> {
  const actual = await walletStep(stage, () => client.getChainId())
  const expectedChainId = chainId ?? client.chain?.id ?? actual
  if (actual !== expectedChainId)
    throw new ChainMismatchError({ expectedChainId, actualChainId: actual, client: role, cause })
  return expectedChainId
}

/**
 * Brings both clients to the expected chain (the wallet is asked to switch) and returns the chain every
 * transaction is then pinned to.
 * @example const chain = await ensureChain(clients, 1, 'chain')
 */
export async function ensureChain(
  clients: ExecutionClients,
  chainId: number | undefined,
  stage: ExecuteSwapStage,
): Promise<Chain> {
  const { walletClient, publicClient } = clients
  const id = await assertChain(publicClient, chainId, stage)
  if ((await walletStep(stage, () => walletClient.getChainId())) !== id) {
    const cause = await walletClient.switchChain({ id }).then(
      () => undefined,
      (error: unknown) => {
        if (isUserRejection(error)) throw new UserRejectedError({ stage, cause: error })
        return error
      },
    )
    await assertChain(walletClient, id, stage, 'wallet', cause)
  }
  return (
    [walletClient.chain, publicClient.chain].find((chain) => chain?.id === id) ?? {
      ...{ id, name: `Chain ${id}`, nativeCurrency: { name: 'Ether', symbol: 'ETH', decimals: 18 } },
      rpcUrls: { default: { http: [] } },
    }
  )
}

/**
 * Sends one transaction pinned to `chain`: a local account signs the chain id in; a JSON-RPC wallet's chain
 * is read before and after, the chain id in the request (one that moved as it sent: `ChainMismatchError`).
 * @example const hash = await sendPinned(clients, chain, 'swap', { to, data, value })
 */
export async function sendPinned(
  { walletClient }: ExecutionClients,
  chain: Chain,
  stage: ExecuteSwapStage,
  transaction: {
    to: Address
    data: Hex
    value?: bigint | undefined
    nonce?: number | undefined
    gas?: bigint | undefined
  },
): Promise<Hex> {
  const account = walletClient.account as Account
  const { id } = chain
  try {
    if (account.type !== 'json-rpc')
      return await walletStep(stage, () => walletClient.sendTransaction({ account, chain, ...transaction }))
    await assertChain(walletClient, id, stage, 'wallet')
    const { to, data, value = 0n, nonce, gas } = transaction
    const hex = (n: number | bigint | undefined) => (n === undefined ? n : numberToHex(n))
    const request = {
      from: account.address,
      to,
      data,
      value: hex(value),
      chainId: hex(id),
      nonce: hex(nonce),
      gas: hex(gas),
    }
    const hash = await walletStep(stage, () =>
      walletClient.request(
        { method: 'eth_sendTransaction', params: [withoutUndefined(request) as never] },
        { retryCount: 0 },
      ),
    )
    const actual = await walletClient.getChainId().catch(() => id)
    if (actual !== id)
      throw new ChainMismatchError({ expectedChainId: id, actualChainId: actual, client: 'wallet', hash })
    return hash
  } catch (error) {
    // viem's own ChainMismatchError (a local account's wallet moved): ours, with the chain it is on.
    const cause = findCause(error, ({ name }) => name === 'ChainMismatchError')
    if (!cause || cause instanceof ChainMismatchError) throw error
    const actual = await walletClient.getChainId().catch(() => undefined)
    throw new ChainMismatchError({ expectedChainId: id, actualChainId: actual, client: 'wallet', cause })
  }
}

export type WaitForSuccessParameters = {
  hash: Hex
  stage: ExecuteSwapStage
  /** Blocks to wait for. Default 1. */
  confirmations?: number | undefined
  /** Default viem's (180 000 ms). */
  receiptTimeoutMs?: number | undefined
  /** A hash no node has seen after this long is a `TransactionNotSeenError`. Default 60 000 ms. */
  notSeenTimeoutMs?: number | undefined
  /** The transaction as read before the wait: gone, its nonce mined by another, the wait ends `'gone'`. */
  sent?: { from: Address; nonce: number } | undefined
}

/**
 * Rejects with `TransactionNotSeenError` when no node has seen the hash in `ms`; with `sent`, resolves
 * `'gone'` once it is gone and its nonce mined; never settles once viem follows it, nor after `signal`
 * aborts.
 */
function notSeen(
  { publicClient }: Pick<ExecutionClients, 'publicClient'>,
  { hash, stage, sent }: WaitForSuccessParameters,
  ms: number,
  signal: AbortSignal,
): Promise<'gone'> {
  return new Promise((resolve, reject) => {
    const deadline = Date.now() + ms
    const check = async () => {
      if (signal.aborted) return
      const seen = await publicClient.getTransaction({ hash }).then(
        () => true,
        () => false,
      )
      // Seen and not followed for a nonce taken under it: viem's to follow.
      if (signal.aborted || (seen && !sent)) return
      if (sent) {
        const count = seen ? 0 : await publicClient.getTransactionCount({ address: sent.from }).catch(() => 0)
        if (count > sent.nonce) return resolve('gone')
      } else if (Date.now() >= deadline)
        return reject(new TransactionNotSeenError({ hash, stage, afterMs: ms }))
      setTimeout(check, Math.min(2_000, Math.max(50, ms / 10)))
    }
    setTimeout(check, Math.min(ms, sent ? 250 : 2_000))
  })
}

/**
 * The receipt of `hash`, mined and successful (a speed-up's counts), else `TransactionReplacedError`,
 * `TransactionRevertedError` or `WalletError`; with `sent`, `'gone'` once its nonce went to another.
 * @example const receipt = await waitForTransaction({ publicClient }, { hash, stage: 'approval' })
 */
export async function waitForTransaction(
  { publicClient }: Pick<ExecutionClients, 'publicClient'>,
  parameters: WaitForSuccessParameters,
): Promise<TransactionReceipt | 'gone'> {
  const { hash, stage, confirmations = 1, receiptTimeoutMs: timeout, notSeenTimeoutMs = 60_000 } = parameters
  let reason: ReplacementReason | undefined
  const done = new AbortController()
  const receipt = await walletStep(stage, () =>
    Promise.race([
      publicClient.waitForTransactionReceipt({
        hash,
        confirmations,
        timeout,
        onReplaced: (r) => {
          reason = r.reason
        },
      }),
      notSeen({ publicClient }, parameters, notSeenTimeoutMs, done.signal),
    ]).finally(() => done.abort()),
  )
  if (receipt === 'gone') return receipt
  if (receipt.transactionHash.toLowerCase() !== hash.toLowerCase() && reason !== 'repriced')
    throw new TransactionReplacedError({
      hash,
      reason: reason === 'cancelled' ? reason : 'replaced',
      stage,
      receipt,
    })
  if (receipt.status !== 'success')
    throw new TransactionRevertedError({ hash: receipt.transactionHash, stage, receipt })
  return receipt
}

/**
 * `waitForTransaction` for a transaction this flow sent: its receipt, mined and successful, or a typed error.
 * @example const receipt = await waitForSuccess({ publicClient }, { hash, stage: 'approval' })
 */
export const waitForSuccess = (
  clients: Pick<ExecutionClients, 'publicClient'>,
  parameters: Omit<WaitForSuccessParameters, 'sent'>,
) => waitForTransaction(clients, parameters) as Promise<TransactionReceipt>

/**
 * The account's pending nonce: the larger of the public client's and the wallet's (0 when the wallet does not
 * answer or, with `chainId`, is elsewhere).
 * @example const next = await pendingCount(clients, account, chainId)
 */
export async function pendingCount(
  { walletClient, publicClient }: ExecutionClients,
  account: Address,
  chainId?: number | undefined,
): Promise<number> {
  const wallet = async () => {
    if (chainId !== undefined && (await walletClient.getChainId()) !== chainId) return 0
    const request = { method: 'eth_getTransactionCount', params: [account, 'pending'] }
    const count = await walletClient.request(request as never, { retryCount: 0 })
    return typeof count === 'string' ? hexToNumber(count as Hex) : 0
  }
  const counts = await Promise.all([
    publicClient.getTransactionCount({ address: account, blockTag: 'pending' }),
    wallet().catch(() => 0),
  ])
  return Math.max(...counts)
}

/**
 * Sets the account's allowance for `spender` on `token` to 0, pinned to the chain, and waits for it.
 * @example const { hash } = await revoke(clients, { token, spender, chainId })
 */
export async function revoke(
  clients: ExecutionClients,
  {
    token,
    spender,
    chainId,
    confirmations,
  }: { token: Address; spender: Address; chainId?: number; confirmations?: number },
): Promise<{ hash: Hex; receipt: TransactionReceipt }> {
  const stage = 'revoke'
  const chain = await ensureChain(clients, chainId, stage)
  const hash = await sendPinned(clients, chain, stage, approveCall(token, spender, 0n))
  const receipt = await waitForSuccess(clients, { hash, stage, confirmations })
  return { hash: receipt.transactionHash, receipt }
}

/**
 * `owner`'s allowance for `spender` on `token`, read on chain.
 * @example const allowance = await readAllowance(publicClient, token0, owner, swapGuardAddress)
 */
export const readAllowance = (
  publicClient: PublicClient<Transport, Chain | undefined>,
  token: Address,
  owner: Address,
  spender: Address,
): Promise<bigint> =>
  publicClient.readContract({
    address: token,
    abi: erc20Abi,
    functionName: 'allowance',
    args: [owner, spender],
  })
