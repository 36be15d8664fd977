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
  query?(): Promise<{ pending?: { name?: string | undefined }[] | undefined }>
}

/** What every channel and lock name starts with: the protocol's version, so that two versions never talk. */
export const namePrefix = 'token-swap-hooks/tabs/1'

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
 * Requests the lock `name` and holds it until the returned release is called.
 * Resolves with `undefined` when it is not granted: held elsewhere (with
 * `ifAvailable`), withdrawn (`signal`), or refused by the browser.
 *
 * @example
 * const release = await holdLock(locks, 'name', { ifAvailable: true })
 * if (release) try { … } finally { release() }
 */
export function holdLock(
  locks: LockManagerLike,
  name: string,
  { ifAvailable = false, signal }: { ifAvailable?: boolean; signal?: AbortSignal | undefined } = {},
): Promise<(() => void) | undefined> {
  return new Promise((resolve) => {
    if (signal?.aborted) return resolve(undefined)
    // The Web Locks API refuses a signal together with ifAvailable.
    const options = ifAvailable ? { ifAvailable } : signal ? { signal } : {}
    try {
      locks
        .request(name, options, (lock) => {
          if (!lock || signal?.aborted) return resolve(undefined)
          return new Promise<void>((release) => resolve(() => release()))
        })
        .catch(() => resolve(undefined))
    } catch {
      resolve(undefined)
    }
  })
}

/** A random id for this tab (per coordinator), never shared with another tab. */
export function newTabId(): string {
  const bytes = new Uint8Array(8)
  globalThis.crypto.getRandomValues(bytes)
  return Array.from(bytes, (byte) => byte.toString(16).padStart(2, '0')).join('')
}
