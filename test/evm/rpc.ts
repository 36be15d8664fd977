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
  const post = async (method: string, params: unknown) => {
    const response = await fetch(typeof url === 'function' ? url() : url, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ jsonrpc: '2.0', id: ++id, method, params: params ?? [] }),
      // A request the node never answers fails here, naming its method, instead of as a test timeout.
      signal: AbortSignal.timeout(timeoutMs),
    })
    return (await response.json()) as {
      result?: unknown
      error?: { code: number; message: string; data?: unknown }
    }
  }
  return async (method: string, params: unknown): Promise<unknown> => {
    let body: Awaited<ReturnType<typeof post>>
    try {
      body = await post(method, params)
    } catch (error) {
      // A read is asked again once (a socket the node closed, a request lost); a write never is:
      // it may have reached the node.
      if (!/^eth_(get|call$|chainId$|blockNumber$)/.test(method))
        throw new Error(`${method}: no answer from the node (${(error as Error).message})`, { cause: error })
      body = await post(method, params)
    }
    if (body.error) throw Object.assign(new Error(body.error.message), body.error)
    return body.result
  }
}
