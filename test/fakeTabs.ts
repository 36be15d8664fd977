// Several "tabs" of one origin in one process, for the coordinator's unit tests: a BroadcastChannel
// that delivers a structured clone of each message to the other tabs' channels of the same name, as
// a task (never to the sender), and a Web Locks manager with the API's rules (exclusive locks, FIFO,
// `ifAvailable` refused while the lock is held or requested, `signal` withdraws a queued request, a
// closed tab's locks released and its requests dropped).
import type { LockManagerLike, TabEnvironment } from '../src/tabs/environment.js'

type Request = {
  tab: number
  name: string
  callback: (lock: unknown) => unknown
  resolve: (value: unknown) => void
  reject: (error: unknown) => void
}

export type FakeTab = {
  readonly id: number
  readonly environment: TabEnvironment
  /** The tab closes (or crashes): its channels stop, its locks are released, its requests dropped. */
  close(): void
  setVisible(visible: boolean): void
}

export function createFakeBrowser() {
  const channels = new Map<string, Set<{ tab: number; deliver: (data: unknown) => void }>>()
  const held = new Map<string, Request>()
  const queues = new Map<string, Request[]>()
  const closedTabs = new Set<number>()
  let tabs = 0

  const queueOf = (name: string) => {
    const queue = queues.get(name) ?? []
    queues.set(name, queue)
    return queue
  }

  function grant(request: Request) {
    held.set(request.name, request)
    // The callback runs as a task, as in a browser; the lock is held until its promise settles.
    setTimeout(() => {
      if (held.get(request.name) !== request) return
      Promise.resolve()
        .then(() => request.callback({ name: request.name, mode: 'exclusive' }))
        .then(request.resolve, request.reject)
        .finally(() => {
          if (held.get(request.name) !== request) return
          held.delete(request.name)
          next(request.name)
        })
    }, 0)
  }

  function next(name: string) {
    if (held.has(name)) return
    const request = queueOf(name).shift()
    if (request) grant(request)
  }

  function locksOf(tab: number): LockManagerLike {
    return {
      request(name, options, callback) {
        return new Promise((resolve, reject) => {
          if (closedTabs.has(tab)) return
          const { signal, ifAvailable } = options
          if (signal?.aborted) return reject(new DOMException('The request was aborted.', 'AbortError'))
          const request: Request = { tab, name, callback, resolve, reject }
          if (ifAvailable && (held.has(name) || queueOf(name).length > 0)) {
            setTimeout(() => Promise.resolve(callback(null)).then(resolve, reject), 0)
            return
          }
          queueOf(name).push(request)
          signal?.addEventListener('abort', () => {
            const queue = queueOf(name)
            const index = queue.indexOf(request)
            if (index === -1) return
            queue.splice(index, 1)
            reject(new DOMException('The request was aborted.', 'AbortError'))
          })
          next(name)
        })
      },
      async query() {
        // A tab is one client of the lock manager: its id is the lock's clientId.
        return {
          held: [...held.values()].map(({ name, tab }) => ({ name, clientId: `tab-${tab}` })),
          pending: [...queues.values()].flat().map(({ name, tab }) => ({ name, clientId: `tab-${tab}` })),
        }
      },
    }
  }

  return {
    /** Opens a tab: its own environment (channel, locks, visibility), visible. */
    tab(): FakeTab {
      const id = ++tabs
      let visible = true
      const visibilityListeners = new Set<() => void>()
      const own = new Set<{ close(): void }>()
      class FakeBroadcastChannel {
        readonly #name: string
        readonly #listeners = new Set<(event: { data: unknown }) => void>()
        readonly #entry = { tab: id, deliver: (data: unknown) => this.#deliver(data) }
        #closed = false
        constructor(name: string) {
          this.#name = name
          const set = channels.get(name) ?? new Set()
          channels.set(name, set)
          set.add(this.#entry)
          own.add(this)
        }
        #deliver(data: unknown) {
          if (this.#closed) return
          for (const listener of this.#listeners) listener({ data })
        }
        postMessage(message: unknown) {
          if (this.#closed) throw new DOMException('The channel is closed.', 'InvalidStateError')
          for (const entry of channels.get(this.#name) ?? [])
            if (entry !== this.#entry) {
              const data = structuredClone(message)
              setTimeout(() => entry.deliver(data), 0)
            }
        }
        addEventListener(_type: 'message', listener: (event: { data: unknown }) => void) {
          this.#listeners.add(listener)
        }
        close() {
          this.#closed = true
          channels.get(this.#name)?.delete(this.#entry)
        }
      }
      return {
        id,
        environment: {
          BroadcastChannel: FakeBroadcastChannel,
          locks: locksOf(id),
          isVisible: () => visible,
          onVisibilityChange(listener) {
            visibilityListeners.add(listener)
            return () => visibilityListeners.delete(listener)
          },
        },
        close() {
          closedTabs.add(id)
          for (const channel of own) channel.close()
          for (const [name, request] of [...held]) if (request.tab === id) held.delete(name)
          for (const [name, queue] of queues) {
            queues.set(
              name,
              queue.filter((request) => request.tab !== id),
            )
            next(name)
          }
        },
        setVisible(value) {
          visible = value
          for (const listener of visibilityListeners) listener()
        },
      }
    },
    /** Who holds each lock now (tab ids by lock name). */
    holders(): Map<string, number> {
      return new Map([...held].map(([name, request]) => [name, request.tab]))
    },
  }
}

/** Resolves after `ms` milliseconds. */
export const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms))
