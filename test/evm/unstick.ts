import { jsonRpc } from './rpc.js'

/**
 * Anvil in automine mode now and then leaves a ready transaction in its pool
 * instead of mining it (foundry-rs/foundry#10122: "block mining misses ready
 * transactions"): whoever waits for its receipt waits forever, and the test
 * fails as a timeout far from the cause. This watch mines a block for a
 * transaction seen ready twice in a row while automine is on, once per
 * transaction. With automine off (a test holding transactions in the mempool)
 * it does nothing, and a transaction anvil cannot include (a fee under the
 * base fee) gets one empty block, not one per tick.
 */
export function unstickTransactions(rpcUrl: string, { intervalMs = 250 }: { intervalMs?: number } = {}) {
  const rpc = jsonRpc(rpcUrl, { timeoutMs: 5_000 })
  let previous = new Set<string>()
  const nudged = new Set<string>()
  let stopped = false
  let timer: ReturnType<typeof setTimeout> | undefined
  const tick = async () => {
    try {
      const { pending = {} } = ((await rpc('txpool_content', [])) ?? {}) as {
        pending?: Record<string, Record<string, { hash: string }>>
      }
      const ready = new Set(
        Object.values(pending).flatMap((byNonce) => Object.values(byNonce).map((tx) => tx.hash)),
      )
      const stuck = [...ready].filter((hash) => previous.has(hash) && !nudged.has(hash))
      previous = ready
      // Read after the pool: a test that turned automine off meanwhile holds its transactions on purpose.
      if (stuck.length > 0 && !stopped && (await rpc('anvil_getAutomine', [])) === true) {
        for (const hash of stuck) nudged.add(hash)
        await rpc('evm_mine', [])
      }
    } catch {
      // The node is stopping, or busy: the next tick looks again.
    }
    if (!stopped) {
      timer = setTimeout(tick, intervalMs)
      timer.unref?.()
    }
  }
  timer = setTimeout(tick, intervalMs)
  timer.unref?.()
  return () => {
    stopped = true
    clearTimeout(timer)
  }
}
