import {
  type Chain,
  concat,
  createPublicClient,
  createWalletClient,
  defineChain,
  type Hex,
  http,
  keccak256,
  zeroAddress,
} from 'viem'
import { privateKeyToAccount } from 'viem/accounts'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { type StartAnvilReturnType, startAnvil } from '../../test/evm/anvil.js'
import { anvilPrivateKeys } from '../../test/evm/fixture.js'
import { jsonRpc } from '../../test/evm/rpc.js'
import { createTestWallet } from '../../test/evm/wallet.js'
import { ChainMismatchError } from '../core/errors/execute.js'
import {
  DeterministicDeployerMismatchError,
  SwapGuardCodeMismatchError,
  SwapGuardNotDeployedError,
} from '../core/errors/guard.js'
import {
  deterministicDeployerAddress,
  deterministicDeployerCodeHash,
  swapGuardAddress,
  swapGuardCodeHash,
  swapGuardExecutorAddress,
  swapGuardExecutorCodeHash,
} from '../core/execute/guard/swapGuard.js'
import { deploySwapGuard, isSwapGuardDeployed } from './deploySwapGuard.js'
import { swapGuardInitCode, swapGuardSalt } from './swapGuardInitCode.js'

const account = privateKeyToAccount(anvilPrivateKeys[1])

function clientsFor(anvil: StartAnvilReturnType) {
  const chain: Chain = defineChain({
    id: anvil.chainId,
    name: 'Anvil',
    nativeCurrency: { name: 'Ether', symbol: 'ETH', decimals: 18 },
    rpcUrls: { default: { http: [anvil.rpcUrl] } },
  })
  const transport = http(anvil.rpcUrl)
  return {
    publicClient: createPublicClient({ chain, transport, pollingInterval: 50 }),
    walletClient: createWalletClient({ chain, transport, account, pollingInterval: 50 }),
  }
}

let anvil: StartAnvilReturnType
let bare: StartAnvilReturnType

beforeAll(async () => {
  ;[anvil, bare] = await Promise.all([
    startAnvil(),
    startAnvil({ args: ['--disable-default-create2-deployer'] }),
  ])
}, 30_000)
afterAll(async () => {
  await Promise.all([anvil?.stop(), bare?.stop()])
})

