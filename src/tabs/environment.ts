/**
 * What the tab coordination uses of the page: a `BroadcastChannel` to talk to
 * the origin's other tabs, the Web Locks API (`navigator.locks`) to elect one
 * of them and to know when a tab is gone (the browser releases a closed tab's
 * locks), and the page's visibility. The tests hand in fakes, with several
 * "tabs" in one process.
 */
export type TabEnvironment = {
  BroadcastChannel: new (name: string) => BroadcastChannelLike
  locks: LockManagerLike
  /** Whether the page is visible (TanStack Query polls visible pages only, by default). */
  isVisible(): boolean
  /** Calls `listener` when the page is shown or hidden; returns the unsubscribe. */
  onVisibilityChange(listener: () => void): () => void
}

/** The part of `BroadcastChannel` used here. */
export type BroadcastChannelLike = {
  postMessage(message: unknown): void
  addEventListener(type: 'message', listener: (event: { data: unknown }) => void): void
  close(): void
}

/** The part of `navigator.locks` (a `LockManager`) used here. */
export type LockManagerLike = {
  request(
    name: string,
    options: { ifAvailable?: boolean; signal?: AbortSignal },
    callback: (lock: unknown) => unknown,
  ): Promise<unknown>
  query?(): Promise<{ held?: LockInfoLike[] | undefined; pending?: LockInfoLike[] | undefined }>
}

/** A lock as `navigator.locks.query()` describes it: `clientId` tells the page (or worker) holding it. */
export type LockInfoLike = { name?: string | undefined; clientId?: string | undefined }

/** What every channel and lock name starts with: the protocol's version, so that two versions never talk. */
export const namePrefix = 'token-swap-hooks/tabs/2'

/**
 * The lock a coordinated tab holds for its life: the tab that runs the budget
 * waits on it to learn that a tab is gone, and a tab that receives a message
 * asks the lock manager whether its sender (named in `from`) holds the lock
 * the message needs (see `heldTogether`).
 */
export const lifeLock = (tab: string) => `${namePrefix}:tab:${tab}`

/**
 * Whether the locks `first` and `second` are both held, and by the same page:
 * the lock manager's word (`clientId`), which no message can change. So a tab
 * tells that the sender of a message holds the lock it speaks for
 * (`heldTogether(locks, pollLock, lifeLock(from))`). False when the browser
 * cannot tell.
 *
 * @example
 * if (await heldTogether(locks, `${namePrefix}:poll:${hash}`, lifeLock(message.from))) accept(message)
 */
export async function heldTogether(locks: LockManagerLike, first: string, second: string): Promise<boolean> {
  const held = (await locks.query?.().catch(() => undefined))?.held ?? []
  const holder = (name: string) => held.find((lock) => lock.name === name)?.clientId
  const client = holder(first)
  return client !== undefined && client === holder(second)
}

/**
 * The page's environment, or `undefined` where a part is missing (Node, a
 * worker, a browser without Web Locks): then nothing is coordinated.
 */
export function pageEnvironment(): TabEnvironment | undefined {
  const page = globalThis as {
    BroadcastChannel?: TabEnvironment['BroadcastChannel']
    navigator?: { locks?: LockManagerLike }
    document?: { visibilityState?: string } & Pick<EventTarget, 'addEventListener' | 'removeEventListener'>
  }
  const { BroadcastChannel, navigator, document } = page
  const locks = navigator?.locks
  if (typeof BroadcastChannel !== 'function' || typeof locks?.request !== 'function' || !document)
    return undefined
  return {
    BroadcastChannel,
    locks,
    isVisible: () => document.visibilityState !== 'hidden',
    onVisibilityChange(listener) {
      document.addEventListener('visibilitychange', listener)
      return () => document.removeEventListener('visibilitychange', listener)
    },
  }
}

/**
 * Requests the lock `name` and holds it until the returned release is called
 * or `signal` aborts. Resolves with `undefined` when it is not granted:
 * withdrawn (`signal`, aborted already or before the lock comes) or refused
 * by the browser.
 *
 * @example
 * const release = await holdLock(locks, 'name', controller.signal)
 * if (release) try { … } finally { release() }
 */
export function holdLock(
  locks: LockManagerLike,
  name: string,
  signal?: AbortSignal | undefined,
): Promise<(() => void) | undefined> {
  return new Promise((resolve) => {
    try {
      locks
        .request(name, { signal }, (lock) => {
          if (!lock || signal?.aborted) return resolve(undefined)
          return new Promise<void>((release) => {
            signal?.addEventListener('abort', () => release(), { once: true })
            resolve(() => release())
          })
        })
        .catch(() => resolve(undefined))
    } catch {
      resolve(undefined)
    }
  })
}
