/**
 * The swap service, read on the server at request time (`SWAP_URL=… npm start`), so one build
 * serves any environment. The layout hands it to the browser as a prop of `SwapProvider`.
 */
export function swapUrl(): string {
  return process.env.SWAP_URL || 'http://127.0.0.1:8787'
}
