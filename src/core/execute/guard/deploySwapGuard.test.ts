import { type Chain, concat, createPublicClient, createWalletClient, defineChain, type Hex, http } from 'viem'
import { privateKeyToAccount } from 'viem/accounts'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { type StartAnvilReturnType, startAnvil } from '../../../../test/evm/anvil.js'
import { anvilPrivateKeys } from '../../../../test/evm/fixture.js'
import { createTestWallet } from '../../../../test/evm/wallet.js'
import { ChainMismatchError } from '../../errors/execute.js'
import { SwapGuardNotDeployedError } from '../../errors/guard.js'
import { deploySwapGuard, isSwapGuardDeployed } from './deploySwapGuard.js'
import { deterministicDeployerAddress, swapGuardAddress, swapGuardExecutorAddress } from './swapGuard.js'
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
      `The swap guard is not deployed on chain ${bare.chainId}, and cannot be: the chain lacks the deterministic deployment proxy (${deterministicDeployerAddress}).`,
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
      'The swap guard is not deployed on chain 8453: anyone can deploy it, in one transaction (deploySwapGuard).',
    )
    expect(error.metaMessages).toEqual([`Guard address: ${swapGuardAddress}`, 'Nothing was sent.'])
  })
})
