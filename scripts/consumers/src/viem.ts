// The viem actions the execution flow calls (simulation, fee estimate, EIP-5792 batches), with the
// parameters it passes: this file typechecks only against a viem that has them all, which is what
// the viem floor in peerDependencies promises. (check-consumers also compiles the library's own
// src/core against the viem installed, which catches whatever this list forgets.)
import type { Account, Address, Chain, Client, Hex, Transport, WalletClient } from 'viem'
import {
  call,
  estimateGas,
  getCallsStatus,
  getCapabilities,
  sendCalls,
  simulateBlocks,
  waitForCallsStatus,
} from 'viem/actions'

export async function outcomeCheck(
  client: Client<Transport, Chain | undefined>,
  account: Address,
  to: Address,
  data: Hex,
) {
  const [block] = await simulateBlocks(client, {
    blocks: [
      {
        calls: [{ from: account, to, data, value: 0n }],
        stateOverrides: [{ address: to, code: data }],
      },
    ],
    traceTransfers: true,
    validation: false,
  })
  const status: 'success' | 'failure' | undefined = block?.calls[0]?.status
  const fallback = await call(client, {
    account,
    to: account,
    data,
    stateOverride: [{ address: account, code: data }],
  })
  const gasUsed: bigint | undefined = block?.calls[0]?.gasUsed
  const gas = await estimateGas(client, {
    account,
    to: account,
    data,
    stateOverride: [{ address: account, code: data }],
  })
  return { status, data: fallback.data, gas: gasUsed ?? gas }
}

export async function atomicBatch(
  walletClient: WalletClient<Transport, Chain, Account>,
  chain: Chain,
  to: Address,
  data: Hex,
) {
  const capabilities = await getCapabilities(walletClient, {
    account: walletClient.account,
    chainId: chain.id,
  })
  void capabilities
  const { id } = await sendCalls(walletClient, {
    account: walletClient.account,
    chain,
    calls: [{ to, data, value: 0n }],
    forceAtomic: true,
  })
  const result = await waitForCallsStatus(walletClient, { id, timeout: 60_000, throwOnFailure: false })
  const current = await getCallsStatus(walletClient, { id })
  const statusCode: number = result.statusCode
  const atomic: boolean = result.atomic
  return { id, statusCode, atomic, status: current.status, receipts: result.receipts ?? [] }
}
