/**
 * A JSON-RPC forwarder to a node: `request(method, params)` resolves with the
 * result or rejects with the node's error (its `code` and `data` kept), as an
 * EIP-1193 provider does.
 *
 * @example
 * const request = jsonRpc(anvil.rpcUrl)
 * const chainId = await request('eth_chainId', [])
 */
export function jsonRpc(url: string | (() => string)) {
  let id = 0
  return async (method: string, params: unknown): Promise<unknown> => {
    const response = await fetch(typeof url === 'function' ? url() : url, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ jsonrpc: '2.0', id: ++id, method, params: params ?? [] }),
    })
    const body = (await response.json()) as {
      result?: unknown
      error?: { code: number; message: string; data?: unknown }
    }
    if (body.error) throw Object.assign(new Error(body.error.message), body.error)
    return body.result
  }
}
