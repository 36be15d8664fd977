/**
 * A JSON-RPC forwarder to a node: `request(method, params)` resolves with the
 * result or rejects with the node's error (its `code` and `data` kept), as an
 * EIP-1193 provider does.
 *
 * @example
 * const request = jsonRpc(anvil.rpcUrl)
 * const chainId = await request('eth_chainId', [])
 */
export function jsonRpc(url: string | (() => string), { timeoutMs = 10_000 }: { timeoutMs?: number } = {}) {
  let id = 0
  return async (method: string, params: unknown): Promise<unknown> => {
    let body: { result?: unknown; error?: { code: number; message: string; data?: unknown } }
    try {
      const response = await fetch(typeof url === 'function' ? url() : url, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ jsonrpc: '2.0', id: ++id, method, params: params ?? [] }),
        // A request the node never answers fails here, naming its method, not as a test timeout.
        signal: AbortSignal.timeout(timeoutMs),
      })
      body = (await response.json()) as typeof body
    } catch (error) {
      throw new Error(`${method}: no answer from the node (${(error as Error).message})`, { cause: error })
    }
    if (body.error) throw Object.assign(new Error(body.error.message), body.error)
    return body.result
  }
}

/**
 * Mines the transactions a test held with automine off, then turns automine
 * back on, in that order: turning automine on with transactions held makes
 * anvil mine them in the background, and a block mined meanwhile (or the
 * revert after the test) races it, which now and then strands a later
 * transaction (see `unstickTransactions`).
 *
 * @example
 * await mineHeld(jsonRpc(anvil.rpcUrl))
 */
export async function mineHeld(request: ReturnType<typeof jsonRpc>) {
  await request('evm_mine', [])
  await request('evm_setAutomine', [true])
}