describe('deploySwapGuard', () => {
  test('deploys through the proxy in one transaction, at swapGuardAddress, its executor at swapGuardExecutorAddress; a second call sends nothing', async () => {
    const { publicClient, walletClient } = clientsFor(anvil)
    expect(await publicClient.getCode({ address: deterministicDeployerAddress })).toMatch(/^0x[0-9a-f]+$/)
    expect(await isSwapGuardDeployed({ publicClient })).toBe(false)
    const nonce = await publicClient.getTransactionCount({ address: account.address })

    const deployed = await deploySwapGuard({ walletClient, publicClient })
    expect(deployed.status).toBe('deployed')
    if (deployed.status !== 'deployed') return
    expect(deployed.address).toBe(swapGuardAddress)
    expect(deployed.receipt.status).toBe('success')
    expect(deployed.receipt.transactionHash).toBe(deployed.hash)
    expect(await publicClient.getTransactionCount({ address: account.address })).toBe(nonce + 1)
    const transaction = await publicClient.getTransaction({ hash: deployed.hash })
    expect(transaction.to).toBe(deterministicDeployerAddress.toLowerCase())
    expect(transaction.input).toBe(concat([swapGuardSalt, swapGuardInitCode]))
    expect(transaction.chainId).toBe(anvil.chainId)
    expect(transaction.value).toBe(0n)

    // The guard holds its executor's address, and the executor the guard's (immutables).
    const guardCode = (await publicClient.getCode({ address: swapGuardAddress })) as Hex
    const executorCode = (await publicClient.getCode({ address: swapGuardExecutorAddress })) as Hex
    expect(keccak256(guardCode)).toBe(swapGuardCodeHash)
    expect(keccak256(executorCode)).toBe(swapGuardExecutorCodeHash)
    expect(guardCode.length).toBeGreaterThan(2)
    expect(executorCode.length).toBeGreaterThan(2)
    expect(guardCode).toContain(swapGuardExecutorAddress.slice(2).toLowerCase())
    expect(executorCode).toContain(swapGuardAddress.slice(2).toLowerCase())
    expect(await isSwapGuardDeployed({ publicClient })).toBe(true)

    const block = await publicClient.getBlockNumber()
    const again = await deploySwapGuard({ walletClient, publicClient })
    expect(again).toEqual({ address: swapGuardAddress, status: 'already-deployed' })
    expect(await publicClient.getTransactionCount({ address: account.address })).toBe(nonce + 1)
    expect(await publicClient.getBlockNumber()).toBe(block)
  })

  test('a wallet account (eth_sendTransaction, chain id passed) deploys it the same way', async () => {
    // A chain of its own, without the guard yet.
    const other = await startAnvil()
    try {
      const { publicClient } = clientsFor(other)
      const wallet = createTestWallet({ rpcUrl: other.rpcUrl, account: account.address })
      const deployed = await deploySwapGuard({ walletClient: wallet.walletClient, publicClient })
      expect(deployed.status).toBe('deployed')
      expect(wallet.sendRequests()).toHaveLength(1)
      expect(wallet.sendRequests()[0]?.params).toEqual([
        expect.objectContaining({
          to: deterministicDeployerAddress,
          data: concat([swapGuardSalt, swapGuardInitCode]),
          chainId: `0x${other.chainId.toString(16)}`,
        }),
      ])
      expect(await isSwapGuardDeployed({ publicClient })).toBe(true)
    } finally {
      await other.stop()
    }
  })

  test('refuses a chain other than the one asked for, sending nothing', async () => {
    const { publicClient, walletClient } = clientsFor(anvil)
    const nonce = await publicClient.getTransactionCount({ address: account.address })
    const error = await deploySwapGuard({ walletClient, publicClient, chainId: 1 }).catch((e: unknown) => e)
    expect(error).toBeInstanceOf(ChainMismatchError)
    expect(await publicClient.getTransactionCount({ address: account.address })).toBe(nonce)
  })

  test('on a chain without the deterministic deployment proxy: SwapGuardNotDeployedError, deployerAvailable false, nothing sent', async () => {
    const { publicClient, walletClient } = clientsFor(bare)
    expect(await publicClient.getCode({ address: deterministicDeployerAddress })).toBeUndefined()
    const nonce = await publicClient.getTransactionCount({ address: account.address })
    const block = await publicClient.getBlockNumber()

    const error = await deploySwapGuard({ walletClient, publicClient }).catch((e: unknown) => e)
    expect(error).toBeInstanceOf(SwapGuardNotDeployedError)
    const notDeployed = error as SwapGuardNotDeployedError
    expect(notDeployed.name).toBe('SwapGuardNotDeployedError')
    expect(notDeployed.deployerAvailable).toBe(false)
    expect(notDeployed.chainId).toBe(bare.chainId)
    expect(notDeployed.address).toBe(swapGuardAddress)
    expect(notDeployed.hash).toBeUndefined()
    expect(notDeployed.shortMessage).toBe(
      `The swap guard is not deployed on chain ${bare.chainId} and cannot be: no deterministic deployment proxy (${deterministicDeployerAddress}).`,
    )
    expect(notDeployed.message).toContain('Nothing was sent.')

    expect(await publicClient.getTransactionCount({ address: account.address })).toBe(nonce)
    expect(await publicClient.getBlockNumber()).toBe(block)
    expect(await isSwapGuardDeployed({ publicClient })).toBe(false)
  })

  test("the error's message when the proxy is there says how to deploy the guard", () => {
    const error = new SwapGuardNotDeployedError({
      chainId: 8453,
      address: swapGuardAddress,
      deployerAvailable: true,
    })
    expect(error.shortMessage).toBe(
      'The swap guard is not deployed on chain 8453: anyone can deploy it (deploySwapGuard).',
    )
    expect(error.metaMessages).toEqual([`Guard address: ${swapGuardAddress}`, 'Nothing was sent.'])
  })

  /** A chain of its own for a test that changes code, and what the deployer's nonce and the block are. */
  async function freshChain() {
    const chain = await startAnvil()
    const clients = clientsFor(chain)
    const state = async () => ({
      nonce: await clients.publicClient.getTransactionCount({ address: account.address }),
      block: await clients.publicClient.getBlockNumber(),
    })
    return { chain, ...clients, request: jsonRpc(chain.rpcUrl), state }
  }

  test("other code at the guard's address: SwapGuardCodeMismatchError, never 'already-deployed', nothing sent", async () => {
    const { chain, publicClient, walletClient, request, state } = await freshChain()
    try {
      await request('anvil_setCode', [swapGuardAddress, '0x6000'])
      const before = await state()
      const error = await deploySwapGuard({ walletClient, publicClient }).catch((e: unknown) => e)
      expect(error).toBeInstanceOf(SwapGuardCodeMismatchError)
      expect(error).toMatchObject({
        code: 'SWAP_GUARD_CODE_MISMATCH',
        chainId: chain.chainId,
        address: swapGuardAddress,
        expectedCodeHash: swapGuardCodeHash,
        foundCodeHash: keccak256('0x6000'),
        hash: undefined,
      })
      expect((error as SwapGuardCodeMismatchError).metaMessages).toEqual([
        `Expected code hash: ${swapGuardCodeHash}`,
        `Found: ${keccak256('0x6000')}`,
        'Nothing was sent.',
      ])
      expect(await state()).toEqual(before)
      expect(await isSwapGuardDeployed({ publicClient })).toBe(false)
    } finally {
      await chain.stop()
    }
  })

  test('other code at the deterministic deployer’s address: DeterministicDeployerMismatchError, nothing sent', async () => {
    const { chain, publicClient, walletClient, request, state } = await freshChain()
    try {
      expect(keccak256((await publicClient.getCode({ address: deterministicDeployerAddress })) as Hex)).toBe(
        deterministicDeployerCodeHash,
      )
      // A contract that creates whatever it is given with CREATE, not CREATE2.
      const other: Hex = '0x366000600037366000f0'
      await request('anvil_setCode', [deterministicDeployerAddress, other])
      const before = await state()
      const error = await deploySwapGuard({ walletClient, publicClient }).catch((e: unknown) => e)
      expect(error).toBeInstanceOf(DeterministicDeployerMismatchError)
      expect(error).toMatchObject({
        code: 'DETERMINISTIC_DEPLOYER_MISMATCH',
        chainId: chain.chainId,
        foundCodeHash: keccak256(other),
        predictedAddress: undefined,
      })
      expect((error as DeterministicDeployerMismatchError).shortMessage).toBe(
        `The swap guard cannot be deployed on chain ${chain.chainId}: the deployer's address holds other code.`,
      )
      expect(await state()).toEqual(before)
    } finally {
      await chain.stop()
    }
  })

  test('a chain whose CREATE2 lands elsewhere (the deployment simulated there answers another address): DeterministicDeployerMismatchError, nothing sent', async () => {
    const { chain, publicClient, walletClient, state } = await freshChain()
    try {
      const elsewhere = '0x00000000000000000000000000000000000000aa'
      const lying = {
        ...publicClient,
        call: async (args: Parameters<typeof publicClient.call>[0]) =>
          args.to === deterministicDeployerAddress ? { data: elsewhere as Hex } : publicClient.call(args),
      } as typeof publicClient
      const before = await state()
      const error = await deploySwapGuard({ walletClient, publicClient: lying }).catch((e: unknown) => e)
      expect(error).toBeInstanceOf(DeterministicDeployerMismatchError)
      expect(error).toMatchObject({
        chainId: chain.chainId,
        foundCodeHash: deterministicDeployerCodeHash,
        predictedAddress: '0x00000000000000000000000000000000000000AA',
      })
      expect((error as DeterministicDeployerMismatchError).shortMessage).toContain(
        'its CREATE2 would put it at 0x00000000000000000000000000000000000000AA',
      )
      // And one that creates nothing (no address back): the same refusal, landing nowhere.
      const empty = {
        ...publicClient,
        call: async () => ({ data: undefined }),
      } as unknown as typeof publicClient
      await expect(deploySwapGuard({ walletClient, publicClient: empty })).rejects.toMatchObject({
        predictedAddress: zeroAddress,
      })
      expect(await state()).toEqual(before)
    } finally {
      await chain.stop()
    }
  })

  test('other code found after the deployment was mined: SwapGuardCodeMismatchError carrying its hash', async () => {
    const { chain, publicClient, walletClient } = await freshChain()
    try {
      let minedYet = false
      const reporting = {
        ...publicClient,
        waitForTransactionReceipt: async (
          args: Parameters<typeof publicClient.waitForTransactionReceipt>[0],
        ) => {
          const receipt = await publicClient.waitForTransactionReceipt(args)
          minedYet = true
          return receipt
        },
        getCode: async (args: Parameters<typeof publicClient.getCode>[0]) =>
          minedYet && args.address === swapGuardAddress ? ('0x6000' as Hex) : publicClient.getCode(args),
      } as typeof publicClient
      const error = await deploySwapGuard({ walletClient, publicClient: reporting }).catch((e: unknown) => e)
      expect(error).toBeInstanceOf(SwapGuardCodeMismatchError)
      const mismatch = error as SwapGuardCodeMismatchError
      expect(mismatch.hash).toMatch(/^0x[0-9a-f]{64}$/)
      expect(mismatch.foundCodeHash).toBe(keccak256('0x6000'))
      expect(mismatch.metaMessages?.[2]).toBe(
        `The deployment ${mismatch.hash} was mined, yet the address holds other code.`,
      )
    } finally {
      await chain.stop()
    }
  })
})
