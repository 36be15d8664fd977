#!/usr/bin/env node
// The `token-swap-hooks-mock` command: serves the default mock market on 127.0.0.1.
import { main } from './cli.js'

main(process.argv.slice(2)).catch((error: unknown) => {
  console.error(error instanceof Error ? error.message : error)
  process.exitCode = 1
})
