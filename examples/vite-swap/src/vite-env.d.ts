/// <reference types="vite/client" />

interface ImportMetaEnv {
  /** The swap service, e.g. `http://127.0.0.1:8787` (`npx token-swap-hooks-mock`). */
  readonly VITE_SWAP_URL?: string
  /** The chain swaps are for. */
  readonly VITE_CHAIN_ID?: string
  /** A node of that chain: reads, simulations and receipts. */
  readonly VITE_RPC_URL?: string
  /** `router,spender`: the only addresses the page calls or approves on that chain. */
  readonly VITE_TRUSTED_ADDRESSES?: string
  /** LOCAL DEVELOPMENT AND CI ONLY: a private key to sign with when no wallet is injected. */
  readonly VITE_DEV_PRIVATE_KEY?: string
}

interface ImportMeta {
  readonly env: ImportMetaEnv
}
