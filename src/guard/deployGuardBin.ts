#!/usr/bin/env node
// The `token-swap-hooks-deploy-guard` command (see deployGuardCommand.ts, or run it with --help).
import { deployGuardCommand } from './deployGuardCommand.js'

deployGuardCommand(process.argv.slice(2)).then(
  (code) => {
    process.exitCode = code
  },
  (error: unknown) => {
    console.error(error instanceof Error ? error.message : error)
    process.exitCode = 1
  },
)
