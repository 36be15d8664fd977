import { type Address, bytesToHex, type Hex, isAddressEqual } from 'viem'
import { isAddressLike, isObject } from '../../utils/validate.js'
import { withoutUndefined } from '../../utils/withoutUndefined.js'
import type { SwapStorage } from '../types.js'
import { type Journal, type JournalEntry, type JournalView, journalFromView, viewOf } from './journal.js'

/**
 * An execution that sent something (or was about to) and has not settled:
 * what it swaps, the user's floor, its journal (what happened to each step)
 * and, from the journal, the step it reached with its hashes. Never holds a
 * key, a signature or a header.
 */
export type PendingSwap = {
  id: string
  /** 2 since the journal; 1 for records stored by 0.1.0, read as the journal their step and hashes describe. */
  version: 1 | 2
  chainId: number
  account: Address
  /** The swap service the quote came from. */
  baseUrl: string
  token0: Address
  token1: Address
  /** In token0's smallest unit, as a decimal string. */
  amountIn: string
  /** The recipient. */
  to: Address
  /** The user's floor for token1, as a decimal string: a resumed swap keeps it. */
  minAmountOut: string
  slippage?: number | undefined
  spender?: Address | undefined
  /**
   * The router the swap calls (its transaction's `to`), written before the
   * swap is sent: a transaction of the account to it after the approval is
   * taken for the swap (`checkPendingSwap`).
   */
  router?: Address | undefined
  /**
   * `'approving'`: an approval was sent; `'approved'`: it was mined (or none
   * was needed) and the swap not sent yet; `'swapping'`: the swap was sent;
   * `'batching'`: the atomic batch was sent (a view of `journal`).
   */
  step: JournalView['step']
  resetHash?: Hex | undefined
  approvalHash?: Hex | undefined
  swapHash?: Hex | undefined
  batchId?: string | undefined
  /**
   * What happened to each step, in order, each entry written before the
   * next send: the record's source of truth (absent from 0.1.0's records).
   */
  journal?: Journal | undefined
  createdAt: number
  updatedAt: number
}

const pendingSwapsKey = 'token-swap-hooks:pending-swaps'

/**
 * A storage kept in memory (lost on reload): the default where there is no
 * `localStorage` (Node, a locked-down browser).
 *
 * @example
 * executeSwap(client, { ...swap, storage: createMemoryStorage() })
 */
export function createMemoryStorage(): SwapStorage {
  const items = new Map<string, string>()
  return {
    getItem: (key) => items.get(key) ?? null,
    setItem: (key, value) => void items.set(key, value),
    removeItem: (key) => void items.delete(key),
  }
}

let fallback: SwapStorage | undefined

/**
 * `localStorage` when the runtime has a working one (a browser), else one
 * memory storage shared by the process.
 *
 * @example
 * const pending = await getPendingSwaps(getDefaultStorage(), { account, chainId })
 */
export function getDefaultStorage(): SwapStorage {
  try {
    const storage = (globalThis as { localStorage?: SwapStorage }).localStorage
    if (storage) {
      storage.setItem(`${pendingSwapsKey}:probe`, '1')
      storage.removeItem(`${pendingSwapsKey}:probe`)
      return storage
    }
  } catch {
    // Storage disabled (private mode, a sandboxed frame): memory it is.
  }
  fallback ??= createMemoryStorage()
  return fallback
}

/**
 * The storage an execution option names: `false` records nothing
 * (`undefined`), none means the default (`getDefaultStorage()`).
 *
 * @example
 * const storage = resolveStorage(parameters.storage) // SwapStorage | undefined
 */
export function resolveStorage(option: SwapStorage | false | undefined): SwapStorage | undefined {
  return option === false ? undefined : (option ?? getDefaultStorage())
}

/**
 * Every entry stored, as written (records of other versions included). Only a
 * missing key is an empty list: a read that fails, or text that is not a JSON
 * array, rejects, so that no write replaces records it could not read.
 */
async function readEntries(storage: SwapStorage): Promise<unknown[]> {
  const text = await storage.getItem(pendingSwapsKey)
  if (text === null || text === undefined) return []
  const entries = JSON.parse(text) as unknown
  if (!Array.isArray(entries))
    throw new Error(`The pending swaps under ${pendingSwapsKey} are not a list: left as they are.`)
  return entries
}

async function readAll(storage: SwapStorage): Promise<PendingSwap[]> {
  return (await readEntries(storage)).filter(isPendingSwap)
}

const hasId = (entry: unknown, id: string) => isObject(entry) && entry.id === id

/**
 * Whether `value` is a whole record: what another tab, an old version or a
 * hand edit may have written is ignored unless it is.
 *
 * @example
 * if (!isPendingSwap(record)) throw new Error('not a recorded execution')
 */
export function isPendingSwap(value: unknown): value is PendingSwap {
  if (!isObject(value)) return false
  const { id, version, chainId, account, token0, token1, to, amountIn, minAmountOut, step, journal } = value
  return (
    typeof id === 'string' &&
    (version === 1 || (version === 2 && Array.isArray(journal) && journal.every(isJournalEntry))) &&
    Number.isSafeInteger(chainId) &&
    [account, token0, token1, to].every(isAddressLike) &&
    [amountIn, minAmountOut].every((amount) => typeof amount === 'string' && /^\d+$/.test(amount)) &&
    ['approving', 'approved', 'swapping', 'batching'].includes(step as string)
  )
}

