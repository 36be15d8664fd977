import {
  type Abi,
  type Address,
  createWalletClient,
  encodeFunctionData,
  getAddress,
  type Hash,
  type Hex,
  http,
  parseEventLogs,
  type TransactionReceipt,
  zeroAddress,
} from 'viem'
import { type PrivateKeyAccount, privateKeyToAccount } from 'viem/accounts'
import { encodeSwapWithPermit2 } from '../../src/core/execute/guard/encodeSwapWithPermit2.js'
import { permit2Address, swapGuardAbi, swapGuardAddress } from '../../src/core/execute/guard/swapGuard.js'
import {
  type SwapPermitTypedDataParameters,
  swapPermitTypedData,
} from '../../src/core/execute/guard/swapPermitTypedData.js'
import { swapRouterAbi } from '../../src/mock/routerAbi.js'
import { testErc20Abi } from './abis.js'
import type { SwapFixture } from './fixture.js'
import { deployPermit2 } from './production/permit2.js'
import { jsonRpc } from './rpc.js'

/*
 * Helpers for the swap guard's on-chain tests and gas figures: calldata as the
 * service and the library build it, approvals, deployments, and the revert
 * data of a mined transaction.
 */

/** anvil's fourth default account: the attacker in the guard's tests (10,000 ETH, no tokens). */
export const attackerAccount = privateKeyToAccount(
  '0x7c852118294e51e653712a81e05800f419141751be58f605c371e15141b007a6',
)

/** `SwapGuardExecutor.run` and its guard-only error: not exported by the library, used to prove it is guard-only. */
export const swapGuardExecutorAbi = [
  {
    type: 'function',
    name: 'run',
    stateMutability: 'payable',
    inputs: [
      { name: 'payer', type: 'address' },
      { name: 'token0', type: 'address' },
      { name: 'token1', type: 'address' },
      { name: 'recipient', type: 'address' },
      { name: 'spender', type: 'address' },
      { name: 'amountIn', type: 'uint256' },
      { name: 'router', type: 'address' },
      { name: 'token0Before', type: 'uint256' },
      { name: 'data', type: 'bytes' },
    ],
    outputs: [{ name: 'toPayer', type: 'uint256' }],
  },
  { type: 'error', name: 'NotGuard', inputs: [] },
  { type: 'error', name: 'InvalidSwap', inputs: [] },
] as const

export type RouterSwap = {
  path: readonly Address[]
  amountIn: bigint
  minAmountOut?: bigint | undefined
  to: Address
  deadline: bigint
}

/** The service's calldata: `swap(path, amountIn, minAmountOut, to, deadline)` of src/mock/routerAbi.ts. */
export function routerSwapData({ path, amountIn, minAmountOut = 0n, to, deadline }: RouterSwap): Hex {
  return encodeFunctionData({
    abi: swapRouterAbi,
    functionName: 'swap',
    args: [[...path], amountIn, minAmountOut, to, deadline],
  })
}

export type GuardSwap = {
  token0: Address
  amountIn: bigint
  token1: Address
  minAmountOut: bigint
  recipient: Address
  /** Default: none (`address(0)`). */
  spender?: Address | undefined
  router: Address
  data: Hex
}

/** `SwapGuard.swap` calldata, in the argument order of the contract. */
export function guardSwapData(swap: GuardSwap): Hex {
  return encodeFunctionData({
    abi: swapGuardAbi,
    functionName: 'swap',
    args: [
      swap.token0,
      swap.amountIn,
      swap.token1,
      swap.minAmountOut,
      swap.recipient,
      swap.spender ?? zeroAddress,
      swap.router,
      swap.data,
    ],
  })
}

/** The latest block's timestamp plus `seconds`. */
export async function deadlineIn(fixture: SwapFixture, seconds = 3600n): Promise<bigint> {
  return (await fixture.publicClient.getBlock()).timestamp + seconds
}

/** Waits for the receipt of a sent transaction (whatever its status). */
export async function receiptOf(
  fixture: SwapFixture,
  hash: Hash | Promise<Hash>,
): Promise<TransactionReceipt> {
  return fixture.publicClient.waitForTransactionReceipt({ hash: await hash })
}

/** Waits for the receipt and throws unless the transaction succeeded. */
export async function mined(
  fixture: SwapFixture,
  hash: Hash | Promise<Hash>,
  what = 'transaction',
): Promise<TransactionReceipt> {
  const receipt = await receiptOf(fixture, hash)
  if (receipt.status !== 'success') throw new Error(`${what} reverted (${receipt.transactionHash})`)
  return receipt
}

