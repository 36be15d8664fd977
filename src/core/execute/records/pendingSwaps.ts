import { type Address, bytesToHex, isAddressEqual } from 'viem'
import { isAddressLike, isObject } from '../../utils/validate.js'
import { withoutUndefined } from '../../utils/withoutUndefined.js'
import type { SwapStorage } from '../types.js'
import { type Journal, type JournalEntry, type JournalView, journalFromView, viewOf } from './journal.js'

/**
 * An execution that sent something (or was about to) and has not settled: what it swaps, the user's floor,
 * its journal and its view (the step it reached, its hashes). Never holds a key, a signature or a header.
 */
export type PendingSwap = JournalView & {
  id: string
  /** 2 since the journal; 1 for 0.1.0's records, read as the journal their step and hashes describe. */
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
  /** The user's floor for token1, as a decimal string. */
  minAmountOut: string
  slippage?: number | undefined
  spender?: Address | undefined
  /** The router the swap calls (its transaction's `to`): a call to it after the approval is taken for the swap. */
  router?: Address | undefined
  /** What happened to each step, in order: the record's source of truth (absent from 0.1.0's records). */
  journal?: Journal | undefined
  createdAt: number
  updatedAt: number
}

const key = 'token-swap-hooks:pending-swaps'

/**
 * A storage kept in memory (lost on reload): the default where there is no `localStorage`.
 * @example executeSwap(client, { ...swap, storage: createMemoryStorage() })
 */
export function createMemoryStorage(): SwapStorage {
  const items = new Map<string, string>()
  return {
    getItem: (name) => items.get(name) ?? null,
    setItem: (name, value) => void items.set(name, value),
    removeItem: (name) => void items.delete(name),
  }
}

let fallback: SwapStorage | undefined

/**
 * `localStorage` where the runtime has a working one, else one memory storage shared by the process.
 * @example const pending = await getPendingSwaps(getDefaultStorage(), { account, chainId })
 */
export function getDefaultStorage(): SwapStorage {
  try {
    const storage = (globalThis as { localStorage?: SwapStorage }).localStorage
    if (storage) {
      storage.setItem(`${key}:probe`, '1')
      storage.removeItem(`${key}:probe`)
      return storage
    }
  } catch {
    // Storage disabled (private mode, a sandboxed frame): memory it is.
  }
  fallback ??= createMemoryStorage()
  return fallback
}

/**
 * The storage an execution option names: `false` none, `undefined` the default.
 * @example const storage = resolveStorage(parameters.storage) // SwapStorage | undefined
 */
export function resolveStorage(option: SwapStorage | false | undefined): SwapStorage | undefined {
  return option === false ? undefined : (option ?? getDefaultStorage())
}

/** Every entry stored, as written; a failing read, or text that is not a JSON list, rejects (never overwritten). */
async function readEntries(storage: SwapStorage): Promise<unknown[]> {
  const entries = JSON.parse((await storage.getItem(key)) ?? '[]') as unknown
  if (!Array.isArray(entries))
    throw new Error(`The pending swaps under ${key} are not a list: left as they are.`)
  return entries
}

const isHex = (value: unknown) => typeof value === 'string' && /^0x[0-9a-fA-F]*$/.test(value)
const isCount = (value: unknown) => Number.isSafeInteger(value) && (value as number) >= 0
const oneOf =
  (...values: string[]) =>
  (value: unknown) =>
    values.includes(value as string)
const listOf = (check: (value: unknown) => boolean) => (value: unknown) =>
  Array.isArray(value) && value.every(check)
const isStep = /* @__PURE__ */ oneOf('reset', 'approve', 'swap', 'batch')
const isEvent = /* @__PURE__ */ oneOf(
  'sending',
  'sent',
  'mined',
  'reverted',
  'replaced',
  'rejected',
  'unknown',
)
/** A journal entry's optional fields and their types. */
const optionalFields: Record<string, (value: unknown) => boolean> = {
  hash: isHex,
  batchId: (id) => typeof id === 'string',
  nonce: isCount,
  block: isCount,
  pinned: (flag) => typeof flag === 'boolean',
  calls: /* @__PURE__ */ listOf(isStep),
  hashes: /* @__PURE__ */ listOf(isHex),
}
const isJournalEntry = (value: unknown): value is JournalEntry =>
  isObject(value) &&
  isStep(value.step) &&
  isEvent(value.event) &&
  Object.entries(optionalFields).every(([field, check]) => value[field] === undefined || check(value[field]))