const stepKinds = ['reset', 'approve', 'swap', 'batch']
const events = ['sending', 'sent', 'mined', 'reverted', 'replaced', 'rejected', 'unknown']
const isHex = (value: unknown) => typeof value === 'string' && /^0x[0-9a-fA-F]*$/.test(value)
const optional = (value: unknown, check: (value: unknown) => boolean) => value === undefined || check(value)
const isCount = (value: unknown) => Number.isSafeInteger(value) && (value as number) >= 0

/** A journal entry whose every field has its type: a tampered or foreign one makes the record unreadable. */
function isJournalEntry(value: unknown): value is JournalEntry {
  if (!isObject(value)) return false
  const { step, event, hash, batchId, nonce, block, pinned, calls, hashes } = value
  return (
    stepKinds.includes(step as string) &&
    events.includes(event as string) &&
    optional(hash, isHex) &&
    optional(batchId, (id) => typeof id === 'string') &&
    optional(nonce, isCount) &&
    optional(block, isCount) &&
    optional(pinned, (flag) => typeof flag === 'boolean') &&
    optional(calls, (list) => Array.isArray(list) && list.every((kind) => stepKinds.includes(kind))) &&
    optional(hashes, (list) => Array.isArray(list) && list.every(isHex))
  )
}

/**
 * A record's journal: its own, or for a record stored by 0.1.0, the journal
 * its step and hashes describe.
 *
 * @example
 * const journal = journalOf(record)
 */
export function journalOf(record: PendingSwap): Journal {
  return record.journal ?? journalFromView(record, record.updatedAt)
}

/**
 * The record with `journal` as its journal (version 2), its step and hashes
 * read from it.
 *
 * @example
 * await savePendingSwap(storage, withJournal(record, [...journalOf(record), entry]))
 */
export function withJournal(record: PendingSwap, journal: Journal): PendingSwap {
  const { resetHash: _r, approvalHash: _a, swapHash: _s, batchId: _b, ...rest } = record
  return { ...rest, ...(withoutUndefined(viewOf(journal)) as JournalView), version: 2, journal }
}

/** Each storage's pending writes: the next one starts when the last one ended. */
const writes = new WeakMap<SwapStorage, Promise<unknown>>()

/**
 * Runs the read-modify-write `fn` after every earlier write to `storage` from
 * this JS context, so that two of them (two records settled at once) never
 * read the same list and undo each other.
 */
function serialized<value>(storage: SwapStorage, fn: () => Promise<value>): Promise<value> {
  const result = (writes.get(storage) ?? Promise.resolve()).then(fn)
  writes.set(
    storage,
    result.catch(() => {}),
  )
  return result
}

/**
 * Writes (or replaces) one record. Rejects, writing nothing, when the stored
 * list cannot be read (a failing storage, text that is not a list): the other
 * records are never overwritten.
 *
 * @example
 * await savePendingSwap(storage, { ...record, step: 'swapping', swapHash })
 */
export function savePendingSwap(storage: SwapStorage, record: PendingSwap): Promise<void> {
  return serialized(storage, async () => {
    const others = (await readEntries(storage)).filter((entry) => !hasId(entry, record.id))
    await storage.setItem(pendingSwapsKey, JSON.stringify([...others, record]))
  })
}

/**
 * Forgets a record (settled, or dismissed by the user). Rejects, writing
 * nothing, when the stored list cannot be read.
 *
 * @example
 * await removePendingSwap(storage, record.id)
 */
export function removePendingSwap(storage: SwapStorage, id: string): Promise<void> {
  return serialized(storage, async () => {
    const entries = await readEntries(storage)
    const kept = entries.filter((entry) => !hasId(entry, id))
    if (kept.length === entries.length) return
    if (kept.length) await storage.setItem(pendingSwapsKey, JSON.stringify(kept))
    else await storage.removeItem(pendingSwapsKey)
  })
}

export type GetPendingSwapsParameters = {
  /** Only this account's records. */
  account?: Address | undefined
  /** Only this chain's records. */
  chainId?: number | undefined
}

/**
 * The unsettled executions recorded in `storage`, oldest first, narrowed to
 * an account and a chain. Rejects when the storage cannot be read (a failing
 * storage, text that is not a list): an unreadable list is not an empty one.
 *
 * @example
 * const pending = await getPendingSwaps(getDefaultStorage(), { account, chainId: 1 })
 */
export async function getPendingSwaps(
  storage: SwapStorage,
  { account, chainId }: GetPendingSwapsParameters = {},
): Promise<PendingSwap[]> {
  return (await readAll(storage))
    .filter(
      (record) =>
        (account === undefined || isAddressEqual(record.account, account)) &&
        (chainId === undefined || record.chainId === chainId),
    )
    .sort((a, b) => a.createdAt - b.createdAt)
}

/** A new record's id: random, so tabs never collide. */
export function newPendingSwapId(): string {
  return bytesToHex(globalThis.crypto.getRandomValues(new Uint8Array(12))).slice(2)
}

export type { SwapStorage } from '../types.js'
