import {
  createPublicClient,
  createWalletClient,
  defineChain,
  formatEther,
  formatGwei,
  type Hex,
  http,
  isHex,
} from 'viem'
import { privateKeyToAccount } from 'viem/accounts'
import { BaseError } from '../core/errors/base.js'
import {
  swapGuardAddress,
  swapGuardCodeHash,
  swapGuardExecutorAddress,
  swapGuardExecutorCodeHash,
} from '../core/execute/guard/swapGuard.js'
import { verifySwapGuard } from '../core/execute/guard/verifySwapGuard.js'
import { deploySwapGuard } from './deploySwapGuard.js'

/** The environment variable the deployer's private key is read from (never an argument: arguments end up in shell histories and process lists). */
export const deployGuardKeyVariable = 'DEPLOYER_PRIVATE_KEY'

export const deployGuardUsage = `Usage: token-swap-hooks-deploy-guard <rpc-url> [options]

Deploys the swap guard on the chain behind <rpc-url> through the deterministic deployment proxy
(0x4e59b44847b379578588920cA78FbF26c0B4956C), at ${swapGuardAddress} as on every chain,
then checks the code of the guard and of its executor against their hashes, and prints the gas
used and the cost. The deployer's private key is read from the ${deployGuardKeyVariable}
environment variable, never from the command line. Anyone can deploy it: the guard has no owner.

Options:
  --check              only verify what is deployed (no key needed): verified, missing or mismatch
  --confirmations <n>  blocks to wait for (default 1)
  --help               show this help

Exit codes: 0 deployed, already deployed or verified; 1 refused or failed; 2 bad usage.`

export type DeployGuardCommandOptions = {
  /** Where the private key is read from. Default `process.env`. */
  env?: Record<string, string | undefined> | undefined
  /** Where lines are printed. Default `console.log`. */
  log?: ((line: string) => void) | undefined
  /** Where errors are printed. Default `console.error`. */
  error?: ((line: string) => void) | undefined
}

/** The process exit code: 0 done, 1 refused or failed, 2 bad usage. */
export type DeployGuardCommandReturnType = 0 | 1 | 2

/**
 * The `token-swap-hooks-deploy-guard` command: deploys the swap guard on the
 * chain of the RPC URL it is given, with the key in `DEPLOYER_PRIVATE_KEY`,
 * through `deploySwapGuard` (which refuses a look-alike at the address, a
 * non-standard deployer or CREATE2, and checks both code hashes after), and
 * prints the transaction, the gas used, the gas price and the cost. With
 * `--check`, only reports `verifySwapGuard`'s answer. Returns the exit code.
 *
 * @example
 * // bin script
 * import { deployGuardCommand } from './deployGuardCommand.js'
 * process.exitCode = await deployGuardCommand(process.argv.slice(2))
 */
export async function deployGuardCommand(
  argv: readonly string[],
  options: DeployGuardCommandOptions = {},
): Promise<DeployGuardCommandReturnType> {
  const log = options.log ?? ((line: string) => console.log(line))
  const error = options.error ?? ((line: string) => console.error(line))
  const env = options.env ?? process.env

  const positional: string[] = []
  let check = false
  let confirmations = 1
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i] as string
    if (arg === '--help' || arg === '-h') {
      log(deployGuardUsage)
      return 0
    }
    if (arg === '--check') check = true
    else if (arg === '--confirmations' || arg.startsWith('--confirmations=')) {
      const value = arg.includes('=') ? arg.slice(arg.indexOf('=') + 1) : argv[++i]
      confirmations = Number(value)
      if (!Number.isInteger(confirmations) || confirmations < 1) {
        error(`--confirmations must be a whole number of blocks, at least 1 (got ${value}).`)
        return 2
      }
    } else if (arg.startsWith('-')) {
      error(`Unknown option ${arg}.\n\n${deployGuardUsage}`)
      return 2
    } else positional.push(arg)
  }
  if (positional.some((arg) => isHex(arg) && arg.length === 66)) {
    error(
      `A private key was given as an argument: refused (arguments end up in shell histories and process lists). Set ${deployGuardKeyVariable} instead, and consider that key exposed.`,
    )
    return 2
  }
  const [rpcUrl, ...extra] = positional
  if (!rpcUrl || extra.length > 0 || !/^(https?|wss?):\/\//.test(rpcUrl)) {
    error(`Give exactly one RPC URL (http(s):// or ws(s)://).\n\n${deployGuardUsage}`)
    return 2
  }

  try {
    const probe = createPublicClient({ transport: http(rpcUrl) })
    const chainId = await probe.getChainId()
    const chain = defineChain({
      id: chainId,
      name: `chain ${chainId}`,
      nativeCurrency: { name: 'native coin', symbol: 'native', decimals: 18 },
      rpcUrls: { default: { http: [rpcUrl] } },
    })
    const publicClient = createPublicClient({ chain, transport: http(rpcUrl) })

    if (check) {
      const status = await verifySwapGuard({ publicClient, fresh: true })
      log(`chain ${chainId}: swap guard ${status} (${swapGuardAddress})`)
      return status === 'verified' ? 0 : 1
    }

    const key = env[deployGuardKeyVariable]?.trim()
    if (!key) {
      error(`Set ${deployGuardKeyVariable} to the deployer's private key (0x followed by 64 hex digits).`)
      return 2
    }
    const normalized = (key.startsWith('0x') ? key : `0x${key}`) as Hex
    if (!isHex(normalized) || normalized.length !== 66) {
      error(`${deployGuardKeyVariable} is not a private key (0x followed by 64 hex digits).`)
      return 2
    }
    const account = privateKeyToAccount(normalized)
    const walletClient = createWalletClient({ chain, transport: http(rpcUrl), account })

    log(`chain ${chainId}: deploying the swap guard from ${account.address}`)
    const deployment = await deploySwapGuard({ walletClient, publicClient, confirmations })
    if (deployment.status === 'already-deployed') {
      log(`already deployed and verified at ${swapGuardAddress}: nothing sent`)
      return 0
    }
    const { receipt } = deployment
    const cost = receipt.gasUsed * receipt.effectiveGasPrice
    log(
      [
        `deployed: ${swapGuardAddress} (executor ${swapGuardExecutorAddress})`,
        `transaction: ${deployment.hash} (block ${receipt.blockNumber})`,
        `code verified: guard ${swapGuardCodeHash}, executor ${swapGuardExecutorCodeHash}`,
        `gas used: ${receipt.gasUsed}`,
        `gas price: ${formatGwei(receipt.effectiveGasPrice)} gwei`,
        `cost: ${formatEther(cost)} (native coin, ${cost} wei)`,
      ].join('\n'),
    )
    return 0
  } catch (cause) {
    error(
      cause instanceof BaseError
        ? `${cause.name}: ${cause.message}`
        : String((cause as Error)?.message ?? cause),
    )
    return 1
  }
}
