import type { TabEnvironment } from './environment.js'

/** A message between tabs: its type, the tab that sent it, and its fields. */
export type TabMessage = { type: string; from: string } & Record<string, unknown>

/** One `BroadcastChannel`, with a handler per message type. */
export type Bus = {
  readonly tabId: string
  /** Sends to every other tab on the channel (never to this one). */
  post(type: string, fields?: Record<string, unknown>): void
  on(type: string, handler: (message: TabMessage) => void): void
  close(): void
}

/**
 * Opens the channel `name` for this tab. What arrives is checked to be a
 * message of this protocol from another tab before any handler sees it; a
 * channel that fails to send (closed, or a value it cannot clone) drops the
 * message, as a closed tab would.
 *
 * @example
 * const bus = createBus(environment, 'token-swap-hooks/tabs/1:https://swap.example.com', tabId)
 * bus.on('state', ({ state }) => …)
 * bus.post('hello')
 */
export function createBus(environment: TabEnvironment, name: string, tabId: string): Bus {
  const channel = new environment.BroadcastChannel(name)
  const handlers = new Map<string, ((message: TabMessage) => void)[]>()
  let closed = false
  channel.addEventListener('message', ({ data }) => {
    const { type, from } = (data ?? {}) as Partial<TabMessage>
    if (closed || typeof type !== 'string' || typeof from !== 'string' || from === tabId) return
    for (const handler of handlers.get(type) ?? []) handler(data as TabMessage)
  })
  return {
    tabId,
    post(type, fields = {}) {
      if (closed) return
      try {
        channel.postMessage({ ...fields, type, from: tabId })
      } catch {
        // Not sent: the other tabs act as if this tab had said nothing.
      }
    },
    on(type, handler) {
      handlers.set(type, [...(handlers.get(type) ?? []), handler])
    },
    close() {
      closed = true
      channel.close()
    },
  }
}
