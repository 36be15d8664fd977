import { describe, expect, test, vi } from 'vitest'
import { setupLoopbackServers } from '../loopback.js'
import { unstickTransactions } from './unstick.js'

const startLoopbackServer = setupLoopbackServers()

/** A node whose pool holds `ready` (hashes) and whose automine is `automine`; it records every method asked. */
async function fakeNode(state: { ready: string[]; automine: boolean }) {
  const methods: string[] = []
  const server = await startLoopbackServer((request, response) => {
    let text = ''
    request.on('data', (chunk) => {
      text += chunk
    })
    request.on('end', () => {
      const { id, method } = JSON.parse(text) as { id: number; method: string }
      methods.push(method)
      const result =
        method === 'txpool_content'
          ? {
              pending: { '0xaa': Object.fromEntries(state.ready.map((hash, nonce) => [nonce, { hash }])) },
              queued: {},
            }
          : method === 'anvil_getAutomine'
            ? state.automine
            : null
      response.setHeader('content-type', 'application/json')
      response.end(JSON.stringify({ jsonrpc: '2.0', id, result }))
    })
  })
  const count = (name: string) => methods.filter((method) => method === name).length
  return { url: server.url, mines: () => count('evm_mine'), looks: () => count('txpool_content') }
}

const ticks = (count: number, intervalMs: number) =>
  new Promise((resolve) => setTimeout(resolve, count * intervalMs + intervalMs / 2))

describe('unstickTransactions', () => {
  test('a transaction left ready with automine on: one block mined for it, not one per tick', async () => {
    const node = await fakeNode({ ready: ['0x01'], automine: true })
    const stop = unstickTransactions(node.url, { intervalMs: 20 })
    try {
      await vi.waitFor(() => expect(node.mines()).toBe(1), { timeout: 5_000 })
      const looked = node.looks()
      await vi.waitFor(() => expect(node.looks()).toBeGreaterThan(looked + 3), { timeout: 5_000 })
      expect(node.mines()).toBe(1)
    } finally {
      stop()
    }
  })

  test('transactions held with automine off: never mined', async () => {
    const node = await fakeNode({ ready: ['0x01', '0x02'], automine: false })
    const stop = unstickTransactions(node.url, { intervalMs: 20 })
    try {
      await vi.waitFor(() => expect(node.looks()).toBeGreaterThan(5), { timeout: 5_000 })
      expect(node.mines()).toBe(0)
    } finally {
      stop()
    }
  })

  test('a transaction seen once (mined by automine before the next look): left alone; stopped, it looks no more', async () => {
    const state = { ready: ['0x01'], automine: true }
    const node = await fakeNode(state)
    const stop = unstickTransactions(node.url, { intervalMs: 40 })
    await vi.waitFor(() => expect(node.looks()).toBe(1), { timeout: 5_000, interval: 5 })
    state.ready = []
    await vi.waitFor(() => expect(node.looks()).toBeGreaterThan(3), { timeout: 5_000 })
    expect(node.mines()).toBe(0)
    state.ready = ['0x03']
    stop()
    const looked = node.looks()
    await ticks(4, 40)
    expect(node.looks()).toBeLessThanOrEqual(looked + 1) // at most the look already under way
    expect(node.mines()).toBe(0)
  })
})