/**
 * Whether `value` is a whole record (a tampered journal entry makes it not one): anything else stored is
 * ignored.
 * @example if (!isPendingSwap(record)) throw new Error('not a recorded execution')
 */
export function isPendingSwap(value: unknown): value is PendingSwap {
  if (!isObject(value)) return false
  const { id, version, chainId, account, token0, token1, to, amountIn, minAmountOut, step, journal } = value
  return (
    typeof id === 'string' &&
    (version === 1 || (version === 2 && listOf(isJournalEntry)(journal))) &&
    Number.isSafeInteger(chainId) &&
    [account, token0, token1, to].every(isAddressLike) &&
    [amountIn, minAmountOut].every((amount) => typeof amount === 'string' && /^\d+$/.test(amount)) &&
    oneOf('approving', 'approved', 'swapping', 'batching')(step)
  )
}

/**
 * A record's journal: its own, or a 0.1.0 record's as its step and hashes describe it.
 * @example const journal = journalOf(record)
 */
export function journalOf(record: PendingSwap): Journal {
  return record.journal ?? journalFromView(record, record.updatedAt)
}

/**
 * The record with `journal` as its journal (version 2), its step and hashes read from it.
 * @example await savePendingSwap(storage, withJournal(record, [...journalOf(record), entry]))
 */
export function withJournal(record: PendingSwap, journal: Journal): PendingSwap {
  const { resetHash: _r, approvalHash: _a, swapHash: _s, batchId: _b, ...rest } = record
  return { ...rest, ...(withoutUndefined(viewOf(journal)) as JournalView), version: 2, journal }
}

/** Each storage's last write: a read-modify-write starts when the one before ended (none undoes another). */
const writes = new WeakMap<SwapStorage, Promise<unknown>>()

/** Writes what `change` makes of the stored entries (`undefined`: nothing to write), after the storage's last write. */
function rewrite(storage: SwapStorage, change: (entries: unknown[]) => unknown[] | undefined): Promise<void> {
  const result = (writes.get(storage) ?? Promise.resolve()).then(async () => {
    const entries = change(await readEntries(storage))
    if (entries?.length) await storage.setItem(key, JSON.stringify(entries))
    else if (entries) await storage.removeItem(key)
  })
  writes.set(
    storage,
    result.catch(() => {}),
  )
  return result
}

const isNot = (id: string) => (entry: unknown) => !isObject(entry) || entry.id !== id

/**
 * Writes (or replaces) one record; rejects, writing nothing, when the stored list cannot be read.
 * @example await savePendingSwap(storage, { ...record, step: 'swapping', swapHash })
 */
export function savePendingSwap(storage: SwapStorage, record: PendingSwap): Promise<void> {
  return rewrite(storage, (entries) => [...entries.filter(isNot(record.id)), record])
}

/**
 * Forgets a record (settled, or dismissed); rejects, writing nothing, when the stored list cannot be read.
 * @example await removePendingSwap(storage, record.id)
 */
export function removePendingSwap(storage: SwapStorage, id: string): Promise<void> {
  return rewrite(storage, (entries) => {
    const kept = entries.filter(isNot(id))
    return kept.length === entries.length ? undefined : kept
  })
}

/** Which records `getPendingSwaps` returns: an account's, a chain's (both optional). */
export type GetPendingSwapsParameters = {
  /** Only this account's records. */
  account?: Address | undefined
  /** Only this chain's records. */
  chainId?: number | undefined
}

/**
 * The unsettled executions in `storage`, oldest first, of an account and a chain; rejects when the storage
 * cannot be read (an unreadable list is not an empty one).
 * @example const pending = await getPendingSwaps(getDefaultStorage(), { account, chainId: 1 })
 */
export async function getPendingSwaps(
  storage: SwapStorage,
  { account, chainId }: GetPendingSwapsParameters = {},
): Promise<PendingSwap[]> {
  return (await readEntries(storage))
    .filter(isPendingSwap)
    .filter(
      (record) =>
        (account === undefined || isAddressEqual(record.account, account)) &&
        (chainId === undefined || record.chainId === chainId),
    )
    .sort((a, b) => a.createdAt - b.createdAt)
}

/**
 * A new record's id: random, so tabs never collide.
 * @example const id = newPendingSwapId()
 */
export function newPendingSwapId(): string {
  return bytesToHex(globalThis.crypto.getRandomValues(new Uint8Array(12))).slice(2)
}

export type { SwapStorage } from '../types.js'
