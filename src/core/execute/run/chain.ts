import {
  type Account,
  type Address,
  type Chain,
  type Hex,
  hexToNumber,
  numberToHex,
  type ReplacementReason,
  type TransactionReceipt,
} from 'viem'
import { walk } from '../../errors/base.js'
import {
  ChainMismatchError,
  type ExecuteSwapStage,
  TransactionNotSeenError,
  TransactionReplacedError,
  TransactionRevertedError,
  UserRejectedError,
} from '../../errors/execute.js'
import type { ExecutionClients } from '../types.js'
import { isUserRejection, walletStep } from './walletErrors.js'

// The clients' check is a rule; the flows that send read it from here too.
export { resolveClients } from '../rules/checkSwapParameters.js'
export type { ExecutionClients } from '../types.js'

/**
 * Makes sure both clients are on the expected chain (the wallet as it reports
 * itself; it is asked to switch when it is elsewhere) and returns the chain
 * every transaction is then pinned to.
 */
export async function ensureChain(
  { walletClient, publicClient }: ExecutionClients,
  chainId: number | undefined,
  stage: ExecuteSwapStage,
): Promise<Chain> {
  const expected = await assertReadsChain({ publicClient }, chainId, stage)
  const walletChain = await walletStep(stage, () => walletClient.getChainId())
  if (walletChain !== expected) {
    let switchError: unknown
    try {
      await walletClient.switchChain({ id: expected })
    } catch (error) {
      if (isUserRejection(error)) throw new UserRejectedError({ stage, cause: error })
      switchError = error
    }
    await assertWalletChain({ walletClient }, expected, stage, switchError)
  }
  for (const chain of [walletClient.chain, publicClient.chain]) if (chain?.id === expected) return chain
  return {
    id: expected,
    name: `Chain ${expected}`,
    nativeCurrency: { name: 'Ether', symbol: 'ETH', decimals: 18 },
    rpcUrls: { default: { http: [] } },
  }
}

/**
 * Refuses a public client that reads another chain than `chainId` (default:
 * its own `chain`, else any): `ChainMismatchError`, its reads would say
 * nothing about the swap or the records. Returns the chain it checked.
 *
 * @example
 * await assertReadsChain({ publicClient }, record.chainId)
 */
export async function assertReadsChain(
  { publicClient }: Pick<ExecutionClients, 'publicClient'>,
  chainId: number | undefined,
  stage: ExecuteSwapStage = 'chain',
): Promise<number> {
  const actual = await walletStep(stage, () => publicClient.getChainId())
  const expected = chainId ?? publicClient.chain?.id ?? actual
  if (actual !== expected)
    throw new ChainMismatchError({ expectedChainId: expected, actualChainId: actual, client: 'public' })
  return expected
}

/**
 * Refuses a wallet that reports another chain than `chainId` right now
 * (`ChainMismatchError`, with `cause`: why a switch failed, say): re-read
 * before each send, since a wallet can move between networks at any time.
 */
export async function assertWalletChain(
  { walletClient }: Pick<ExecutionClients, 'walletClient'>,
  chainId: number,
  stage: ExecuteSwapStage,
  cause?: unknown,
): Promise<void> {
  const current = await walletStep(stage, () => walletClient.getChainId())
  if (current !== chainId)
    throw new ChainMismatchError({
      expectedChainId: chainId,
      actualChainId: current,
      client: 'wallet',
      cause,
    })
}

/**
 * Sends one transaction pinned to `chain`: viem re-reads the wallet's chain
 * right before sending and refuses when the wallet moved (and passes the chain
 * id in the request, so a wallet that checks it refuses too), and re-read right
 * after: a wallet that moved as it sent, ignoring that chain id, is a
 * `ChainMismatchError` carrying the hash it sent on the other chain. With `nonce`, the
 * transaction is sent at that nonce (`eth_sendTransaction`'s `nonce`): a
 * local account signs it; a wallet may ignore a nonce the dapp supplies and
 * pick its own.
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
  try {
    // A local account signs the chain id into the transaction: viem's sendTransaction pins it.
    if (account.type !== 'json-rpc')
      return await walletStep(stage, () => walletClient.sendTransaction({ account, chain, ...transaction }))
    return await sendFromWallet(walletClient, account.address, chain, stage, transaction)
  } catch (error) {
    // viem's own ChainMismatchError (a local account's wallet moved): ours, with the chain it is on.
    const mismatch = walk(error, (e) => (e as { name?: unknown })?.name === 'ChainMismatchError')
    if (!mismatch || mismatch instanceof ChainMismatchError) throw error
    const actual = await walletClient.getChainId().catch(() => undefined)
    throw new ChainMismatchError({
      expectedChainId: chain.id,
      actualChainId: actual,
      client: 'wallet',
      cause: mismatch,
    })
  }
}

/** A transaction for a JSON-RPC wallet account: its chain re-checked, the chain id in the request. */
async function sendFromWallet(
  walletClient: ExecutionClients['walletClient'],
  from: Address,
  chain: Chain,
  stage: ExecuteSwapStage,
  { to, data, value, nonce, gas }: Parameters<typeof sendPinned>[3],
): Promise<Hex> {
  // Re-check the wallet's chain, and pass the chain id, which wallets check against their current
  // chain (viem's sendTransaction does not send it).
  await assertWalletChain({ walletClient }, chain.id, stage)
  const request = {
    ...{ from, to, data, value: numberToHex(value ?? 0n), chainId: numberToHex(chain.id) },
    ...(nonce === undefined ? {} : { nonce: numberToHex(nonce) }),
    ...(gas === undefined ? {} : { gas: numberToHex(gas) }),
  }
  const hash = await walletStep(stage, () =>
    walletClient.request({ method: 'eth_sendTransaction', params: [request as never] }, { retryCount: 0 }),
  )
  // A wallet that moved as it was asked, and ignored the chain id in the request, sent it on the
  // chain it is on now: said at once, with the hash, rather than waited for where it is not.
  const after = await walletClient.getChainId().catch(() => chain.id)
  if (after !== chain.id)
    throw new ChainMismatchError({ expectedChainId: chain.id, actualChainId: after, client: 'wallet', hash })
  return hash
}