/** What a mined transaction cost its sender in gas, in wei. */
export const gasCost = (receipt: TransactionReceipt): bigint => receipt.gasUsed * receipt.effectiveGasPrice

/** Deploys a compiled contract from the fixture's deployer and returns its address. */
export async function deploy(
  fixture: SwapFixture,
  contract: { abi: Abi; bytecode: Hex },
  args: readonly unknown[] = [],
): Promise<Address> {
  const receipt = await mined(
    fixture,
    fixture.deployerClient.deployContract({ abi: contract.abi, bytecode: contract.bytecode, args }),
    'deployment',
  )
  return getAddress(receipt.contractAddress as Address)
}

export type TestWalletClient = SwapFixture['userClient']

/** A wallet client for another of anvil's accounts, on the fixture's chain (as `fixture.userClient`). */
export function walletFor(fixture: SwapFixture, account: PrivateKeyAccount): TestWalletClient {
  return createWalletClient({
    chain: fixture.chain,
    transport: http(fixture.rpcUrl),
    account,
    pollingInterval: 50,
  }) as TestWalletClient
}

/** `token.approve(spender, amount)` from `client`'s account, mined. */
export async function approve(
  fixture: SwapFixture,
  client: TestWalletClient,
  token: Address,
  spender: Address,
  amount: bigint,
): Promise<TransactionReceipt> {
  return mined(
    fixture,
    client.writeContract({
      address: token,
      abi: testErc20Abi,
      functionName: 'approve',
      args: [spender, amount],
    }),
    'approve',
  )
}

/** Mints a fixture token (anyone can) to `to`, from the deployer. */
export async function mint(fixture: SwapFixture, token: Address, to: Address, amount: bigint): Promise<void> {
  await mined(
    fixture,
    fixture.deployerClient.writeContract({
      address: token,
      abi: testErc20Abi,
      functionName: 'mint',
      args: [to, amount],
    }),
    'mint',
  )
}

export async function allowance(
  fixture: SwapFixture,
  token: Address,
  owner: Address,
  spender: Address,
): Promise<bigint> {
  return fixture.publicClient.readContract({
    address: token,
    abi: testErc20Abi,
    functionName: 'allowance',
    args: [owner, spender],
  })
}

/** The `GuardedSwap` events of a receipt, emitted by the guard. */
export function guardedSwaps(receipt: TransactionReceipt) {
  return parseEventLogs({ abi: swapGuardAbi, logs: receipt.logs, eventName: 'GuardedSwap' })
    .filter((log) => log.address.toLowerCase() === swapGuardAddress.toLowerCase())
    .map((log) => log.args)
}

/**
 * The revert data of a mined transaction's top-level call (anvil's
 * `debug_traceTransaction` with the call tracer): a reverted transaction's
 * receipt holds none, and replaying it with `eth_call` would run with gas
 * price 0, where the hostile contracts behave.
 */
export async function revertDataOf(fixture: SwapFixture, hash: Hash): Promise<Hex | undefined> {
  const trace = (await jsonRpc(fixture.rpcUrl)('debug_traceTransaction', [
    hash,
    { tracer: 'callTracer' },
  ])) as {
    output?: Hex
    error?: string
  }
  return trace.error ? (trace.output ?? '0x') : undefined
}

/** Puts Permit2 at its canonical address on the fixture's chain (compiled from source; cached), unless it is there. */
export async function ensurePermit2(fixture: SwapFixture): Promise<void> {
  if (await fixture.publicClient.getCode({ address: permit2Address })) return
  await deployPermit2(jsonRpc(fixture.rpcUrl), fixture.accounts.deployer.address)
}

export type GuardPermitSwap = Omit<SwapPermitTypedDataParameters, 'chainId'>

/** The owner's signature of a `swapWithPermit2` permit, on the fixture's chain (viem `signTypedData`). */
export async function signSwapPermit(
  fixture: SwapFixture,
  owner: PrivateKeyAccount,
  permit: GuardPermitSwap,
): Promise<Hex> {
  return owner.signTypedData(swapPermitTypedData({ ...permit, chainId: fixture.chain.id }))
}

/** `SwapGuard.swapWithPermit2` calldata for `owner`'s permit, signed here. */
export async function guardPermit2Data(
  fixture: SwapFixture,
  owner: PrivateKeyAccount,
  permit: GuardPermitSwap,
): Promise<Hex> {
  const signature = await signSwapPermit(fixture, owner, permit)
  return encodeSwapWithPermit2({ ...permit, owner: owner.address, signature })
}
