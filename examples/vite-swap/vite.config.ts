import react from '@vitejs/plugin-react'
import { defineConfig } from 'vite'

export default defineConfig({
  plugins: [react()],
  // react-dom and viem's clients, accounts and actions make one ~630 kB chunk (~200 kB gzip):
  // expected for a wallet page, so Vite's 500 kB warning is raised rather than split around.
  build: { chunkSizeWarningLimit: 800 },
})