export type WaitForSuccessParameters = {
  hash: Hex
  stage: ExecuteSwapStage
  /** Blocks to wait for. Default 1. */
  confirmations?: number | undefined
  /** Default viem's (180 000 ms). */
  receiptTimeoutMs?: number | undefined
  /**
   * A hash no node has seen after this long (a contract wallet's own id, a
   * transaction its wallet never broadcast) ends the wait with
   * `TransactionNotSeenError` instead of waiting out `receiptTimeoutMs`. Default
   * 60 000 ms.
   */
  notSeenTimeoutMs?: number | undefined
  /**
   * The transaction as it was read before the wait (its sender and nonce): a
   * hash that is gone while that nonce is mined (replaced before viem could
   * see it, so viem's own replacement check never runs) ends the wait with
   * `'gone'` (`waitForTransaction`) instead of waiting out `receiptTimeoutMs`.
   */
  sent?: { from: Address; nonce: number } | undefined
}

/**
 * Rejects with `TransactionNotSeenError` when no node has seen `hash` within
 * `ms` (checked every few seconds); with `sent`, resolves `'gone'` once the
 * hash is gone and its nonce mined by another transaction; never settles
 * once it was seen (and followed by viem), or when `signal` aborts.
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
 * Waits for the receipt of `hash` and returns it only when that transaction
 * was mined and succeeded; with `sent` (the transaction as read before the
 * wait), `'gone'` when the hash is gone and its nonce was mined by another
 * transaction (replaced before viem could see it). viem resolves with the
 * receipt of a replacement: a cancellation or another call mined at the same
 * nonce is a `TransactionReplacedError` (the transaction was never mined),
 * while a speed-up (the same call at a higher fee, `'repriced'`) counts as
 * the transaction, with the replacement's receipt. A revert is a
 * `TransactionRevertedError`; a timeout or a node failure a `WalletError`
 * (or `UserRejectedError`), whose outcome is unknown.
 *
 * @example
 * const receipt = await waitForTransaction({ publicClient }, { hash, stage: 'approval' })
 */
export async function waitForTransaction(
  { publicClient }: Pick<ExecutionClients, 'publicClient'>,
  parameters: WaitForSuccessParameters,
): Promise<TransactionReceipt | 'gone'> {
  const { hash, stage, confirmations, receiptTimeoutMs, notSeenTimeoutMs = 60_000 } = parameters
  let reason: ReplacementReason | undefined
  const done = new AbortController()
  const receipt = await walletStep(stage, () =>
    Promise.race([
      publicClient.waitForTransactionReceipt({
        hash,
        confirmations: confirmations ?? 1,
        timeout: receiptTimeoutMs,
        onReplaced: (replacement) => {
          reason = replacement.reason
        },
      }),
      notSeen({ publicClient }, parameters, notSeenTimeoutMs, done.signal),
    ]).finally(() => done.abort()),
  )
  if (receipt === 'gone') return receipt
  if (receipt.transactionHash.toLowerCase() !== hash.toLowerCase() && reason !== 'repriced')
    throw new TransactionReplacedError({
      hash,
      reason: reason === 'cancelled' ? 'cancelled' : 'replaced',
      stage,
      receipt,
    })
  if (receipt.status !== 'success')
    throw new TransactionRevertedError({ hash: receipt.transactionHash, stage, receipt })
  return receipt
}

/**
 * `waitForTransaction` for a transaction this flow sent (no `sent`): its
 * receipt, mined and successful, or a typed error.
 *
 * @example
 * const receipt = await waitForSuccess({ publicClient }, { hash, stage: 'approval' })
 */
export async function waitForSuccess(
  clients: Pick<ExecutionClients, 'publicClient'>,
  parameters: Omit<WaitForSuccessParameters, 'sent'>,
): Promise<TransactionReceipt> {
  return (await waitForTransaction(clients, parameters)) as TransactionReceipt
}

/**
 * The account's pending nonce as the wallet's own node sees it; 0 when the
 * wallet does not answer, or (with `chainId`) is on another chain, where its
 * count says nothing of this one.
 */
async function walletPendingCount(
  { walletClient }: ExecutionClients,
  account: Address,
  chainId: number | undefined,
): Promise<number> {
  try {
    if (chainId !== undefined && (await walletClient.getChainId()) !== chainId) return 0
    const count = await walletClient.request(
      { method: 'eth_getTransactionCount', params: [account, 'pending'] } as never,
      { retryCount: 0 },
    )
    return typeof count === 'string' ? hexToNumber(count as Hex) : 0
  } catch {
    return 0
  }
}

/**
 * The account's pending nonce: the larger of the public client's and the
 * wallet's (a swap the wallet broadcast may not have reached the page's node).
 * With `chainId`, the wallet's count only when it is on that chain.
 *
 * @example
 * const next = await pendingCount(clients, account, chainId)
 */
export async function pendingCount(
  clients: ExecutionClients,
  account: Address,
  chainId?: number | undefined,
): Promise<number> {
  const [read, wallet] = await Promise.all([
    clients.publicClient.getTransactionCount({ address: account, blockTag: 'pending' }),
    walletPendingCount(clients, account, chainId),
  ])
  return Math.max(read, wallet)
}
